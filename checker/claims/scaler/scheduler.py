"""Claims of "The scaler and the learning-rate scheduler" (docs/topics/gradscaler.md,
``(gs-scheduler)=``)."""

from __future__ import annotations

from dataclasses import dataclass

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.scaler._model import _batch, _model
from checker.evidence import Measurement, Observation
from checker.measure import caught_warnings
from checker.typing import Device

#: Six iterations; the first, third and fourth overflow (their loss is multiplied by ``inf``),
#: so the scaler skips three optimizer steps, the first among them.
_SKIPPED = (0, 2, 3)
_ITERATIONS = 6


@dataclass(frozen=True)
class _ScheduleRun:
    """What a run of :func:`_schedule_run` counted."""

    taken: int  # optimizer steps, counted by a step hook
    last_epoch: int  # the scheduler's count
    warnings: int  # "Detected call of `lr_scheduler.step()` before `optimizer.step()`"
    halvings: int  # how many times the learning rate was halved


def _schedule_run(device: Device, skipped: tuple[int, ...], guarded: bool) -> _ScheduleRun:
    """Train for six iterations with a scaler whose scale grows after every taken step
    (``growth_interval=1``) and a ``StepLR`` halving the learning rate at each of its steps.
    Unguarded, ``lr_scheduler.step()`` follows every iteration; guarded, only an iteration
    whose ``update`` did not lower the scale. The optimizer's real steps are counted by a
    step hook, independently of the scale."""
    import math

    import torch

    model, x = _model(device), _batch(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    schedule = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    scaler = torch.amp.GradScaler(device, growth_interval=1)
    steps: list[int] = []
    opt.register_step_post_hook(lambda *_: steps.append(1))
    warnings = 0
    for i in range(_ITERATIONS):
        opt.zero_grad()
        factor = float("inf") if i in skipped else 1.0
        scaler.scale(model(x).mean() * factor).backward()
        before = scaler.get_scale()
        scaler.step(opt)
        scaler.update()
        if guarded and scaler.get_scale() < before:
            continue
        _, caught = caught_warnings(schedule.step)
        warnings += sum("lr_scheduler.step()" in message for _, message in caught)
    halvings = round(math.log2(0.1 / opt.param_groups[0]["lr"]))
    return _ScheduleRun(len(steps), schedule.last_epoch, warnings, halvings)


def probe_skipped_step_holds_schedule_myth(device: Device) -> Observation:
    return _schedule_counts_rule(device, skipped=_SKIPPED)


def control_no_step_skipped(device: Device) -> Observation:
    return _schedule_counts_rule(device, skipped=())


def _schedule_counts_rule(device: Device, skipped: tuple[int, ...]) -> Observation:
    """The myth "a skipped step does not advance the schedule": with ``lr_scheduler.step()``
    after every iteration, the schedule's count would equal the optimizer's steps."""
    run = _schedule_run(device, skipped, guarded=False)
    key = "unguarded" if skipped else "clean"
    return Observation(
        holds=run.last_epoch == run.taken,
        rule="holds if, after six iterations "
        + ("of which the scaler skipped three" if skipped else "none of which the scaler skipped")
        + ", each followed by lr_scheduler.step(), the scheduler's last_epoch equals the "
        "number of steps the optimizer took",
        measurements=(
            Measurement(f"scaler-{key}-steps-taken", run.taken, "count"),
            Measurement(f"scaler-{key}-last-epoch", run.last_epoch, "count"),
            Measurement(f"scaler-{key}-scheduler-warnings", run.warnings, "count"),
            Measurement(f"scaler-{key}-lr-halvings", run.halvings, "count"),
        ),
    )


MYTH_SKIPPED_STEP_HOLDS_SCHEDULE = Claim(
    id="scaler/myth-skipped-step-holds-schedule",
    statement="A step that GradScaler skips does not advance the learning-rate schedule: "
    "lr_scheduler.step() counts only the steps the optimizer took.",
    expect=Expect.FAILS,
    probe=probe_skipped_step_holds_schedule_myth,
    measures=(
        "scaler-unguarded-steps-taken",
        "scaler-unguarded-last-epoch",
        "scaler-unguarded-scheduler-warnings",
        "scaler-unguarded-lr-halvings",
    ),
    control=Control(
        "six iterations with no skipped step",
        control_no_step_skipped,
        measures=("scaler-clean-steps-taken", "scaler-clean-last-epoch"),
    ),
    # "a skipped step does not advance the schedule" states the myth; "it advances" denies it
    vocabulary=Vocabulary(
        subjects=("lr_scheduler", "lr_scheduler.step()", "scheduler.step()"),
        predicates={
            "en": ("advance", "move on", "moves on"),
            "ja": ("進み", "進め", "進む"),
            "ko": ("진행",),
        },
        requires={
            "en": ("skip",),
            "ja": ("スキップ",),
            "ko": ("건너뛴", "건너뛰"),
        },
        denies=True,
    ),
)


def probe_scheduler_steps_when_scale_holds(device: Device) -> Observation:
    return _guarded_schedule_rule(device, guarded=True)


def control_scheduler_steps_every_iteration(device: Device) -> Observation:
    return _guarded_schedule_rule(device, guarded=False)


def _guarded_schedule_rule(device: Device, guarded: bool) -> Observation:
    """The pattern: ``lr_scheduler.step()`` only when ``update`` did not lower the scale. The
    scale grows after every taken step here, so the test is for a fall, not a change."""
    run = _schedule_run(device, _SKIPPED, guarded=guarded)
    key = "guarded" if guarded else "every-iteration"
    return Observation(
        holds=run.last_epoch == run.taken and run.warnings == 0,
        rule="holds if, over six iterations of which the scaler skipped three (the first "
        "among them), with lr_scheduler.step() called "
        + (
            "only when scaler.update() did not lower the scale"
            if guarded
            else "after every iteration"
        )
        + ", the scheduler's last_epoch equals the number of steps the optimizer took and "
        "the scheduler never warned",
        measurements=(
            Measurement(f"scaler-{key}-steps-taken", run.taken, "count"),
            Measurement(f"scaler-{key}-last-epoch", run.last_epoch, "count"),
            Measurement(f"scaler-{key}-scheduler-warnings", run.warnings, "count"),
            Measurement(f"scaler-{key}-lr-halvings", run.halvings, "count"),
        ),
    )


SCHEDULER_STEPS_WHEN_SCALE_HOLDS = Claim(
    id="scaler/scheduler-steps-when-scale-holds",
    statement="Calling lr_scheduler.step() only when scaler.update() did not lower the scale "
    "keeps the schedule equal to the number of steps the optimizer took, and the scheduler "
    "never warns.",
    expect=Expect.HOLDS,
    probe=probe_scheduler_steps_when_scale_holds,
    measures=(
        "scaler-guarded-steps-taken",
        "scaler-guarded-last-epoch",
        "scaler-guarded-scheduler-warnings",
        "scaler-guarded-lr-halvings",
    ),
    control=Control(
        "lr_scheduler.step() after every iteration",
        control_scheduler_steps_every_iteration,
        measures=(
            "scaler-every-iteration-steps-taken",
            "scaler-every-iteration-last-epoch",
        ),
    ),
    # the predicate holds its own negation ("did not fall"): a stem's negation is what the
    # claim says, not a denial of it (checker.text.reading.predicate_negated)
    vocabulary=Vocabulary(
        subjects=("lr_scheduler", "lr_scheduler.step()", "scheduler.step()"),
        predicates={
            "en": (
                "scale did not fall",
                "scale did not drop",
                "scale has not fallen",
                "did not lower the scale",
                "in step with the optimizer",
            ),
            "ja": ("スケールが下がらなかった", "スケールを下げなかった", "ずれません"),
            "ko": ("내려가지 않았을", "낮추지 않았을", "떨어지지 않았을", "어긋나지 않"),
        },
        # "only when the scale did not fall" is the claim's own condition, not a hypothesis
        conditions={
            "en": ("only when", "only if"),
            "ja": ("ときだけ", "場合だけ"),
            "ko": ("때만", "경우에만"),
        },
        denies=False,
    ),
)


CLAIMS = (MYTH_SKIPPED_STEP_HOLDS_SCHEDULE, SCHEDULER_STEPS_WHEN_SCALE_HOLDS)
