"""Tests of the numerics topic (float16, bfloat16 and mixing dtypes): its claims, and the
scanner reading a statement of each in English, Japanese and Korean
(tests/samples/scan-topics/numerics/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker import registry
from checker.scan.findings import FindingVerdict
from checker.text.languages import LANGS
from tests.helpers import claim_verdicts, sample, scan_prose, sentence_verdicts

C, S = FindingVerdict.CONTRADICTED, FindingVerdict.SUPPORTED
CLAIMS = registry.load().in_package("checker.claims.numerics")


def test_ids_and_keys_carry_the_topic_prefixes() -> None:
    assert len(CLAIMS) == 60
    for claim in CLAIMS:
        assert claim.topic in {"numerics", "promotion"}, claim.id
        assert all(key.startswith("nm-") for key in claim.all_measures), claim.id


def test_every_claim_has_a_control_and_a_vocabulary_and_runs_on_the_cpu() -> None:
    assert all(c.control is not None and c.vocabulary is not None for c in CLAIMS)
    assert all(c.devices == ("cpu",) for c in CLAIMS)
    myths = {c.id for c in CLAIMS if c.expect.value == "fails"}
    assert myths == {
        "numerics/myth-bfloat16-truncates-float32",
        "numerics/myth-bfloat16-flushes-subnormals",
        "promotion/myth-floor-division-truncates",
        "numerics/myth-finfo-tiny-smallest-positive",
        "numerics/myth-bfloat16-three-decimal-digits",
        "numerics/myth-bfloat16-holds-every-float32-value",
        "numerics/myth-cpu-float16-layer-norm-unsupported",
        "promotion/myth-bfloat16-plus-float32-raises",
    }


#: (line, claim, verdict) of every claim finding, the same in each language's sample: one
#: statement per line; line 9 also names bfloat16's exponent, which amp/bfloat16-range reads;
#: line 11 states the truncation myth and line 17 calls integer division deprecated, an old
#: release's behaviour; line 27 names 65504 too, which numerics/float16-max-is-65504 reads;
#: lines 31 and 41 state the myths of flushed subnormals and of // rounding toward zero, and
#: line 55 an old release's missing float16 matrix product on the CPU; lines 69, 79, 83 and 89
#: state the myths of tiny as the smallest positive value, of bfloat16's three digits, of
#: bfloat16 holding every float32 value and of a missing float16 layer_norm on the CPU.
FINDINGS = {
    (3, "numerics/float16-max-is-65504", S),
    (5, "numerics/float16-sum-overflows", S),
    (7, "numerics/sixteen-bit-types-take-two-bytes", S),
    (9, "numerics/float16-bfloat16-bits", S),
    (9, "amp/bfloat16-range", S),
    (11, "numerics/myth-bfloat16-truncates-float32", C),
    (13, "promotion/matmul-refuses-mixed-dtypes", S),
    (15, "promotion/zero-dim-tensors-do-not-promote", S),
    (17, "promotion/integer-division-returns-float", C),
    (19, "promotion/numpy-float64-stays-float64", S),
    (21, "numerics/float16-three-decimal-digits", S),
    (23, "promotion/numpy-refuses-bfloat16", S),
    (25, "numerics/float16-smallest-normal", S),
    (27, "numerics/float16-65500-becomes-65504", S),
    (27, "numerics/float16-max-is-65504", S),
    (29, "numerics/bfloat16-max-near-float32", S),
    (31, "numerics/myth-bfloat16-flushes-subnormals", C),
    (33, "numerics/exact-integers-to-256-and-2048", S),
    (35, "promotion/wider-integer-wins", S),
    (37, "promotion/bool-takes-the-other-dtype", S),
    (39, "promotion/python-float-gives-default-dtype", S),
    (41, "promotion/myth-floor-division-truncates", C),
    (43, "numerics/isfinite-flags-inf-and-nan", S),
    (45, "numerics/cpu-float16-matmul-accumulates-in-float32", S),
    (47, "numerics/float8-e4m3fn-saturates", S),
    (49, "promotion/in-place-keeps-dtype", S),
    (51, "promotion/integer-mean-raises", S),
    (53, "numerics/round-half-to-even", S),
    (55, "numerics/cpu-float16-matmul-runs", C),
    (57, "numerics/gradscaler-starts-at-65536", S),
    (59, "numerics/float32-exact-integers-to-2-24", S),
    (61, "numerics/finfo-eps-is-gap-above-one", S),
    (63, "numerics/bfloat16-eps-2-pow-minus-7", S),
    (65, "numerics/float16-next-above-one", S),
    (67, "numerics/finfo-tiny-is-smallest-normal", S),
    (69, "numerics/myth-finfo-tiny-smallest-positive", C),
    (71, "numerics/float16-smallest-subnormal", S),
    (73, "numerics/bfloat16-smallest-normal-as-float32", S),
    (75, "numerics/float32-bit-layout", S),
    (77, "numerics/float32-seven-decimal-digits", S),
    (79, "numerics/myth-bfloat16-three-decimal-digits", C),
    (81, "numerics/bfloat16-coarser-than-float16", S),
    (83, "numerics/myth-bfloat16-holds-every-float32-value", C),
    (85, "numerics/bool-takes-one-byte", S),
    (87, "numerics/cpu-16-bit-sum-accumulates-in-float32", S),
    (89, "numerics/myth-cpu-float16-layer-norm-unsupported", C),
}


def test_the_scanner_reads_each_claim_in_each_language() -> None:
    found = claim_verdicts(scan_prose(sample("scan-topics", "numerics")))
    assert len(found) == 3 * len(FINDINGS) == 138
    assert found == {(lang, *finding) for lang in LANGS for finding in FINDINGS}


@pytest.mark.parametrize(
    ("sentence", "lang"),
    [
        # the layout is the upper half of float32; only the conversion is in question
        ("`bfloat16` keeps the upper 16 bits of the `float32` layout.", "en"),
        # torch.div with rounding_mode truncates on purpose: another case
        ("`torch.div(a, b, rounding_mode='trunc')` truncates integer division.", "en"),
        # a matrix product under autocast runs with mixed inputs
        ("Under autocast, `torch.matmul` does not need the same dtype for both inputs.", "en"),
        ("autocast の中では `torch.matmul` の dtypeを揃える必要はない。", "ja"),
        ("autocast 안에서는 `torch.matmul`의 dtype을 맞출 필요가 없다.", "ko"),
        # converting on purpose is not what from_numpy does
        ("`torch.from_numpy(a.astype(np.float32))` gives float32, not float64.", "en"),
        # NumPy has float16, and a bfloat16 tensor converts after .float()
        ("`bfloat16` tensors convert to NumPy without error after `.float()`.", "en"),
        ("`float16` has more digits than `bfloat16`, about 3 significant decimal digits.", "en"),
        # floor division before 1.13, and truncation asked for on purpose
        ("Before 1.13, floor division `//` rounded toward zero.", "en"),
        (
            "`torch.div(a, b, rounding_mode='trunc')` rounds toward zero, unlike floor division.",
            "en",
        ),
        ("1.13 より前の切り捨て除算 `//` はゼロ方向に丸めていた。", "ja"),
        # flushing subnormals on request
        ("With `torch.set_flush_denormal(True)`, `bfloat16` flushes subnormal values.", "en"),
        # a zero-dimensional int64 operand does not promote an int32 tensor
        ("An int32 tensor plus a 0-dim int64 tensor does not give int64.", "en"),
        # isnan misses inf; isfinite catches both
        ("`torch.isnan` does not catch inf; `torch.isfinite` catches both inf and nan.", "en"),
        # GPU kernels choose their own accumulation
        ("On the GPU, a float16 matmul does not always accumulate in float32.", "en"),
        # nan in, nan out
        ("`float8_e4m3fn` keeps nan as nan; it has no inf.", "en"),
        # converting first is the way out of the in-place and mean errors
        ("In-place operations can change the dtype once you call `.float()` first.", "en"),
        ("`x.float().mean()` of an integer tensor raises no error.", "en"),
        ("`torch.mean(x, dtype=torch.float32)` gives no error for an integer tensor.", "en"),
        # rounding to a number of decimals is another case
        ("`torch.round(x, decimals=2)` rounds half away from zero in float16.", "en"),
        ("`torch.round` は四捨五入ではなく偶数丸めを行う。", "ja"),
        # other dtypes, and the GPU, are other cases
        ("On the CPU, matrix multiplication does not support complex32 tensors.", "en"),
        ("On the CPU, `torch.matmul` does not support int64 tensors on old releases.", "en"),
        # a scale chosen by the caller is another case
        ("`GradScaler(init_scale=1024.0)` does not start at 65536.", "en"),
        # tiny is the smallest positive *normal* value
        ("`torch.finfo(dtype).tiny` is the smallest positive normal value.", "en"),
        ("`torch.finfo(dtype).tiny` は最小の正の正規化数である。", "ja"),
        ("`torch.finfo(dtype).tiny`는 가장 작은 양의 정규 수이다.", "ko"),
        # a comparison: float16's digits, not bfloat16's
        ("`float16` keeps more digits than `bfloat16`, about 3 significant digits.", "en"),
        # bfloat16 holds float32's range, not its values
        ("`bfloat16` covers the range of every float32 value, with fewer digits.", "en"),
    ],
)
def test_true_sentences_are_not_contradicted(sentence: str, lang: str, tmp_path: Path) -> None:
    assert FindingVerdict.CONTRADICTED not in sentence_verdicts(sentence, lang, tmp_path)


torch = pytest.importorskip("torch")


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.id)
def test_each_claim_gets_its_verdict_and_its_control_flips(claim: object) -> None:
    from checker.claim import Claim

    assert isinstance(claim, Claim) and claim.control is not None
    observation, control = claim.probe("cpu"), claim.control.probe("cpu")
    expected = claim.expect.value == "holds"
    assert (observation.holds, control.holds) == (expected, not expected)
    assert {m.key for m in observation.measurements} == set(claim.measures)
    assert {m.key for m in control.measurements} == set(claim.control.measures)
