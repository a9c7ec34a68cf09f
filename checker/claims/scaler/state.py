"""Claims of "Saving and resuming" (docs/topics/gradscaler.md, ``(gs-state)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.scaler._model import _batch, _model
from checker.evidence import Measurement, Observation
from checker.typing import Device


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


STATE_DICT_RESTORES_SCALE = Claim(
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
)


CLAIMS = (STATE_DICT_RESTORES_SCALE,)
