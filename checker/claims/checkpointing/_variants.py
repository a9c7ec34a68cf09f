"""The checkpointing variants of the comparison model, and what a training step under each runs and
holds: what several sections of the checkpointing page use."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from checker.claims.saved_tensors._model import ffn_batch, ffn_model
from checker.evidence import NotApplicable
from checker.measure import count_kernels, trace_memory
from checker.typing import Device

#: The forward operators of a block: Linear -> addmm, GELU -> gelu. Backward runs neither.
_FORWARD_OPS = ("addmm", "gelu")

_CHECKPOINT = ("checkpoint", "チェックポイント", "체크포인트")


def _loss(variant: str, model: Any, batch: Any) -> Any:
    """The model's loss under one checkpointing variant."""
    from torch.utils.checkpoint import checkpoint
    from torch.utils.checkpoint import checkpoint_sequential as untyped

    checkpoint_sequential: Any = untyped
    if variant == "none":
        return model(batch).mean()
    if variant == "half-batch":
        return model(batch[: batch.shape[0] // 2]).mean()
    if variant == "whole":
        return checkpoint(model, batch, use_reentrant=False).mean()
    if variant == "whole-reentrant":
        return checkpoint(model, batch.requires_grad_(), use_reentrant=True).mean()
    if variant.startswith("seq"):
        segments = int(variant[3:])
        return checkpoint_sequential(model, segments, batch, use_reentrant=False).mean()
    if variant in ("each", "selective", "selective-empty"):
        context = _selective_context(variant)
        hidden = batch
        for block in model:
            hidden = checkpoint(block, hidden, use_reentrant=False, **context)
        return hidden.mean()
    raise ValueError(f"unknown variant {variant!r}")


def _selective_context(variant: str) -> dict[str, Any]:
    """``checkpoint`` keyword arguments: none, or a selective policy saving ``addmm``."""
    if variant == "each":
        return {}
    import functools

    import torch
    import torch.utils.checkpoint as ckpt

    make = getattr(ckpt, "create_selective_checkpoint_contexts", None)
    if make is None:
        raise NotApplicable(
            f"torch {torch.__version__} has no torch.utils.checkpoint."
            "create_selective_checkpoint_contexts"
        )
    saved = [torch.ops.aten.addmm.default] if variant == "selective" else []
    return {"context_fn": functools.partial(make, saved)}


def _clear_grads(model: Any) -> None:
    for p in model.parameters():
        p.grad = None


def _step_ops(
    device: Device, variant: str, early_stop: bool = True
) -> tuple[dict[str, int], dict[str, int]]:
    """Forward operators run by one training step under ``variant`` beyond the step without
    checkpointing, and the operators of one plain forward pass; both by name."""
    from torch.utils.checkpoint import set_checkpoint_early_stop

    model, batch = ffn_model(device), ffn_batch(device)
    with set_checkpoint_early_stop(early_stop):
        _loss(variant, model, batch).backward()  # warm-up
    _clear_grads(model)
    _, forward = count_kernels(lambda: _loss("none", model, batch), _FORWARD_OPS)
    _, plain = count_kernels(lambda: _loss("none", model, batch).backward(), _FORWARD_OPS)
    _clear_grads(model)
    with set_checkpoint_early_stop(early_stop):
        _, step = count_kernels(lambda: _loss(variant, model, batch).backward(), _FORWARD_OPS)
    _clear_grads(model)
    return {name: step[name] - plain[name] for name in _FORWARD_OPS}, forward


def _held(device: Device, variant: str) -> tuple[int, int]:
    """Bytes held after the forward of one step under ``variant``, and the step's peak."""
    model, batch = ffn_model(device), ffn_batch(device)

    def step(mark: Callable[[str], None]) -> None:
        loss = _loss(variant, model, batch)
        mark("forward")
        loss.backward()

    step(lambda name: None)  # warm-up: lazy workspaces are allocated outside the trace
    _clear_grads(model)
    _, trace = trace_memory(step, device)
    _clear_grads(model)
    return trace.marks["forward"], trace.peak
