"""Claims of "Matrix products and convolutions run in the lower precision" (docs/topics/amp.md,
``(amp-lower-precision-ops)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.amp.op_categories._ops import (
    _EN_LOWER,
    _JA_LOWER,
    _KO_LOWER,
    FOLLOWING_OPS,
    LOWER_PRECISION_OPS,
    SCOPE_CASES,
    _low_dtypes,
    _matches,
    describe,
    result_dtypes,
)
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_lower_precision_ops(device: Device) -> Observation:
    return _lower_precision_rule(device, LOWER_PRECISION_OPS)


def control_lower_precision_ops(device: Device) -> Observation:
    return _lower_precision_rule(device, FOLLOWING_OPS)


def _lower_precision_rule(device: Device, ops: tuple[str, ...]) -> Observation:
    import torch

    f16, bf16 = _low_dtypes()
    as_f16 = result_dtypes(device, ops, torch.float32, f16)
    as_bf16 = result_dtypes(device, ops, torch.float32, bf16)
    outside = result_dtypes(device, ops, torch.float32, None)
    total = len(ops)
    return Observation(
        holds=_matches(as_f16, "float16") == total
        and _matches(as_bf16, "bfloat16") == total
        and _matches(outside, "float32") == total,
        rule="holds if every listed operation on float32 inputs returns float16 under float16 "
        "autocast, bfloat16 under bfloat16 autocast, and float32 outside autocast",
        measurements=(
            Measurement("amp-lower-ops", ", ".join(ops), "text"),
            Measurement("amp-lower-ops-count", total, "count"),
            Measurement("amp-lower-as-float16", _matches(as_f16, "float16"), "count"),
            Measurement("amp-lower-as-bfloat16", _matches(as_bf16, "bfloat16"), "count"),
            Measurement("amp-lower-outside-float32", _matches(outside, "float32"), "count"),
            Measurement("amp-lower-float16-results", describe(as_f16), "text"),
        ),
    )


MATMUL_LINEAR_CONV_RUN_IN_LOWER_PRECISION = Claim(
    id="amp/matmul-linear-conv-run-in-lower-precision",
    statement="Under autocast, matrix products, linear layers and convolutions of float32 "
    "inputs run in the autocast dtype, float16 or bfloat16.",
    expect=Expect.HOLDS,
    probe=probe_lower_precision_ops,
    control=Control(
        "activations (relu, gelu, sigmoid) in place of the listed operations",
        control_lower_precision_ops,
    ),
    measures=(
        "amp-lower-ops",
        "amp-lower-ops-count",
        "amp-lower-as-float16",
        "amp-lower-as-bfloat16",
        "amp-lower-outside-float32",
        "amp-lower-float16-results",
    ),
    vocabulary=Vocabulary(
        subjects=("autocast", "matmul", "linear", "conv"),
        predicates={"en": _EN_LOWER, "ja": _JA_LOWER, "ko": _KO_LOWER},
        # sentences about autocast's scope have claims of their own (SCOPE_CASES)
        unless=SCOPE_CASES,
    ),
)


CLAIMS = (MATMUL_LINEAR_CONV_RUN_IN_LOWER_PRECISION,)
