"""Claims of "Most other operations follow their input" (docs/topics/amp.md,
``(amp-following-ops)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.amp._precision import dtype_name
from checker.claims.amp.op_categories._ops import (
    _EN_LOWER,
    _JA_LOWER,
    _KO_LOWER,
    FOLLOWING_OPS,
    LOWER_PRECISION_OPS,
    _low_dtypes,
    _matches,
    result_dtypes,
)
from checker.evidence import Measurement, Observation
from checker.typing import Device, Lang

#: A sentence about an input that is already in low precision is about another case than
#: "relu of a float32 tensor" (relu of a bfloat16 tensor is bfloat16, as it should be).
_LOW_INPUT: dict[Lang, tuple[str, ...]] = {
    "en": ("input is already", "inputs are already", "of a float16 tensor", "of a bfloat16 tensor"),
    "ja": ("である状態で", "の状態で", "がすでに"),
    "ko": ("인 상태에서", "이미 bfloat16", "이미 float16"),
}


def probe_following_ops(device: Device) -> Observation:
    return _following_rule(device, FOLLOWING_OPS)


def control_following_ops(device: Device) -> Observation:
    return _following_rule(device, LOWER_PRECISION_OPS)


def _following_rule(device: Device, ops: tuple[str, ...]) -> Observation:
    import torch

    counts = {}
    for low in _low_dtypes():
        name = dtype_name(low)
        counts[f"amp-follow-{name}-from-float32"] = _matches(
            result_dtypes(device, ops, torch.float32, low), "float32"
        )
        counts[f"amp-follow-{name}-from-{name}"] = _matches(
            result_dtypes(device, ops, low, low), name
        )
    total = len(ops)
    return Observation(
        holds=all(n == total for n in counts.values()),
        rule="holds if, under float16 and bfloat16 autocast, every listed operation returns "
        "float32 for float32 inputs and the lower-precision dtype for inputs in that dtype",
        measurements=(
            Measurement("amp-follow-ops", ", ".join(ops), "text"),
            Measurement("amp-follow-ops-count", total, "count"),
            *(Measurement(key, n, "count") for key, n in counts.items()),
        ),
    )


ACTIVATIONS_FOLLOW_INPUT_DTYPE = Claim(
    id="amp/activations-follow-input-dtype",
    statement="Under autocast, relu, gelu and sigmoid are not cast: they return the dtype "
    "of their input.",
    expect=Expect.HOLDS,
    probe=probe_following_ops,
    control=Control(
        "matrix products (mm, matmul, bmm, linear, conv2d) in place of the activations",
        control_following_ops,
    ),
    measures=(
        "amp-follow-ops",
        "amp-follow-ops-count",
        "amp-follow-float16-from-float32",
        "amp-follow-float16-from-float16",
        "amp-follow-bfloat16-from-float32",
        "amp-follow-bfloat16-from-bfloat16",
    ),
    vocabulary=Vocabulary(
        subjects=("relu", "gelu", "sigmoid"),
        predicates={"en": _EN_LOWER, "ja": _JA_LOWER, "ko": _KO_LOWER},
        unless=_LOW_INPUT,
        denies=True,  # "are not cast": it denies running in lower precision
    ),
)


def probe_relu_lower_precision(device: Device) -> Observation:
    return _runs_lower(device, "relu")


def control_mm_lower_precision(device: Device) -> Observation:
    return _runs_lower(device, "mm")


def _runs_lower(device: Device, op: str) -> Observation:
    import torch

    found = result_dtypes(device, (op,), torch.float32, torch.float16)
    return Observation(
        holds=found[op] in ("float16", "bfloat16"),
        rule=f"holds if {op} of a float32 tensor returns a lower-precision dtype inside "
        "float16 autocast",
        measurements=(Measurement(f"amp-{op}-float32-input-dtype", found[op], "dtype"),),
    )


MYTH_RELU_RUNS_IN_LOWER_PRECISION = Claim(
    id="amp/myth-relu-runs-in-lower-precision",
    statement="Inside a float16 autocast region, relu of a float32 tensor runs in lower precision.",
    expect=Expect.FAILS,
    probe=probe_relu_lower_precision,
    control=Control(
        "mm in place of relu",
        control_mm_lower_precision,
    ),
    measures=("amp-relu-float32-input-dtype",),
    vocabulary=Vocabulary(
        subjects=("relu",),
        predicates={"en": _EN_LOWER, "ja": _JA_LOWER, "ko": _KO_LOWER},
        unless=_LOW_INPUT,
    ),
)


CLAIMS = (
    ACTIVATIONS_FOLLOW_INPUT_DTYPE,
    MYTH_RELU_RUNS_IN_LOWER_PRECISION,
)
