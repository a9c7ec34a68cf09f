"""Claims of "Several losses and optimizers" (docs/topics/gradscaler.md, ``(gs-several)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.scaler._model import _batch, _model, _same
from checker.evidence import Measurement, Observation
from checker.typing import Device


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


UPDATE_ONCE_AFTER_ALL_STEPS = Claim(
    id="scaler/update-once-after-all-steps",
    statement="With several optimizers, one GradScaler serves them all: call scaler.step for "
    "each, then scaler.update once. An update between the steps corrupts the later "
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
)


CLAIMS = (UPDATE_ONCE_AFTER_ALL_STEPS,)
