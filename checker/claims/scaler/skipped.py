"""Claims of "Skipped steps, and how to see them" (docs/topics/gradscaler.md, ``(gs-skipped)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.scaler._model import _batch, _model, _same
from checker.evidence import Measurement, Observation
from checker.measure import caught_warnings
from checker.typing import Device


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


SKIPPED_STEP_IS_VISIBLE = Claim(
    id="scaler/skipped-step-is-visible",
    statement="A step that GradScaler skipped shows as a lower scale after update and "
    "unchanged parameters; when it is the first step of training, a following "
    "lr_scheduler.step() also warns that it came before optimizer.step().",
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
        # steps after the first: the scheduler stays silent (the next claim); whether the
        # schedule advances is scaler/myth-skipped-step-holds-schedule's
        unless={
            "en": ("after the first", "later", "advance", "move on", "moves on"),
            "ja": ("最初のステップより後", "最初のステップの後", "進み", "進む", "進め"),
            "ko": ("첫 스텝 이후", "두 번째", "진행"),
        },
    ),
)


def probe_later_skip_is_silent(device: Device) -> Observation:
    return _later_skip_rule(device, first_taken=True)


def control_first_step_skipped(device: Device) -> Observation:
    return _later_skip_rule(device, first_taken=False)


def _later_skip_rule(device: Device, first_taken: bool) -> Observation:
    """One iteration (taken or skipped), then a skipped one, each followed by
    ``lr_scheduler.step()``: what the scheduler says after the second, and what it does."""
    import torch

    model, x = _model(device), _batch(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    schedule = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    scaler = torch.amp.GradScaler(device)
    warned = []
    rates = []
    for overflow in (not first_taken, True):
        opt.zero_grad()
        scaler.scale(model(x).mean() * (float("inf") if overflow else 1.0)).backward()
        scaler.step(opt)
        scaler.update()
        _, caught = caught_warnings(schedule.step)
        warned.append(any("lr_scheduler.step()" in m for _, m in caught))
        rates.append(opt.param_groups[0]["lr"])
    key = "later" if first_taken else "first"
    return Observation(
        holds=not any(warned) and rates[1] < rates[0],
        rule="holds if, over "
        + ("a taken iteration" if first_taken else "a skipped iteration")
        + " followed by a skipped one, lr_scheduler.step() warns after neither and the "
        "learning rate still falls at the second",
        measurements=(
            Measurement(f"scaler-{key}-skip-scheduler-warns", any(warned), "bool"),
            Measurement(f"scaler-{key}-skip-lr-before", rates[0], "count"),
            Measurement(f"scaler-{key}-skip-lr-after", rates[1], "count"),
        ),
    )


LATER_SKIPPED_STEP_IS_SILENT = Claim(
    id="scaler/later-skipped-step-is-silent",
    statement="A step skipped after the first one is silent: lr_scheduler.step() does not warn, "
    "and the schedule advances as if the step had been taken.",
    expect=Expect.HOLDS,
    probe=probe_later_skip_is_silent,
    measures=(
        "scaler-later-skip-scheduler-warns",
        "scaler-later-skip-lr-before",
        "scaler-later-skip-lr-after",
    ),
    control=Control(
        "the first step skipped",
        control_first_step_skipped,
        measures=("scaler-first-skip-scheduler-warns",),
    ),
    # the statement denies the warning; only a sentence about steps after the first states it
    vocabulary=Vocabulary(
        subjects=("lr_scheduler",),
        predicates={"en": ("warn",), "ja": ("警告",), "ko": ("경고",)},
        denies=True,
        requires={
            "en": ("after the first", "later"),
            "ja": ("最初のステップより後", "最初のステップの後"),
            "ko": ("첫 스텝 이후", "두 번째"),
        },
    ),
)


CLAIMS = (SKIPPED_STEP_IS_VISIBLE, LATER_SKIPPED_STEP_IS_SILENT)
