"""Reasons and comparisons in prose (``checker.scan.statements``): a sentence that gives the
reason for the one before it ("This is because …", これは…ためです, 이는 … 때문이다) is read
after that sentence, and a hedge on that sentence does not hedge the reason; what a sentence
says of its subject it denies of the term it compares the subject with ("than X", X よりも,
X보다)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import scan_prose

SHARE = "views/numpy-and-from-numpy-share-memory"


def _findings(text: str, folder: Path) -> set[tuple[int, str | None, str]]:
    """``(line, claim, verdict)`` of each claim finding of a prose scan of ``text``."""
    (folder / "a.md").write_text(f"# t\n\n{text}\n", encoding="utf-8")
    return {
        (f.line, f.claim, f.verdict.value) for f in scan_prose(folder).findings if f.kind == "claim"
    }


@pytest.mark.parametrize(
    "text",
    [
        "`torch.as_tensor()` can be faster than `torch.from_numpy()`.\n"
        "This is because it needs no copy.",
        "`torch.as_tensor()` は `torch.from_numpy()` よりも速いことがあります。\n"
        "これは、メモリのコピーが不要なためです。",
        "`torch.as_tensor()`는 `torch.from_numpy()`보다 빠를 때가 있다.\n"
        "이는 복사가 필요 없기 때문이다.",
    ],
)
def test_a_reason_for_a_hedged_comparison_is_read_of_both_its_terms(
    text: str, tmp_path: Path
) -> None:
    """The reason (no copy) is said of the subject, and denied of the term it is compared
    with: from_numpy() copies, which contradicts the claim that it shares memory. The hedged
    comparison itself ("can be faster") is not judged."""
    found = _findings(text, tmp_path)
    assert (4, SHARE, "contradicted") in found
    assert {(line, verdict) for line, _, verdict in found if verdict == "contradicted"} == {
        (4, "contradicted")
    }


@pytest.mark.parametrize(
    "text",
    [
        # no pointer back: two statements, the second without a subject
        "`torch.as_tensor()` can be faster than `torch.from_numpy()`.\nNo copy is needed.",
        # the sentence explained is reported speech: so is its reason
        "The article says `torch.as_tensor()` is faster than `torch.from_numpy()`.\n"
        "This is because no copy is needed.",
        "記事によると `torch.as_tensor()` は `torch.from_numpy()` よりも速いと述べられています。\n"
        "これは、コピーが不要なためです。",
    ],
)
def test_a_reason_is_judged_only_when_it_points_back_at_a_statement(
    text: str, tmp_path: Path
) -> None:
    assert {v for *_, v in _findings(text, tmp_path)} <= {"unverified", "supported"}


def test_a_reason_that_agrees_with_the_claims_is_supported(tmp_path: Path) -> None:
    found = _findings(
        "`torch.from_numpy()`는 `torch.tensor()`보다 빠르다.\n이는 메모리를 공유하기 때문이다.",
        tmp_path,
    )
    assert (4, SHARE, "supported") in found
    assert (4, "views/torch-tensor-copies", "supported") in found
    assert "contradicted" not in {v for *_, v in found}


@pytest.mark.parametrize(
    "sentence",
    [
        "`torch.as_tensor()` shares memory more often than `torch.tensor()`.",
        "`torch.as_tensor()` は `torch.tensor()` よりもメモリを共有しやすい。",
        "`torch.as_tensor()`는 `torch.tensor()`보다 메모리를 더 자주 공유한다.",
    ],
)
def test_the_term_of_a_comparison_is_set_against_the_subject(sentence: str, tmp_path: Path) -> None:
    """Read of torch.tensor(), "shares more often than torch.tensor()" would deny that
    torch.tensor() copies; it says the opposite."""
    assert (3, "views/torch-tensor-copies", "supported") in _findings(sentence, tmp_path)


def test_an_order_written_with_yori_is_no_comparison(tmp_path: Path) -> None:
    """``unscale_ より前に`` puts clipping first (an order, checker.scan.order), as ``の前に``
    does: the comparison marker must not turn it around."""
    found = _findings("勾配クリッピングは `unscale_` より前に行います。", tmp_path)
    assert found == {(3, "amp/clip-after-unscale", "contradicted")}
