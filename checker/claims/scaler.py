"""Claims of the page "GradScaler in practice" (docs/topics/gradscaler.md).

Every probe trains a tiny ``float32`` linear model for one step or a few with
``torch.amp.GradScaler(device)`` and compares what it finds with the same step taken without
a scaler: the scaler must change the loss scale and nothing else. The CPU has a scaler of its
own (``torch.amp.GradScaler("cpu")``), so the probes run on the CPU as well as on CUDA.
"""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.measure import caught_warnings
from checker.typing import Device

_SCALER = ("GradScaler", "scaler")


def _model(device: Device, seed: int = 0) -> Any:
    import torch

    torch.manual_seed(seed)
    return torch.nn.Linear(8, 4).to(device)


def _batch(device: Device, seed: int = 1) -> Any:
    import torch

    generator = torch.Generator().manual_seed(seed)
    return torch.randn(16, 8, generator=generator).to(device)


def _same(a: Any, b: Any) -> bool:
    import torch

    return all(torch.allclose(x, y, rtol=1e-5, atol=1e-7) for x, y in zip(a, b, strict=True))


# -- what the scaler changes -----------------------------------------------------------------


def probe_scaler_backward_in_float32_myth(device: Device) -> Observation:
    return _backward_dtype_rule(device, autocast=True)


def control_backward_without_autocast(device: Device) -> Observation:
    return _backward_dtype_rule(device, autocast=False)


def _backward_dtype_rule(device: Device, autocast: bool) -> Observation:
    """The myth "GradScaler runs backward in float32": the gradient that reaches the output
    of a linear layer run in float16 (under autocast) arrives in float32 when the loss is
    scaled."""
    import contextlib

    import torch

    model, x = _model(device), _batch(device)
    scaler = torch.amp.GradScaler(device)
    seen: list[str] = []
    region = torch.autocast(device, dtype=torch.float16) if autocast else contextlib.nullcontext()
    with region:
        out = model(x)
    out.register_hook(lambda grad: seen.append(str(grad.dtype).removeprefix("torch.")))
    scaler.scale(out.float().pow(2).mean()).backward()
    key = "autocast" if autocast else "plain"
    return Observation(
        holds=seen == ["float32"],
        rule="holds if, with a scaled loss, the gradient reaching the output of a linear layer "
        + ("run under float16 autocast" if autocast else "run without autocast")
        + " is float32",
        measurements=(
            Measurement(
                f"scaler-{key}-output-dtype", str(out.dtype).removeprefix("torch."), "dtype"
            ),
            Measurement(f"scaler-{key}-output-grad-dtype", ", ".join(seen), "dtype"),
        ),
    )


def probe_scaler_runs_in_float16(device: Device) -> Observation:
    return _compute_dtype_rule(device, autocast=False)


def control_autocast_float16(device: Device) -> Observation:
    return _compute_dtype_rule(device, autocast=True)


def _compute_dtype_rule(device: Device, autocast: bool) -> Observation:
    import contextlib

    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    mode_base: Any = TorchDispatchMode
    dtypes: set[str] = set()

    class Record(mode_base):  # type: ignore[misc]
        def __torch_dispatch__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            out = func(*args, **(kwargs or {}))
            if func.overloadpacket.__name__ in ("addmm", "mm", "matmul"):
                dtypes.add(str(out.dtype).removeprefix("torch."))
            return out

    model, x = _model(device), _batch(device)
    scaler = torch.amp.GradScaler(device)
    region = torch.autocast(device, dtype=torch.float16) if autocast else contextlib.nullcontext()
    with Record():
        with region:
            loss = model(x).float().pow(2).mean()
        scaled = scaler.scale(loss)
        scaled.backward()
    shown = ", ".join(sorted(dtypes))
    measurements = [
        Measurement(f"scaler-{'autocast-' if autocast else ''}matmul-dtypes", shown, "text")
    ]
    if not autocast:
        measurements += [
            Measurement(
                "scaler-scaled-loss-dtype", str(scaled.dtype).removeprefix("torch."), "dtype"
            ),
            Measurement("scaler-scaled-loss-ratio", round(scaled.item() / loss.item()), "count"),
        ]
    return Observation(
        holds="float16" in dtypes,
        rule="holds if a matrix product of a training step whose loss went through "
        "GradScaler.scale ran in float16, in forward or in backward",
        measurements=tuple(measurements),
    )


# -- several losses and optimizers -------------------------------------------------------------


def probe_update_once_after_all_steps(device: Device) -> Observation:
    return _two_optimizers_rule(device, update_between=False)


def control_update_between_steps(device: Device) -> Observation:
    return _two_optimizers_rule(device, update_between=True)


def _two_optimizers_rule(device: Device, update_between: bool) -> Observation:
    import torch

    def run(scaled: bool) -> list[Any]:
        first, second = _model(device, 0), _model(device, 1)
        x = _batch(device)
        opts = [torch.optim.SGD(m.parameters(), lr=0.1) for m in (first, second)]
        loss0, loss1 = first(x).pow(2).mean(), second(x).abs().mean()
        if not scaled:
            (loss0 + loss1).backward()
            for opt in opts:
                opt.step()
            return [p.detach().clone() for m in (first, second) for p in m.parameters()]
        scaler = torch.amp.GradScaler(device, growth_interval=1)  # every update changes it
        scaler.scale(loss0).backward()
        scaler.scale(loss1).backward()
        scaler.step(opts[0])
        if update_between:
            scaler.update()
        scaler.step(opts[1])
        scaler.update()
        return [p.detach().clone() for m in (first, second) for p in m.parameters()]

    reference, scaled = run(False), run(True)
    first_ok, second_ok = _same(scaled[:2], reference[:2]), _same(scaled[2:], reference[2:])
    name = "between" if update_between else "once"
    return Observation(
        holds=first_ok and second_ok,
        rule="holds if, with one GradScaler (growth_interval=1) for two losses and two "
        "optimizers, both models' parameters after the step equal those of the same step "
        "taken without a scaler",
        measurements=(
            Measurement(f"scaler-update-{name}-first-correct", first_ok, "bool"),
            Measurement(f"scaler-update-{name}-second-correct", second_ok, "bool"),
        ),
    )


# -- gradient accumulation -----------------------------------------------------------------------


def probe_accumulation_one_scale(device: Device) -> Observation:
    return _accumulation_rule(device, rescale=False)


def control_accumulation_scale_changed(device: Device) -> Observation:
    return _accumulation_rule(device, rescale=True)


def _accumulation_rule(device: Device, rescale: bool) -> Observation:
    import torch

    micro = 4
    batches = [_batch(device, seed) for seed in range(micro)]

    def grads(scaled: bool) -> tuple[list[Any], float]:
        model = _model(device)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        scaler = torch.amp.GradScaler(device)
        for i, x in enumerate(batches):
            loss = model(x).pow(2).mean() / micro
            if not scaled:
                loss.backward()
                continue
            scaler.scale(loss).backward()
            if rescale and i == 1:
                scaler.update(scaler.get_scale() * 2)  # the scale changes inside the window
        if scaled:
            scaler.unscale_(opt)
        return [p.grad.detach().clone() for p in model.parameters()], scaler.get_scale()

    reference, _ = grads(False)
    accumulated, scale = grads(True)
    same = _same(accumulated, reference)
    name = "accumulation-rescaled" if rescale else "accumulation"
    return Observation(
        holds=same,
        rule="holds if the gradients of four micro-batches accumulated with scaled losses and "
        "unscaled once at the end of the window equal those accumulated without a scaler",
        measurements=(
            Measurement(f"scaler-{name}-equal", same, "bool"),
            Measurement(f"scaler-{name}-scale", int(scale), "count"),
        ),
    )


# -- state_dict ---------------------------------------------------------------------------------


def probe_state_dict_restores_scale(device: Device) -> Observation:
    return _state_rule(device, load=True)


def control_new_scaler_without_state(device: Device) -> Observation:
    return _state_rule(device, load=False)


def _state_rule(device: Device, load: bool) -> Observation:
    import torch

    model, x = _model(device), _batch(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler(device, growth_interval=3)
    for factor in (float("inf"), 1.0, 1.0):  # one skipped step, then two clean ones
        opt.zero_grad()
        scaler.scale(model(x).mean() * factor).backward()
        scaler.step(opt)
        scaler.update()
    state = scaler.state_dict()
    resumed = torch.amp.GradScaler(device)
    if load:
        resumed.load_state_dict(state)
    restored = resumed.state_dict()
    same = restored["scale"] == state["scale"] and (
        restored["_growth_tracker"] == state["_growth_tracker"]
    )
    measurements = [
        Measurement(
            f"scaler-{'loaded' if load else 'fresh'}-scale", int(restored["scale"]), "count"
        )
    ]
    if load:
        measurements += [
            Measurement("scaler-saved-scale", int(state["scale"]), "count"),
            Measurement("scaler-saved-growth-tracker", state["_growth_tracker"], "count"),
            Measurement("scaler-state-keys", ", ".join(sorted(state)), "text"),
        ]
    return Observation(
        holds=same,
        rule="holds if a new GradScaler has the scale and growth tracker of the scaler whose "
        "state_dict it was given, after a skipped step and two clean ones",
        measurements=tuple(measurements),
    )


# -- skipped steps --------------------------------------------------------------------------------


def probe_skipped_step_is_visible(device: Device) -> Observation:
    return _skipped_rule(device, overflow=True)


def control_step_taken(device: Device) -> Observation:
    return _skipped_rule(device, overflow=False)


def _skipped_rule(device: Device, overflow: bool) -> Observation:
    import torch

    model, x = _model(device), _batch(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    schedule = torch.optim.lr_scheduler.StepLR(opt, step_size=1)
    scaler = torch.amp.GradScaler(device)
    before = [p.detach().clone() for p in model.parameters()]
    factor = float("inf") if overflow else 1.0
    scaler.scale(model(x).mean() * factor).backward()
    scale_before = scaler.get_scale()
    scaler.step(opt)
    scaler.update()
    scale_after = scaler.get_scale()
    unchanged = _same([p.detach() for p in model.parameters()], before)
    _, caught = caught_warnings(schedule.step)
    scheduler = next((m for _, m in caught if "lr_scheduler.step()" in m), "")
    prefix = "scaler-skipped" if overflow else "scaler-taken"
    measurements = [
        Measurement(f"{prefix}-scale-after", int(scale_after), "count"),
        Measurement(f"{prefix}-params-unchanged", unchanged, "bool"),
        Measurement(f"{prefix}-scheduler-warns", bool(scheduler), "bool"),
    ]
    if overflow:
        measurements += [
            Measurement("scaler-skipped-scale-before", int(scale_before), "count"),
            Measurement(
                "scaler-scheduler-warning",
                (scheduler.split(". ", maxsplit=1)[0] + ".") if scheduler else "no warning",
                "text",
            ),
        ]
    return Observation(
        holds=scale_after < scale_before and unchanged and bool(scheduler),
        rule="holds if, after scaler.step and scaler.update, the scale is lower than before, "
        "the parameters are unchanged, and lr_scheduler.step() then warns that it was called "
        "before optimizer.step()",
        measurements=tuple(measurements),
    )


# -- gradient penalty ---------------------------------------------------------------------------


def probe_autograd_grad_stays_scaled(device: Device) -> Observation:
    return _penalty_rule(device, autograd_grad=True)


def control_backward_grads_unscaled(device: Device) -> Observation:
    return _penalty_rule(device, autograd_grad=False)


def _penalty_rule(device: Device, autograd_grad: bool) -> Observation:
    import torch

    model, x = _model(device), _batch(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler(device)
    loss = model(x).pow(2).mean()
    (true,) = torch.autograd.grad(loss, model.weight, retain_graph=True)
    if autograd_grad:
        (grad,) = torch.autograd.grad(scaler.scale(loss), model.weight, create_graph=True)
    else:
        scaler.scale(loss).backward()
        grad = model.weight.grad
    scaler.unscale_(opt)
    ratio = round((grad.detach() / true).mean().item(), 4)
    name = "autograd-grad" if autograd_grad else "backward"
    return Observation(
        holds=abs(ratio - scaler.get_scale()) < 1e-3 * scaler.get_scale(),
        rule="holds if, after scaler.unscale_(optimizer), the gradient of a scaled loss is "
        "still the scale times the true gradient",
        measurements=(Measurement(f"scaler-{name}-ratio-after-unscale", ratio, "ratio"),),
    )


CLAIMS = (
    # topics/gradscaler.md (gs-changes)
    Claim(
        id="scaler/myth-scaler-computes-in-float16",
        statement="GradScaler makes the model's operations run in float16.",
        expect=Expect.FAILS,
        probe=probe_scaler_runs_in_float16,
        measures=("scaler-matmul-dtypes", "scaler-scaled-loss-dtype", "scaler-scaled-loss-ratio"),
        control=Control(
            "the same step under torch.autocast with float16",
            control_autocast_float16,
            measures=("scaler-autocast-matmul-dtypes",),
        ),
        vocabulary=Vocabulary(
            subjects=_SCALER,
            predicates={
                "en": (
                    "run in float16",
                    "runs in float16",
                    "compute in float16",
                    "computes in float16",
                    "compute dtype to float16",
                ),
                "ja": (
                    "float16で計算",
                    "float16で実行",
                    "半精度で計算",
                    "半精度で実行",
                    "dtypeをfloat16に変更",
                    "dtype を float16 に変更",
                ),
                "ko": (
                    "float16로 계산",
                    "float16으로 계산",
                    "float16로 실행",
                    "반정밀도로 계산",
                    "dtype을 float16으로 바꾼",
                    "dtype을 float16으로 변경",
                ),
            },
        ),
    ),
    Claim(
        id="scaler/myth-scaler-backward-in-float32",
        statement="GradScaler runs backward in float32: the gradients that flow back through "
        "float16 operations become float32.",
        expect=Expect.FAILS,
        probe=probe_scaler_backward_in_float32_myth,
        measures=("scaler-autocast-output-dtype", "scaler-autocast-output-grad-dtype"),
        control=Control(
            "the same step without autocast",
            control_backward_without_autocast,
            measures=("scaler-plain-output-grad-dtype",),
        ),
        vocabulary=Vocabulary(
            subjects=_SCALER,
            predicates={
                "en": (
                    "backward in float32",
                    "backward pass in float32",
                    "backward pass to float32",
                    "gradients to float32",
                    "gradients in float32",
                    "backward in fp32",
                    "to fp32",
                ),
                "ja": ("FP32に", "fp32に", "float32に", "FP32で", "float32で", "単精度で逆伝播"),
                "ko": ("FP32로", "fp32로", "float32로", "FP32에서", "float32에서"),
            },
        ),
    ),
    # topics/gradscaler.md (gs-several)
    Claim(
        id="scaler/update-once-after-all-steps",
        statement="With several optimizers, one GradScaler serves them all: call scaler.step "
        "for each, then scaler.update once; an update between the steps corrupts the later "
        "optimizers' steps.",
        expect=Expect.HOLDS,
        probe=probe_update_once_after_all_steps,
        measures=("scaler-update-once-first-correct", "scaler-update-once-second-correct"),
        control=Control(
            "scaler.update() called between the two optimizers' steps",
            control_update_between_steps,
            measures=(
                "scaler-update-between-first-correct",
                "scaler-update-between-second-correct",
            ),
        ),
        vocabulary=Vocabulary(
            subjects=("scaler.update", "update()"),
            predicates={
                "en": ("once per iteration", "once", "after all"),
                "ja": ("1回だけ", "一度だけ", "1 回だけ"),
                "ko": ("한 번만",),
            },
            # "call update() before step()" (the other order) denies it (checker.scan.order)
            order=(("step",), ("update",)),
            opposites={  # "call update() right after each step()"
                "en": ("after each … step", "after every … step", "for each optimizer"),
                "ja": ("オプティマイザごと", "各オプティマイザ", "step() … ごとに"),
                "ko": ("옵티마이저마다", "각 옵티마이저", "step() … 마다"),
            },
        ),
    ),
    # topics/gradscaler.md (gs-accumulation)
    Claim(
        id="scaler/accumulation-one-scale-per-window",
        statement="With gradient accumulation, the losses of one accumulation window are "
        "scaled with the same scale and unscaled once, so step and update belong at the end "
        "of the window.",
        expect=Expect.HOLDS,
        probe=probe_accumulation_one_scale,
        measures=("scaler-accumulation-equal", "scaler-accumulation-scale"),
        control=Control(
            "a scale changed inside the window",
            control_accumulation_scale_changed,
            measures=("scaler-accumulation-rescaled-equal", "scaler-accumulation-rescaled-scale"),
        ),
        vocabulary=Vocabulary(
            subjects=_SCALER,
            predicates={
                "en": ("end of the accumulation", "end of the window"),
                "ja": ("累積の最後", "累積の終わり"),
                "ko": ("누적의 마지막", "누적이 끝날 때", "누적이 끝난"),
            },
        ),
    ),
    # topics/gradscaler.md (gs-penalty)
    Claim(
        id="scaler/autograd-grad-stays-scaled",
        statement="Gradients that torch.autograd.grad returns for a scaled loss stay scaled: "
        "unscale_ does not divide them, so a gradient penalty must divide them by the scale "
        "itself.",
        expect=Expect.HOLDS,
        probe=probe_autograd_grad_stays_scaled,
        measures=("scaler-autograd-grad-ratio-after-unscale",),
        control=Control(
            "gradients that backward() put in .grad",
            control_backward_grads_unscaled,
            measures=("scaler-backward-ratio-after-unscale",),
        ),
        vocabulary=Vocabulary(
            subjects=("torch.autograd.grad", "autograd.grad"),
            predicates={
                "en": ("stay scaled", "still scaled", "by the scale"),
                "ja": ("スケールされたまま", "スケールで割"),
                "ko": ("스케일된 채", "스케일로 나누"),
            },
        ),
    ),
    # topics/gradscaler.md (gs-state)
    Claim(
        id="scaler/state-dict-restores-scale",
        statement="A GradScaler's state_dict holds its scale and growth tracker, and a new "
        "scaler that loads it resumes with the same scale.",
        expect=Expect.HOLDS,
        probe=probe_state_dict_restores_scale,
        measures=(
            "scaler-loaded-scale",
            "scaler-saved-scale",
            "scaler-saved-growth-tracker",
            "scaler-state-keys",
        ),
        control=Control(
            "a new scaler that did not load the state_dict",
            control_new_scaler_without_state,
            measures=("scaler-fresh-scale",),
        ),
        vocabulary=Vocabulary(
            subjects=("load_state_dict", "state_dict"),
            predicates={
                "en": ("same scale", "resume"),
                "ja": ("同じスケール", "再開"),
                "ko": ("같은 스케일", "재개"),
            },
        ),
    ),
    # topics/gradscaler.md (gs-skipped)
    Claim(
        id="scaler/skipped-step-is-visible",
        statement="A step that GradScaler skipped shows as a lower scale after update and "
        "unchanged parameters, and a following lr_scheduler.step() warns that it came before "
        "optimizer.step().",
        expect=Expect.HOLDS,
        probe=probe_skipped_step_is_visible,
        measures=(
            "scaler-skipped-scale-after",
            "scaler-skipped-params-unchanged",
            "scaler-skipped-scheduler-warns",
            "scaler-skipped-scale-before",
            "scaler-scheduler-warning",
        ),
        control=Control(
            "a step with finite gradients",
            control_step_taken,
            measures=(
                "scaler-taken-scale-after",
                "scaler-taken-params-unchanged",
                "scaler-taken-scheduler-warns",
            ),
        ),
        vocabulary=Vocabulary(
            subjects=("lr_scheduler",),
            predicates={
                "en": ("skipped", "warn"),
                "ja": ("スキップ", "警告"),
                "ko": ("건너뛴", "경고"),
            },
        ),
    ),
)
