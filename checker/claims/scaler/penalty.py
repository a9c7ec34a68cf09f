"""Claims of "Gradient penalty" (docs/topics/gradscaler.md, ``(gs-penalty)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.scaler._model import _batch, _model
from checker.evidence import Measurement, Observation
from checker.typing import Device


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


AUTOGRAD_GRAD_STAYS_SCALED = Claim(
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
)


CLAIMS = (AUTOGRAD_GRAD_STAYS_SCALED,)
