"""Tests of the mixed-precision topic: its claims and the measuring helpers they rely on."""

from __future__ import annotations

import pytest

from checker import record, registry
from checker.claims.amp import _precision, review_failures, why_scaling
from checker.claims.amp.op_categories import _ops
from checker.scan.findings import FindingVerdict
from checker.text.languages import LANGS
from tests.helpers import ROOT, claim_verdicts, sample, scan_prose

CLAIMS = registry.load().in_package("checker.claims.amp")


def test_ids_and_keys_carry_the_topic_prefix() -> None:
    for claim in CLAIMS:
        assert claim.id.startswith("amp/")
        assert all(key.startswith("amp-") for key in claim.measures)


def test_every_myth_has_a_vocabulary() -> None:
    myths = [c for c in CLAIMS if c.expect.value == "fails"]
    assert myths
    assert all(c.vocabulary is not None for c in myths), [
        c.id for c in myths if c.vocabulary is None
    ]


def test_device_specific_claims_name_their_device() -> None:
    devices = {c.id: c.devices for c in CLAIMS}
    assert devices["amp/reductions-float32-on-cuda"] == ("cuda",)
    assert devices["amp/binary-cross-entropy-refused-on-cuda"] == ("cuda",)
    assert devices["amp/reductions-follow-input-on-cpu"] == ("cpu",)
    assert devices["amp/binary-cross-entropy-float32-on-cpu"] == ("cpu",)
    assert devices["amp/myth-custom-bwd-recomputes-in-higher-precision"] == ("cpu", "cuda")
    assert devices[DATA_PARALLEL] == ("cuda",)
    assert devices["amp/myth-batchnorm-float16-input-float32-params-raises"] == ("cpu",)


def _cuda_recorded(claim: str) -> bool:
    found = record.load(ROOT / "docs/_evidence/cuda.json")
    return found is not None and claim in found.evidence


C, S, N = FindingVerdict.CONTRADICTED, FindingVerdict.SUPPORTED, FindingVerdict.NEEDS_CUDA
DATA_PARALLEL = "amp/data-parallel-threads-use-the-default-dtype"

#: (language, line, claim, verdict) of every claim finding in the notes on autocast's scope
#: (tests/samples/scan-topics/amp-scope/): one statement of each claim of the section per
#: language, and a denial of the first myth (line 5). No other claim of the page reads them:
#: the dtype claims leave sentences about errors (``MIXED_DTYPE_ERRORS``) and threads alone.
#: The CUDA-only claim needs CUDA evidence until a GPU machine records it.
SCOPE_STATEMENTS = {
    (lang, line, claim, verdict)
    for lang in LANGS
    for line, claim, verdict in (
        (3, "amp/myth-pool-workers-run-under-the-region", C),
        (5, "amp/myth-pool-workers-run-under-the-region", S),
        (7, "amp/thread-region-takes-the-default-dtype", S),
        (9, DATA_PARALLEL, S if _cuda_recorded(DATA_PARALLEL) else N),
        (11, "amp/batched-products-after-the-region-refuse-mixed-dtypes", S),
        (13, "amp/writes-inside-the-region-refuse-mixed-dtypes", S),
        (15, "amp/myth-mixed-dtypes-always-raise", C),
        (17, "amp/disabled-region-suspends-autocast", S),
        (19, "amp/myth-disabled-region-runs-in-float32", C),
    )
}


def test_the_scanner_reads_the_scope_claims_in_three_languages() -> None:
    assert claim_verdicts(scan_prose(sample("scan-topics", "amp-scope"))) == SCOPE_STATEMENTS


#: (language, line, claim, verdict) of every claim finding in the notes on single operations
#: (tests/samples/scan-topics/amp-ops/): in-place calls left alone, then the myth that they are
#: cast too (lines 3, 5); the myth that BatchNorm refuses float16 input with float32 parameters
#: (line 7) and the float32 computation (line 9). The claim on matrix products leaves the
#: in-place sentences alone (its ``SCOPE_CASES``).
OPS_STATEMENTS = {
    (lang, line, claim, verdict)
    for lang in LANGS
    for line, claim, verdict in (
        (3, "amp/autocast-skips-inplace-and-out", S),
        (5, "amp/autocast-skips-inplace-and-out", C),
        (7, "amp/myth-batchnorm-float16-input-float32-params-raises", C),
        (9, "amp/batchnorm-float16-input-computes-in-float32", S),
    )
}


def test_the_scanner_reads_the_in_place_and_batchnorm_claims_in_three_languages() -> None:
    assert claim_verdicts(scan_prose(sample("scan-topics", "amp-ops"))) == OPS_STATEMENTS


def test_the_scope_section_has_its_claims_in_page_order() -> None:
    scope = [c.id for c in CLAIMS if c.probe.__module__.startswith("checker.claims.amp.scope")]
    assert scope == [
        "amp/myth-pool-workers-run-under-the-region",
        "amp/thread-region-takes-the-default-dtype",
        DATA_PARALLEL,
        "amp/batched-products-after-the-region-refuse-mixed-dtypes",
        "amp/writes-inside-the-region-refuse-mixed-dtypes",
        "amp/myth-mixed-dtypes-always-raise",
        "amp/disabled-region-suspends-autocast",
        "amp/myth-disabled-region-runs-in-float32",
    ]
    assert all(c.control is not None and c.vocabulary is not None for c in CLAIMS if c.id in scope)


def test_short_floats_are_exact_and_long_ones_rounded() -> None:
    assert _precision._g(65504.0) == "65504.0"
    assert _precision._g(0.0009765625) == "0.0009765625"
    assert _precision._g(2.0**-24) == "5.96046e-08"
    assert _precision._g(float("inf")) == "inf"


@pytest.mark.parametrize(
    ("source", "message", "line"),
    [
        (review_failures.UNINDENTED_FUNCTION, "after function definition on line 3", 5),
        (review_failures.UNINDENTED_CLASS, "after class definition on line 5", 6),
    ],
)
def test_unindented_blocks_fail_where_the_article_does(
    source: str, message: str, line: int
) -> None:
    error, found = review_failures._compile_error(source)
    assert error.startswith("IndentationError")
    assert message in error
    assert found == line


torch = pytest.importorskip("torch")


def test_result_dtypes_reports_dtypes_and_errors() -> None:
    found = _ops.result_dtypes("cpu", ("mm", "relu", "mse_loss"), torch.float32, None)
    assert found == {"mm": "float32", "relu": "float32", "mse_loss": "float32"}
    with_autocast = _ops.result_dtypes("cpu", ("mm",), torch.float32, torch.bfloat16)
    assert with_autocast == {"mm": "bfloat16"}


def test_the_sweep_counts_the_gradients_that_arrive() -> None:
    kept32 = why_scaling.gradient_sweep("cpu", torch.float32).kept()
    sweep16 = why_scaling.gradient_sweep("cpu", torch.float16)
    scaled = why_scaling.gradient_sweep("cpu", torch.float16, scaled=True).kept()
    total = sweep16.count()
    decades = why_scaling.SWEEP_HIGH - why_scaling.SWEEP_LOW
    assert total == decades * why_scaling.SWEEP_PER_DECADE + 1 == 421
    assert kept32 == total  # the sweep stops at 1e-44, above float32's smallest subnormal
    assert (sweep16.kept(), scaled) == (56, 104)  # from 3.2e-8 up; from 5.0e-13 up with the scaler


def test_the_sweep_reports_what_arrived_and_its_rounding() -> None:
    sweep = why_scaling.gradient_sweep("cpu", torch.float16, scaled=True)
    assert sweep.count(1e-12) == sweep.kept(1e-12) == 100
    assert sweep.kept(0.0, 1e-13) == 0
    assert f"{sweep.smallest_kept():.3g}" == "5.01e-13"
    assert 0.2 < sweep.max_relative_error(1e-12) < 0.3
    assert sweep.max_relative_error(1e-4) < 2**-11  # normal float16: half a unit in the last place


def test_matmul_function_logs_what_it_saw() -> None:
    function, log = _precision.matmul_function(
        "cpu",
        forward_decorator=torch.amp.custom_fwd(device_type="cpu"),
        backward_decorator=torch.amp.custom_bwd(device_type="cpu"),
    )
    a, b = _precision.matmul_inputs("cpu", size=4)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = function.apply(a, b)
    out.float().sum().backward()
    assert log.forward_state == log.backward_state == (True, "bfloat16")
    assert log.forward_dtypes == {"a": "float32", "b": "float32", "out": "bfloat16"}
    assert log.backward_dtypes["grad_a"] == "bfloat16"
    assert a.grad is not None and a.grad.dtype == torch.float32
