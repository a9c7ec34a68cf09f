"""Claims of "Installing hooks inside it raises" (docs/topics/saved-tensors.md,
``(st-disable-raises)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.saved_tensors._model import MESSAGE, _error
from checker.claims.saved_tensors.disable._block import _DISABLE, _block
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_disable_forbids_default_hooks(device: Device) -> Observation:
    return _forbids_hooks_rule(device, real=True)


def control_hooks_without_block(device: Device) -> Observation:
    return _forbids_hooks_rule(device, real=False)


def _forbids_hooks_rule(device: Device, real: bool) -> Observation:
    import torch
    from torch.autograd.graph import save_on_cpu, saved_tensors_hooks

    x = torch.randn(8, 8, device=device, requires_grad=True)

    def with_hooks() -> None:
        with saved_tensors_hooks(lambda t: t, lambda t: t):
            x.exp()

    def with_save_on_cpu() -> None:
        with save_on_cpu():
            x.exp()

    with _block(MESSAGE, real):
        hooks = _error(with_hooks)
        offload = _error(with_save_on_cpu)
    expected = f"RuntimeError: {MESSAGE}"
    return Observation(
        holds=hooks == expected and offload == expected,
        rule="holds if entering saved_tensors_hooks and save_on_cpu inside the block both "
        "raise RuntimeError whose message is exactly the block's error_message",
        measurements=(
            Measurement("st-saved-tensors-hooks-in-disable", hooks, "exception"),
            Measurement("st-save-on-cpu-in-disable", offload, "exception"),
        ),
    )


DISABLE_FORBIDS_DEFAULT_HOOKS = Claim(
    id="saved-tensors/disable-forbids-default-hooks",
    statement="Inside disable_saved_tensors_hooks, entering saved_tensors_hooks or "
    "save_on_cpu raises a RuntimeError whose message is the given error_message.",
    expect=Expect.HOLDS,
    probe=probe_disable_forbids_default_hooks,
    control=Control(
        "the same hooks without the block",
        control_hooks_without_block,
    ),
    measures=("st-saved-tensors-hooks-in-disable", "st-save-on-cpu-in-disable"),
    vocabulary=Vocabulary(
        subjects=_DISABLE,
        predicates={
            "en": ("raise", "error", "forbid"),
            "ja": ("エラー", "禁止"),
            "ko": ("오류", "에러", "금지"),
        },
    ),
)


def probe_disable_forbids_checkpoint(device: Device) -> Observation:
    return _forbids_checkpoint_rule(device, real=True)


def control_checkpoint_without_block(device: Device) -> Observation:
    return _forbids_checkpoint_rule(device, real=False)


def _forbids_checkpoint_rule(device: Device, real: bool) -> Observation:
    import torch
    from torch.utils.checkpoint import checkpoint

    x = torch.randn(8, 8, device=device, requires_grad=True)

    def block(t: Any) -> Any:
        return t.sin().exp()

    with _block(MESSAGE, real):
        non_reentrant = _error(lambda: checkpoint(block, x, use_reentrant=False).sum().backward())
        reentrant = _error(lambda: checkpoint(block, x, use_reentrant=True).sum().backward())
    return Observation(
        holds=non_reentrant == f"RuntimeError: {MESSAGE}" and reentrant == "no error",
        rule="holds if checkpoint(use_reentrant=False) inside the block raises RuntimeError "
        "with the block's message, while checkpoint(use_reentrant=True) runs",
        measurements=(
            Measurement("st-nonreentrant-checkpoint-in-disable", non_reentrant, "exception"),
            Measurement("st-reentrant-checkpoint-in-disable", reentrant, "text"),
        ),
    )


DISABLE_FORBIDS_NONREENTRANT_CHECKPOINT = Claim(
    id="saved-tensors/disable-forbids-nonreentrant-checkpoint",
    statement="Inside disable_saved_tensors_hooks, checkpoint(..., use_reentrant=False) "
    "raises the block's RuntimeError, while checkpoint(..., use_reentrant=True) still runs.",
    expect=Expect.HOLDS,
    probe=probe_disable_forbids_checkpoint,
    control=Control(
        "the same checkpoints without the block",
        control_checkpoint_without_block,
    ),
    measures=("st-nonreentrant-checkpoint-in-disable", "st-reentrant-checkpoint-in-disable"),
    vocabulary=Vocabulary(subjects=(*_DISABLE, "checkpoint")),
)


CLAIMS = (
    DISABLE_FORBIDS_DEFAULT_HOOKS,
    DISABLE_FORBIDS_NONREENTRANT_CHECKPOINT,
)
