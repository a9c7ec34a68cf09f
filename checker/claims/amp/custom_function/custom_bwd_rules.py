"""Claims of "Rules for the decorators" (docs/topics/amp.md, ``(amp-custom-bwd-rules)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.amp._precision import matmul_function, matmul_inputs
from checker.claims.amp.custom_function._decorators import _decorated
from checker.evidence import Measurement, Observation
from checker.measure import caught_warnings, error_text
from checker.typing import Device


def probe_custom_bwd_needs_custom_fwd(device: Device) -> Observation:
    return _needs_fwd_rule(device, with_fwd=False)


def control_with_custom_fwd(device: Device) -> Observation:
    return _needs_fwd_rule(device, with_fwd=True)


def _needs_fwd_rule(device: Device, with_fwd: bool) -> Observation:
    import torch

    errors = []
    for inside in (True, False):
        function, _ = matmul_function(
            device,
            forward_decorator=torch.amp.custom_fwd(device_type=device) if with_fwd else None,
            backward_decorator=torch.amp.custom_bwd(device_type=device),
        )
        a, b = matmul_inputs(device)
        with torch.autocast(device, dtype=torch.float16, enabled=inside):
            out = function.apply(a, b)
        errors.append(error_text(out.float().sum().backward))
    return Observation(
        holds=all(e.startswith("AttributeError") and "_fwd_used_autocast" in e for e in errors),
        rule="holds if backward decorated with custom_bwd, of a forward "
        + ("with" if with_fwd else "without")
        + " custom_fwd, "
        "raises an AttributeError about _fwd_used_autocast, whether forward ran under "
        "autocast or not",
        measurements=(
            Measurement("amp-bwd-without-fwd-error", errors[0], "exception"),
            Measurement("amp-bwd-without-fwd-error-outside", errors[1], "exception"),
        ),
    )


CUSTOM_BWD_NEEDS_CUSTOM_FWD = Claim(
    id="amp/custom-bwd-needs-custom-fwd",
    statement="custom_bwd works only together with custom_fwd: without it, backward raises "
    "an AttributeError.",
    expect=Expect.HOLDS,
    probe=probe_custom_bwd_needs_custom_fwd,
    control=Control(
        "the same backward with custom_fwd on forward",
        control_with_custom_fwd,
    ),
    measures=("amp-bwd-without-fwd-error", "amp-bwd-without-fwd-error-outside"),
    vocabulary=Vocabulary(
        subjects=("custom_bwd",),
        predicates={"en": ("custom_fwd",), "ja": ("custom_fwd",), "ko": ("custom_fwd",)},
    ),
)


def probe_decorators_need_device_type(device: Device) -> Observation:
    return _device_type_rule(given=False)


def control_with_device_type(device: Device) -> Observation:
    return _device_type_rule(given=True)


def _device_type_rule(given: bool) -> Observation:
    import torch

    def forward(ctx: Any, x: Any) -> Any:
        return x

    amp: Any = torch.amp  # without device_type, the calls below are wrong on purpose
    extra = {"device_type": "cpu"} if given else {}
    fwd_error = error_text(lambda: amp.custom_fwd(forward, **extra))
    bwd_error = error_text(lambda: amp.custom_bwd(forward, **extra))
    return Observation(
        holds=all(e.startswith("TypeError") and "device_type" in e for e in (fwd_error, bwd_error)),
        rule="holds if torch.amp.custom_fwd and torch.amp.custom_bwd applied "
        + ("with" if given else "without")
        + " device_type raise a TypeError naming device_type",
        measurements=(
            Measurement("amp-custom-fwd-no-device-type", fwd_error, "exception"),
            Measurement("amp-custom-bwd-no-device-type", bwd_error, "exception"),
        ),
    )


CUSTOM_DECORATORS_NEED_DEVICE_TYPE = Claim(
    id="amp/custom-decorators-need-device-type",
    statement="torch.amp.custom_fwd and torch.amp.custom_bwd require the keyword argument "
    "device_type.",
    expect=Expect.HOLDS,
    probe=probe_decorators_need_device_type,
    control=Control(
        "the same decorators with device_type",
        control_with_device_type,
    ),
    devices=("cpu",),
    measures=("amp-custom-fwd-no-device-type", "amp-custom-bwd-no-device-type"),
)


def probe_custom_bwd_cuda_only(device: Device) -> Observation:
    return _custom_bwd_on_cpu("torch.amp")


def control_cuda_amp_custom_bwd(device: Device) -> Observation:
    return _custom_bwd_on_cpu("torch.cuda.amp")


def _custom_bwd_on_cpu(decorators: str) -> Observation:
    """Whether a Function decorated with ``torch.amp`` (device_type='cpu') or with the
    ``torch.cuda.amp`` decorators works under CPU autocast, backward included."""
    import torch

    if decorators == "torch.amp":
        function, log = _decorated("cpu")
    else:
        (forward, backward), _ = caught_warnings(
            lambda: (torch.cuda.amp.custom_fwd, torch.cuda.amp.custom_bwd)
        )
        (function, log), _ = caught_warnings(
            lambda: matmul_function("cpu", forward_decorator=forward, backward_decorator=backward)
        )
    a, b = matmul_inputs("cpu")

    def run() -> None:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            out = function.apply(a, b)
        out.float().sum().backward()

    error = error_text(run)
    enabled = bool(log.backward_state and log.backward_state[0])
    prefix = "amp-cpu-custom-bwd" if decorators == "torch.amp" else "amp-cpu-cuda-custom-bwd"
    return Observation(
        holds=error != "no error" or not enabled,
        rule=f"holds if a Function decorated with {decorators}'s custom_fwd and custom_bwd "
        "fails under CPU autocast, or its backward does not run under the CPU autocast of "
        "its forward",
        measurements=(
            Measurement(f"{prefix}-error", error, "exception"),
            Measurement(f"{prefix}-enabled", enabled, "bool"),
            Measurement(
                f"{prefix}-dtype",
                log.backward_state[1] if log.backward_state else "none",
                "dtype",
            ),
        ),
    )


MYTH_CUSTOM_BWD_CUDA_ONLY = Claim(
    id="amp/myth-custom-bwd-cuda-only",
    statement="torch.amp.custom_bwd can only be used on CUDA devices.",
    expect=Expect.FAILS,
    probe=probe_custom_bwd_cuda_only,
    devices=("cpu",),
    measures=(
        "amp-cpu-custom-bwd-error",
        "amp-cpu-custom-bwd-enabled",
        "amp-cpu-custom-bwd-dtype",
    ),
    control=Control(
        "torch.cuda.amp.custom_fwd and custom_bwd, the article's decorators",
        control_cuda_amp_custom_bwd,
        measures=("amp-cpu-cuda-custom-bwd-error",),
    ),
    vocabulary=Vocabulary(
        subjects=("custom_bwd",),
        predicates={
            "en": ("only on CUDA", "CUDA only", "CUDA devices"),
            "ja": (
                "CUDA デバイスのみ",
                "CUDAのみ",
                "CUDA のみ",
                "CUDAデバイスでのみ",
                "CUDAでのみ",
            ),
            "ko": ("CUDA에서만", "CUDA 전용", "CUDA 장치에서만"),
        },
    ),
)


CLAIMS = (
    CUSTOM_BWD_NEEDS_CUSTOM_FWD,
    CUSTOM_DECORATORS_NEED_DEVICE_TYPE,
    MYTH_CUSTOM_BWD_CUDA_ONLY,
)
