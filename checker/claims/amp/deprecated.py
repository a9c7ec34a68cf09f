"""Claims of "The deprecated ``torch.cuda.amp`` spellings" (docs/topics/amp.md,
``(amp-deprecated)=``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.amp._precision import matmul_function, matmul_inputs
from checker.evidence import Measurement, Observation
from checker.measure import caught_warnings, error_text
from checker.typing import Device, Lang


def _future_warnings(calls: dict[str, Callable[[], Any]]) -> dict[str, str]:
    """Per call, the first FutureWarning it emitted (``"FutureWarning: ..."``), or
    ``"no FutureWarning"``."""
    found = {}
    for key, call in calls.items():
        _, caught = caught_warnings(call)
        found[key] = next(
            (f"{c}: {m}" for c, m in caught if c == "FutureWarning"), "no FutureWarning"
        )
    return found


def _each_names_torch_amp(found: dict[str, str]) -> bool:
    return all(v.startswith("FutureWarning") and "torch.amp." in v for v in found.values())


#: "is deprecated", for the claims about the torch.cuda.amp and torch.cpu.amp spellings.
_DEPRECATED: dict[Lang, tuple[str, ...]] = {
    "en": ("deprecated",),
    "ja": ("非推奨", "廃止"),
    "ko": ("더 이상 사용되지", "폐기", "사용 중단"),
}


def probe_torch_cuda_amp_deprecated(device: Device) -> Observation:
    return _deprecated_rule(current=False)


def control_torch_amp_not_deprecated(device: Device) -> Observation:
    return _deprecated_rule(current=True)


def _deprecated_rule(current: bool) -> Observation:
    import torch

    def forward(ctx: Any, x: Any) -> Any:
        return x

    cuda_amp: Any = torch.cuda.amp
    amp: Any = torch.amp
    calls: dict[str, Callable[[], Any]] = (
        {
            "amp-current-autocast": lambda: amp.autocast("cuda"),
            "amp-current-gradscaler": lambda: amp.GradScaler("cuda"),
            "amp-current-custom-fwd": lambda: amp.custom_fwd(forward, device_type="cuda"),
            "amp-current-custom-bwd": lambda: amp.custom_bwd(forward, device_type="cuda"),
        }
        if current
        else {
            "amp-deprecated-autocast": cuda_amp.autocast,
            "amp-deprecated-gradscaler": cuda_amp.GradScaler,
            "amp-deprecated-custom-fwd": lambda: cuda_amp.custom_fwd(forward),
            "amp-deprecated-custom-bwd": lambda: cuda_amp.custom_bwd(forward),
        }
    )
    found = _future_warnings(calls)
    return Observation(
        holds=_each_names_torch_amp(found),
        rule=f"holds if {'torch.amp' if current else 'torch.cuda.amp'}.autocast, GradScaler, "
        "custom_fwd and custom_bwd each emit a FutureWarning that names a torch.amp "
        "replacement",
        measurements=tuple(Measurement(key, value, "text") for key, value in found.items()),
    )


TORCH_CUDA_AMP_DEPRECATED = Claim(
    id="amp/torch-cuda-amp-deprecated",
    statement="torch.cuda.amp.autocast, GradScaler, custom_fwd and custom_bwd are deprecated: "
    "each emits a FutureWarning that names its torch.amp replacement.",
    expect=Expect.HOLDS,
    probe=probe_torch_cuda_amp_deprecated,
    control=Control(
        "the torch.amp spellings",
        control_torch_amp_not_deprecated,
    ),
    devices=("cpu",),
    measures=(
        "amp-deprecated-autocast",
        "amp-deprecated-gradscaler",
        "amp-deprecated-custom-fwd",
        "amp-deprecated-custom-bwd",
    ),
    vocabulary=Vocabulary(
        subjects=("torch.cuda.amp",),
        predicates=_DEPRECATED,
    ),
)


def probe_torch_cpu_amp_deprecated(device: Device) -> Observation:
    return _cpu_amp_deprecated_rule(current=False)


def control_torch_amp_cpu_not_deprecated(device: Device) -> Observation:
    return _cpu_amp_deprecated_rule(current=True)


def _cpu_amp_deprecated_rule(current: bool) -> Observation:
    import torch

    cpu_amp: Any = torch.cpu.amp
    amp: Any = torch.amp
    calls: dict[str, Callable[[], Any]] = (
        {
            "amp-current-cpu-autocast": lambda: amp.autocast("cpu"),
            "amp-current-cpu-gradscaler": lambda: amp.GradScaler("cpu"),
        }
        if current
        else {
            "amp-deprecated-cpu-autocast": cpu_amp.autocast,
            "amp-deprecated-cpu-gradscaler": cpu_amp.GradScaler,
        }
    )
    found = _future_warnings(calls)
    return Observation(
        holds=_each_names_torch_amp(found),
        rule="holds if "
        + (
            "torch.amp.autocast('cpu') and torch.amp.GradScaler('cpu')"
            if current
            else "torch.cpu.amp.autocast and torch.cpu.amp.GradScaler"
        )
        + " each emit a FutureWarning that names a torch.amp replacement",
        measurements=tuple(Measurement(key, value, "text") for key, value in found.items()),
    )


TORCH_CPU_AMP_DEPRECATED = Claim(
    id="amp/torch-cpu-amp-deprecated",
    statement="torch.cpu.amp.autocast and torch.cpu.amp.GradScaler are deprecated: each "
    "emits a FutureWarning naming its torch.amp replacement.",
    expect=Expect.HOLDS,
    probe=probe_torch_cpu_amp_deprecated,
    control=Control(
        "torch.amp.autocast('cpu') and torch.amp.GradScaler('cpu')",
        control_torch_amp_cpu_not_deprecated,
    ),
    devices=("cpu",),
    measures=("amp-deprecated-cpu-autocast", "amp-deprecated-cpu-gradscaler"),
    vocabulary=Vocabulary(
        subjects=("torch.cpu.amp",),
        predicates=_DEPRECATED,
    ),
)


def probe_cuda_decorators_ignore_cpu(device: Device) -> Observation:
    return _cuda_decorators_rule(cuda_amp=True)


def control_amp_decorators_on_cpu(device: Device) -> Observation:
    return _cuda_decorators_rule(cuda_amp=False)


def _cuda_decorators_rule(cuda_amp: bool) -> Observation:
    import torch

    (forward, backward), _ = caught_warnings(
        lambda: (
            (torch.cuda.amp.custom_fwd, torch.cuda.amp.custom_bwd)
            if cuda_amp
            else (torch.amp.custom_fwd(device_type="cpu"), torch.amp.custom_bwd(device_type="cpu"))
        )
    )
    decorated, _ = caught_warnings(
        lambda: matmul_function("cpu", forward_decorator=forward, backward_decorator=backward)
    )
    function, _ = decorated
    a, b = matmul_inputs("cpu")
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = function.apply(a, b)
    error = error_text(lambda: out.float().sum().backward())
    return Observation(
        holds=error.startswith("RuntimeError") and "same dtype" in error,
        rule="holds if a matmul Function decorated with the custom_fwd and custom_bwd of "
        + ("torch.cuda.amp" if cuda_amp else "torch.amp (device_type='cpu')")
        + ", run under CPU autocast, fails in backward with mismatched dtypes",
        measurements=(
            Measurement(
                "amp-cuda-decorators-cpu-error" if cuda_amp else "amp-amp-decorators-cpu-error",
                error,
                "exception",
            ),
        ),
    )


CUDA_DECORATORS_IGNORE_CPU_AUTOCAST = Claim(
    id="amp/cuda-decorators-ignore-cpu-autocast",
    statement="The deprecated torch.cuda.amp.custom_fwd and custom_bwd follow CUDA autocast "
    "only: under CPU autocast they do not prevent the backward dtype mismatch.",
    expect=Expect.HOLDS,
    probe=probe_cuda_decorators_ignore_cpu,
    control=Control(
        "the torch.amp decorators with device_type='cpu'",
        control_amp_decorators_on_cpu,
    ),
    devices=("cpu",),
    measures=("amp-cuda-decorators-cpu-error",),
)


CLAIMS = (
    TORCH_CUDA_AMP_DEPRECATED,
    TORCH_CPU_AMP_DEPRECATED,
    CUDA_DECORATORS_IGNORE_CPU_AUTOCAST,
)
