"""Claims of "BatchNorm with a lower-precision input and float32 parameters" (docs/topics/amp.md,
``(amp-batchnorm-inputs)=``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.amp._precision import dtype_name
from checker.evidence import Measurement, Observation
from checker.typing import Device


def _outcome(call: Callable[[], Any]) -> str:
    """The dtype ``call()`` returned, or ``"Type: first line"`` of the error it raised."""
    try:
        return dtype_name(call().dtype)
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}".splitlines()[0]


def probe_mixed_batchnorm_raises(device: Device) -> Observation:
    return _module_rule(device, parameters="float32")


def control_float64_parameters(device: Device) -> Observation:
    return _module_rule(device, parameters="float64")


def _module_rule(device: Device, parameters: str) -> Observation:
    """The myth "BatchNorm with float16 input and float32 parameters raises": a BatchNorm1d
    layer with parameters and running statistics of ``parameters``, on a float16 input, in
    training and in evaluation mode."""
    import torch

    torch.manual_seed(0)
    layer = torch.nn.BatchNorm1d(8).to(device=device, dtype=getattr(torch, parameters))
    x = torch.randn(16, 8, device=device, dtype=torch.float16)
    train = _outcome(lambda: layer.train()(x))
    evaluate = _outcome(lambda: layer.eval()(x))
    raised = sum("Error" in value for value in (train, evaluate))
    key = "amp-bn-float32-params" if parameters == "float32" else "amp-bn-float64-params"
    return Observation(
        holds=raised == 2,
        rule=f"holds if a BatchNorm1d layer whose parameters and running statistics are "
        f"{parameters} raises on a float16 input in training mode and in evaluation mode",
        measurements=(
            Measurement(f"{key}-raised", raised, "count"),
            Measurement(f"{key}-train", train, "text"),
            Measurement(f"{key}-eval", evaluate, "text"),
        ),
    )


MYTH_MIXED_BATCHNORM_RAISES = Claim(
    id="amp/myth-batchnorm-float16-input-float32-params-raises",
    statement="BatchNorm with a float16 input and float32 parameters raises a dtype error.",
    expect=Expect.FAILS,
    probe=probe_mixed_batchnorm_raises,
    # the control's float64 parameters are refused by the CPU's mixed-dtype check; what CUDA's
    # kernels do with them was not measured
    devices=("cpu",),
    measures=("amp-bn-float32-params-raised", "amp-bn-float32-params-train"),
    control=Control(
        "float64 parameters and running statistics",
        control_float64_parameters,
        measures=("amp-bn-float64-params-raised", "amp-bn-float64-params-eval"),
    ),
    vocabulary=Vocabulary(
        subjects=("BatchNorm", "batch_norm"),
        predicates={
            "en": ("raise", "error", "fail"),
            "ja": ("エラー", "例外", "失敗"),
            "ko": ("오류", "에러", "예외", "실패"),
        },
        requires={
            "en": ("float16", "half", "fp16"),
            "ja": ("float16", "half", "fp16", "半精度"),
            "ko": ("float16", "half", "fp16", "반정밀도"),
        },
        # checkpointed BatchNorm and its statistics are the checkpointing page's claims
        unless={
            "en": ("checkpoint", "statistics twice"),
            "ja": ("チェックポイント",),
            "ko": ("체크포인트",),
        },
    ),
)


def probe_float32_statistics(device: Device) -> Observation:
    return _functional_rule(device, parameters="float32")


def control_float16_statistics(device: Device) -> Observation:
    return _functional_rule(device, parameters="float16")


def _functional_rule(device: Device, parameters: str) -> Observation:
    """``batch_norm`` of a float16 input with weight, bias and running statistics of
    ``parameters``: its dtype, and whether it equals the float32 computation (float32
    input and statistics) up to float16's rounding."""
    import torch
    from torch.nn import functional

    torch.manual_seed(0)
    x = (10 + 0.1 * torch.randn(64, 8, device=device)).half()
    mean = 10 + 0.1 * torch.randn(8, device=device)
    var = 0.01 + 0.01 * torch.rand(8, device=device)
    weight = 1 + 0.1 * torch.randn(8, device=device)
    bias = 0.1 * torch.randn(8, device=device)
    reference = functional.batch_norm(x.float(), mean, var, weight, bias)
    low = getattr(torch, parameters)
    out = functional.batch_norm(
        x, mean.to(low), var.to(low), weight=weight.to(low), bias=bias.to(low)
    )
    close = bool(torch.allclose(out.float(), reference, rtol=2**-10, atol=2**-10))
    exact = int((out == reference.half()).sum())
    key = "amp-bn-stats-float32" if parameters == "float32" else "amp-bn-stats-float16"
    return Observation(
        holds=out.dtype == torch.float16 and close,
        rule=f"holds if batch_norm of a float16 input with {parameters} weight, bias and "
        "running statistics returns float16 values within float16 rounding of the float32 "
        "computation",
        measurements=(
            Measurement(f"{key}-dtype", dtype_name(out.dtype), "dtype"),
            Measurement(f"{key}-close", close, "bool"),
            Measurement(f"{key}-exact", exact, "count"),
            Measurement(f"{key}-elements", out.numel(), "count"),
        ),
    )


BATCHNORM_FLOAT16_INPUT_COMPUTES_IN_FLOAT32 = Claim(
    id="amp/batchnorm-float16-input-computes-in-float32",
    statement="batch_norm with a float16 input and float32 weight, bias and running statistics "
    "runs, computes in float32 and returns float16: the float32 result rounded to float16.",
    expect=Expect.HOLDS,
    probe=probe_float32_statistics,
    measures=(
        "amp-bn-stats-float32-dtype",
        "amp-bn-stats-float32-close",
        "amp-bn-stats-float32-exact",
        "amp-bn-stats-float32-elements",
    ),
    control=Control(
        "weight, bias and running statistics in float16 too",
        control_float16_statistics,
        measures=("amp-bn-stats-float16-close",),
    ),
    vocabulary=Vocabulary(
        subjects=("BatchNorm", "batch_norm"),
        predicates={
            "en": ("computes in float32", "in float32 internally", "returns float16"),
            "ja": ("float32 で計算", "float16 を返", "float16 で返"),
            "ko": ("float32로 계산", "float16을 반환", "float16으로 반환"),
        },
        unless={
            "en": ("checkpoint",),
            "ja": ("チェックポイント",),
            "ko": ("체크포인트",),
        },
    ),
)


CLAIMS = (MYTH_MIXED_BATCHNORM_RAISES, BATCHNORM_FLOAT16_INPUT_COMPUTES_IN_FLOAT32)
