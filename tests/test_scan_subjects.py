"""Where the scanner finds the subject of a sentence that does not write it plainly before its
predicate (``checker.scan.statements``): a demonstrative that points back at the API named
before; and where a half-width "!" or "?" ends a Japanese sentence. Each case has its control:
the same words where the subject is not there to find."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker import registry as registry_mod
from checker.claim import Claim
from checker.scan.document import Block, BlockKind
from checker.scan.statements import mentions_in
from checker.text import reading
from tests.helpers import scan_prose


@pytest.fixture(scope="module")
def claims() -> tuple[Claim, ...]:
    return tuple(registry_mod.load().claims)


def _findings(text: str, folder: Path) -> list[tuple[int, str | None, str]]:
    """``(line, claim, verdict)`` of each claim finding of a prose scan of ``text``, an article
    whose first line is a heading."""
    (folder / "a.md").write_text(f"# t\n\n{text}\n", encoding="utf-8")
    result = scan_prose(folder)
    return [(f.line, f.claim, f.verdict.value) for f in result.findings if f.kind == "claim"]


def _claims(text: str, lang: str, claims: tuple[Claim, ...]) -> list[str]:
    block = Block(BlockKind.PROSE, text, (1,))
    return [m.mention.claim.id for m in mentions_in(block, lang, claims) if m.mention]


# -- sentences ------------------------------------------------------------------------------


def test_a_half_width_mark_before_a_japanese_letter_ends_a_sentence() -> None:
    text = "本当にそうなの?答えは簡単!この関数はビューを返します。x != y!"
    assert [s for _, s in reading.sentences(text)] == [
        "本当にそうなの?",
        "答えは簡単!",
        "この関数はビューを返します。",
        "x != y!",
    ]
    # control: inside a quotation the mark ends the quoted words, not the sentence
    quoted = "これを使うと「本当?この値も変わるの!」と驚くはずです。"
    assert [s for _, s in reading.sentences(quoted)] == [quoted]


# -- a demonstrative points back at a code name ------------------------------------------------


def test_this_function_points_back_at_the_api_not_at_a_word_or_a_setting(
    claims: tuple[Claim, ...],
) -> None:
    """After `checkpoint_sequential` is named, a sentence that only mentions
    `requires_grad=True` (a setting) or チェックポイント (a word of the language) does not
    become what この関数 ("this function") refers to."""
    text = (
        "`checkpoint_sequential` を使ってみます。"
        "入力には `requires_grad=True` を付けましょう。"
        "そうしないとチェックポイントがうまく働きません。"
        "この関数は、モデルが `nn.Sequential` であることが前提です。"
    )
    assert _claims(text, "ja", claims) == ["checkpointing/sequential-takes-a-list"]
    # control: the same demonstrative with no API named before refers to nothing
    alone = "この関数は、モデルが `nn.Sequential` であることが前提です。"
    assert _claims(alone, "ja", claims) == []
