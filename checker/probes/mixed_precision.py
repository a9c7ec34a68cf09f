"""Measuring automatic mixed precision: result dtypes under autocast, gradient underflow, and
the autocast state that custom autograd Functions see.

The same helpers serve CPU and CUDA, so one probe can decide a claim on both devices:

* :func:`result_dtypes` runs named operations on one device, inside or outside an autocast
  region, and reports the dtype of each result (or the error it raised).
* :func:`gradient_sweep` pushes a sweep of gradient magnitudes through a low-precision
  backward pass and reports what arrives, with or without a ``GradScaler``;
  :func:`surviving_gradients` counts how many arrive non-zero.
* :func:`matmul_function` builds a small ``torch.autograd.Function`` (a matrix product) with
  or without the ``custom_fwd`` / ``custom_bwd`` decorators, recording what its forward and
  backward see: the autocast state and the dtypes of the tensors they compute.

Nothing here imports torch at module level: claim modules import this module.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any


def run_op(name: str, t: dict[str, Any]) -> Any:
    """Run the operation called ``name`` on the tensors built by :func:`_inputs`."""
    from torch.nn import functional

    ops: dict[str, Callable[[], Any]] = {
        # matrix products and convolutions
        "mm": lambda: t["a"].mm(t["b"]),
        "matmul": lambda: t["a"] @ t["b"],
        "bmm": lambda: t["batch"].bmm(t["batch"]),
        "linear": lambda: functional.linear(t["a"], t["weight"]),
        "conv2d": lambda: functional.conv2d(t["image"], t["kernel"]),
        # losses and a product
        "mse_loss": lambda: functional.mse_loss(t["a"], t["b"]),
        "l1_loss": lambda: functional.l1_loss(t["a"], t["b"]),
        "cross_entropy": lambda: functional.cross_entropy(t["a"], t["labels"]),
        "binary_cross_entropy_with_logits": lambda: functional.binary_cross_entropy_with_logits(
            t["a"], t["probabilities"]
        ),
        "binary_cross_entropy": lambda: functional.binary_cross_entropy(
            t["probabilities"], t["probabilities"]
        ),
        "prod": t["a"].prod,
        # activations
        "relu": lambda: functional.relu(t["a"]),
        "gelu": lambda: functional.gelu(t["a"]),
        "sigmoid": t["a"].sigmoid,
        # reductions and normalisations whose policy differs between CPU and CUDA
        "softmax": lambda: t["a"].softmax(dim=-1),
        "log_softmax": lambda: t["a"].log_softmax(dim=-1),
        "sum": t["a"].sum,
        "exp": t["a"].exp,
        "layer_norm": lambda: functional.layer_norm(t["a"], (t["a"].shape[-1],)),
    }
    return ops[name]()


def dtype_name(dtype: Any) -> str:
    """``torch.float16`` gives ``"float16"``."""
    return str(dtype).removeprefix("torch.")


def _inputs(device: str, dtype: Any) -> dict[str, Any]:
    """Small deterministic inputs of one floating dtype (labels are integers)."""
    import torch

    generator = torch.Generator().manual_seed(0)

    def rand(*shape: int) -> Any:
        return torch.randn(*shape, generator=generator).to(device=device, dtype=dtype)

    return {
        "a": rand(8, 8),
        "b": rand(8, 8),
        "batch": rand(2, 8, 8),
        "weight": rand(4, 8),
        "image": rand(1, 2, 8, 8),
        "kernel": rand(3, 2, 3, 3),
        "probabilities": torch.rand(8, 8, generator=generator).to(device=device, dtype=dtype),
        "labels": torch.randint(0, 8, (8,), generator=generator).to(device),
    }


def result_dtypes(
    device: str, names: Iterable[str], input_dtype: Any, autocast_dtype: Any | None
) -> dict[str, str]:
    """The dtype name of each operation's result, or ``"Type: message"`` if it raised.

    Inputs of ``input_dtype`` live on ``device``; the operations run inside
    ``torch.autocast(device, dtype=autocast_dtype)``, or outside any autocast region when
    ``autocast_dtype`` is ``None``.
    """
    import torch

    tensors = _inputs(device, input_dtype)
    found: dict[str, str] = {}
    for name in names:
        try:
            if autocast_dtype is None:
                result = run_op(name, tensors)
            else:
                with torch.autocast(device, dtype=autocast_dtype):
                    result = run_op(name, tensors)
            found[name] = dtype_name(result.dtype)
        except Exception as exc:
            found[name] = f"{type(exc).__name__}: {exc}"
    return found


def describe(found: dict[str, str]) -> str:
    """``"mm: float16, linear: float16"``, for a text measurement."""
    return ", ".join(f"{name}: {value.splitlines()[0]}" for name, value in found.items())


def error_text(call: Callable[[], Any]) -> str:
    """``"Type: message"`` of what ``call()`` raises, or ``"no error"``."""
    try:
        call()
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return "no error"


def caught_warnings(call: Callable[[], Any]) -> tuple[Any, list[tuple[str, str]]]:
    """``call()``'s result and every warning it emitted, as ``(category, message)`` pairs."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [(w.category.__name__, str(w.message)) for w in caught]


# -- gradient underflow ----------------------------------------------------------------------

#: The sweep of gradient magnitudes: ``10**SWEEP_LOW`` to ``10**SWEEP_HIGH``, evenly spaced on
#: a log scale, ``SWEEP_PER_DECADE`` values per factor of ten. It reaches down into float32's
#: subnormal range (below about 1.2e-38), so that the limits of every dtype show.
SWEEP_LOW = -44
SWEEP_HIGH = -2
SWEEP_PER_DECADE = 10


def gradient_magnitudes(device: str) -> Any:
    """The float32 gradient magnitudes of the sweep, on ``device``."""
    import torch

    count = (SWEEP_HIGH - SWEEP_LOW) * SWEEP_PER_DECADE + 1
    return torch.logspace(SWEEP_LOW, SWEEP_HIGH, count, dtype=torch.float64).to(
        device=device, dtype=torch.float32
    )


@dataclass(frozen=True)
class Sweep:
    """The sweep's gradients as sent and as they arrived at a float32 weight."""

    #: The gradient each weight should receive (float32 values, as Python floats).
    sent: tuple[float, ...]
    #: The gradient it received.
    arrived: tuple[float, ...]

    def kept(self, low: float = 0.0, high: float = float("inf")) -> int:
        """How many gradients with ``low <= sent < high`` arrived non-zero."""
        return sum(1 for s, a in zip(self.sent, self.arrived, strict=True) if low <= s < high and a)

    def count(self, low: float = 0.0, high: float = float("inf")) -> int:
        """How many gradients were sent with ``low <= sent < high``."""
        return sum(1 for s in self.sent if low <= s < high)

    def smallest_kept(self) -> float:
        """The smallest gradient that arrived non-zero (``inf`` when none did)."""
        return min(
            (s for s, a in zip(self.sent, self.arrived, strict=True) if a), default=float("inf")
        )

    def max_relative_error(self, low: float = 0.0) -> float:
        """The largest ``|arrived - sent| / sent`` over the gradients ``>= low`` that arrived."""
        errors = [
            abs(a - s) / s for s, a in zip(self.sent, self.arrived, strict=True) if s >= low and a
        ]
        return max(errors, default=0.0)


def gradient_sweep(device: str, dtype: Any, *, scaled: bool = False) -> Sweep:
    """Send every gradient of the sweep back through a ``dtype`` copy of a float32 weight.

    The float32 weight is cast to ``dtype``, as autocast casts a parameter before a matrix
    product, and the float32 loss weighs element ``i`` of the cast copy by the sweep's
    ``i``-th magnitude: that magnitude is the gradient weight ``i`` should receive. On its
    way back it is a gradient of a ``dtype`` tensor, so it is rounded to ``dtype``. With
    ``scaled``, a ``GradScaler`` at its initial scale multiplies the loss before ``backward``
    and ``unscale_`` divides the float32 gradients afterwards. ``dtype`` float32 is the
    reference.

    Everything on the way is element-wise, so the rounding is the same on every device.
    """
    import torch

    magnitudes = gradient_magnitudes(device)
    weight = torch.ones(magnitudes.numel(), device=device, requires_grad=True)
    loss = (weight.to(dtype) * magnitudes).sum()
    if scaled:
        optimizer = torch.optim.SGD([weight], lr=0.0)
        scaler = torch.amp.GradScaler(device)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
    else:
        loss.backward()
    assert weight.grad is not None
    return Sweep(
        tuple(float(v) for v in magnitudes.cpu().tolist()),
        tuple(float(v) for v in weight.grad.cpu().tolist()),
    )


def surviving_gradients(device: str, dtype: Any, *, scaled: bool = False) -> tuple[int, int]:
    """How many gradients of the sweep reach a float32 weight non-zero, out of how many."""
    sweep = gradient_sweep(device, dtype, scaled=scaled)
    return sweep.kept(), sweep.count()


# -- custom autograd Functions -------------------------------------------------------------


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


def relative_error(approx: Any, exact: Any) -> float:
    """``max |approx - exact| / max |exact|``, computed in float64."""
    exact64 = exact.double()
    return float(((approx.double() - exact64).abs().max() / exact64.abs().max()).item())
