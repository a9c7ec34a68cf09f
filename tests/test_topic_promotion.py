"""Tests of the numerics page's sections on inferred dtypes, promotion across kinds and widths,
and casting (``checker/claims/numerics/{inference,kinds,widths,casting}.py``): the scanner
reading a statement of each claim, and a wrong statement of several, in English, Japanese and
Korean (tests/samples/scan-topics/promotion/), and the default dtype that the probes set and
restore."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker import registry
from checker.scan.findings import FindingVerdict
from checker.text.languages import LANGS
from tests.helpers import claim_verdicts, sample, scan_prose, sentence_verdicts

C, S = FindingVerdict.CONTRADICTED, FindingVerdict.SUPPORTED
MODULES = ("inference", "kinds", "widths", "casting")
CLAIMS = [
    claim
    for claim in registry.load().in_package("checker.claims.numerics")
    if claim.probe.__module__.rsplit(".", 1)[-1] in MODULES
]

#: (line, claim, verdict) of every claim finding, the same in each language's sample: lines 3
#: to 33 state each claim in page order (line 23 the myth that adding bfloat16 and float32
#: raises); lines 35 to 47 say the opposite of a claim: that a list of ints gives float32, that
#: a Python int promotes an int32 tensor to int64, that torch.ceil returns int64, that uint8
#: saturates, that the bfloat16 and float32 sum raises nothing (true, so supported), and that
#: can_cast allows float64 to int32.
FINDINGS = {
    (3, "promotion/int-list-gives-int64", S),
    (5, "promotion/mixed-list-gives-float32", S),
    (7, "promotion/set-default-dtype-float64", S),
    (9, "promotion/complex-follows-default-dtype", S),
    (11, "promotion/integer-with-float-gives-float", S),
    (13, "promotion/python-int-keeps-integer-dtype", S),
    (15, "promotion/integer-plus-bfloat16-is-bfloat16", S),
    (17, "promotion/can-cast-refuses-float-to-int", S),
    (19, "promotion/float32-plus-float64-is-float64", S),
    (21, "promotion/bfloat16-plus-float16-is-float32", S),
    (23, "promotion/myth-bfloat16-plus-float32-raises", C),
    (25, "promotion/ceil-keeps-float-dtype", S),
    (27, "promotion/float-to-int-truncates", S),
    (29, "promotion/uint8-arithmetic-wraps", S),
    (31, "promotion/uint8-compares-minus-one-as-255", S),
    (33, "promotion/bce-target-must-be-float", S),
    (35, "promotion/int-list-gives-int64", C),
    (37, "promotion/python-int-keeps-integer-dtype", C),
    (39, "promotion/ceil-keeps-float-dtype", C),
    (41, "promotion/uint8-arithmetic-wraps", C),
    (43, "promotion/myth-bfloat16-plus-float32-raises", S),
    (45, "promotion/can-cast-refuses-float-to-int", C),
}


def test_the_four_sections_hold_sixteen_claims_one_of_them_a_myth() -> None:
    assert len(CLAIMS) == 16
    assert [c.id for c in CLAIMS if c.expect.value == "fails"] == [
        "promotion/myth-bfloat16-plus-float32-raises"
    ]
    assert {claim for _, claim, _ in FINDINGS} == {c.id for c in CLAIMS}


def test_the_scanner_reads_each_claim_in_each_language() -> None:
    found = claim_verdicts(scan_prose(sample("scan-topics", "promotion")))
    assert len(found) == 3 * len(FINDINGS) == 66
    assert found == {(lang, *finding) for lang in LANGS for finding in FINDINGS}


@pytest.mark.parametrize(
    ("sentence", "lang"),
    [
        # int64 asserted, float32 denied: the claim itself
        ("A list of Python ints gives int64, not float32.", "en"),
        # a list holding a float, or a NumPy array, is another case than a list of ints
        ("A list like [1, 2.5] does not give int64.", "en"),
        ("`torch.tensor(np.array([1, 2]))` keeps the array's int64, not float32.", "en"),
        # a Python int next to a list of them: still no promotion of the tensor itself
        ("An int32 tensor plus a one-dimensional int64 tensor gives int64.", "en"),
        # bfloat16 weights meeting float32 inputs in a layer raise: another operation
        ("A `nn.Linear` in bfloat16 raises an error for float32 input.", "en"),
        ("A matmul of bfloat16 and float32 tensors raises an error.", "en"),
        # floor division and torch.floor are other cases than converting
        ("Floor division `//` does not truncate toward zero.", "en"),
        # the ceiling of an integer tensor stays an integer tensor
        ("`torch.ceil` of an integer tensor returns an int64 tensor.", "en"),
        ("`torch.ceil` を整数テンソルに適用すると int64 のテンソルが返る。", "ja"),
        ("정수 텐서에 `torch.ceil`을 적용하면 int64 텐서가 반환된다.", "ko"),
        # a list with a float in it gives float32
        ("整数のリストに小数を 1 つ入れると float32 になる。", "ja"),
        # a layer with bfloat16 weights and float32 input: another operation than a sum
        ("bfloat16 가중치의 `nn.Linear`에 float32 입력을 넣으면 오류가 난다.", "ko"),
        # conversions asked for, and what can_cast checks, are other cases
        ("Use `.long()` after `torch.ceil` to get an integer tensor.", "en"),
        ("`torch.can_cast` checks whether a float can be cast to int.", "en"),
        ("Convert the integer tensor to a float32 tensor with `.float()`.", "en"),
        ("Use torch.floor before `.long()` to round down negative values.", "en"),
        # NumPy rules are another case
        ("`torch.can_cast` is not NumPy's `can_cast` with casting='same_kind'.", "en"),
    ],
)
def test_true_sentences_are_not_contradicted(sentence: str, lang: str, tmp_path: Path) -> None:
    assert FindingVerdict.CONTRADICTED not in sentence_verdicts(sentence, lang, tmp_path)


torch = pytest.importorskip("torch")


def test_a_probe_that_changes_the_default_dtype_restores_it_even_when_it_raises() -> None:
    from checker.claims.numerics._dtypes import default_dtype

    before = torch.get_default_dtype()
    with pytest.raises(ZeroDivisionError), default_dtype("float64"):
        assert torch.get_default_dtype() == torch.float64
        _ = 1 / 0
    assert torch.get_default_dtype() == before
    for claim in CLAIMS:
        assert claim.control is not None
        claim.probe("cpu"), claim.control.probe("cpu")
        assert torch.get_default_dtype() == before, claim.id
