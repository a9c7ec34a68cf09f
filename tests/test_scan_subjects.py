"""Where the scanner finds the subject of a sentence that does not write it plainly before its
predicate (``checker.scan.statements``): a demonstrative that points back at the API named
before, a sentence that opens with the case a claim is about and goes on about its paragraph's
subject, a colon that labels a subject with what is said of it; and where a half-width "!" or
"?" ends a Japanese sentence. Each case has its control: the same words where the subject is
not there to find."""

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


# -- a sentence that opens with a claim's case goes on about its paragraph's subject -----------


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (
            "Mixed precision regions are opened with `torch.autocast`. "
            "On the CPU, only bfloat16 is supported as the lower precision type.",
            [(3, "amp/myth-cpu-autocast-bfloat16-only", "contradicted")],
        ),
        (
            "`torch.autocast` で混合精度の領域を作ります。CPU の場合、bfloat16 だけが使えます。",
            [(3, "amp/myth-cpu-autocast-bfloat16-only", "contradicted")],
        ),
        (
            "혼합 정밀도 영역은 `torch.autocast`로 엽니다. CPU의 경우, bfloat16만 지원됩니다.",
            [(3, "amp/myth-cpu-autocast-bfloat16-only", "contradicted")],
        ),
        # control: the case does not open the sentence, so nothing carries the subject over
        (
            "Mixed precision regions are opened with `torch.autocast`. "
            "Only bfloat16 is supported as the lower precision type on the CPU.",
            [],
        ),
        # control: another paragraph named the subject
        (
            "Mixed precision regions are opened with `torch.autocast`.\n\n"
            "On the CPU, only bfloat16 is supported as the lower precision type.",
            [],
        ),
    ],
)
def test_a_sentence_that_opens_with_the_case_of_a_claim_goes_on_about_its_paragraph(
    text: str, found: list[tuple[int, str, str]], tmp_path: Path
) -> None:
    assert [f for f in _findings(text, tmp_path) if f[1] is not None] == found


# -- a colon that labels a subject ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (
            "역전파를 float32로 바꿔 주는 것 : `GradScaler`",
            [(3, "scaler/myth-scaler-backward-in-float32", "contradicted")],
        ),
        (
            "`GradScaler`: runs the backward pass in float32.",
            [(3, "scaler/myth-scaler-backward-in-float32", "contradicted")],
        ),
        # control: the colon parts two clauses, and the subject has words beside it
        (
            "역전파를 float32로 바꿔 주는 것 : `GradScaler`와는 관계없는 설정",
            [(3, "scaler/myth-scaler-backward-in-float32", "unverified")],
        ),
    ],
)
def test_a_colon_that_labels_a_subject_joins_it_to_its_predicate(
    text: str, found: list[tuple[int, str, str]], tmp_path: Path
) -> None:
    assert _findings(text, tmp_path) == found
