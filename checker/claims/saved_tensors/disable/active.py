"""Claims of "Entering it while hooks are active raises" (docs/topics/saved-tensors.md,
``(st-disable-active)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect
from checker.claims.saved_tensors._model import MESSAGE, _error
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_disable_inside_active_hooks(device: Device) -> Observation:
    return _inside_hooks_rule(device, hooks_active=True)


def control_disable_without_active_hooks(device: Device) -> Observation:
    return _inside_hooks_rule(device, hooks_active=False)


def _inside_hooks_rule(device: Device, hooks_active: bool) -> Observation:
    import contextlib

    import torch
    from torch.autograd.graph import disable_saved_tensors_hooks, saved_tensors_hooks

    def enter() -> None:
        active = (
            saved_tensors_hooks(lambda t: t, lambda t: t)
            if hooks_active
            else contextlib.nullcontext()
        )
        with active, disable_saved_tensors_hooks(MESSAGE):
            pass

    error = _error(enter)

    def register() -> None:
        x = torch.ones(4, device=device, requires_grad=True)
        with saved_tensors_hooks(lambda t: t, lambda t: t):
            x.exp()

    after = _error(register)
    return Observation(
        holds=error == f"RuntimeError: {MESSAGE}" and after == "no error",
        rule="holds if entering the block while saved_tensors_hooks is active raises "
        "RuntimeError with the block's message, and hooks can be registered afterwards",
        measurements=(
            Measurement("st-disable-inside-hooks", error, "exception"),
            Measurement("st-hooks-after-failed-entry", after, "text"),
        ),
    )


DISABLE_FAILS_INSIDE_ACTIVE_HOOKS = Claim(
    id="saved-tensors/disable-fails-inside-active-hooks",
    statement="Entering disable_saved_tensors_hooks while saved_tensors_hooks are active "
    "raises a RuntimeError with its error_message.",
    expect=Expect.HOLDS,
    probe=probe_disable_inside_active_hooks,
    control=Control(
        "entering the block with no hooks active",
        control_disable_without_active_hooks,
    ),
    measures=("st-disable-inside-hooks", "st-hooks-after-failed-entry"),
)


CLAIMS = (DISABLE_FAILS_INSIDE_ACTIVE_HOOKS,)
