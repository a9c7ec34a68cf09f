"""Tests of the views and in-place topic: its claims, and the scanner reading statements of
its myths about view() and reshape() in English, Japanese and Korean
(tests/samples/scan-topics/views/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker import registry
from checker.scan.findings import FindingVerdict
from checker.text.languages import LANGS
from tests.helpers import claim_verdicts, sample, scan_prose, sentence_verdicts

C, S = FindingVerdict.CONTRADICTED, FindingVerdict.SUPPORTED
CLAIMS = registry.load().in_package("checker.claims.views")


def test_ids_and_keys_carry_the_topic_prefixes() -> None:
    for claim in CLAIMS:
        assert claim.id.split("/")[0] in {"views", "inplace"}, claim.id
        assert all(key.startswith("vi-") for key in claim.measures), claim.id


def test_every_myth_has_a_vocabulary() -> None:
    myths = [c for c in CLAIMS if c.expect.value == "fails"]
    assert len(myths) >= 6
    assert all(c.vocabulary is not None for c in myths)


def test_selection_myths_are_decided_on_both_devices() -> None:
    for name in ("index-select", "masked-select", "gather"):
        claim = next(c for c in CLAIMS if c.id == f"views/myth-{name}-shares-memory")
        assert claim.devices == ("cpu", "cuda")


def test_allocator_claims_are_cuda_only() -> None:
    for claim_id in (
        "inplace/cuda-large-blocks-rounded-to-2mib",
        "inplace/article-relu-shows-382-mib",
        "inplace/cuda-peak-is-a-high-water-mark",
    ):
        claim = next(c for c in CLAIMS if c.id == claim_id)
        assert claim.devices == ("cuda",)


#: (language, line, claim, verdict) of every claim finding in the samples: each myth stated
#: (lines 3 and 7) and denied (lines 5 and 9); view() "in place", "directly" or "without a new
#: tensor", and reshape() or reshape_as() failing on a tensor whose memory is not contiguous;
#: then transpose() returning a tensor that is not contiguous (line 11) and the myth that
#: view() works only on contiguous tensors (line 13); from line 25 the survey's statements on
#: sizes in view(), unsqueeze/squeeze, strides and repeating, one a line, the myth that
#: view(dtype) needs the same element size stated (line 31); a view() of the wrong number of
#: elements is also a shape the strides cannot give (line 27), and "unlike expand()" says
#: expand() does not copy (line 41).
STATEMENTS = {
    (lang, line, claim, verdict)
    for lang in LANGS
    for line, claim, verdict in (
        (3, "views/myth-view-reshapes-in-place", C),
        (5, "views/myth-view-reshapes-in-place", S),
        (7, "views/myth-reshape-fails-on-non-contiguous", C),
        (9, "views/myth-reshape-fails-on-non-contiguous", S),
        (11, "views/transpose-is-not-contiguous", S),
        (13, "views/myth-view-needs-contiguous", C),
        (15, "views/negative-step-slicing-raises", S),
        (17, "views/flip-copies", S),
        (19, "views/in-place-write-to-expanded-tensor-raises", S),
        (21, "views/permute-needs-every-dimension", S),
        (23, "views/from-numpy-refuses-object-arrays", S),
        (25, "views/view-infers-minus-one", S),
        (27, "views/view-needs-the-same-number-of-elements", S),
        (27, "views/myth-view-works-on-any-layout", S),
        (29, "views/unsqueeze-and-squeeze-are-views", S),
        (31, "views/myth-view-dtype-needs-the-same-element-size", C),
        (33, "views/expand-enlarges-only-size-one-dimensions", S),
        (35, "views/tensor-is-offset-and-strides-over-storage", S),
        (37, "views/contiguous-strides-are-row-major", S),
        (39, "views/column-slice-is-not-contiguous", S),
        (41, "views/repeat-copies", S),
        (41, "views/transpose-and-expand-are-views", S),
        (43, "views/repeat-needs-a-count-per-dimension", S),
        (45, "views/tile-pads-counts-with-ones", S),
        (47, "views/repeat-interleave-flattens-without-dim", S),
    )
}


def test_the_scanner_reads_the_view_reshape_and_contiguity_claims_in_three_languages() -> None:
    assert claim_verdicts(scan_prose(sample("scan-topics", "views"))) == STATEMENTS


@pytest.mark.parametrize(
    ("sentence", "lang"),
    [
        # view() is about the shape of its result; what stays the same is said in other words
        ("`view()` gives a new shape while the original tensor keeps its shape.", "en"),
        ("`view()` で形状を変えても、元のテンソルの形はそのまま残る。", "ja"),
        ("`view()`로 모양을 바꿔도 원본 텐서는 그대로 남는다.", "ko"),
        # a write through a view changing the original is true, and not this myth
        ("Writing through `view()` changes the original tensor in place.", "en"),
        # the error of view() itself, said of view() and reshape() together
        ("`view()` と違い `reshape()` は連続でないテンソルでもエラーにならない。", "ja"),
        ("연속적이지 않은 텐서에서는 `view()`가 오류를 내고 `reshape()`는 복사한다.", "ko"),
        # true sentences near the new views claims
        (
            "`contiguous()` does not return the same tensor when the tensor is not already "
            "contiguous.",
            "en",
        ),
        ("NumPy supports a negative step such as `a[::-1]`.", "en"),
        ("NumPy では `a[::-1]` のような負のステップが使える。", "ja"),
        ("NumPy에서는 `a[::-1]` 같은 음수 스텝을 쓸 수 있다.", "ko"),
        ("`np.flip` returns a view, but `torch.flip` copies.", "en"),
        ("`expand()` does not allocate new memory.", "en"),
        # true sentences near the survey claims of views, strides and repeating
        ("`view(torch.int32)` of a float32 tensor keeps the same element size.", "en"),
        ("`repeat_interleave(x, 2, dim=0)` repeats each row twice.", "en"),
        ("`torch.tile()` pads the counts with ones, like NumPy's `np.tile`.", "en"),
        ("Unlike `repeat()`, `expand()` does not copy.", "en"),
        # "only" about what view(dtype) does, not about which dtypes it accepts
        ("`view(dtype)` with a dtype of the same size only reinterprets the bytes.", "en"),
        # row-major is said of contiguous tensors, not of transposed ones
        ("The strides of a transposed tensor are not row-major.", "en"),
        ("転置したテンソルのストライドは行優先ではない。", "ja"),
        ("전치한 텐서의 스트라이드는 행 우선이 아니다.", "ko"),
        ("`permute()` does not copy the data.", "en"),
    ],
)
def test_true_sentences_about_view_and_reshape_are_not_contradicted(
    sentence: str, lang: str, tmp_path: Path
) -> None:
    assert FindingVerdict.CONTRADICTED not in sentence_verdicts(sentence, lang, tmp_path)


torch = pytest.importorskip("torch")


def test_every_cpu_claim_is_confirmed() -> None:
    from checker.typing import Device

    for claim in CLAIMS:
        if "cpu" not in claim.devices:
            continue
        device: Device = "cpu"
        observation = claim.probe(device)
        assert observation.holds == (claim.expect.value == "holds"), claim.id
        assert {m.key for m in observation.measurements} == set(claim.measures), claim.id


@pytest.mark.parametrize(
    "claim_id", ["views/myth-view-reshapes-in-place", "views/myth-reshape-fails-on-non-contiguous"]
)
def test_the_view_and_reshape_myths_fail_and_their_controls_flip(claim_id: str) -> None:
    claim = next(c for c in CLAIMS if c.id == claim_id)
    assert claim.control is not None
    observation, control = claim.probe("cpu"), claim.control.probe("cpu")
    assert (observation.holds, control.holds) == (False, True)
    assert {m.key for m in control.measurements} == set(claim.control.measures)
