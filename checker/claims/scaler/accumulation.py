"""Claims of "Gradient accumulation" (docs/topics/gradscaler.md, ``(gs-accumulation)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.scaler._model import _SCALER, _batch, _model, _same
from checker.evidence import Measurement, Observation
from checker.typing import Device


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


ACCUMULATION_ONE_SCALE_PER_WINDOW = Claim(
    id="scaler/accumulation-one-scale-per-window",
    statement="With gradient accumulation, the losses of one window are scaled with the same "
    "scale and unscaled once, so step and update belong at the end of the window.",
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
)


CLAIMS = (ACCUMULATION_ONE_SCALE_PER_WINDOW,)
