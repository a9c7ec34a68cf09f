"""Claims of "GradScaler, step by step" (docs/topics/amp.md, ``(amp-gradscaler)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.amp._precision import _g, dtype_name
from checker.evidence import Measurement, Observation
from checker.measure import caught_warnings, error_text
from checker.typing import Device


def _scaled_and_reference_grads(device: str, unscale: bool = True) -> dict[str, Any]:
    """Gradients of one float32 model: unscaled, scaled, after unscale_, and the norms."""
    import torch

    generator = torch.Generator().manual_seed(0)
    model = torch.nn.Linear(16, 4)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn(p.shape, generator=generator))
    model.to(device)
    x = torch.randn(32, 16, generator=generator).to(device)
    model(x).square().mean().backward()
    reference = [p.grad.clone() for p in model.parameters() if p.grad is not None]
    model.zero_grad()

    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler(device)
    scaler.scale(model(x).square().mean()).backward()
    scaled = [p.grad.clone() for p in model.parameters() if p.grad is not None]
    norm_before = float(torch.nn.utils.clip_grad_norm_(model.parameters(), float("inf")))
    if unscale:
        scaler.unscale_(optimizer)
    unscaled = [p.grad.clone() for p in model.parameters() if p.grad is not None]
    norm_after = float(torch.nn.utils.clip_grad_norm_(model.parameters(), float("inf")))
    return {
        "scale": scaler.get_scale(),
        "reference": reference,
        "scaled": scaled,
        "unscaled": unscaled,
        "norm_before": norm_before,
        "norm_after": norm_after,
    }


def _overflow_steps(
    device: str, iterations: int, *, recreate: bool, enabled: bool = True
) -> tuple[list[bool], list[float]]:
    """Train one float32 weight whose float16 gradient overflows at the initial scale.

    The loss is twice a float16 product, so the gradient reaching the float16 product is
    twice the scale: ``2 * 65536`` and ``2 * 32768`` overflow float16, ``2 * 16384`` does
    not. Returns whether each iteration changed the weight, and the scale after each update.
    With ``recreate``, a new GradScaler is built in every iteration.
    """
    import torch

    weight = torch.ones(1, 1, device=device, requires_grad=True)
    ones = torch.ones(1, 1, device=device)
    optimizer = torch.optim.SGD([weight], lr=0.1)
    scaler: Any = torch.amp.GradScaler(device, enabled=enabled)
    stepped: list[bool] = []
    scales: list[float] = []
    for _ in range(iterations):
        if recreate:
            scaler = torch.amp.GradScaler(device, enabled=enabled)
        optimizer.zero_grad()
        with torch.autocast(device, dtype=torch.float16):
            product = weight @ ones
        loss = product.float().sum() * 2.0
        scaler.scale(loss).backward()
        before = weight.detach().clone()
        scaler.step(optimizer)
        scaler.update()
        stepped.append(not torch.equal(weight.detach(), before))
        scales.append(scaler.get_scale())
    return stepped, scales


def probe_scale_multiplies_loss(device: Device) -> Observation:
    return _scale_rule(device, enabled=True)


def control_disabled_scaler(device: Device) -> Observation:
    return _scale_rule(device, enabled=False)


def _scale_rule(device: Device, enabled: bool) -> Observation:
    import torch

    scaler = torch.amp.GradScaler(device, enabled=enabled)
    loss = torch.tensor(0.75, device=device)
    ratio = float((scaler.scale(loss) / loss).item())
    scale = scaler.get_scale()
    return Observation(
        holds=ratio == scale == 2.0**16,
        rule=f"holds if scale(loss) / loss equals get_scale(), and a new scaler's (enabled="
        f"{enabled}) scale is 2**16",
        measurements=(
            Measurement("amp-scale-ratio", _g(ratio), "text"),
            Measurement("amp-initial-scale", _g(scale), "text"),
        ),
    )


GRADSCALER_SCALE_MULTIPLIES_LOSS = Claim(
    id="amp/gradscaler-scale-multiplies-loss",
    statement="GradScaler.scale(loss) multiplies the loss by the current scale.",
    expect=Expect.HOLDS,
    probe=probe_scale_multiplies_loss,
    control=Control(
        "GradScaler(enabled=False)",
        control_disabled_scaler,
    ),
    measures=("amp-scale-ratio", "amp-initial-scale"),
)


def probe_unscale_restores(device: Device) -> Observation:
    return _unscale_rule(device, unscale=True)


def control_without_unscale(device: Device) -> Observation:
    return _unscale_rule(device, unscale=False)


def _max_relative_difference(got: list[Any], want: list[Any]) -> float:
    return max(
        float(((g - w).abs().max() / w.abs().max()).item()) for g, w in zip(got, want, strict=True)
    )


def _unscale_rule(device: Device, unscale: bool) -> Observation:
    run = _scaled_and_reference_grads(device, unscale)
    scale = run["scale"]
    before = _max_relative_difference(run["scaled"], [r * scale for r in run["reference"]])
    after = _max_relative_difference(run["unscaled"], run["reference"])
    return Observation(
        holds=before <= 1e-6 and after <= 1e-6,
        rule="holds if, within a relative difference of 1e-6, the gradients after backward of "
        "the scaled loss are the scale times the unscaled ones, and after unscale_ they equal "
        "the unscaled ones" + ("" if unscale else " (unscale_ is not called)"),
        measurements=(
            Measurement("amp-unscale-scale", _g(scale), "text"),
            Measurement("amp-scaled-grads-difference", _g(before), "text"),
            Measurement("amp-unscaled-grads-difference", _g(after), "text"),
        ),
    )


UNSCALE_RESTORES_GRADIENTS = Claim(
    id="amp/unscale-restores-gradients",
    statement="After backward of a scaled loss, the gradients are multiplied by the scale; "
    "unscale_ divides them back to their unscaled values.",
    expect=Expect.HOLDS,
    probe=probe_unscale_restores,
    control=Control(
        "the same steps without unscale_",
        control_without_unscale,
    ),
    measures=(
        "amp-unscale-scale",
        "amp-scaled-grads-difference",
        "amp-unscaled-grads-difference",
    ),
)


def probe_clip_needs_unscale(device: Device) -> Observation:
    return _clip_rule(device, unscale=True)


def control_clip_without_unscale(device: Device) -> Observation:
    return _clip_rule(device, unscale=False)


def _clip_rule(device: Device, unscale: bool) -> Observation:
    run = _scaled_and_reference_grads(device, unscale)
    ratio = run["norm_before"] / run["norm_after"]
    return Observation(
        holds=abs(ratio / run["scale"] - 1) <= 1e-5,
        rule="holds if the gradient norm measured before unscale_ is the scale times the norm "
        "measured after it, within a relative 1e-5"
        + ("" if unscale else " (unscale_ is not called)"),
        measurements=(Measurement("amp-clip-norm-ratio", _g(ratio), "text"),),
    )


CLIP_AFTER_UNSCALE = Claim(
    id="amp/clip-after-unscale",
    statement="A gradient norm measured before unscale_ is multiplied by the scale, so "
    "gradient clipping must come after unscale_.",
    expect=Expect.HOLDS,
    probe=probe_clip_needs_unscale,
    control=Control(
        "the norm measured twice without unscale_",
        control_clip_without_unscale,
    ),
    measures=("amp-clip-norm-ratio",),
    vocabulary=Vocabulary(
        subjects=("unscale_", "clip_grad_norm_"),
        predicates={"en": ("clip",), "ja": ("クリップ", "クリッピング"), "ko": ("클리핑",)},
        # "clip before unscale_" (the other order) denies it (checker.scan.order)
        order=(("unscale_",), ("clip", "クリップ", "クリッピング", "클리핑")),
        conditions={  # "unscale_ first, otherwise you clip the scaled gradients"
            "en": ("otherwise",),
            "ja": ("そうしないと", "しないと"),
            "ko": ("그렇지 않으면", "하지 않으면"),
        },
    ),
)


def probe_skips_nonfinite_steps(device: Device) -> Observation:
    return _skip_rule(device, enabled=True)


def control_disabled_scaler_steps(device: Device) -> Observation:
    return _skip_rule(device, enabled=False)


def _clean_growth(device: str, iterations: int) -> list[float]:
    """Scales after clean steps of a scaler with init_scale=4 and growth_interval=2."""
    import torch

    weight = torch.ones(1, device=device, requires_grad=True)
    optimizer = torch.optim.SGD([weight], lr=0.1)
    scaler: Any = torch.amp.GradScaler(device, init_scale=4.0, growth_interval=2)
    scales = []
    for _ in range(iterations):
        optimizer.zero_grad()
        scaler.scale(weight.sum()).backward()
        scaler.step(optimizer)
        scaler.update()
        scales.append(scaler.get_scale())
    return scales


def _skip_rule(device: Device, enabled: bool) -> Observation:
    stepped, scales = _overflow_steps(device, 3, recreate=False, enabled=enabled)
    growth = _clean_growth(device, 3)
    skipped = stepped.count(False)
    return Observation(
        holds=stepped == [False, False, True]
        and scales == [2.0**15, 2.0**14, 2.0**14]
        and growth == [4.0, 8.0, 8.0],
        rule=f"holds if, with a GradScaler (enabled={enabled}), the two iterations whose "
        "float16 gradients overflow at the initial scale leave the weight "
        "unchanged and halve the scale, the third updates the weight, and a scaler with "
        "init_scale=4 and growth_interval=2 doubles its scale after its second clean step",
        measurements=(
            Measurement("amp-overflow-skipped", skipped, "count"),
            Measurement("amp-overflow-taken", len(stepped) - skipped, "count"),
            Measurement("amp-overflow-scales", ", ".join(_g(s) for s in scales), "text"),
            Measurement("amp-growth-scales", ", ".join(_g(s) for s in growth), "text"),
        ),
    )


GRADSCALER_SKIPS_NONFINITE_STEPS = Claim(
    id="amp/gradscaler-skips-nonfinite-steps",
    statement="When gradients contain inf or NaN, scaler.step skips the optimizer step and "
    "scaler.update halves the scale; after growth_interval clean steps, update doubles it.",
    expect=Expect.HOLDS,
    probe=probe_skips_nonfinite_steps,
    control=Control(
        "GradScaler(enabled=False)",
        control_disabled_scaler_steps,
    ),
    measures=(
        "amp-overflow-skipped",
        "amp-overflow-taken",
        "amp-overflow-scales",
        "amp-growth-scales",
    ),
    vocabulary=Vocabulary(
        subjects=("GradScaler", "scaler.step"),
        predicates={
            "en": ("skip", "inf", "NaN"),
            "ja": ("スキップ", "inf", "NaN"),
            "ko": ("건너", "inf", "NaN"),
        },
    ),
)


def probe_scaler_lives_across_iterations(device: Device) -> Observation:
    return _lives_rule(device, keep_first=True)


def control_both_scalers_recreated(device: Device) -> Observation:
    return _lives_rule(device, keep_first=False)


def _lives_rule(device: Device, keep_first: bool) -> Observation:
    iterations = 4
    kept, _ = _overflow_steps(device, iterations, recreate=not keep_first)
    recreated, scales = _overflow_steps(device, iterations, recreate=True)
    return Observation(
        holds=recreated.count(True) == 0 and kept.count(True) > 0,
        rule="holds if, over four iterations whose gradient overflows float16 at the initial "
        "scale, the first scaler ("
        + ("created once" if keep_first else "created anew in every iteration too")
        + ") updates the weight at least once and a scaler created anew in every iteration "
        "never does",
        measurements=(
            Measurement("amp-scaler-iterations", iterations, "count"),
            Measurement("amp-kept-scaler-steps", kept.count(True), "count"),
            Measurement("amp-recreated-scaler-steps", recreated.count(True), "count"),
            Measurement("amp-recreated-scaler-scales", ", ".join(_g(s) for s in scales), "text"),
        ),
    )


GRADSCALER_LIVES_ACROSS_ITERATIONS = Claim(
    id="amp/gradscaler-lives-across-iterations",
    statement="A GradScaler must be created once, before the training loop. One created anew "
    "in every iteration starts from the initial scale each time, and a gradient that "
    "overflows at that scale then skips every step.",
    expect=Expect.HOLDS,
    probe=probe_scaler_lives_across_iterations,
    control=Control(
        "both scalers created anew in every iteration",
        control_both_scalers_recreated,
    ),
    measures=(
        "amp-scaler-iterations",
        "amp-kept-scaler-steps",
        "amp-recreated-scaler-steps",
        "amp-recreated-scaler-scales",
    ),
    vocabulary=Vocabulary(
        subjects=("GradScaler",),
        predicates={
            # "every iteration" alone says nothing: "recreate it every iteration" is the myth
            "en": (
                "once",
                "outside the loop",
                "before the loop",
                "across iterations",
                "initial scale each",
                "initial scale every",
            ),
            "ja": ("一度", "ループ", "初期スケール"),
            "ko": ("한 번", "반복 밖", "루프 밖", "반복 전체", "초기 스케일"),
        },
        # "must be created anew every iteration" states the opposite of living across them
        opposites={
            "en": (
                "anew every iteration",
                "a new GradScaler every",
                "every … iteration … recreat",
                "recreat … every",
                "re-creat … every",
            ),
            "ja": ("毎回新しく作", "毎回作り直", "毎 … 作り直"),
            "ko": ("새로 만들어야", "새로 생성해야", "매 … 새로 만들", "매 … 다시 만들"),
        },
    ),
)


def probe_scaler_refuses_float16_grads(device: Device) -> Observation:
    import torch

    return _refuses_rule(device, torch.float16)


def control_scaler_float32_params(device: Device) -> Observation:
    import torch

    return _refuses_rule(device, torch.float32)


def _unscale_error(device: Device, dtype: Any) -> str:
    import torch

    model = torch.nn.Linear(4, 2).to(device=device, dtype=dtype)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler(device)
    x = torch.ones(3, 4, device=device, dtype=dtype)
    scaler.scale(model(x).float().sum()).backward()
    return error_text(lambda: scaler.unscale_(optimizer))


def _refuses_rule(device: Device, refused: Any) -> Observation:
    error = _unscale_error(device, refused)
    name = dtype_name(refused)
    return Observation(
        holds=error.startswith("ValueError") and "FP16" in error,
        rule=f"holds if unscale_ raises a ValueError about FP16 gradients when the parameters "
        f"are {name}",
        measurements=(Measurement(f"amp-{name}-params-error", error, "exception"),),
    )


GRADSCALER_REFUSES_FLOAT16_GRADIENTS = Claim(
    id="amp/gradscaler-refuses-float16-gradients",
    statement="GradScaler refuses to unscale float16 gradients, so the parameters must "
    "not be float16.",
    expect=Expect.HOLDS,
    probe=probe_scaler_refuses_float16_grads,
    measures=("amp-float16-params-error",),
    control=Control("float32 parameters", control_scaler_float32_params),
)


def probe_scaler_bfloat16_by_device(device: Device) -> Observation:
    import torch

    return _bfloat16_rule(device, torch.bfloat16)


def control_scaler_float16_by_device(device: Device) -> Observation:
    import torch

    return _bfloat16_rule(device, torch.float16)


def _bfloat16_rule(device: Device, dtype: Any) -> Observation:
    """On the CPU, unscale_ takes the parameters' gradients; on CUDA its kernel has no
    implementation for the dtype (pytorch/pytorch#127176 for bfloat16)."""
    error = _unscale_error(device, dtype)
    name = dtype_name(dtype)
    on_cpu = device == "cpu"
    missing = error.startswith("NotImplementedError") and "not implemented for" in error
    return Observation(
        holds=error == "no error" if on_cpu else missing,
        rule=f"holds if, on the CPU, unscale_ takes {name} parameters' gradients without error"
        if on_cpu
        else f"holds if, on CUDA, unscale_ of {name} parameters' gradients raises a "
        "NotImplementedError: its kernel has no implementation for the dtype",
        measurements=(Measurement(f"amp-{name}-unscale-on-device", error, "exception"),),
    )


GRADSCALER_BFLOAT16_ON_CPU_ONLY = Claim(
    id="amp/gradscaler-unscales-bfloat16-on-cpu-only",
    statement="GradScaler unscales bfloat16 gradients on the CPU, but not on CUDA, where its "
    "unscale kernel is not implemented for bfloat16.",
    expect=Expect.HOLDS,
    probe=probe_scaler_bfloat16_by_device,
    measures=("amp-bfloat16-unscale-on-device",),
    control=Control("float16 parameters", control_scaler_float16_by_device),
)


def probe_cuda_scaler_needs_cuda(device: Device) -> Observation:
    return _cuda_scaler_rule(requested=True)


def control_cuda_scaler_switched_off(device: Device) -> Observation:
    return _cuda_scaler_rule(requested=False)


def _cuda_scaler_rule(requested: bool) -> Observation:
    import torch

    available = torch.cuda.is_available()
    scaler, caught = caught_warnings(lambda: torch.amp.GradScaler("cuda", enabled=requested))
    message = next((m for c, m in caught if c == "UserWarning"), "no warning")
    enabled = scaler.is_enabled()
    default, _ = caught_warnings(torch.amp.GradScaler)
    default_device = str(getattr(default, "_device", "unknown"))
    return Observation(
        holds=default_device == "cuda"
        and enabled == available
        and (available or "CUDA is not available" in message),
        rule="holds if GradScaler() without a device is a CUDA scaler, and GradScaler('cuda', "
        f"enabled={requested}) is enabled exactly when CUDA is available and warns that CUDA "
        "is not available when it disables itself",
        measurements=(
            Measurement("amp-default-scaler-device", default_device, "text"),
            Measurement("amp-cuda-scaler-available", available, "bool"),
            Measurement("amp-cuda-scaler-enabled", enabled, "bool"),
            Measurement("amp-cuda-scaler-warning", message, "text"),
        ),
    )


CUDA_GRADSCALER_NEEDS_CUDA = Claim(
    id="amp/cuda-gradscaler-needs-cuda",
    statement="GradScaler() defaults to CUDA, and a CUDA GradScaler is enabled only where "
    "CUDA is available. Without CUDA, it warns and does nothing.",
    expect=Expect.HOLDS,
    probe=probe_cuda_scaler_needs_cuda,
    control=Control(
        "GradScaler('cuda', enabled=False), which stays off without a warning",
        control_cuda_scaler_switched_off,
    ),
    devices=("cpu",),
    measures=(
        "amp-default-scaler-device",
        "amp-cuda-scaler-available",
        "amp-cuda-scaler-enabled",
        "amp-cuda-scaler-warning",
    ),
)


CLAIMS = (
    GRADSCALER_SCALE_MULTIPLIES_LOSS,
    UNSCALE_RESTORES_GRADIENTS,
    CLIP_AFTER_UNSCALE,
    GRADSCALER_SKIPS_NONFINITE_STEPS,
    GRADSCALER_LIVES_ACROSS_ITERATIONS,
    GRADSCALER_REFUSES_FLOAT16_GRADIENTS,
    GRADSCALER_BFLOAT16_ON_CPU_ONLY,
    CUDA_GRADSCALER_NEEDS_CUDA,
)
