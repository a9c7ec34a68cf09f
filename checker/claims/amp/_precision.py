"""What several sections of the amp pages use: dtypes and floats as text, and a matrix product as a
``torch.autograd.Function`` that logs the autocast state and the dtypes it sees."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


def dtype_name(dtype: Any) -> str:
    """``torch.float16`` gives ``"float16"``."""
    return str(dtype).removeprefix("torch.")


@dataclass
class FunctionLog:
    """What a :func:`matmul_function` saw, filled in as it runs."""

    #: ``(autocast enabled, autocast dtype)`` for the device type, in forward and backward.
    forward_state: tuple[bool, str] | None = None
    backward_state: tuple[bool, str] | None = None
    #: Dtypes of the tensors forward received and returned.
    forward_dtypes: dict[str, str] = field(default_factory=dict)
    #: Dtypes of the incoming gradient and of the gradients backward computed.
    backward_dtypes: dict[str, str] = field(default_factory=dict)


def matmul_function(
    device_type: str,
    *,
    forward_decorator: Callable[[Any], Any] | None = None,
    backward_decorator: Callable[[Any], Any] | None = None,
) -> tuple[Any, FunctionLog]:
    """A ``torch.autograd.Function`` computing ``a @ b``, and the log it fills in.

    Its backward computes ``grad @ b.T`` and ``a.T @ grad`` from the tensors forward saved.
    The decorators (for example ``torch.amp.custom_fwd(device_type="cpu")``) wrap forward
    and backward when given.
    """
    import torch

    log = FunctionLog()

    def state() -> tuple[bool, str]:
        return (
            torch.is_autocast_enabled(device_type),
            dtype_name(torch.get_autocast_dtype(device_type)),
        )

    def forward(ctx: Any, a: Any, b: Any) -> Any:
        log.forward_state = state()
        ctx.save_for_backward(a, b)
        out = a @ b
        log.forward_dtypes = {
            "a": dtype_name(a.dtype),
            "b": dtype_name(b.dtype),
            "out": dtype_name(out.dtype),
        }
        return out

    def backward(ctx: Any, grad: Any) -> tuple[Any, Any]:
        log.backward_state = state()
        a, b = ctx.saved_tensors
        grad_a = grad @ b.T
        grad_b = a.T @ grad
        log.backward_dtypes = {
            "grad": dtype_name(grad.dtype),
            "grad_a": dtype_name(grad_a.dtype),
            "grad_b": dtype_name(grad_b.dtype),
        }
        return grad_a, grad_b

    if forward_decorator is not None:
        forward = forward_decorator(forward)
    if backward_decorator is not None:
        backward = backward_decorator(backward)
    function = type(
        "MatmulFunction",
        (torch.autograd.Function,),
        {"forward": staticmethod(forward), "backward": staticmethod(backward)},
    )
    return function, log


def matmul_inputs(device: str, size: int = 16) -> tuple[Any, Any]:
    """Two float32 leaves for :func:`matmul_function`, deterministic on every device."""
    import torch

    generator = torch.Generator().manual_seed(0)
    a = torch.randn(size, size, generator=generator).to(device).requires_grad_()
    b = torch.randn(size, size, generator=generator).to(device).requires_grad_()
    return a, b


def _g(value: float) -> str:
    """A float as text, exactly when that is short, else with six significant digits.

    Text keeps tiny and huge values readable (a number with four decimals would show
    ``5.96e-08`` as ``0.0000``), and matches what Python prints for exact values such as
    ``65504.0``.
    """
    exact = repr(float(value))
    return exact if len(exact) <= 16 else f"{value:.6g}"
