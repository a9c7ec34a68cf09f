"""Claims of "Softmax and sums: where CPU and CUDA differ" (docs/topics/amp.md,
``(amp-cpu-cuda-differences)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.amp._precision import dtype_name
from checker.claims.amp.op_categories._ops import (
    FLOAT32_OPS,
    FOLLOWING_OPS,
    _low_dtypes,
    _matches,
    describe,
    result_dtypes,
)
from checker.evidence import Measurement, Observation
from checker.typing import Device

#: Operations CUDA autocast runs in float32 and CPU autocast leaves in their input's dtype.
DEVICE_DEPENDENT_OPS = ("softmax", "log_softmax", "sum", "exp", "layer_norm")


def _device_dependent(
    device: Device, ops: tuple[str, ...]
) -> tuple[dict[str, str], dict[str, str]]:
    f16, bf16 = _low_dtypes()
    return (
        result_dtypes(device, ops, f16, f16),
        result_dtypes(device, ops, bf16, bf16),
    )


def probe_reductions_float32_on_cuda(device: Device) -> Observation:
    return _reductions_float32_rule(device, DEVICE_DEPENDENT_OPS)


def control_reductions_float32_on_cuda(device: Device) -> Observation:
    return _reductions_float32_rule(device, FOLLOWING_OPS)


def _reductions_float32_rule(device: Device, ops: tuple[str, ...]) -> Observation:
    from_f16, from_bf16 = _device_dependent(device, ops)
    total = len(ops)
    return Observation(
        holds=_matches(from_f16, "float32") == total and _matches(from_bf16, "float32") == total,
        rule="holds if every listed operation returns float32 for float16 inputs under float16 "
        "autocast and for bfloat16 inputs under bfloat16 autocast",
        measurements=(
            Measurement("amp-cuda-reduction-ops", ", ".join(ops), "text"),
            Measurement("amp-cuda-reductions-count", total, "count"),
            Measurement("amp-cuda-reductions-float16", _matches(from_f16, "float32"), "count"),
            Measurement("amp-cuda-reductions-bfloat16", _matches(from_bf16, "float32"), "count"),
            Measurement("amp-cuda-reductions-results", describe(from_f16), "text"),
        ),
    )


REDUCTIONS_FLOAT32_ON_CUDA = Claim(
    id="amp/reductions-float32-on-cuda",
    statement="Under CUDA autocast, softmax, log_softmax, sum, exp and layer_norm return "
    "float32, even for float16 or bfloat16 inputs.",
    expect=Expect.HOLDS,
    probe=probe_reductions_float32_on_cuda,
    control=Control(
        "activations (relu, gelu, sigmoid) in place of the listed operations",
        control_reductions_float32_on_cuda,
    ),
    devices=("cuda",),
    measures=(
        "amp-cuda-reduction-ops",
        "amp-cuda-reductions-count",
        "amp-cuda-reductions-float16",
        "amp-cuda-reductions-bfloat16",
        "amp-cuda-reductions-results",
    ),
    vocabulary=Vocabulary(
        subjects=("softmax",),
        predicates={"en": ("float32",), "ja": ("float32", "高精度"), "ko": ("float32",)},
        unless={"en": ("cpu",), "ja": ("cpu",), "ko": ("cpu",)},  # the other claim's case
    ),
)


def probe_reductions_follow_on_cpu(device: Device) -> Observation:
    return _reductions_follow_rule(device, DEVICE_DEPENDENT_OPS)


def control_reductions_follow_on_cpu(device: Device) -> Observation:
    return _reductions_follow_rule(device, FLOAT32_OPS)


def _reductions_follow_rule(device: Device, ops: tuple[str, ...]) -> Observation:
    from_f16, from_bf16 = _device_dependent(device, ops)
    total = len(ops)
    return Observation(
        holds=_matches(from_f16, "float16") == total and _matches(from_bf16, "bfloat16") == total,
        rule="holds if every listed operation returns float16 for float16 inputs under float16 "
        "autocast and bfloat16 for bfloat16 inputs under bfloat16 autocast",
        measurements=(
            Measurement("amp-cpu-reduction-ops", ", ".join(ops), "text"),
            Measurement("amp-cpu-reductions-count", total, "count"),
            Measurement("amp-cpu-reductions-float16", _matches(from_f16, "float16"), "count"),
            Measurement("amp-cpu-reductions-bfloat16", _matches(from_bf16, "bfloat16"), "count"),
            Measurement("amp-cpu-reductions-results", describe(from_f16), "text"),
        ),
    )


REDUCTIONS_FOLLOW_INPUT_ON_CPU = Claim(
    id="amp/reductions-follow-input-on-cpu",
    statement="Under CPU autocast, softmax, log_softmax, sum, exp and layer_norm return the "
    "dtype of their input: float16 or bfloat16 inputs stay in that dtype.",
    expect=Expect.HOLDS,
    probe=probe_reductions_follow_on_cpu,
    control=Control(
        "losses and prod (the float32 list) in place of the listed operations",
        control_reductions_follow_on_cpu,
    ),
    devices=("cpu",),
    measures=(
        "amp-cpu-reduction-ops",
        "amp-cpu-reductions-count",
        "amp-cpu-reductions-float16",
        "amp-cpu-reductions-bfloat16",
        "amp-cpu-reductions-results",
    ),
    vocabulary=Vocabulary(
        subjects=("softmax",),
        predicates={"en": ("float32",), "ja": ("float32", "高精度"), "ko": ("float32",)},
        # "on the CPU, softmax returns float32" denies that it follows its input there
        denies=True,
        requires={"en": ("cpu",), "ja": ("cpu",), "ko": ("cpu",)},
        unless={"en": ("cuda", "gpu"), "ja": ("cuda", "gpu"), "ko": ("cuda", "gpu")},
    ),
)


def probe_explicit_dtype_wins(device: Device) -> Observation:
    import torch

    return _explicit_dtype_rule(device, torch.float32)


def control_explicit_float16(device: Device) -> Observation:
    import torch

    return _explicit_dtype_rule(device, torch.float16)


def _explicit_dtype_rule(device: Device, requested: Any) -> Observation:
    import torch

    x = torch.randn(8, 8).to(device=device, dtype=torch.float16)
    with torch.autocast(device, dtype=torch.float16):
        softmax = dtype_name(x.softmax(-1, dtype=requested).dtype)
        total = dtype_name(x.sum(dtype=requested).dtype)
        wide = torch.ones(4, 4, device=device, dtype=torch.float64)
        product = dtype_name((wide @ wide).dtype)
    return Observation(
        holds=softmax == total == "float32" and product == "float64",
        rule="holds if, under float16 autocast, softmax and sum of a float16 tensor called "
        f"with dtype={requested} return float32, and a float64 matrix product stays float64",
        measurements=(
            Measurement("amp-explicit-softmax-dtype", softmax, "dtype"),
            Measurement("amp-explicit-sum-dtype", total, "dtype"),
            Measurement("amp-float64-mm-dtype", product, "dtype"),
        ),
    )


EXPLICIT_DTYPE_OVERRIDES_AUTOCAST = Claim(
    id="amp/explicit-dtype-overrides-autocast",
    statement="An explicit dtype argument takes precedence over autocast, and float64 "
    "operations are never autocast.",
    expect=Expect.HOLDS,
    probe=probe_explicit_dtype_wins,
    control=Control(
        "the same calls with dtype=torch.float16",
        control_explicit_float16,
    ),
    measures=("amp-explicit-softmax-dtype", "amp-explicit-sum-dtype", "amp-float64-mm-dtype"),
)


def probe_bce_refused_on_cuda(device: Device) -> Observation:
    return _refused_under_autocast(device, "binary_cross_entropy")


def control_bce_with_logits_allowed(device: Device) -> Observation:
    return _refused_under_autocast(device, "binary_cross_entropy_with_logits")


def _refused_under_autocast(device: Device, op: str) -> Observation:
    import torch

    found = result_dtypes(device, (op,), torch.float32, torch.float16)
    error = found[op].splitlines()[0]
    key = "bce" if op == "binary_cross_entropy" else op.replace("_", "-")
    return Observation(
        holds=error.startswith("RuntimeError") and "unsafe to autocast" in error,
        rule=f"holds if {op} raises a RuntimeError saying it is unsafe to autocast inside "
        "float16 autocast",
        measurements=(Measurement(f"amp-cuda-{key}-error", error, "exception"),),
    )


BINARY_CROSS_ENTROPY_REFUSED_ON_CUDA = Claim(
    id="amp/binary-cross-entropy-refused-on-cuda",
    statement="Under CUDA autocast, binary_cross_entropy raises an error that calls it "
    "unsafe to autocast.",
    expect=Expect.HOLDS,
    probe=probe_bce_refused_on_cuda,
    control=Control(
        "binary_cross_entropy_with_logits, which autocast runs in float32",
        control_bce_with_logits_allowed,
    ),
    devices=("cuda",),
    measures=("amp-cuda-bce-error",),
)


def probe_bce_float32_on_cpu(device: Device) -> Observation:
    return _returns_float32(device, "binary_cross_entropy")


def control_sigmoid_follows_on_cpu(device: Device) -> Observation:
    return _returns_float32(device, "sigmoid")


def _returns_float32(device: Device, op: str) -> Observation:
    f16, bf16 = _low_dtypes()
    from_f16 = result_dtypes(device, (op,), f16, f16)
    from_bf16 = result_dtypes(device, (op,), bf16, bf16)
    key = "bce" if op == "binary_cross_entropy" else op.replace("_", "-")
    return Observation(
        holds=from_f16[op] == "float32" and from_bf16[op] == "float32",
        rule=f"holds if {op} returns float32 for float16 and bfloat16 inputs under autocast "
        "of the same dtype",
        measurements=(
            Measurement(f"amp-cpu-{key}-from-float16", from_f16[op], "dtype"),
            Measurement(f"amp-cpu-{key}-from-bfloat16", from_bf16[op], "dtype"),
        ),
    )


BINARY_CROSS_ENTROPY_FLOAT32_ON_CPU = Claim(
    id="amp/binary-cross-entropy-float32-on-cpu",
    statement="Under CPU autocast, binary_cross_entropy runs and returns float32.",
    expect=Expect.HOLDS,
    probe=probe_bce_float32_on_cpu,
    control=Control(
        "sigmoid in place of binary_cross_entropy",
        control_sigmoid_follows_on_cpu,
    ),
    devices=("cpu",),
    measures=("amp-cpu-bce-from-float16", "amp-cpu-bce-from-bfloat16"),
)


CLAIMS = (
    REDUCTIONS_FLOAT32_ON_CUDA,
    REDUCTIONS_FOLLOW_INPUT_ON_CPU,
    EXPLICIT_DTYPE_OVERRIDES_AUTOCAST,
    BINARY_CROSS_ENTROPY_REFUSED_ON_CUDA,
    BINARY_CROSS_ENTROPY_FLOAT32_ON_CPU,
)
