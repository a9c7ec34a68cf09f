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
)


CLAIMS = (SKIPPED_STEP_IS_VISIBLE,)
