"""Claims of the page "Automatic mixed precision" (docs/topics/amp.md) and of the review of an
article about ``torch.cuda.amp.custom_bwd`` (docs/reviews/amp-custom-bwd-article.md).

The page runs every device-aware experiment with an explicit lower-precision dtype, float16
or bfloat16, on CPU and on CUDA, so that a claim that holds on both devices is measured on
both. Where autocast's operator lists differ between the two devices (softmax, sums,
``binary_cross_entropy``), the claims are per device.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, NotApplicable, Observation
from checker.measure import caught_warnings, count_kernels, error_text
from checker.typing import Device, Lang

#: Operations autocast runs in the lower-precision dtype on both devices.
LOWER_PRECISION_OPS = ("mm", "matmul", "bmm", "linear", "conv2d")
#: Operations autocast runs in float32 on both devices.
FLOAT32_OPS = ("mse_loss", "l1_loss", "cross_entropy", "binary_cross_entropy_with_logits", "prod")
#: Operations on no autocast list: they run in their input's dtype.
FOLLOWING_OPS = ("relu", "gelu", "sigmoid")
#: Operations CUDA autocast runs in float32 and CPU autocast leaves in their input's dtype.
DEVICE_DEPENDENT_OPS = ("softmax", "log_softmax", "sum", "exp", "layer_norm")


# -- measuring mixed precision ----------------------------------------------------------------


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


def _low_dtypes() -> tuple[Any, Any]:
    import torch

    return torch.float16, torch.bfloat16


def _matches(found: dict[str, str], wanted: str) -> int:
    """How many results have the dtype ``wanted``."""
    return sum(1 for value in found.values() if value == wanted)


def _g(value: float) -> str:
    """A float as text, exactly when that is short, else with six significant digits.

    Text keeps tiny and huge values readable (a number with four decimals would show
    ``5.96e-08`` as ``0.0000``), and matches what Python prints for exact values such as
    ``65504.0``.
    """
    exact = repr(float(value))
    return exact if len(exact) <= 16 else f"{value:.6g}"


# -- what torch.autocast is ------------------------------------------------------------------


def probe_default_dtype(device: Device) -> Observation:
    return _default_dtype_rule(device, explicit=False)


def control_explicit_other_dtype(device: Device) -> Observation:
    return _default_dtype_rule(device, explicit=True)


def probe_cpu_autocast_dtypes(device: Device) -> Observation:
    return _cpu_autocast_dtypes_rule(accepted=("float16", "bfloat16"), refused=("float64",))


def control_cpu_autocast_float64_as_accepted(device: Device) -> Observation:
    return _cpu_autocast_dtypes_rule(accepted=("float64", "bfloat16"), refused=("float16",))


def _cpu_autocast_product(name: str) -> tuple[str, bool]:
    """The dtype of a matrix product inside ``torch.autocast("cpu", dtype=torch.<name>)``,
    and whether opening the region warned that the dtype is not supported."""
    import torch

    a = torch.ones(4, 4)

    def product() -> str:
        with torch.autocast("cpu", dtype=getattr(torch, name)):
            return dtype_name((a @ a).dtype)

    result, caught = caught_warnings(product)
    return result, any("not supported" in message for _, message in caught)


def _cpu_autocast_dtypes_rule(accepted: tuple[str, ...], refused: tuple[str, ...]) -> Observation:
    """Which lower-precision dtypes a CPU autocast region takes."""
    found = {name: _cpu_autocast_product(name) for name in accepted + refused}
    ok = all(found[n] == (n, False) for n in accepted) and all(
        found[n] == ("float32", True) for n in refused
    )
    return Observation(
        holds=ok,
        rule="holds if a matrix product inside torch.autocast('cpu', dtype=D) comes out in D "
        + (
            "without a warning for D in float16, bfloat16, while for D = float64"
            if "float16" in accepted
            else "without a warning for D in float64, bfloat16, while for D = float16"
        )
        + " autocast warns that the dtype is not supported and the product stays float32",
        measurements=tuple(
            measurement
            for name, (result, warned) in found.items()
            for measurement in (
                Measurement(f"amp-cpu-autocast-{name}", result, "dtype"),
                Measurement(f"amp-cpu-autocast-{name}-warned", warned, "bool"),
            )
        ),
    )


def probe_cpu_autocast_bfloat16_only(device: Device) -> Observation:
    return _cpu_autocast_refuses_rule("float16")


def control_cpu_autocast_refuses_float64(device: Device) -> Observation:
    return _cpu_autocast_refuses_rule("float64")


def _cpu_autocast_refuses_rule(name: str) -> Observation:
    result, warned = _cpu_autocast_product(name)
    return Observation(
        holds=warned and result == "float32",
        rule="holds if torch.autocast('cpu', dtype=torch."
        + ("float16" if name == "float16" else "float64")
        + ") warns that the dtype is not supported and a matrix product inside stays float32",
        measurements=(
            Measurement(f"amp-cpu-autocast-refuses-{name}", result, "dtype"),
            Measurement(f"amp-cpu-autocast-refuses-{name}-warned", warned, "bool"),
        ),
    )


def _default_dtype_rule(device: Device, explicit: bool) -> Observation:
    import torch

    default = dtype_name(torch.get_autocast_dtype(device))
    a = torch.ones(4, 4, device=device)
    other = torch.float16 if device == "cpu" else torch.bfloat16
    with torch.autocast(device, dtype=other) if explicit else torch.autocast(device):
        product = dtype_name((a @ a).dtype)
    expected = {"cpu": "bfloat16", "cuda": "float16"}[device]
    return Observation(
        holds=default == expected and product == expected,
        rule="holds if get_autocast_dtype and the dtype of a matrix product inside "
        + (
            "torch.autocast(device, dtype=<the other one>)"
            if explicit
            else "torch.autocast(device)"
        )
        + " are bfloat16 on CPU and float16 on CUDA",
        measurements=(
            Measurement("amp-default-dtype", default, "dtype"),
            Measurement("amp-default-mm-dtype", product, "dtype"),
        ),
    )


def _autocast_lowers(device: Device, region: str) -> Observation:
    """Whether a float32 product on ``device`` comes out in lower precision in an autocast
    region opened for ``region``; raises :class:`NotApplicable` where that region cannot be
    active (CUDA autocast without CUDA), since the rule would then measure nothing."""
    import torch

    low = torch.float16 if region == "cuda" else torch.bfloat16
    if region == "cuda" and not torch.cuda.is_available():
        raise NotApplicable(
            "needs CUDA: without it torch.autocast('cuda') disables itself, so CPU tensors "
            "inside it would show nothing about the statement"
        )
    a = torch.ones(4, 4, device=device)

    def run() -> tuple[bool, Any]:
        with torch.autocast(region, dtype=low):
            return torch.is_autocast_enabled(region), a @ a

    (enabled, product), _ = caught_warnings(run)
    key = "other" if region != device else "same"
    return Observation(
        holds=product.dtype != torch.float32,
        rule="holds if a matrix product of float32 tensors on this device comes out in lower "
        f"precision inside an active autocast region opened for {region!r}",
        measurements=(
            Measurement(f"amp-{key}-autocast-device", region, "text"),
            Measurement(f"amp-{key}-autocast-enabled", enabled, "bool"),
            Measurement(f"amp-{key}-autocast-mm-dtype", dtype_name(product.dtype), "dtype"),
        ),
    )


def probe_other_device_autocast(device: Device) -> Observation:
    return _autocast_lowers(device, "cuda" if device == "cpu" else "cpu")


def control_same_device_autocast(device: Device) -> Observation:
    return _autocast_lowers(device, device)


def probe_cuda_autocast_needs_cuda(device: Device) -> Observation:
    return _cuda_autocast_rule(requested=True)


def control_cuda_autocast_switched_off(device: Device) -> Observation:
    return _cuda_autocast_rule(requested=False)


def _cuda_autocast_rule(requested: bool) -> Observation:
    import torch

    available = torch.cuda.is_available()

    def run() -> bool:
        with torch.autocast("cuda", dtype=torch.float16, enabled=requested):
            return torch.is_autocast_enabled("cuda")

    enabled, caught = caught_warnings(run)
    message = next((m for c, m in caught if c == "UserWarning"), "no warning")
    return Observation(
        holds=enabled == available and (available or "CUDA is not available" in message),
        rule=f"holds if CUDA autocast (enabled={requested}) is enabled exactly when CUDA is "
        "available, and warns that CUDA is not available when it disables itself",
        measurements=(
            Measurement("amp-cuda-available", available, "bool"),
            Measurement("amp-cuda-autocast-enabled", enabled, "bool"),
            Measurement("amp-cuda-autocast-warning", message, "text"),
        ),
    )


# -- which operations change precision -----------------------------------------------------


def probe_lower_precision_ops(device: Device) -> Observation:
    return _lower_precision_rule(device, LOWER_PRECISION_OPS)


def control_lower_precision_ops(device: Device) -> Observation:
    return _lower_precision_rule(device, FOLLOWING_OPS)


def _lower_precision_rule(device: Device, ops: tuple[str, ...]) -> Observation:
    import torch

    f16, bf16 = _low_dtypes()
    as_f16 = result_dtypes(device, ops, torch.float32, f16)
    as_bf16 = result_dtypes(device, ops, torch.float32, bf16)
    outside = result_dtypes(device, ops, torch.float32, None)
    total = len(ops)
    return Observation(
        holds=_matches(as_f16, "float16") == total
        and _matches(as_bf16, "bfloat16") == total
        and _matches(outside, "float32") == total,
        rule="holds if every listed operation on float32 inputs returns float16 under float16 "
        "autocast, bfloat16 under bfloat16 autocast, and float32 outside autocast",
        measurements=(
            Measurement("amp-lower-ops", ", ".join(ops), "text"),
            Measurement("amp-lower-ops-count", total, "count"),
            Measurement("amp-lower-as-float16", _matches(as_f16, "float16"), "count"),
            Measurement("amp-lower-as-bfloat16", _matches(as_bf16, "bfloat16"), "count"),
            Measurement("amp-lower-outside-float32", _matches(outside, "float32"), "count"),
            Measurement("amp-lower-float16-results", describe(as_f16), "text"),
        ),
    )


def probe_float32_ops(device: Device) -> Observation:
    return _float32_rule(device, FLOAT32_OPS)


def control_float32_ops(device: Device) -> Observation:
    return _float32_rule(device, LOWER_PRECISION_OPS)


def _float32_rule(device: Device, ops: tuple[str, ...]) -> Observation:
    f16, bf16 = _low_dtypes()
    from_f16 = result_dtypes(device, ops, f16, f16)
    from_bf16 = result_dtypes(device, ops, bf16, bf16)
    total = len(ops)
    return Observation(
        holds=_matches(from_f16, "float32") == total and _matches(from_bf16, "float32") == total,
        rule="holds if every listed operation returns float32 under autocast even when its "
        "inputs are float16 (float16 autocast) or bfloat16 (bfloat16 autocast)",
        measurements=(
            Measurement("amp-float32-ops", ", ".join(ops), "text"),
            Measurement("amp-float32-ops-count", total, "count"),
            Measurement("amp-float32-from-float16", _matches(from_f16, "float32"), "count"),
            Measurement("amp-float32-from-bfloat16", _matches(from_bf16, "float32"), "count"),
            Measurement("amp-float32-float16-results", describe(from_f16), "text"),
        ),
    )


def probe_following_ops(device: Device) -> Observation:
    return _following_rule(device, FOLLOWING_OPS)


def control_following_ops(device: Device) -> Observation:
    return _following_rule(device, LOWER_PRECISION_OPS)


def _following_rule(device: Device, ops: tuple[str, ...]) -> Observation:
    import torch

    counts = {}
    for low in _low_dtypes():
        name = dtype_name(low)
        counts[f"amp-follow-{name}-from-float32"] = _matches(
            result_dtypes(device, ops, torch.float32, low), "float32"
        )
        counts[f"amp-follow-{name}-from-{name}"] = _matches(
            result_dtypes(device, ops, low, low), name
        )
    total = len(ops)
    return Observation(
        holds=all(n == total for n in counts.values()),
        rule="holds if, under float16 and bfloat16 autocast, every listed operation returns "
        "float32 for float32 inputs and the lower-precision dtype for inputs in that dtype",
        measurements=(
            Measurement("amp-follow-ops", ", ".join(ops), "text"),
            Measurement("amp-follow-ops-count", total, "count"),
            *(Measurement(key, n, "count") for key, n in counts.items()),
        ),
    )


def _runs_lower(device: Device, op: str) -> Observation:
    import torch

    found = result_dtypes(device, (op,), torch.float32, torch.float16)
    return Observation(
        holds=found[op] in ("float16", "bfloat16"),
        rule=f"holds if {op} of a float32 tensor returns a lower-precision dtype inside "
        "float16 autocast",
        measurements=(Measurement(f"amp-{op}-float32-input-dtype", found[op], "dtype"),),
    )


def probe_relu_lower_precision(device: Device) -> Observation:
    return _runs_lower(device, "relu")


def control_mm_lower_precision(device: Device) -> Observation:
    return _runs_lower(device, "mm")


def _device_dependent(
    device: Device, ops: tuple[str, ...]
) -> tuple[dict[str, str], dict[str, str]]:
    f16, bf16 = _low_dtypes()
    return (
        result_dtypes(device, ops, f16, f16),
        result_dtypes(device, ops, bf16, bf16),
    )


def probe_reductions_float32_on_cuda(device: Device) -> Observation:
    return _reductions_float32_rule(device, DEVICE_DEPENDENT_OPS)


def control_reductions_float32_on_cuda(device: Device) -> Observation:
    return _reductions_float32_rule(device, FOLLOWING_OPS)


def _reductions_float32_rule(device: Device, ops: tuple[str, ...]) -> Observation:
    from_f16, from_bf16 = _device_dependent(device, ops)
    total = len(ops)
    return Observation(
        holds=_matches(from_f16, "float32") == total and _matches(from_bf16, "float32") == total,
        rule="holds if every listed operation returns float32 for float16 inputs under float16 "
        "autocast and for bfloat16 inputs under bfloat16 autocast",
        measurements=(
            Measurement("amp-cuda-reduction-ops", ", ".join(ops), "text"),
            Measurement("amp-cuda-reductions-count", total, "count"),
            Measurement("amp-cuda-reductions-float16", _matches(from_f16, "float32"), "count"),
            Measurement("amp-cuda-reductions-bfloat16", _matches(from_bf16, "float32"), "count"),
            Measurement("amp-cuda-reductions-results", describe(from_f16), "text"),
        ),
    )


def probe_reductions_follow_on_cpu(device: Device) -> Observation:
    return _reductions_follow_rule(device, DEVICE_DEPENDENT_OPS)


def control_reductions_follow_on_cpu(device: Device) -> Observation:
    return _reductions_follow_rule(device, FLOAT32_OPS)


def _reductions_follow_rule(device: Device, ops: tuple[str, ...]) -> Observation:
    from_f16, from_bf16 = _device_dependent(device, ops)
    total = len(ops)
    return Observation(
        holds=_matches(from_f16, "float16") == total and _matches(from_bf16, "bfloat16") == total,
        rule="holds if every listed operation returns float16 for float16 inputs under float16 "
        "autocast and bfloat16 for bfloat16 inputs under bfloat16 autocast",
        measurements=(
            Measurement("amp-cpu-reduction-ops", ", ".join(ops), "text"),
            Measurement("amp-cpu-reductions-count", total, "count"),
            Measurement("amp-cpu-reductions-float16", _matches(from_f16, "float16"), "count"),
            Measurement("amp-cpu-reductions-bfloat16", _matches(from_bf16, "bfloat16"), "count"),
            Measurement("amp-cpu-reductions-results", describe(from_f16), "text"),
        ),
    )


#: Operations autocast runs in the widest floating type of their inputs.
WIDEST_TYPE_OPS = ("cat", "stack", "addcmul")


def _mixed_results(device: Device, ops: tuple[str, ...]) -> dict[str, str]:
    """Each operation on one float16 and one float32 input, under float16 autocast."""
    import torch

    low = torch.ones(4, device=device, dtype=torch.float16)
    high = torch.ones(4, device=device, dtype=torch.float32)
    calls: dict[str, Callable[[], Any]] = {
        "cat": lambda: torch.cat([low, high]),
        "stack": lambda: torch.stack([low, high]),
        "addcmul": lambda: torch.addcmul(low, high, high),
        "mm": lambda: torch.mm(low.reshape(2, 2), high.reshape(2, 2)),
        "mul": lambda: low * high,
    }
    found = {}
    with torch.autocast(device, dtype=torch.float16):
        for op in ops:
            try:
                found[op] = dtype_name(calls[op]().dtype)
            except Exception as exc:
                found[op] = f"{type(exc).__name__}: {exc}".splitlines()[0]
    return found


def _widest_rule(device: Device, ops: tuple[str, ...]) -> Observation:
    found = _mixed_results(device, ops)
    return Observation(
        holds=all(v == "float32" for v in found.values()),
        rule="holds if every listed operation, given one float16 and one float32 input under "
        "float16 autocast, returns float32, the widest of its input types",
        measurements=(
            Measurement("amp-widest-ops", ", ".join(ops), "text"),
            Measurement("amp-widest-float32-results", _matches(found, "float32"), "count"),
            Measurement("amp-widest-results", describe(found), "text"),
        ),
    )


def probe_widest_type_ops(device: Device) -> Observation:
    return _widest_rule(device, WIDEST_TYPE_OPS)


def control_widest_type_mm(device: Device) -> Observation:
    return _widest_rule(device, ("mm",))


def _weight_casts(device: Device, cache_enabled: bool) -> Observation:
    import torch

    low = torch.float16 if device == "cuda" else torch.bfloat16
    w = torch.randn(4, 4, device=device, requires_grad=True)
    a = torch.randn(4, 4, device=device).to(low)
    b = torch.randn(4, 4, device=device).to(low)

    def two_products() -> None:
        with torch.autocast(device, dtype=low, cache_enabled=cache_enabled):
            a @ w
            b @ w

    _, inside = count_kernels(two_products, ("_to_copy",))

    def two_regions() -> None:
        two_products()
        two_products()

    _, twice = count_kernels(two_regions, ("_to_copy",))
    return Observation(
        holds=inside["_to_copy"] == 1 and twice["_to_copy"] == 2,
        rule="holds if, with autocast's cache "
        + ("on (the default)" if cache_enabled else "off (cache_enabled=False)")
        + ", a float32 weight that requires grad is cast once for two matrix products in one "
        "region, and once more in a second region (casts counted with a TorchDispatchMode)",
        measurements=(
            Measurement(
                f"amp-weight-casts-one-region-cache-{cache_enabled}".lower(),
                inside["_to_copy"],
                "count",
            ),
            Measurement(
                f"amp-weight-casts-two-regions-cache-{cache_enabled}".lower(),
                twice["_to_copy"],
                "count",
            ),
        ),
    )


def probe_autocast_caches_weight_casts(device: Device) -> Observation:
    return _weight_casts(device, cache_enabled=True)


def control_autocast_without_cache(device: Device) -> Observation:
    return _weight_casts(device, cache_enabled=False)


def probe_explicit_dtype_wins(device: Device) -> Observation:
    import torch

    return _explicit_dtype_rule(device, torch.float32)


def control_explicit_float16(device: Device) -> Observation:
    import torch

    return _explicit_dtype_rule(device, torch.float16)


def _explicit_dtype_rule(device: Device, requested: Any) -> Observation:
    import torch

    x = torch.randn(8, 8).to(device=device, dtype=torch.float16)
    with torch.autocast(device, dtype=torch.float16):
        softmax = dtype_name(x.softmax(-1, dtype=requested).dtype)
        total = dtype_name(x.sum(dtype=requested).dtype)
        wide = torch.ones(4, 4, device=device, dtype=torch.float64)
        product = dtype_name((wide @ wide).dtype)
    return Observation(
        holds=softmax == total == "float32" and product == "float64",
        rule="holds if, under float16 autocast, softmax and sum of a float16 tensor called "
        f"with dtype={requested} return float32, and a float64 matrix product stays float64",
        measurements=(
            Measurement("amp-explicit-softmax-dtype", softmax, "dtype"),
            Measurement("amp-explicit-sum-dtype", total, "dtype"),
            Measurement("amp-float64-mm-dtype", product, "dtype"),
        ),
    )


def _refused_under_autocast(device: Device, op: str) -> Observation:
    import torch

    found = result_dtypes(device, (op,), torch.float32, torch.float16)
    error = found[op].splitlines()[0]
    key = "bce" if op == "binary_cross_entropy" else op.replace("_", "-")
    return Observation(
        holds=error.startswith("RuntimeError") and "unsafe to autocast" in error,
        rule=f"holds if {op} raises a RuntimeError saying it is unsafe to autocast inside "
        "float16 autocast",
        measurements=(Measurement(f"amp-cuda-{key}-error", error, "exception"),),
    )


def probe_bce_refused_on_cuda(device: Device) -> Observation:
    return _refused_under_autocast(device, "binary_cross_entropy")


def control_bce_with_logits_allowed(device: Device) -> Observation:
    return _refused_under_autocast(device, "binary_cross_entropy_with_logits")


def _returns_float32(device: Device, op: str) -> Observation:
    f16, bf16 = _low_dtypes()
    from_f16 = result_dtypes(device, (op,), f16, f16)
    from_bf16 = result_dtypes(device, (op,), bf16, bf16)
    key = "bce" if op == "binary_cross_entropy" else op.replace("_", "-")
    return Observation(
        holds=from_f16[op] == "float32" and from_bf16[op] == "float32",
        rule=f"holds if {op} returns float32 for float16 and bfloat16 inputs under autocast "
        "of the same dtype",
        measurements=(
            Measurement(f"amp-cpu-{key}-from-float16", from_f16[op], "dtype"),
            Measurement(f"amp-cpu-{key}-from-bfloat16", from_bf16[op], "dtype"),
        ),
    )


def probe_bce_float32_on_cpu(device: Device) -> Observation:
    return _returns_float32(device, "binary_cross_entropy")


def control_sigmoid_follows_on_cpu(device: Device) -> Observation:
    return _returns_float32(device, "sigmoid")


def probe_params_and_grads_float32(device: Device) -> Observation:
    return _params_rule(device, half_model=False)


def control_half_model(device: Device) -> Observation:
    return _params_rule(device, half_model=True)


def _params_rule(device: Device, half_model: bool) -> Observation:
    import torch
    from torch.nn import functional

    model = torch.nn.Linear(8, 4).to(device)
    x = torch.randn(16, 8, device=device)
    if half_model:
        model, x = model.half(), x.half()
    with torch.autocast(device, dtype=torch.float16):
        out = model(x)
        loss: Any = functional.mse_loss(out, torch.zeros_like(out))
    loss.backward()
    assert model.weight.grad is not None
    found = {
        "weight": dtype_name(model.weight.dtype),
        "out": dtype_name(out.dtype),
        "loss": dtype_name(loss.dtype),
        "grad": dtype_name(model.weight.grad.dtype),
    }
    return Observation(
        holds=found
        == {"weight": "float32", "out": "float16", "loss": "float32", "grad": "float32"},
        rule="holds if, with float16 autocast, a Linear layer's weight "
        + ("(converted with .half()) " if half_model else "")
        + "stays float32, its output is float16, the MSE loss is float32 and the weight's "
        ".grad is float32",
        measurements=(
            Measurement("amp-linear-weight-dtype", found["weight"], "dtype"),
            Measurement("amp-linear-output-dtype", found["out"], "dtype"),
            Measurement("amp-linear-loss-dtype", found["loss"], "dtype"),
            Measurement("amp-linear-grad-dtype", found["grad"], "dtype"),
        ),
    )


# -- numbers: why float16 gradients need scaling -------------------------------------------


def probe_float16_range(device: Device) -> Observation:
    import torch

    return _float16_range_rule(device, torch.float16)


def control_bfloat16_in_float16_rule(device: Device) -> Observation:
    import torch

    return _float16_range_rule(device, torch.bfloat16)


def _float16_range_rule(device: Device, dtype: Any) -> Observation:
    import torch

    def as_f16(value: float) -> float:
        return float(torch.tensor(value, device=device).to(dtype).item())

    info = torch.finfo(dtype)
    smallest = info.smallest_normal * info.eps  # the smallest positive (subnormal) float16
    tiny, largest, beyond = as_f16(1e-8), as_f16(info.max), as_f16(70000.0)
    kept, lost = as_f16(smallest), as_f16(smallest / 2)
    return Observation(
        holds=tiny == 0.0
        and kept == smallest
        and lost == 0.0
        and largest == info.max
        and beyond == float("inf"),
        rule=f"holds if 1e-8 and half of the smallest {dtype_name(dtype)} become 0 in "
        f"{dtype_name(dtype)}, the smallest itself survives, the largest is exact and 70000 "
        "becomes inf",
        measurements=(
            Measurement("amp-float16-of-1e-8", _g(tiny), "text"),
            Measurement("amp-float16-smallest", _g(kept), "text"),
            Measurement("amp-float16-half-smallest", _g(lost), "text"),
            Measurement("amp-float16-smallest-normal", _g(info.smallest_normal), "text"),
            Measurement("amp-float16-max", _g(largest), "text"),
            Measurement("amp-float16-of-70000", _g(beyond), "text"),
        ),
    )


def probe_bfloat16_range(device: Device) -> Observation:
    import torch

    return _bfloat16_range_rule(device, torch.bfloat16)


def control_float16_in_bfloat16_rule(device: Device) -> Observation:
    import torch

    return _bfloat16_range_rule(device, torch.float16)


def _bfloat16_range_rule(device: Device, dtype: Any) -> Observation:
    import torch

    def as_bf16(value: float) -> float:
        return float(torch.tensor(value, device=device).to(dtype).item())

    tiny, coarse = as_bf16(1e-8), as_bf16(257.0)
    normal_bf16 = torch.finfo(dtype).smallest_normal
    normal_f32 = torch.finfo(torch.float32).smallest_normal
    return Observation(
        holds=tiny != 0.0 and normal_bf16 == normal_f32 and coarse == 256.0,
        rule=f"holds if 1e-8 stays non-zero in {dtype_name(dtype)}, its smallest normal number "
        "equals float32's, and 257 rounds to 256",
        measurements=(
            Measurement("amp-bfloat16-of-1e-8", _g(tiny), "text"),
            Measurement("amp-bfloat16-smallest-normal", _g(normal_bf16), "text"),
            Measurement("amp-float32-smallest-normal", _g(normal_f32), "text"),
            Measurement("amp-bfloat16-of-257", _g(coarse), "text"),
            Measurement("amp-bfloat16-eps", _g(torch.finfo(torch.bfloat16).eps), "text"),
            Measurement("amp-float16-eps", _g(torch.finfo(torch.float16).eps), "text"),
        ),
    )


#: float32's smallest normal number, 2**-126: below it values are subnormal.
FLOAT32_SMALLEST_NORMAL = 2.0**-126
#: With a GradScaler at its initial scale, gradients from here up arrive through float16 ...
SCALER_KEEPS_FROM = 1e-12
#: ... and gradients below this one still become zero.
SCALER_LOSES_BELOW = 1e-13


def _underflow_rule(device: Device, narrow: Any) -> Observation:
    import torch

    reference = gradient_sweep(device, torch.float32)
    bf16 = gradient_sweep(device, torch.bfloat16)
    tested = gradient_sweep(device, narrow)
    normal = FLOAT32_SMALLEST_NORMAL
    name = dtype_name(narrow)
    lost_normal = reference.kept(normal) - tested.kept(normal)
    bf16_lost_normal = reference.kept(normal) - bf16.kept(normal)
    bf16_lost_subnormal = reference.kept(0.0, normal) - bf16.kept(0.0, normal)
    return Observation(
        holds=lost_normal > 0 and bf16_lost_normal == 0,
        rule=f"holds if {name} turns to zero some gradients of the sweep that float32 keeps in "
        "its normal range (at or above 2**-126), while bfloat16 keeps every one of them",
        measurements=(
            Measurement(f"amp-sweep-{name}-count", tested.count(), "count"),
            Measurement(f"amp-survive-{name}", tested.kept(), "count"),
            Measurement(f"amp-lost-{name}-normal", lost_normal, "count"),
            Measurement(f"amp-smallest-kept-{name}", _g(tested.smallest_kept()), "text"),
            Measurement(f"amp-bfloat16-lost-normal-vs-{name}", bf16_lost_normal, "count"),
            Measurement(f"amp-bfloat16-lost-subnormal-vs-{name}", bf16_lost_subnormal, "count"),
            Measurement(f"amp-survive-float32-vs-{name}", reference.kept(), "count"),
            Measurement(f"amp-survive-bfloat16-vs-{name}", bf16.kept(), "count"),
            Measurement(f"amp-smallest-kept-bfloat16-vs-{name}", _g(bf16.smallest_kept()), "text"),
        ),
    )


def probe_gradient_underflow(device: Device) -> Observation:
    import torch

    found = _underflow_rule(device, torch.float16)
    return Observation(
        found.holds,
        found.rule,
        (
            *found.measurements,
            Measurement("amp-sweep-smallest", _g(10.0**SWEEP_LOW), "text"),
            Measurement("amp-sweep-largest", _g(10.0**SWEEP_HIGH), "text"),
            Measurement("amp-sweep-float32-normal-limit", _g(FLOAT32_SMALLEST_NORMAL), "text"),
        ),
    )


def control_underflow_float32(device: Device) -> Observation:
    import torch

    return _underflow_rule(device, torch.float32)


def _scaler_rule(device: Device, scaled: bool) -> Observation:
    import torch

    found = gradient_sweep(device, torch.float16, scaled=scaled)
    scale = torch.amp.GradScaler(device).get_scale() if scaled else 1.0
    kept_from = found.kept(SCALER_KEEPS_FROM)
    expected = found.count(SCALER_KEEPS_FROM)
    kept_below = found.kept(0.0, SCALER_LOSES_BELOW)
    key = "scaled" if scaled else "unscaled"
    return Observation(
        holds=kept_from == expected and kept_below == 0,
        rule="holds if every gradient of the sweep from 1e-12 up arrives non-zero through "
        "float16 and every one below 1e-13 arrives as zero"
        + (", with a GradScaler at its initial scale" if scaled else ", without scaling"),
        measurements=(
            Measurement(f"amp-{key}-kept-from-1e-12", kept_from, "count"),
            Measurement(f"amp-{key}-sweep-from-1e-12", expected, "count"),
            Measurement(f"amp-{key}-kept-below-1e-13", kept_below, "count"),
            Measurement(f"amp-{key}-smallest-kept", _g(found.smallest_kept()), "text"),
            Measurement(
                f"amp-{key}-max-relative-error",
                round(found.max_relative_error(SCALER_KEEPS_FROM), 6),
                "ratio",
            ),
            Measurement(f"amp-{key}-scale", _g(scale), "text"),
            Measurement(f"amp-survive-float16-{key}", found.kept(), "count"),
        ),
    )


def probe_scaler_recovers_gradients(device: Device) -> Observation:
    return _scaler_rule(device, scaled=True)


def control_scaler_unscaled(device: Device) -> Observation:
    return _scaler_rule(device, scaled=False)


# -- GradScaler ----------------------------------------------------------------------------


def probe_scale_multiplies_loss(device: Device) -> Observation:
    return _scale_rule(device, enabled=True)


def control_disabled_scaler(device: Device) -> Observation:
    return _scale_rule(device, enabled=False)


def _scale_rule(device: Device, enabled: bool) -> Observation:
    import torch

    scaler = torch.amp.GradScaler(device, enabled=enabled)
    loss = torch.tensor(0.75, device=device)
    ratio = float((scaler.scale(loss) / loss).item())
    scale = scaler.get_scale()
    return Observation(
        holds=ratio == scale == 2.0**16,
        rule=f"holds if scale(loss) / loss equals get_scale(), and a new scaler's (enabled="
        f"{enabled}) scale is 2**16",
        measurements=(
            Measurement("amp-scale-ratio", _g(ratio), "text"),
            Measurement("amp-initial-scale", _g(scale), "text"),
        ),
    )


def _scaled_and_reference_grads(device: str, unscale: bool = True) -> dict[str, Any]:
    """Gradients of one float32 model: unscaled, scaled, after unscale_, and the norms."""
    import torch

    generator = torch.Generator().manual_seed(0)
    model = torch.nn.Linear(16, 4)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn(p.shape, generator=generator))
    model.to(device)
    x = torch.randn(32, 16, generator=generator).to(device)
    model(x).square().mean().backward()
    reference = [p.grad.clone() for p in model.parameters() if p.grad is not None]
    model.zero_grad()

    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler(device)
    scaler.scale(model(x).square().mean()).backward()
    scaled = [p.grad.clone() for p in model.parameters() if p.grad is not None]
    norm_before = float(torch.nn.utils.clip_grad_norm_(model.parameters(), float("inf")))
    if unscale:
        scaler.unscale_(optimizer)
    unscaled = [p.grad.clone() for p in model.parameters() if p.grad is not None]
    norm_after = float(torch.nn.utils.clip_grad_norm_(model.parameters(), float("inf")))
    return {
        "scale": scaler.get_scale(),
        "reference": reference,
        "scaled": scaled,
        "unscaled": unscaled,
        "norm_before": norm_before,
        "norm_after": norm_after,
    }


def _max_relative_difference(got: list[Any], want: list[Any]) -> float:
    return max(
        float(((g - w).abs().max() / w.abs().max()).item()) for g, w in zip(got, want, strict=True)
    )


def probe_unscale_restores(device: Device) -> Observation:
    return _unscale_rule(device, unscale=True)


def control_without_unscale(device: Device) -> Observation:
    return _unscale_rule(device, unscale=False)


def _unscale_rule(device: Device, unscale: bool) -> Observation:
    run = _scaled_and_reference_grads(device, unscale)
    scale = run["scale"]
    before = _max_relative_difference(run["scaled"], [r * scale for r in run["reference"]])
    after = _max_relative_difference(run["unscaled"], run["reference"])
    return Observation(
        holds=before <= 1e-6 and after <= 1e-6,
        rule="holds if, within a relative difference of 1e-6, the gradients after backward of "
        "the scaled loss are the scale times the unscaled ones, and after unscale_ they equal "
        "the unscaled ones" + ("" if unscale else " (unscale_ is not called)"),
        measurements=(
            Measurement("amp-unscale-scale", _g(scale), "text"),
            Measurement("amp-scaled-grads-difference", _g(before), "text"),
            Measurement("amp-unscaled-grads-difference", _g(after), "text"),
        ),
    )


def probe_clip_needs_unscale(device: Device) -> Observation:
    return _clip_rule(device, unscale=True)


def control_clip_without_unscale(device: Device) -> Observation:
    return _clip_rule(device, unscale=False)


def _clip_rule(device: Device, unscale: bool) -> Observation:
    run = _scaled_and_reference_grads(device, unscale)
    ratio = run["norm_before"] / run["norm_after"]
    return Observation(
        holds=abs(ratio / run["scale"] - 1) <= 1e-5,
        rule="holds if the gradient norm measured before unscale_ is the scale times the norm "
        "measured after it, within a relative 1e-5"
        + ("" if unscale else " (unscale_ is not called)"),
        measurements=(Measurement("amp-clip-norm-ratio", _g(ratio), "text"),),
    )


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


def _overflow_steps(
    device: str, iterations: int, *, recreate: bool, enabled: bool = True
) -> tuple[list[bool], list[float]]:
    """Train one float32 weight whose float16 gradient overflows at the initial scale.

    The loss is twice a float16 product, so the gradient reaching the float16 product is
    twice the scale: ``2 * 65536`` and ``2 * 32768`` overflow float16, ``2 * 16384`` does
    not. Returns whether each iteration changed the weight, and the scale after each update.
    With ``recreate``, a new GradScaler is built in every iteration.
    """
    import torch

    weight = torch.ones(1, 1, device=device, requires_grad=True)
    ones = torch.ones(1, 1, device=device)
    optimizer = torch.optim.SGD([weight], lr=0.1)
    scaler: Any = torch.amp.GradScaler(device, enabled=enabled)
    stepped: list[bool] = []
    scales: list[float] = []
    for _ in range(iterations):
        if recreate:
            scaler = torch.amp.GradScaler(device, enabled=enabled)
        optimizer.zero_grad()
        with torch.autocast(device, dtype=torch.float16):
            product = weight @ ones
        loss = product.float().sum() * 2.0
        scaler.scale(loss).backward()
        before = weight.detach().clone()
        scaler.step(optimizer)
        scaler.update()
        stepped.append(not torch.equal(weight.detach(), before))
        scales.append(scaler.get_scale())
    return stepped, scales


def _clean_growth(device: str, iterations: int) -> list[float]:
    """Scales after clean steps of a scaler with init_scale=4 and growth_interval=2."""
    import torch

    weight = torch.ones(1, device=device, requires_grad=True)
    optimizer = torch.optim.SGD([weight], lr=0.1)
    scaler: Any = torch.amp.GradScaler(device, init_scale=4.0, growth_interval=2)
    scales = []
    for _ in range(iterations):
        optimizer.zero_grad()
        scaler.scale(weight.sum()).backward()
        scaler.step(optimizer)
        scaler.update()
        scales.append(scaler.get_scale())
    return scales


def probe_skips_nonfinite_steps(device: Device) -> Observation:
    return _skip_rule(device, enabled=True)


def control_disabled_scaler_steps(device: Device) -> Observation:
    return _skip_rule(device, enabled=False)


def _skip_rule(device: Device, enabled: bool) -> Observation:
    stepped, scales = _overflow_steps(device, 3, recreate=False, enabled=enabled)
    growth = _clean_growth(device, 3)
    skipped = stepped.count(False)
    return Observation(
        holds=stepped == [False, False, True]
        and scales == [2.0**15, 2.0**14, 2.0**14]
        and growth == [4.0, 8.0, 8.0],
        rule=f"holds if, with a GradScaler (enabled={enabled}), the two iterations whose "
        "float16 gradients overflow at the initial scale leave the weight "
        "unchanged and halve the scale, the third updates the weight, and a scaler with "
        "init_scale=4 and growth_interval=2 doubles its scale after its second clean step",
        measurements=(
            Measurement("amp-overflow-skipped", skipped, "count"),
            Measurement("amp-overflow-taken", len(stepped) - skipped, "count"),
            Measurement("amp-overflow-scales", ", ".join(_g(s) for s in scales), "text"),
            Measurement("amp-growth-scales", ", ".join(_g(s) for s in growth), "text"),
        ),
    )


def probe_scaler_lives_across_iterations(device: Device) -> Observation:
    return _lives_rule(device, keep_first=True)


def control_both_scalers_recreated(device: Device) -> Observation:
    return _lives_rule(device, keep_first=False)


def _lives_rule(device: Device, keep_first: bool) -> Observation:
    iterations = 4
    kept, _ = _overflow_steps(device, iterations, recreate=not keep_first)
    recreated, scales = _overflow_steps(device, iterations, recreate=True)
    return Observation(
        holds=recreated.count(True) == 0 and kept.count(True) > 0,
        rule="holds if, over four iterations whose gradient overflows float16 at the initial "
        "scale, the first scaler ("
        + ("created once" if keep_first else "created anew in every iteration too")
        + ") updates the weight at least once and a scaler created anew in every iteration "
        "never does",
        measurements=(
            Measurement("amp-scaler-iterations", iterations, "count"),
            Measurement("amp-kept-scaler-steps", kept.count(True), "count"),
            Measurement("amp-recreated-scaler-steps", recreated.count(True), "count"),
            Measurement("amp-recreated-scaler-scales", ", ".join(_g(s) for s in scales), "text"),
        ),
    )


def _unscale_error(device: Device, dtype: Any) -> str:
    import torch

    model = torch.nn.Linear(4, 2).to(device=device, dtype=dtype)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler(device)
    x = torch.ones(3, 4, device=device, dtype=dtype)
    scaler.scale(model(x).float().sum()).backward()
    return error_text(lambda: scaler.unscale_(optimizer))


def _refuses_rule(device: Device, refused: Any) -> Observation:
    import torch

    error = _unscale_error(device, refused)
    bf16 = _unscale_error(device, torch.bfloat16)
    name = dtype_name(refused)
    return Observation(
        holds=error.startswith("ValueError") and "FP16" in error and bf16 == "no error",
        rule=f"holds if unscale_ raises a ValueError about FP16 gradients when the parameters "
        f"are {name}, and accepts bfloat16 parameters' gradients",
        measurements=(
            Measurement(f"amp-{name}-params-error", error, "exception"),
            Measurement(f"amp-bfloat16-params-error-vs-{name}", bf16, "exception"),
        ),
    )


def probe_scaler_refuses_float16_grads(device: Device) -> Observation:
    import torch

    return _refuses_rule(device, torch.float16)


def control_scaler_float32_params(device: Device) -> Observation:
    import torch

    return _refuses_rule(device, torch.float32)


def probe_cuda_scaler_needs_cuda(device: Device) -> Observation:
    return _cuda_scaler_rule(requested=True)


def control_cuda_scaler_switched_off(device: Device) -> Observation:
    return _cuda_scaler_rule(requested=False)


def _cuda_scaler_rule(requested: bool) -> Observation:
    import torch

    available = torch.cuda.is_available()
    scaler, caught = caught_warnings(lambda: torch.amp.GradScaler("cuda", enabled=requested))
    message = next((m for c, m in caught if c == "UserWarning"), "no warning")
    enabled = scaler.is_enabled()
    default, _ = caught_warnings(torch.amp.GradScaler)
    default_device = str(getattr(default, "_device", "unknown"))
    return Observation(
        holds=default_device == "cuda"
        and enabled == available
        and (available or "CUDA is not available" in message),
        rule="holds if GradScaler() without a device is a CUDA scaler, and GradScaler('cuda', "
        f"enabled={requested}) is enabled exactly when CUDA is available and warns that CUDA "
        "is not available when it disables itself",
        measurements=(
            Measurement("amp-default-scaler-device", default_device, "text"),
            Measurement("amp-cuda-scaler-available", available, "bool"),
            Measurement("amp-cuda-scaler-enabled", enabled, "bool"),
            Measurement("amp-cuda-scaler-warning", message, "text"),
        ),
    )


# -- custom autograd Functions -------------------------------------------------------------


def _decorated(device: str, cast_inputs: Any = None) -> tuple[Any, Any]:
    import torch

    if cast_inputs is None:
        forward = torch.amp.custom_fwd(device_type=device)
    else:
        forward = torch.amp.custom_fwd(device_type=device, cast_inputs=cast_inputs)
    return matmul_function(
        device,
        forward_decorator=forward,
        backward_decorator=torch.amp.custom_bwd(device_type=device),
    )


def _reference_grad_a(b: Any) -> Any:
    """The exact gradient of ``(a @ b).sum()`` with respect to ``a``, in float64."""
    import torch

    b64 = b.detach().double()
    return torch.ones(b64.shape[0], b64.shape[1], dtype=torch.float64, device=b.device) @ b64.T


def probe_decorators_need_device_type(device: Device) -> Observation:
    return _device_type_rule(given=False)


def control_with_device_type(device: Device) -> Observation:
    return _device_type_rule(given=True)


def _device_type_rule(given: bool) -> Observation:
    import torch

    def forward(ctx: Any, x: Any) -> Any:
        return x

    amp: Any = torch.amp  # without device_type, the calls below are wrong on purpose
    extra = {"device_type": "cpu"} if given else {}
    fwd_error = error_text(lambda: amp.custom_fwd(forward, **extra))
    bwd_error = error_text(lambda: amp.custom_bwd(forward, **extra))
    return Observation(
        holds=all(e.startswith("TypeError") and "device_type" in e for e in (fwd_error, bwd_error)),
        rule="holds if torch.amp.custom_fwd and torch.amp.custom_bwd applied "
        + ("with" if given else "without")
        + " device_type raise a TypeError naming device_type",
        measurements=(
            Measurement("amp-custom-fwd-no-device-type", fwd_error, "exception"),
            Measurement("amp-custom-bwd-no-device-type", bwd_error, "exception"),
        ),
    )


def _undecorated_error(device: str, decorated: bool = False) -> str:
    """What backward of a matmul Function raises after a float16 forward: undecorated, or
    (``decorated``) with torch.amp's custom_fwd and custom_bwd."""
    import torch

    function, _ = _decorated(device) if decorated else matmul_function(device)
    a, b = matmul_inputs(device)
    with torch.autocast(device, dtype=torch.float16):
        out = function.apply(a, b)
    return error_text(lambda: out.float().sum().backward())


def probe_undecorated_function_fails(device: Device) -> Observation:
    return _undecorated_rule(device, decorated=False)


def control_decorated_function(device: Device) -> Observation:
    return _undecorated_rule(device, decorated=True)


def _undecorated_rule(device: Device, decorated: bool) -> Observation:
    error = _undecorated_error(device, decorated)
    return Observation(
        holds=error.startswith("RuntimeError") and "same dtype" in error,
        rule="holds if backward"
        + (" (custom_fwd and custom_bwd applied)" if decorated else "")
        + ", called after a forward under float16 autocast, raises a RuntimeError about "
        "mismatched dtypes",
        measurements=(
            Measurement(
                "amp-decorated-error" if decorated else "amp-undecorated-error", error, "exception"
            ),
        ),
    )


def probe_simple_function_needs_nothing(device: Device) -> Observation:
    return _simple_rule(device, decorated=False)


def control_simple_function_decorated(device: Device) -> Observation:
    return _simple_rule(device, decorated=True)


def _simple_rule(device: Device, decorated: bool) -> Observation:
    error = _undecorated_error(device, decorated)
    return Observation(
        holds=error == "no error",
        rule="holds if a Function made of one matrix product (and two in backward), "
        + ("with" if decorated else "without")
        + " custom_fwd and custom_bwd, completes forward under float16 autocast and backward",
        measurements=(Measurement("amp-one-line-function-error", error, "exception"),),
    )


def _decorated_run(device: str, autocast: bool = True) -> tuple[Any, Any, Any]:
    """Forward under float16 autocast (or outside it) and backward outside, with both
    decorators."""
    import torch

    function, log = _decorated(device)
    a, b = matmul_inputs(device)
    with torch.autocast(device, dtype=torch.float16, enabled=autocast):
        out = function.apply(a, b)
    out.float().sum().backward()
    return log, a, b


def probe_custom_bwd_reuses_state(device: Device) -> Observation:
    return _reuses_state_rule(device, autocast=True)


def control_forward_outside_autocast(device: Device) -> Observation:
    return _reuses_state_rule(device, autocast=False)


def _reuses_state_rule(device: Device, autocast: bool) -> Observation:
    log, _, _ = _decorated_run(device, autocast)
    return Observation(
        holds=log.forward_state == log.backward_state == (True, "float16")
        and log.backward_dtypes["grad_a"] == "float16",
        rule="holds if forward and backward both run with autocast enabled at float16 and the "
        "products computed in backward are float16"
        + ("" if autocast else " (forward called outside autocast)"),
        measurements=(
            Measurement("amp-forward-autocast-enabled", log.forward_state[0], "bool"),
            Measurement("amp-forward-autocast-dtype", log.forward_state[1], "dtype"),
            Measurement("amp-backward-autocast-enabled", log.backward_state[0], "bool"),
            Measurement("amp-backward-autocast-dtype", log.backward_state[1], "dtype"),
            Measurement("amp-backward-product-dtype", log.backward_dtypes["grad_a"], "dtype"),
        ),
    )


def probe_custom_bwd_higher_precision(device: Device) -> Observation:
    import torch

    log, a, b = _decorated_run(device)
    low_error = relative_error(a.grad, _reference_grad_a(b))

    function, _ = _decorated(device, cast_inputs=torch.float32)
    a32, b32 = matmul_inputs(device)
    with torch.autocast(device, dtype=torch.float16):
        out = function.apply(a32, b32)
    out.sum().backward()
    float32_error = relative_error(a32.grad, _reference_grad_a(b32))
    found = _backward_precision_rule(log.backward_dtypes["grad_a"], cast=False)
    return Observation(
        found.holds,
        found.rule,
        (
            *found.measurements,
            Measurement("amp-custom-bwd-grad-error", f"{low_error:.2e}", "text"),
            Measurement("amp-cast-inputs-grad-error", f"{float32_error:.2e}", "text"),
        ),
    )


def _backward_precision_rule(grad_dtype: str, cast: bool) -> Observation:
    return Observation(
        holds=grad_dtype == "float32",
        rule="holds if the gradients that backward computes under custom_bwd, after a float16 "
        "forward" + (" with cast_inputs=torch.float32" if cast else "") + ", are float32",
        measurements=(
            Measurement(
                "amp-cast-inputs-bwd-grad-dtype" if cast else "amp-custom-bwd-grad-dtype",
                grad_dtype,
                "dtype",
            ),
        ),
    )


def control_cast_inputs_backward(device: Device) -> Observation:
    import torch

    function, log = _decorated(device, cast_inputs=torch.float32)
    a, b = matmul_inputs(device)
    with torch.autocast(device, dtype=torch.float16):
        out = function.apply(a, b)
    out.sum().backward()
    return _backward_precision_rule(log.backward_dtypes["grad_a"], cast=True)


def probe_cast_inputs_float32(device: Device) -> Observation:
    import torch

    return _cast_inputs_rule(device, torch.float32)


def control_without_cast_inputs(device: Device) -> Observation:
    return _cast_inputs_rule(device, None)


def _cast_inputs_rule(device: Device, cast: Any) -> Observation:
    import torch

    function, log = _decorated(device, cast_inputs=cast)
    a, b = matmul_inputs(device)
    with torch.autocast(device, dtype=torch.float16):
        out = function.apply(a.half(), b.bfloat16())
    out.sum().backward()
    assert log.forward_state is not None and log.backward_state is not None
    inside_forward, inside_backward = log.forward_state[0], log.backward_state[0]
    inside = dict(log.forward_dtypes)
    grad_dtype = log.backward_dtypes["grad_a"]

    outside_function, outside_log = _decorated(device, cast_inputs=cast)
    a16, b16 = (t.detach().half() for t in matmul_inputs(device))
    outside_function.apply(a16, b16)
    outside = outside_log.forward_dtypes["a"]
    return Observation(
        holds=not inside_forward
        and not inside_backward
        and inside == {"a": "float32", "b": "float32", "out": "float32"}
        and grad_dtype == "float32"
        and outside == "float16",
        rule=f"holds if, with cast_inputs={cast} and inside float16 autocast, forward "
        "receives a float16 and a bfloat16 "
        "argument as float32, runs with autocast disabled and returns float32, backward also "
        "runs with autocast disabled and computes float32 gradients, and outside autocast a "
        "float16 argument stays float16",
        measurements=(
            Measurement("amp-cast-forward-enabled", inside_forward, "bool"),
            Measurement("amp-cast-input-dtype", inside["a"], "dtype"),
            Measurement("amp-cast-output-dtype", inside["out"], "dtype"),
            Measurement("amp-cast-backward-enabled", inside_backward, "bool"),
            Measurement("amp-cast-backward-dtype", grad_dtype, "dtype"),
            Measurement("amp-cast-outside-input-dtype", outside, "dtype"),
        ),
    )


def probe_custom_bwd_needs_custom_fwd(device: Device) -> Observation:
    return _needs_fwd_rule(device, with_fwd=False)


def control_with_custom_fwd(device: Device) -> Observation:
    return _needs_fwd_rule(device, with_fwd=True)


def _needs_fwd_rule(device: Device, with_fwd: bool) -> Observation:
    import torch

    errors = []
    for inside in (True, False):
        function, _ = matmul_function(
            device,
            forward_decorator=torch.amp.custom_fwd(device_type=device) if with_fwd else None,
            backward_decorator=torch.amp.custom_bwd(device_type=device),
        )
        a, b = matmul_inputs(device)
        with torch.autocast(device, dtype=torch.float16, enabled=inside):
            out = function.apply(a, b)
        errors.append(error_text(out.float().sum().backward))
    return Observation(
        holds=all(e.startswith("AttributeError") and "_fwd_used_autocast" in e for e in errors),
        rule="holds if backward decorated with custom_bwd, of a forward "
        + ("with" if with_fwd else "without")
        + " custom_fwd, "
        "raises an AttributeError about _fwd_used_autocast, whether forward ran under "
        "autocast or not",
        measurements=(
            Measurement("amp-bwd-without-fwd-error", errors[0], "exception"),
            Measurement("amp-bwd-without-fwd-error-outside", errors[1], "exception"),
        ),
    )


def _custom_bwd_on_cpu(decorators: str) -> Observation:
    """Whether a Function decorated with ``torch.amp`` (device_type='cpu') or with the
    ``torch.cuda.amp`` decorators works under CPU autocast, backward included."""
    import torch

    if decorators == "torch.amp":
        function, log = _decorated("cpu")
    else:
        (forward, backward), _ = caught_warnings(
            lambda: (torch.cuda.amp.custom_fwd, torch.cuda.amp.custom_bwd)
        )
        (function, log), _ = caught_warnings(
            lambda: matmul_function("cpu", forward_decorator=forward, backward_decorator=backward)
        )
    a, b = matmul_inputs("cpu")

    def run() -> None:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            out = function.apply(a, b)
        out.float().sum().backward()

    error = error_text(run)
    enabled = bool(log.backward_state and log.backward_state[0])
    prefix = "amp-cpu-custom-bwd" if decorators == "torch.amp" else "amp-cpu-cuda-custom-bwd"
    return Observation(
        holds=error != "no error" or not enabled,
        rule=f"holds if a Function decorated with {decorators}'s custom_fwd and custom_bwd "
        "fails under CPU autocast, or its backward does not run under the CPU autocast of "
        "its forward",
        measurements=(
            Measurement(f"{prefix}-error", error, "exception"),
            Measurement(f"{prefix}-enabled", enabled, "bool"),
            Measurement(
                f"{prefix}-dtype",
                log.backward_state[1] if log.backward_state else "none",
                "dtype",
            ),
        ),
    )


def probe_custom_bwd_cuda_only(device: Device) -> Observation:
    return _custom_bwd_on_cpu("torch.amp")


def control_cuda_amp_custom_bwd(device: Device) -> Observation:
    return _custom_bwd_on_cpu("torch.cuda.amp")


def probe_cuda_decorators_ignore_cpu(device: Device) -> Observation:
    return _cuda_decorators_rule(cuda_amp=True)


def control_amp_decorators_on_cpu(device: Device) -> Observation:
    return _cuda_decorators_rule(cuda_amp=False)


def _cuda_decorators_rule(cuda_amp: bool) -> Observation:
    import torch

    (forward, backward), _ = caught_warnings(
        lambda: (
            (torch.cuda.amp.custom_fwd, torch.cuda.amp.custom_bwd)
            if cuda_amp
            else (torch.amp.custom_fwd(device_type="cpu"), torch.amp.custom_bwd(device_type="cpu"))
        )
    )
    decorated, _ = caught_warnings(
        lambda: matmul_function("cpu", forward_decorator=forward, backward_decorator=backward)
    )
    function, _ = decorated
    a, b = matmul_inputs("cpu")
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = function.apply(a, b)
    error = error_text(lambda: out.float().sum().backward())
    return Observation(
        holds=error.startswith("RuntimeError") and "same dtype" in error,
        rule="holds if a matmul Function decorated with the custom_fwd and custom_bwd of "
        + ("torch.cuda.amp" if cuda_amp else "torch.amp (device_type='cpu')")
        + ", run under CPU autocast, fails in backward with mismatched dtypes",
        measurements=(
            Measurement(
                "amp-cuda-decorators-cpu-error" if cuda_amp else "amp-amp-decorators-cpu-error",
                error,
                "exception",
            ),
        ),
    )


def probe_torch_cuda_amp_deprecated(device: Device) -> Observation:
    return _deprecated_rule(current=False)


def control_torch_amp_not_deprecated(device: Device) -> Observation:
    return _deprecated_rule(current=True)


def probe_torch_cpu_amp_deprecated(device: Device) -> Observation:
    return _cpu_amp_deprecated_rule(current=False)


def control_torch_amp_cpu_not_deprecated(device: Device) -> Observation:
    return _cpu_amp_deprecated_rule(current=True)


def _future_warnings(calls: dict[str, Callable[[], Any]]) -> dict[str, str]:
    """Per call, the first FutureWarning it emitted (``"FutureWarning: ..."``), or
    ``"no FutureWarning"``."""
    found = {}
    for key, call in calls.items():
        _, caught = caught_warnings(call)
        found[key] = next(
            (f"{c}: {m}" for c, m in caught if c == "FutureWarning"), "no FutureWarning"
        )
    return found


def _each_names_torch_amp(found: dict[str, str]) -> bool:
    return all(v.startswith("FutureWarning") and "torch.amp." in v for v in found.values())


def _cpu_amp_deprecated_rule(current: bool) -> Observation:
    import torch

    cpu_amp: Any = torch.cpu.amp
    amp: Any = torch.amp
    calls: dict[str, Callable[[], Any]] = (
        {
            "amp-current-cpu-autocast": lambda: amp.autocast("cpu"),
            "amp-current-cpu-gradscaler": lambda: amp.GradScaler("cpu"),
        }
        if current
        else {
            "amp-deprecated-cpu-autocast": cpu_amp.autocast,
            "amp-deprecated-cpu-gradscaler": cpu_amp.GradScaler,
        }
    )
    found = _future_warnings(calls)
    return Observation(
        holds=_each_names_torch_amp(found),
        rule="holds if "
        + (
            "torch.amp.autocast('cpu') and torch.amp.GradScaler('cpu')"
            if current
            else "torch.cpu.amp.autocast and torch.cpu.amp.GradScaler"
        )
        + " each emit a FutureWarning that names a torch.amp replacement",
        measurements=tuple(Measurement(key, value, "text") for key, value in found.items()),
    )


def _deprecated_rule(current: bool) -> Observation:
    import torch

    def forward(ctx: Any, x: Any) -> Any:
        return x

    cuda_amp: Any = torch.cuda.amp
    amp: Any = torch.amp
    calls: dict[str, Callable[[], Any]] = (
        {
            "amp-current-autocast": lambda: amp.autocast("cuda"),
            "amp-current-gradscaler": lambda: amp.GradScaler("cuda"),
            "amp-current-custom-fwd": lambda: amp.custom_fwd(forward, device_type="cuda"),
            "amp-current-custom-bwd": lambda: amp.custom_bwd(forward, device_type="cuda"),
        }
        if current
        else {
            "amp-deprecated-autocast": cuda_amp.autocast,
            "amp-deprecated-gradscaler": cuda_amp.GradScaler,
            "amp-deprecated-custom-fwd": lambda: cuda_amp.custom_fwd(forward),
            "amp-deprecated-custom-bwd": lambda: cuda_amp.custom_bwd(forward),
        }
    )
    found = _future_warnings(calls)
    return Observation(
        holds=_each_names_torch_amp(found),
        rule=f"holds if {'torch.amp' if current else 'torch.cuda.amp'}.autocast, GradScaler, "
        "custom_fwd and custom_bwd each emit a FutureWarning that names a torch.amp "
        "replacement",
        measurements=tuple(Measurement(key, value, "text") for key, value in found.items()),
    )


# -- calls that do not exist -----------------------------------------------------------------


def probe_custom_bwd_takes_args(device: Device) -> Observation:
    return _takes_args_rule(as_article=True)


def control_custom_bwd_as_decorator(device: Device) -> Observation:
    return _takes_args_rule(as_article=False)


def _takes_args_rule(as_article: bool) -> Observation:
    import torch

    cuda_amp: Any = torch.cuda.amp  # the article's calls below are wrong on purpose
    amp: Any = torch.amp
    x = torch.ones(3)
    y = x * 2

    def backward(ctx: Any, grad: Any) -> Any:
        return grad

    if as_article:
        deprecated = error_text(
            lambda: caught_warnings(lambda: cuda_amp.custom_bwd(x, y, args=(x,)))
        )
        current = error_text(lambda: amp.custom_bwd(x, y, args=(x,), device_type="cpu"))
    else:
        deprecated = error_text(lambda: caught_warnings(lambda: cuda_amp.custom_bwd(backward)))
        current = error_text(lambda: amp.custom_bwd(backward, device_type="cpu"))
    return Observation(
        holds=deprecated == "no error",
        rule="holds if torch.cuda.amp.custom_bwd accepts "
        + ("two tensors and an args keyword" if as_article else "a backward function")
        + " without raising",
        measurements=(
            Measurement("amp-custom-bwd-args-error", deprecated, "exception"),
            Measurement("amp-amp-custom-bwd-args-error", current, "exception"),
        ),
    )


def probe_custom_bwd_returns_grads(device: Device) -> Observation:
    return _returns_grads_rule(custom_bwd=True)


def control_autograd_grad_returns_grads(device: Device) -> Observation:
    return _returns_grads_rule(custom_bwd=False)


def _returns_grads_rule(custom_bwd: bool) -> Observation:
    import torch

    cuda_amp: Any = torch.cuda.amp  # the call below is wrong on purpose
    x = torch.ones(3, requires_grad=True)
    if custom_bwd:
        result, _ = caught_warnings(lambda: cuda_amp.custom_bwd(x))
    else:
        result = torch.autograd.grad((x * 2).sum(), x)
    is_gradient = isinstance(result, torch.Tensor) or (
        isinstance(result, tuple) and all(isinstance(r, torch.Tensor) for r in result)
    )
    return Observation(
        holds=is_gradient,
        rule="holds if "
        + ("torch.cuda.amp.custom_bwd" if custom_bwd else "torch.autograd.grad")
        + " applied to a tensor returns a tensor or a tuple of tensors",
        measurements=(
            Measurement("amp-custom-bwd-result-type", type(result).__name__, "text"),
            Measurement("amp-custom-bwd-result-name", getattr(result, "__name__", "?"), "text"),
            Measurement(
                "amp-custom-bwd-result-call-error",
                error_text(lambda: result(x)) if callable(result) else "not callable",
                "exception",
            ),
        ),
    )


def probe_amp_backward_exists(device: Device) -> Observation:
    return _has_attribute_rule("backward")


def control_amp_autocast_exists(device: Device) -> Observation:
    return _has_attribute_rule("autocast")


def _has_attribute_rule(name: str) -> Observation:
    import torch

    in_cuda_amp = hasattr(torch.cuda.amp, name)
    in_amp = hasattr(torch.amp, name)
    return Observation(
        holds=in_cuda_amp or in_amp,
        rule=f"holds if torch.cuda.amp or torch.amp has an attribute named {name}",
        measurements=(
            Measurement(f"amp-cuda-amp-has-{name}", in_cuda_amp, "bool"),
            Measurement(f"amp-amp-has-{name}", in_amp, "bool"),
            Measurement(
                f"amp-cuda-amp-{name}-error",
                error_text(lambda: getattr(torch.cuda.amp, name)),
                "exception",
            ),
        ),
    )


def probe_gradscaler_has_unscale(device: Device) -> Observation:
    return _scaler_method_rule("unscale")


def control_gradscaler_has_unscale_underscore(device: Device) -> Observation:
    return _scaler_method_rule("unscale_")


def _scaler_method_rule(name: str) -> Observation:
    import torch

    scaler: Any = torch.amp.GradScaler("cpu")
    found = hasattr(scaler, name)
    return Observation(
        holds=found,
        rule=f"holds if a GradScaler has a method named {name}",
        measurements=(
            Measurement("amp-scaler-has-unscale", found, "bool"),
            Measurement("amp-scaler-has-unscale-underscore", hasattr(scaler, "unscale_"), "bool"),
            Measurement(
                "amp-scaler-unscale-error", error_text(lambda: getattr(scaler, name)), "exception"
            ),
        ),
    )


def probe_autograd_grad_takes_args(device: Device) -> Observation:
    return _grad_parameter_rule("args")


def control_autograd_grad_takes_inputs(device: Device) -> Observation:
    return _grad_parameter_rule("inputs")


def _grad_parameter_rule(name: str) -> Observation:
    import inspect

    import torch

    x = torch.ones(3, requires_grad=True)
    y = (x * 2).sum()
    grad: Any = torch.autograd.grad  # the call below is wrong on purpose
    parameters = inspect.signature(grad).parameters
    return Observation(
        holds=name in parameters,
        rule=f"holds if torch.autograd.grad has a parameter named {name}",
        measurements=(
            Measurement(f"amp-grad-has-{name}", name in parameters, "bool"),
            Measurement(
                "amp-grad-args-error",
                error_text(lambda: grad(y, x, args=(x,))),
                "exception",
            ),
        ),
    )


# -- the article's code: what a reader gets ------------------------------------------------

#: Our own code with the shape of the article's function blocks, indentation lost: two
#: imports, a def, a comment, a with statement.
UNINDENTED_FUNCTION = (
    "import math\n"
    "import warnings\n"
    "def halve(values):\n"
    "# a comment line\n"
    "with warnings.catch_warnings():\n"
    "result = [v / 2 for v in values]\n"
    "return result\n"
)
#: Our own code with the shape of the article's class blocks, indentation lost: three imports,
#: a comment, a class whose first statement is a def.
UNINDENTED_CLASS = (
    "import math\n"
    "import torch\n"
    "import torch.nn as nn\n"
    "# a comment line\n"
    "class Halver(nn.Module):\n"
    "def forward(self, x):\n"
    "return x / 2\n"
)


#: The same two blocks with their indentation restored.
INDENTED_FUNCTION = (
    "import math\n"
    "import warnings\n"
    "def halve(values):\n"
    "    # a comment line\n"
    "    with warnings.catch_warnings():\n"
    "        result = [v / 2 for v in values]\n"
    "    return result\n"
)
INDENTED_CLASS = (
    "import math\n"
    "import torch\n"
    "import torch.nn as nn\n"
    "# a comment line\n"
    "class Halver(nn.Module):\n"
    "    def forward(self, x):\n"
    "        return x / 2\n"
)


def _compile_error(source: str) -> tuple[str, int]:
    try:
        compile(source, "<block>", "exec")
    except SyntaxError as exc:
        return f"{type(exc).__name__}: {exc.msg}", exc.lineno or 0
    return "no error", 0


def probe_unindented_function(device: Device) -> Observation:
    return _function_block_rule(UNINDENTED_FUNCTION)


def control_indented_function(device: Device) -> Observation:
    return _function_block_rule(INDENTED_FUNCTION)


def _function_block_rule(source: str) -> Observation:
    error, line = _compile_error(source)
    return Observation(
        holds=error.startswith("IndentationError")
        and "after function definition on line 3" in error
        and line == 5,
        rule="holds if compiling the block raises IndentationError at its line 5, "
        "expecting an indented block after the function definition on line 3",
        measurements=(
            Measurement("amp-unindented-function-error", error, "exception"),
            Measurement("amp-unindented-function-line", line, "count"),
        ),
    )


def probe_unindented_class(device: Device) -> Observation:
    return _class_block_rule(UNINDENTED_CLASS)


def control_indented_class(device: Device) -> Observation:
    return _class_block_rule(INDENTED_CLASS)


def _class_block_rule(source: str) -> Observation:
    error, line = _compile_error(source)
    return Observation(
        holds=error.startswith("IndentationError")
        and "after class definition on line 5" in error
        and line == 6,
        rule="holds if compiling the block raises IndentationError at its line 6, "
        "expecting an indented block after the class definition on line 5",
        measurements=(
            Measurement("amp-unindented-class-error", error, "exception"),
            Measurement("amp-unindented-class-line", line, "count"),
        ),
    )


def probe_block_a_restored(device: Device) -> Observation:
    return _block_a_rule(as_article=True)


def control_block_a_with_decorator_call(device: Device) -> Observation:
    return _block_a_rule(as_article=False)


def _block_a_rule(as_article: bool) -> Observation:
    import torch

    cuda_amp: Any = torch.cuda.amp  # the article's spelling, and its wrong call

    def lower_precision_relu(values: Any) -> Any:
        with cuda_amp.autocast(dtype=torch.float16):
            return torch.relu(values)

    def run() -> tuple[str, str]:
        values = torch.randn(10, 20)
        result = lower_precision_relu(values)
        if as_article:
            error = error_text(lambda: cuda_amp.custom_bwd(values, result, args=(values,)))
        else:
            error = error_text(lambda: cuda_amp.custom_bwd(lower_precision_relu))
        return dtype_name(result.dtype), error

    (relu_dtype, error), caught = caught_warnings(run)
    categories = sorted({c for c, _ in caught})
    return Observation(
        holds=relu_dtype == "float32" and error.startswith("TypeError") and "'args'" in error,
        rule="holds if, in our restored version of the block, relu of a CPU tensor inside "
        "torch.cuda.amp.autocast(dtype=torch.float16) returns float32 and the custom_bwd call"
        + (" " if as_article else " (used as a decorator) ")
        + "then raises TypeError about the keyword args",
        measurements=(
            Measurement("amp-block-a-relu-dtype", relu_dtype, "dtype"),
            Measurement("amp-block-a-error", error, "exception"),
            Measurement("amp-block-a-warnings", ", ".join(categories), "text"),
        ),
    )


def probe_default_argument_nameerror(device: Device) -> Observation:
    return _default_argument_rule("def pick(first, rest=(later,)):\n    return first\nlater = 1\n")


def control_default_argument_assigned_first(device: Device) -> Observation:
    return _default_argument_rule("later = 1\ndef pick(first, rest=(later,)):\n    return first\n")


def _default_argument_rule(source: str) -> Observation:
    error = error_text(lambda: exec(source, {}))
    return Observation(
        holds=error.startswith("NameError") and "later" in error,
        rule="holds if running the definition of a function whose default argument names "
        + (
            "`later` raises NameError (after `later` is assigned)"
            if source.startswith("def")
            else "`later` raises NameError (before `later` is assigned)"
        ),
        measurements=(Measurement("amp-default-argument-error", error, "exception"),),
    )


def probe_relu_model_empty_optimizer(device: Device) -> Observation:
    return _empty_optimizer_rule(with_linear=False)


def control_model_with_linear(device: Device) -> Observation:
    return _empty_optimizer_rule(with_linear=True)


def _empty_optimizer_rule(with_linear: bool) -> Observation:
    import torch

    layers = [torch.nn.Linear(2, 2)] if with_linear else []
    model = torch.nn.Sequential(*layers, torch.nn.ReLU())
    count = len(list(model.parameters()))
    error = error_text(lambda: torch.optim.Adam(model.parameters()))
    return Observation(
        holds=count == 0 and error.startswith("ValueError") and "empty parameter list" in error,
        rule="holds if a model made of "
        + ("Linear and ReLU" if with_linear else "only ReLU")
        + " has no parameters and Adam refuses it with ValueError",
        measurements=(
            Measurement("amp-relu-model-parameters", count, "count"),
            Measurement("amp-relu-model-optimizer-error", error, "exception"),
        ),
    )


def probe_ellipsis_unpack(device: Device) -> Observation:
    return _unpack_rule("first, second = ...")


def control_unpack_a_pair(device: Device) -> Observation:
    return _unpack_rule("first, second = 1, 2")


def _unpack_rule(source: str) -> Observation:
    error = error_text(lambda: exec(source, {}))
    return Observation(
        holds=error.startswith("TypeError") and "ellipsis" in error,
        rule=f"holds if `{source}` raises a TypeError about the ellipsis",
        measurements=(Measurement("amp-ellipsis-unpack-error", error, "exception"),),
    )


def probe_missing_module(device: Device) -> Observation:
    return _import_rule("my_custom_grad_module")


def control_existing_module(device: Device) -> Observation:
    return _import_rule("math")


def _import_rule(name: str) -> Observation:
    import importlib

    error = error_text(lambda: importlib.import_module(name))
    return Observation(
        holds=error.startswith("ModuleNotFoundError"),
        rule=f"holds if importing {name} raises ModuleNotFoundError",
        measurements=(Measurement("amp-missing-module-error", error, "exception"),),
    )


# -- the registry ------------------------------------------------------------------------------

_EN_LOWER = ("low precision", "lower precision", "float16", "half")
_JA_LOWER = ("低精度", "float16", "半精度")
_KO_LOWER = ("저정밀", "낮은 정밀도", "float16")
#: A sentence about an input that is already in low precision is about another case than
#: "relu of a float32 tensor" (relu of a bfloat16 tensor is bfloat16, as it should be).
_LOW_INPUT: dict[Lang, tuple[str, ...]] = {
    "en": ("input is already", "inputs are already", "of a float16 tensor", "of a bfloat16 tensor"),
    "ja": ("である状態で", "の状態で", "がすでに"),
    "ko": ("인 상태에서", "이미 bfloat16", "이미 float16"),
}

#: "is deprecated", for the claims about the torch.cuda.amp and torch.cpu.amp spellings.
_DEPRECATED: dict[Lang, tuple[str, ...]] = {
    "en": ("deprecated",),
    "ja": ("非推奨", "廃止"),
    "ko": ("더 이상 사용되지", "폐기", "사용 중단"),
}

CLAIMS = (
    # topics/amp.md (amp-autocast)
    Claim(
        id="amp/default-dtype-per-device",
        statement="Without a dtype argument, torch.autocast uses bfloat16 on CPU and float16 "
        "on CUDA.",
        expect=Expect.HOLDS,
        probe=probe_default_dtype,
        control=Control(
            "a region opened with the other lower-precision dtype",
            control_explicit_other_dtype,
        ),
        measures=("amp-default-dtype", "amp-default-mm-dtype"),
        vocabulary=Vocabulary(
            subjects=("autocast",),
            predicates={
                # what autocast picks by itself, not any sentence naming a dtype
                "en": ("default", "uses bfloat16", "uses float16", "picks", "chooses"),
                "ja": ("デフォルト", "既定"),
                "ko": ("기본",),
            },
        ),
    ),
    Claim(
        id="amp/cpu-autocast-takes-float16-and-bfloat16",
        statement="CPU autocast takes float16 as well as bfloat16; any other dtype turns the "
        "region off with a warning.",
        expect=Expect.HOLDS,
        probe=probe_cpu_autocast_dtypes,
        control=Control(
            "float64 in place of float16 among the accepted dtypes",
            control_cpu_autocast_float64_as_accepted,
        ),
        devices=("cpu",),
        measures=(
            "amp-cpu-autocast-float16",
            "amp-cpu-autocast-bfloat16",
            "amp-cpu-autocast-float64",
        ),
        vocabulary=Vocabulary(
            subjects=("autocast",),
            predicates={
                "en": ("CPU autocast supports float16", "float16 on the CPU", "float16 on CPU"),
                "ja": ("CPU でも float16", "CPU の autocast は float16"),
                "ko": ("CPU에서도 float16", "CPU autocast는 float16"),
            },
        ),
    ),
    Claim(
        id="amp/myth-cpu-autocast-bfloat16-only",
        statement="CPU autocast supports only bfloat16.",
        expect=Expect.FAILS,
        probe=probe_cpu_autocast_bfloat16_only,
        control=Control("float64 in place of float16", control_cpu_autocast_refuses_float64),
        devices=("cpu",),
        measures=("amp-cpu-autocast-refuses-float16",),
        vocabulary=Vocabulary(
            subjects=("autocast",),
            predicates={
                "en": (
                    "only bfloat16",
                    "only supports bfloat16",
                    "bfloat16 only",
                    "only lower-precision",
                    "only low-precision",
                    "only reduced-precision",
                ),
                "ja": (
                    "bfloat16 のみ",
                    "bfloat16 だけ",
                    "bfloat16のみ",
                    "bfloat16だけ",
                    "唯一の低精度",
                ),
                "ko": ("bfloat16만", "bfloat16 만", "bfloat16 외에는", "유일한 저정밀도"),
            },
        ),
    ),
    Claim(
        id="amp/myth-autocast-covers-every-device",
        statement="An autocast region opened for one device type also lowers the precision of "
        "operations on tensors of another device.",
        expect=Expect.FAILS,
        probe=probe_other_device_autocast,
        measures=(
            "amp-other-autocast-device",
            "amp-other-autocast-enabled",
            "amp-other-autocast-mm-dtype",
        ),
        control=Control(
            "a region opened for the tensors' own device",
            control_same_device_autocast,
        ),
        vocabulary=Vocabulary(
            subjects=("autocast", "torch.cuda.amp"),
            predicates={
                "en": (
                    "another device",
                    "other device",
                    "every device",
                    "all devices",
                    "CPU operations too",
                    "on the CPU as well",
                ),
                "ja": (
                    "他のデバイス",
                    "別のデバイス",
                    "すべてのデバイス",
                    "CPU上の演算にも",
                    "CPUの演算にも",
                ),
                "ko": ("다른 장치", "모든 장치", "CPU 연산에도", "CPU에서도"),
            },
        ),
    ),
    Claim(
        id="amp/cuda-autocast-needs-cuda",
        statement="torch.autocast('cuda') is active only where CUDA is available; without CUDA "
        "it warns and disables itself.",
        expect=Expect.HOLDS,
        probe=probe_cuda_autocast_needs_cuda,
        control=Control(
            "torch.autocast('cuda', enabled=False), which stays off without a warning",
            control_cuda_autocast_switched_off,
        ),
        devices=("cpu",),
        measures=(
            "amp-cuda-available",
            "amp-cuda-autocast-enabled",
            "amp-cuda-autocast-warning",
        ),
    ),
    # topics/amp.md (amp-op-categories)
    Claim(
        id="amp/matmul-linear-conv-run-in-lower-precision",
        statement="Under autocast, matrix products, linear layers and convolutions of float32 "
        "inputs run in the autocast dtype, float16 or bfloat16.",
        expect=Expect.HOLDS,
        probe=probe_lower_precision_ops,
        control=Control(
            "activations (relu, gelu, sigmoid) in place of the listed operations",
            control_lower_precision_ops,
        ),
        measures=(
            "amp-lower-ops",
            "amp-lower-ops-count",
            "amp-lower-as-float16",
            "amp-lower-as-bfloat16",
            "amp-lower-outside-float32",
            "amp-lower-float16-results",
        ),
        vocabulary=Vocabulary(
            subjects=("autocast", "matmul", "linear", "conv"),
            predicates={"en": _EN_LOWER, "ja": _JA_LOWER, "ko": _KO_LOWER},
        ),
    ),
    Claim(
        id="amp/losses-run-in-float32",
        statement="Under autocast, losses such as mse_loss and cross_entropy, and prod, return "
        "float32 even for float16 or bfloat16 inputs.",
        expect=Expect.HOLDS,
        probe=probe_float32_ops,
        control=Control(
            "matrix products (mm, matmul, bmm, linear, conv2d) in place of the listed operations",
            control_float32_ops,
        ),
        measures=(
            "amp-float32-ops",
            "amp-float32-ops-count",
            "amp-float32-from-float16",
            "amp-float32-from-bfloat16",
            "amp-float32-float16-results",
        ),
        vocabulary=Vocabulary(
            subjects=("autocast", "loss"),
            predicates={
                "en": ("float32", "high precision", "full precision"),
                "ja": ("高精度", "float32"),
                "ko": ("고정밀", "float32"),
            },
            unless={  # other operations' rules, with claims of their own
                lang: ("softmax", "layer_norm", "relu", "gelu", "sigmoid")
                for lang in ("en", "ja", "ko")
            },
        ),
    ),
    Claim(
        id="amp/activations-follow-input-dtype",
        statement="Under autocast, relu, gelu and sigmoid are not cast: they return the dtype "
        "of their input.",
        expect=Expect.HOLDS,
        probe=probe_following_ops,
        control=Control(
            "matrix products (mm, matmul, bmm, linear, conv2d) in place of the activations",
            control_following_ops,
        ),
        measures=(
            "amp-follow-ops",
            "amp-follow-ops-count",
            "amp-follow-float16-from-float32",
            "amp-follow-float16-from-float16",
            "amp-follow-bfloat16-from-float32",
            "amp-follow-bfloat16-from-bfloat16",
        ),
        vocabulary=Vocabulary(
            subjects=("relu", "gelu", "sigmoid"),
            predicates={"en": _EN_LOWER, "ja": _JA_LOWER, "ko": _KO_LOWER},
            unless=_LOW_INPUT,
            denies=True,  # "are not cast": it denies running in lower precision
        ),
    ),
    Claim(
        id="amp/myth-relu-runs-in-lower-precision",
        statement="Inside a float16 autocast region, relu of a float32 tensor runs in lower "
        "precision.",
        expect=Expect.FAILS,
        probe=probe_relu_lower_precision,
        control=Control(
            "mm in place of relu",
            control_mm_lower_precision,
        ),
        measures=("amp-relu-float32-input-dtype",),
        vocabulary=Vocabulary(
            subjects=("relu",),
            predicates={"en": _EN_LOWER, "ja": _JA_LOWER, "ko": _KO_LOWER},
            unless=_LOW_INPUT,
        ),
    ),
    Claim(
        id="amp/widest-input-type-ops",
        statement="Under autocast, cat, stack and addcmul run in the widest floating type of "
        "their inputs: float16 mixed with float32 gives float32.",
        expect=Expect.HOLDS,
        probe=probe_widest_type_ops,
        measures=("amp-widest-ops", "amp-widest-float32-results", "amp-widest-results"),
        control=Control("mm, which autocast casts down", control_widest_type_mm),
    ),
    Claim(
        id="amp/reductions-float32-on-cuda",
        statement="Under CUDA autocast, softmax, log_softmax, sum, exp and layer_norm return "
        "float32 even for float16 or bfloat16 inputs.",
        expect=Expect.HOLDS,
        probe=probe_reductions_float32_on_cuda,
        control=Control(
            "activations (relu, gelu, sigmoid) in place of the listed operations",
            control_reductions_float32_on_cuda,
        ),
        devices=("cuda",),
        measures=(
            "amp-cuda-reduction-ops",
            "amp-cuda-reductions-count",
            "amp-cuda-reductions-float16",
            "amp-cuda-reductions-bfloat16",
            "amp-cuda-reductions-results",
        ),
        vocabulary=Vocabulary(
            subjects=("softmax",),
            predicates={"en": ("float32",), "ja": ("float32", "高精度"), "ko": ("float32",)},
            unless={"en": ("cpu",), "ja": ("cpu",), "ko": ("cpu",)},  # the other claim's case
        ),
    ),
    Claim(
        id="amp/reductions-follow-input-on-cpu",
        statement="Under CPU autocast, softmax, log_softmax, sum, exp and layer_norm return the "
        "dtype of their input: float16 or bfloat16 inputs stay in that dtype.",
        expect=Expect.HOLDS,
        probe=probe_reductions_follow_on_cpu,
        control=Control(
            "losses and prod (the float32 list) in place of the listed operations",
            control_reductions_follow_on_cpu,
        ),
        devices=("cpu",),
        measures=(
            "amp-cpu-reduction-ops",
            "amp-cpu-reductions-count",
            "amp-cpu-reductions-float16",
            "amp-cpu-reductions-bfloat16",
            "amp-cpu-reductions-results",
        ),
        vocabulary=Vocabulary(
            subjects=("softmax",),
            predicates={"en": ("float32",), "ja": ("float32", "高精度"), "ko": ("float32",)},
            # "on the CPU, softmax returns float32" denies that it follows its input there
            denies=True,
            requires={"en": ("cpu",), "ja": ("cpu",), "ko": ("cpu",)},
            unless={"en": ("cuda", "gpu"), "ja": ("cuda", "gpu"), "ko": ("cuda", "gpu")},
        ),
    ),
    Claim(
        id="amp/explicit-dtype-overrides-autocast",
        statement="An explicit dtype argument takes precedence over autocast, and float64 "
        "operations are never autocast.",
        expect=Expect.HOLDS,
        probe=probe_explicit_dtype_wins,
        control=Control(
            "the same calls with dtype=torch.float16",
            control_explicit_float16,
        ),
        measures=("amp-explicit-softmax-dtype", "amp-explicit-sum-dtype", "amp-float64-mm-dtype"),
    ),
    Claim(
        id="amp/binary-cross-entropy-refused-on-cuda",
        statement="Under CUDA autocast, binary_cross_entropy raises an error that calls it "
        "unsafe to autocast.",
        expect=Expect.HOLDS,
        probe=probe_bce_refused_on_cuda,
        control=Control(
            "binary_cross_entropy_with_logits, which autocast runs in float32",
            control_bce_with_logits_allowed,
        ),
        devices=("cuda",),
        measures=("amp-cuda-bce-error",),
    ),
    Claim(
        id="amp/binary-cross-entropy-float32-on-cpu",
        statement="Under CPU autocast, binary_cross_entropy runs and returns float32.",
        expect=Expect.HOLDS,
        probe=probe_bce_float32_on_cpu,
        control=Control(
            "sigmoid in place of binary_cross_entropy",
            control_sigmoid_follows_on_cpu,
        ),
        devices=("cpu",),
        measures=("amp-cpu-bce-from-float16", "amp-cpu-bce-from-bfloat16"),
    ),
    Claim(
        id="amp/parameters-and-grads-stay-float32",
        statement="Autocast leaves parameters in float32: a Linear layer's output is float16 "
        "under float16 autocast, but its weight and the weight's gradient stay float32.",
        expect=Expect.HOLDS,
        probe=probe_params_and_grads_float32,
        control=Control(
            "a model converted with .half()",
            control_half_model,
        ),
        measures=(
            "amp-linear-weight-dtype",
            "amp-linear-output-dtype",
            "amp-linear-loss-dtype",
            "amp-linear-grad-dtype",
        ),
        vocabulary=Vocabulary(
            subjects=("autocast",),
            predicates={
                "en": ("weights", "parameters", "master"),
                "ja": ("重み", "パラメータ"),
                "ko": ("가중치", "파라미터", "매개변수"),
            },
        ),
    ),
    Claim(
        id="amp/autocast-caches-weight-casts",
        statement="Inside one autocast region, a float32 weight that requires grad is cast to "
        "the lower precision once and the copy is reused; a new region casts it again.",
        expect=Expect.HOLDS,
        probe=probe_autocast_caches_weight_casts,
        measures=(
            "amp-weight-casts-one-region-cache-true",
            "amp-weight-casts-two-regions-cache-true",
        ),
        control=Control(
            "the same products with cache_enabled=False",
            control_autocast_without_cache,
            measures=("amp-weight-casts-one-region-cache-false",),
        ),
    ),
    # topics/amp.md (amp-why-scaling)
    Claim(
        id="amp/float16-range",
        statement="float16 cannot hold 1e-8 (it becomes 0) nor 70000 (it becomes inf).",
        expect=Expect.HOLDS,
        probe=probe_float16_range,
        control=Control(
            "bfloat16 in place of float16",
            control_bfloat16_in_float16_rule,
        ),
        measures=(
            "amp-float16-of-1e-8",
            "amp-float16-smallest",
            "amp-float16-half-smallest",
            "amp-float16-smallest-normal",
            "amp-float16-max",
            "amp-float16-of-70000",
        ),
    ),
    Claim(
        id="amp/bfloat16-range",
        statement="bfloat16 has float32's range (1e-8 stays non-zero) but fewer digits "
        "(257 becomes 256).",
        expect=Expect.HOLDS,
        probe=probe_bfloat16_range,
        control=Control(
            "float16 in place of bfloat16",
            control_float16_in_bfloat16_rule,
        ),
        measures=(
            "amp-bfloat16-of-1e-8",
            "amp-bfloat16-smallest-normal",
            "amp-float32-smallest-normal",
            "amp-bfloat16-of-257",
            "amp-bfloat16-eps",
            "amp-float16-eps",
        ),
        vocabulary=Vocabulary(
            subjects=("bfloat16",),
            predicates={
                "en": ("range", "exponent", "no scaling"),
                "ja": ("範囲", "指数", "スケーリング"),
                "ko": ("범위", "지수", "스케일링"),
            },
        ),
    ),
    Claim(
        id="amp/float16-gradients-underflow",
        statement="Small gradients that pass through float16 become exactly zero, while "
        "bfloat16 keeps every gradient float32 keeps in float32's normal range.",
        expect=Expect.HOLDS,
        probe=probe_gradient_underflow,
        measures=(
            "amp-sweep-float16-count",
            "amp-sweep-smallest",
            "amp-sweep-largest",
            "amp-sweep-float32-normal-limit",
            "amp-survive-float32-vs-float16",
            "amp-survive-bfloat16-vs-float16",
            "amp-survive-float16",
            "amp-lost-float16-normal",
            "amp-smallest-kept-float16",
            "amp-bfloat16-lost-normal-vs-float16",
            "amp-bfloat16-lost-subnormal-vs-float16",
            "amp-smallest-kept-bfloat16-vs-float16",
        ),
        control=Control("float32 in place of float16", control_underflow_float32),
        vocabulary=Vocabulary(
            subjects=("float16", "GradScaler"),
            predicates={
                "en": ("underflow", "zero", "vanish"),
                "ja": ("アンダーフロー", "ゼロ", "消え"),
                "ko": ("언더플로", "0이", "사라"),
            },
        ),
    ),
    Claim(
        id="amp/gradscaler-recovers-small-gradients",
        statement="With a GradScaler at its initial scale, float16 gradients from about 1e-12 "
        "up arrive non-zero, rounded to float16's precision; smaller ones still become zero.",
        expect=Expect.HOLDS,
        probe=probe_scaler_recovers_gradients,
        measures=(
            "amp-scaled-kept-from-1e-12",
            "amp-scaled-sweep-from-1e-12",
            "amp-scaled-kept-below-1e-13",
            "amp-scaled-smallest-kept",
            "amp-scaled-max-relative-error",
            "amp-scaled-scale",
            "amp-survive-float16-scaled",
        ),
        control=Control(
            "the same sweep without a GradScaler",
            control_scaler_unscaled,
            measures=("amp-unscaled-kept-from-1e-12",),
        ),
        vocabulary=Vocabulary(
            subjects=("GradScaler",),
            # "small gradients do not underflow" says what the claim says: the negation is
            # part of these stems, which come before the bare word
            predicates={
                "en": (
                    "do not underflow",
                    "does not underflow",
                    "don't underflow",
                    "no longer underflow",
                    "underflow",
                    "small gradient",
                    "vanish",
                ),
                "ja": (
                    "アンダーフローしない",
                    "アンダーフローせず",
                    "アンダーフロー",
                    "小さな勾配",
                    "消失",
                ),
                "ko": (
                    "언더플로가 일어나지 않",
                    "언더플로되지 않",
                    "언더플로",
                    "작은 기울기",
                    "작은 변화도",
                    "소실",
                ),
            },
        ),
    ),
    # topics/amp.md (amp-gradscaler)
    Claim(
        id="amp/gradscaler-scale-multiplies-loss",
        statement="GradScaler.scale(loss) multiplies the loss by the current scale, 65536 for "
        "a new scaler.",
        expect=Expect.HOLDS,
        probe=probe_scale_multiplies_loss,
        control=Control(
            "GradScaler(enabled=False)",
            control_disabled_scaler,
        ),
        measures=("amp-scale-ratio", "amp-initial-scale"),
    ),
    Claim(
        id="amp/unscale-restores-gradients",
        statement="After backward of a scaled loss the gradients are multiplied by the scale; "
        "unscale_ divides them back to the unscaled values.",
        expect=Expect.HOLDS,
        probe=probe_unscale_restores,
        control=Control(
            "the same steps without unscale_",
            control_without_unscale,
        ),
        measures=(
            "amp-unscale-scale",
            "amp-scaled-grads-difference",
            "amp-unscaled-grads-difference",
        ),
    ),
    Claim(
        id="amp/clip-after-unscale",
        statement="A gradient norm measured before unscale_ is multiplied by the scale, so "
        "gradient clipping must come after unscale_.",
        expect=Expect.HOLDS,
        probe=probe_clip_needs_unscale,
        control=Control(
            "the norm measured twice without unscale_",
            control_clip_without_unscale,
        ),
        measures=("amp-clip-norm-ratio",),
        vocabulary=Vocabulary(
            subjects=("unscale_", "clip_grad_norm_"),
            predicates={"en": ("clip",), "ja": ("クリップ", "クリッピング"), "ko": ("클리핑",)},
            # "clip before unscale_" (the other order) denies it (checker.scan.order)
            order=(("unscale_",), ("clip", "クリップ", "クリッピング", "클리핑")),
            conditions={  # "unscale_ first, otherwise you clip the scaled gradients"
                "en": ("otherwise",),
                "ja": ("そうしないと", "しないと"),
                "ko": ("그렇지 않으면", "하지 않으면"),
            },
        ),
    ),
    Claim(
        id="amp/gradscaler-skips-nonfinite-steps",
        statement="When gradients contain inf or NaN, scaler.step skips the optimizer step and "
        "update halves the scale; after growth_interval clean steps update doubles it.",
        expect=Expect.HOLDS,
        probe=probe_skips_nonfinite_steps,
        control=Control(
            "GradScaler(enabled=False)",
            control_disabled_scaler_steps,
        ),
        measures=(
            "amp-overflow-skipped",
            "amp-overflow-taken",
            "amp-overflow-scales",
            "amp-growth-scales",
        ),
        vocabulary=Vocabulary(
            subjects=("GradScaler", "scaler.step"),
            predicates={
                "en": ("skip", "inf", "NaN"),
                "ja": ("スキップ", "inf", "NaN"),
                "ko": ("건너", "inf", "NaN"),
            },
        ),
    ),
    Claim(
        id="amp/gradscaler-lives-across-iterations",
        statement="A GradScaler must be created once: one created anew in every iteration "
        "starts from the initial scale each time, and a gradient that overflows at that scale "
        "then skips every step.",
        expect=Expect.HOLDS,
        probe=probe_scaler_lives_across_iterations,
        control=Control(
            "both scalers created anew in every iteration",
            control_both_scalers_recreated,
        ),
        measures=(
            "amp-scaler-iterations",
            "amp-kept-scaler-steps",
            "amp-recreated-scaler-steps",
            "amp-recreated-scaler-scales",
        ),
        vocabulary=Vocabulary(
            subjects=("GradScaler",),
            predicates={
                # "every iteration" alone says nothing: "recreate it every iteration" is the myth
                "en": (
                    "once",
                    "outside the loop",
                    "before the loop",
                    "across iterations",
                    "initial scale each",
                    "initial scale every",
                ),
                "ja": ("一度", "ループ", "初期スケール"),
                "ko": ("한 번", "반복 밖", "루프 밖", "반복 전체", "초기 스케일"),
            },
            # "must be created anew every iteration" states the opposite of living across them
            opposites={
                "en": (
                    "anew every iteration",
                    "a new GradScaler every",
                    "every … iteration … recreat",
                    "recreat … every",
                    "re-creat … every",
                ),
                "ja": ("毎回新しく作", "毎回作り直", "毎 … 作り直"),
                "ko": ("새로 만들어야", "새로 생성해야", "매 … 새로 만들", "매 … 다시 만들"),
            },
        ),
    ),
    Claim(
        id="amp/gradscaler-refuses-float16-gradients",
        statement="GradScaler refuses to unscale float16 gradients, so the parameters must "
        "not be float16; it accepts bfloat16 ones.",
        expect=Expect.HOLDS,
        probe=probe_scaler_refuses_float16_grads,
        measures=("amp-float16-params-error", "amp-bfloat16-params-error-vs-float16"),
        control=Control("float32 parameters", control_scaler_float32_params),
    ),
    Claim(
        id="amp/cuda-gradscaler-needs-cuda",
        statement="GradScaler() defaults to CUDA, and a CUDA GradScaler is enabled only where "
        "CUDA is available; without CUDA it warns and does nothing.",
        expect=Expect.HOLDS,
        probe=probe_cuda_scaler_needs_cuda,
        control=Control(
            "GradScaler('cuda', enabled=False), which stays off without a warning",
            control_cuda_scaler_switched_off,
        ),
        devices=("cpu",),
        measures=(
            "amp-default-scaler-device",
            "amp-cuda-scaler-available",
            "amp-cuda-scaler-enabled",
            "amp-cuda-scaler-warning",
        ),
    ),
    # topics/amp.md (amp-training-loop)
    Claim(
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
    ),
    # topics/amp.md (amp-custom-function)
    Claim(
        id="amp/undecorated-function-fails-under-autocast",
        statement="A custom autograd Function without custom_fwd and custom_bwd, whose forward "
        "runs under autocast, can fail in backward with a dtype mismatch.",
        expect=Expect.HOLDS,
        probe=probe_undecorated_function_fails,
        control=Control(
            "the same Function with custom_fwd and custom_bwd",
            control_decorated_function,
        ),
        measures=("amp-undecorated-error",),
    ),
    Claim(
        id="amp/myth-custom-bwd-only-for-complex-gradients",
        statement="custom_fwd and custom_bwd are needed only for complex custom gradients; a "
        "simple custom Function works under autocast without them.",
        expect=Expect.FAILS,
        probe=probe_simple_function_needs_nothing,
        control=Control(
            "the same Function with custom_fwd and custom_bwd",
            control_simple_function_decorated,
        ),
        measures=("amp-one-line-function-error",),
        vocabulary=Vocabulary(
            subjects=("custom_bwd",),
            predicates={
                "en": ("only when", "only if", "only for", "only needed"),
                "ja": ("にのみ使", "だけ使", "のみ必要", "だけ必要", "にのみ用い", "場合のみ"),
                "ko": ("경우에만", "때만 사용", "에만 필요", "때만 쓰"),
            },
        ),
    ),
    Claim(
        id="amp/custom-bwd-reuses-forward-autocast-state",
        statement="custom_bwd runs backward with the autocast state and dtype that forward ran "
        "with, recorded by custom_fwd.",
        expect=Expect.HOLDS,
        probe=probe_custom_bwd_reuses_state,
        control=Control(
            "the same Function called outside autocast",
            control_forward_outside_autocast,
        ),
        measures=(
            "amp-forward-autocast-enabled",
            "amp-forward-autocast-dtype",
            "amp-backward-autocast-enabled",
            "amp-backward-autocast-dtype",
            "amp-backward-product-dtype",
        ),
        vocabulary=Vocabulary(
            subjects=("custom_bwd",),
            predicates={"en": ("same",), "ja": ("同じ",), "ko": ("같은", "동일")},
        ),
    ),
    Claim(
        id="amp/myth-custom-bwd-recomputes-in-higher-precision",
        statement="custom_bwd recomputes the gradient of a low-precision operation in higher "
        "precision.",
        expect=Expect.FAILS,
        probe=probe_custom_bwd_higher_precision,
        control=Control(
            "custom_fwd with cast_inputs=torch.float32",
            control_cast_inputs_backward,
        ),
        measures=(
            "amp-custom-bwd-grad-dtype",
            "amp-custom-bwd-grad-error",
            "amp-cast-inputs-grad-error",
        ),
        vocabulary=Vocabulary(
            subjects=("custom_bwd",),
            predicates={
                "en": ("higher precision", "high precision", "recompute", "in float32"),
                "ja": ("高精度", "計算し直", "float32で"),
                "ko": ("고정밀", "높은 정밀도", "다시 계산", "float32로"),
            },
        ),
    ),
    Claim(
        id="amp/cast-inputs-float32-runs-in-float32",
        statement="Inside an autocast region, custom_fwd(cast_inputs=torch.float32) casts a "
        "Function's float16 and bfloat16 inputs to float32 and runs its forward and backward "
        "with autocast disabled; outside autocast it changes nothing.",
        expect=Expect.HOLDS,
        probe=probe_cast_inputs_float32,
        control=Control(
            "custom_fwd without cast_inputs",
            control_without_cast_inputs,
        ),
        measures=(
            "amp-cast-forward-enabled",
            "amp-cast-input-dtype",
            "amp-cast-output-dtype",
            "amp-cast-backward-enabled",
            "amp-cast-backward-dtype",
            "amp-cast-outside-input-dtype",
        ),
        vocabulary=Vocabulary(
            subjects=("cast_inputs",),
            predicates={"en": ("float32",), "ja": ("float32",), "ko": ("float32",)},
        ),
    ),
    Claim(
        id="amp/custom-bwd-needs-custom-fwd",
        statement="custom_bwd works only together with custom_fwd: without it, backward raises "
        "an AttributeError.",
        expect=Expect.HOLDS,
        probe=probe_custom_bwd_needs_custom_fwd,
        control=Control(
            "the same backward with custom_fwd on forward",
            control_with_custom_fwd,
        ),
        measures=("amp-bwd-without-fwd-error", "amp-bwd-without-fwd-error-outside"),
        vocabulary=Vocabulary(
            subjects=("custom_bwd",),
            predicates={"en": ("custom_fwd",), "ja": ("custom_fwd",), "ko": ("custom_fwd",)},
        ),
    ),
    Claim(
        id="amp/custom-decorators-need-device-type",
        statement="torch.amp.custom_fwd and torch.amp.custom_bwd require the keyword argument "
        "device_type.",
        expect=Expect.HOLDS,
        probe=probe_decorators_need_device_type,
        control=Control(
            "the same decorators with device_type",
            control_with_device_type,
        ),
        devices=("cpu",),
        measures=("amp-custom-fwd-no-device-type", "amp-custom-bwd-no-device-type"),
    ),
    Claim(
        id="amp/myth-custom-bwd-cuda-only",
        statement="torch.amp.custom_bwd can only be used on CUDA devices.",
        expect=Expect.FAILS,
        probe=probe_custom_bwd_cuda_only,
        devices=("cpu",),
        measures=(
            "amp-cpu-custom-bwd-error",
            "amp-cpu-custom-bwd-enabled",
            "amp-cpu-custom-bwd-dtype",
        ),
        control=Control(
            "torch.cuda.amp.custom_fwd and custom_bwd, the article's decorators",
            control_cuda_amp_custom_bwd,
            measures=("amp-cpu-cuda-custom-bwd-error",),
        ),
        vocabulary=Vocabulary(
            subjects=("custom_bwd",),
            predicates={
                "en": ("only on CUDA", "CUDA only", "CUDA devices"),
                "ja": (
                    "CUDA デバイスのみ",
                    "CUDAのみ",
                    "CUDA のみ",
                    "CUDAデバイスでのみ",
                    "CUDAでのみ",
                ),
                "ko": ("CUDA에서만", "CUDA 전용", "CUDA 장치에서만"),
            },
        ),
    ),
    # topics/amp.md (amp-deprecated)
    Claim(
        id="amp/torch-cuda-amp-deprecated",
        statement="torch.cuda.amp.autocast, GradScaler, custom_fwd and custom_bwd are "
        "deprecated: each emits a FutureWarning naming its torch.amp replacement.",
        expect=Expect.HOLDS,
        probe=probe_torch_cuda_amp_deprecated,
        control=Control(
            "the torch.amp spellings",
            control_torch_amp_not_deprecated,
        ),
        devices=("cpu",),
        measures=(
            "amp-deprecated-autocast",
            "amp-deprecated-gradscaler",
            "amp-deprecated-custom-fwd",
            "amp-deprecated-custom-bwd",
        ),
        vocabulary=Vocabulary(
            subjects=("torch.cuda.amp",),
            predicates=_DEPRECATED,
        ),
    ),
    Claim(
        id="amp/torch-cpu-amp-deprecated",
        statement="torch.cpu.amp.autocast and torch.cpu.amp.GradScaler are deprecated: each "
        "emits a FutureWarning naming its torch.amp replacement.",
        expect=Expect.HOLDS,
        probe=probe_torch_cpu_amp_deprecated,
        control=Control(
            "torch.amp.autocast('cpu') and torch.amp.GradScaler('cpu')",
            control_torch_amp_cpu_not_deprecated,
        ),
        devices=("cpu",),
        measures=("amp-deprecated-cpu-autocast", "amp-deprecated-cpu-gradscaler"),
        vocabulary=Vocabulary(
            subjects=("torch.cpu.amp",),
            predicates=_DEPRECATED,
        ),
    ),
    Claim(
        id="amp/cuda-decorators-ignore-cpu-autocast",
        statement="The deprecated torch.cuda.amp.custom_fwd and custom_bwd follow CUDA autocast "
        "only: under CPU autocast they do not prevent the backward dtype mismatch.",
        expect=Expect.HOLDS,
        probe=probe_cuda_decorators_ignore_cpu,
        control=Control(
            "the torch.amp decorators with device_type='cpu'",
            control_amp_decorators_on_cpu,
        ),
        devices=("cpu",),
        measures=("amp-cuda-decorators-cpu-error",),
    ),
    # topics/amp.md (amp-nonexistent-calls)
    Claim(
        id="amp/myth-custom-bwd-takes-args-outputs-inputs",
        statement="torch.cuda.amp.custom_bwd is called with inputs, outputs and an args keyword.",
        expect=Expect.FAILS,
        probe=probe_custom_bwd_takes_args,
        control=Control(
            "custom_bwd applied to a backward function",
            control_custom_bwd_as_decorator,
        ),
        devices=("cpu",),
        measures=("amp-custom-bwd-args-error", "amp-amp-custom-bwd-args-error"),
        vocabulary=Vocabulary(
            subjects=("custom_bwd",),
            predicates={
                "en": ("takes", "accepts", "called with", "args keyword"),
                "ja": ("引数を取", "引数を受け取", "を引数に", "を渡して呼び出"),
                "ko": ("인수를 받", "인자를 받", "인수로 받", "인자로 받", "와 함께 호출"),
            },
        ),
    ),
    Claim(
        id="amp/myth-custom-bwd-returns-gradients",
        statement="Calling custom_bwd returns gradients.",
        expect=Expect.FAILS,
        probe=probe_custom_bwd_returns_grads,
        control=Control(
            "torch.autograd.grad, which does return gradients",
            control_autograd_grad_returns_grads,
        ),
        devices=("cpu",),
        measures=(
            "amp-custom-bwd-result-type",
            "amp-custom-bwd-result-name",
            "amp-custom-bwd-result-call-error",
        ),
        vocabulary=Vocabulary(
            subjects=("custom_bwd",),
            predicates={
                "en": ("returns",),
                "ja": ("返し", "返す"),
                "ko": ("반환",),
            },
        ),
    ),
    Claim(
        id="amp/myth-amp-backward-exists",
        statement="AMP provides a function amp.backward(loss) that computes gradients.",
        expect=Expect.FAILS,
        probe=probe_amp_backward_exists,
        control=Control(
            "the attribute autocast, which exists",
            control_amp_autocast_exists,
        ),
        devices=("cpu",),
        measures=(
            "amp-cuda-amp-has-backward",
            "amp-amp-has-backward",
            "amp-cuda-amp-backward-error",
        ),
        vocabulary=Vocabulary(subjects=("amp.backward",)),
    ),
    Claim(
        id="amp/myth-gradscaler-has-unscale",
        statement="GradScaler has a method unscale(optimizer).",
        expect=Expect.FAILS,
        probe=probe_gradscaler_has_unscale,
        control=Control(
            "the method unscale_, which exists",
            control_gradscaler_has_unscale_underscore,
        ),
        devices=("cpu",),
        measures=(
            "amp-scaler-has-unscale",
            "amp-scaler-has-unscale-underscore",
            "amp-scaler-unscale-error",
        ),
        vocabulary=Vocabulary(subjects=("scaler.unscale(",)),
    ),
    Claim(
        id="amp/myth-autograd-grad-takes-args",
        statement="torch.autograd.grad accepts an args keyword argument.",
        expect=Expect.FAILS,
        probe=probe_autograd_grad_takes_args,
        control=Control(
            "the parameter inputs, which exists",
            control_autograd_grad_takes_inputs,
        ),
        devices=("cpu",),
        measures=("amp-grad-has-args", "amp-grad-args-error"),
        vocabulary=Vocabulary(subjects=("torch.autograd.grad",)),
    ),
    # reviews/amp-custom-bwd-article.md (amp-review-failures)
    Claim(
        id="amp/article-unindented-function-block",
        statement="A function block whose indentation was lost does not compile: Python "
        "raises IndentationError at the first statement after the def.",
        expect=Expect.HOLDS,
        probe=probe_unindented_function,
        control=Control(
            "the same block with its indentation restored",
            control_indented_function,
        ),
        devices=("cpu",),
        measures=("amp-unindented-function-error", "amp-unindented-function-line"),
    ),
    Claim(
        id="amp/article-unindented-class-block",
        statement="A class block whose indentation was lost does not compile: Python raises "
        "IndentationError at the first statement after the class line.",
        expect=Expect.HOLDS,
        probe=probe_unindented_class,
        control=Control(
            "the same block with its indentation restored",
            control_indented_class,
        ),
        devices=("cpu",),
        measures=("amp-unindented-class-error", "amp-unindented-class-line"),
    ),
    Claim(
        id="amp/article-block-a-restored",
        statement="With its indentation restored, the article's first example computes relu in "
        "float32, not float16, and then fails with TypeError at its custom_bwd call.",
        expect=Expect.HOLDS,
        probe=probe_block_a_restored,
        control=Control(
            "custom_bwd used as a decorator",
            control_block_a_with_decorator_call,
        ),
        devices=("cpu",),
        measures=("amp-block-a-relu-dtype", "amp-block-a-error", "amp-block-a-warnings"),
    ),
    Claim(
        id="amp/article-default-argument-nameerror",
        statement="A default argument that names a variable assigned after the def raises "
        "NameError when the def runs.",
        expect=Expect.HOLDS,
        probe=probe_default_argument_nameerror,
        control=Control(
            "the variable assigned before the definition",
            control_default_argument_assigned_first,
        ),
        devices=("cpu",),
        measures=("amp-default-argument-error",),
    ),
    Claim(
        id="amp/article-relu-model-empty-optimizer",
        statement="A model made only of ReLU has no parameters, and an optimizer built from it "
        "raises ValueError.",
        expect=Expect.HOLDS,
        probe=probe_relu_model_empty_optimizer,
        control=Control(
            "a model with a Linear layer",
            control_model_with_linear,
        ),
        devices=("cpu",),
        measures=("amp-relu-model-parameters", "amp-relu-model-optimizer-error"),
    ),
    Claim(
        id="amp/article-ellipsis-unpack",
        statement="Assigning the Ellipsis literal to two names raises TypeError.",
        expect=Expect.HOLDS,
        probe=probe_ellipsis_unpack,
        control=Control(
            "unpacking a pair",
            control_unpack_a_pair,
        ),
        devices=("cpu",),
        measures=("amp-ellipsis-unpack-error",),
    ),
    Claim(
        id="amp/article-missing-module",
        statement="The module my_custom_grad_module does not exist: importing it raises "
        "ModuleNotFoundError.",
        expect=Expect.HOLDS,
        probe=probe_missing_module,
        control=Control(
            "importing math",
            control_existing_module,
        ),
        devices=("cpu",),
        measures=("amp-missing-module-error",),
    ),
)
