"""Claims of "Losses run in float32" (docs/topics/amp.md, ``(amp-float32-ops)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.amp.op_categories._ops import (
    FLOAT32_OPS,
    LOWER_PRECISION_OPS,
    _low_dtypes,
    _matches,
    describe,
    result_dtypes,
)
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_float32_ops(device: Device) -> Observation:
    return _float32_rule(device, FLOAT32_OPS)


def control_float32_ops(device: Device) -> Observation:
    return _float32_rule(device, LOWER_PRECISION_OPS)


def _float32_rule(device: Device, ops: tuple[str, ...]) -> Observation:
    f16, bf16 = _low_dtypes()
    from_f16 = result_dtypes(device, ops, f16, f16)
    from_bf16 = result_dtypes(device, ops, bf16, bf16)
    total = len(ops)
    return Observation(
        holds=_matches(from_f16, "float32") == total and _matches(from_bf16, "float32") == total,
        rule="holds if every listed operation returns float32 under autocast even when its "
        "inputs are float16 (float16 autocast) or bfloat16 (bfloat16 autocast)",
        measurements=(
            Measurement("amp-float32-ops", ", ".join(ops), "text"),
            Measurement("amp-float32-ops-count", total, "count"),
            Measurement("amp-float32-from-float16", _matches(from_f16, "float32"), "count"),
            Measurement("amp-float32-from-bfloat16", _matches(from_bf16, "float32"), "count"),
            Measurement("amp-float32-float16-results", describe(from_f16), "text"),
        ),
    )


LOSSES_RUN_IN_FLOAT32 = Claim(
    id="amp/losses-run-in-float32",
    statement="Under autocast, losses such as mse_loss and cross_entropy, and the product "
    "reduction prod, return float32 even for float16 or bfloat16 inputs.",
    expect=Expect.HOLDS,
    probe=probe_float32_ops,
    control=Control(
        "matrix products (mm, matmul, bmm, linear, conv2d) in place of the listed operations",
        control_float32_ops,
    ),
    measures=(
        "amp-float32-ops",
        "amp-float32-ops-count",
        "amp-float32-from-float16",
        "amp-float32-from-bfloat16",
        "amp-float32-float16-results",
    ),
    vocabulary=Vocabulary(
        subjects=("autocast", "loss"),
        predicates={
            "en": ("float32", "high precision", "full precision"),
            "ja": ("高精度", "float32"),
            "ko": ("고정밀", "float32"),
        },
        unless={  # other operations' rules, with claims of their own
            lang: ("softmax", "layer_norm", "relu", "gelu", "sigmoid")
            for lang in ("en", "ja", "ko")
        },
    ),
)


CLAIMS = (LOSSES_RUN_IN_FLOAT32,)
