"""The model most memory claims of the saved-tensors page measure, the variants they run it
under, and what several sections use to compare a variant with the default."""

from __future__ import annotations

from typing import Any

from checker.measure import MemoryTrace, trace_memory
from checker.typing import Device

#: The message the probes give ``disable_saved_tensors_hooks``.
MESSAGE = "saved tensor hooks are off here"

_RULE_MARGIN = 0.01

#: Shape of the comparison model: blocks of Linear(width, hidden), GELU, Linear(hidden, width).
FFN_BLOCKS = 4
FFN_WIDTH = 128
FFN_HIDDEN = 512
FFN_ROWS = 256


def ffn_model(device: str) -> Any:
    """The comparison model: :data:`FFN_BLOCKS` feed-forward blocks, seeded."""
    import torch

    torch.manual_seed(0)
    blocks = [
        torch.nn.Sequential(
            torch.nn.Linear(FFN_WIDTH, FFN_HIDDEN),
            torch.nn.GELU(),
            torch.nn.Linear(FFN_HIDDEN, FFN_WIDTH),
        )
        for _ in range(FFN_BLOCKS)
    ]
    return torch.nn.Sequential(*blocks).to(device)


def ffn_batch(device: str) -> Any:
    """A batch of :data:`FFN_ROWS` inputs for :func:`ffn_model`."""
    import torch

    generator = torch.Generator().manual_seed(1)
    return torch.randn(FFN_ROWS, FFN_WIDTH, generator=generator).to(device)


def _error(call: Any) -> str:
    """``"Type: message"`` of what ``call()`` raises, or ``"no error"``."""
    try:
        call()
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return "no error"


def _forward(variant: str, model: Any, batch: Any) -> Any:  # noqa: PLR0911 (one per variant)
    """The model's loss under one variant."""
    import torch
    from torch.autograd.graph import disable_saved_tensors_hooks, save_on_cpu

    if variant == "default":
        return model(batch).mean()
    if variant == "disable":
        with disable_saved_tensors_hooks(MESSAGE):
            return model(batch).mean()
    if variant == "no-grad":
        with torch.no_grad():
            return model(batch).mean()
    if variant == "inference-mode":
        with torch.inference_mode():
            return model(batch).mean()
    if variant == "save-on-cpu":
        with save_on_cpu():
            return model(batch).mean()
    if variant == "save-on-cpu-pinned":
        with save_on_cpu(pin_memory=True):
            return model(batch).mean()
    if variant == "checkpoint":
        from torch.utils.checkpoint import checkpoint

        hidden = batch
        for block in model:
            hidden = checkpoint(block, hidden, use_reentrant=False)
        return hidden.mean()
    raise ValueError(f"unknown variant {variant!r}")


def _clear_grads(model: Any) -> None:
    for p in model.parameters():
        p.grad = None


def _trace_step(variant: str, model: Any, batch: Any, device: Device) -> MemoryTrace:
    """Memory of one forward (mark ``forward``) and backward (mark ``backward``), warmed up."""

    def step(mark: Any) -> None:
        loss = _forward(variant, model, batch)
        mark("forward")
        if loss.requires_grad:
            loss.backward()
        mark("backward")

    step(lambda name: None)  # warm-up: lazy workspaces are allocated once, outside the trace
    _clear_grads(model)
    _, trace = trace_memory(step, device)
    _clear_grads(model)
    return trace


def _compare(variant: str, device: Device) -> tuple[MemoryTrace, MemoryTrace]:
    """Traces of the default and of ``variant`` on the same model and batch."""
    model, batch = ffn_model(device), ffn_batch(device)
    default = _trace_step("default", model, batch, device)
    other = _trace_step(variant, model, batch, device)
    return default, other


def _ratio(a: int, b: int) -> float:
    return round(a / b, 4) if b else float("nan")
