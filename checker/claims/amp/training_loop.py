"""Claims of "The training loop" (docs/topics/amp.md, ``(amp-training-loop)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_step_unscales(device: Device) -> Observation:
    return _step_rule(device, through_scaler=True)


def control_optimizer_step_directly(device: Device) -> Observation:
    return _step_rule(device, through_scaler=False)


def _step_rule(device: Device, through_scaler: bool) -> Observation:
    import torch

    lr = 0.5
    updated = []
    for explicit in (True, False):
        weight = torch.ones(3, device=device, requires_grad=True)
        optimizer = torch.optim.SGD([weight], lr=lr)
        scaler: Any = torch.amp.GradScaler(device)
        scaler.scale((weight * torch.tensor([1.0, 2.0, 3.0], device=device)).sum()).backward()
        if explicit and through_scaler:
            scaler.unscale_(optimizer)
        if through_scaler:
            scaler.step(optimizer)
        else:
            optimizer.step()
        updated.append(weight.detach().cpu())
    expected = torch.tensor([1.0, 1.0, 1.0]) - lr * torch.tensor([1.0, 2.0, 3.0])
    return Observation(
        holds=all(torch.equal(u, expected) for u in updated),
        rule="holds if "
        + ("scaler.step" if through_scaler else "optimizer.step, called directly,")
        + " applies the true (unscaled) gradient to the weight, both after an explicit "
        "unscale_ and without one",
        measurements=(
            Measurement("amp-step-after-unscale", str(updated[0].tolist()), "text"),
            Measurement("amp-step-without-unscale", str(updated[1].tolist()), "text"),
            Measurement("amp-step-expected", str(expected.tolist()), "text"),
        ),
    )


STEP_UNSCALES_IF_NEEDED = Claim(
    id="amp/step-unscales-if-needed",
    statement="scaler.step unscales the gradients itself when unscale_ was not called, so "
    "the optimizer always applies the true gradients.",
    expect=Expect.HOLDS,
    probe=probe_step_unscales,
    control=Control(
        "optimizer.step() called directly",
        control_optimizer_step_directly,
    ),
    measures=("amp-step-after-unscale", "amp-step-without-unscale", "amp-step-expected"),
)


CLAIMS = (STEP_UNSCALES_IF_NEEDED,)
