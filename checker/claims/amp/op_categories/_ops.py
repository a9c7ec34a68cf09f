"""The operations of each autocast category, run on small inputs inside or outside an autocast
region, and the words the pages use for a lower precision: what the subsections of "Which operations
change precision" share."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from checker.claims.amp._precision import dtype_name
from checker.typing import Lang

#: Operations autocast runs in the lower-precision dtype on both devices.
LOWER_PRECISION_OPS = ("mm", "matmul", "bmm", "linear", "conv2d")
#: Operations autocast runs in float32 on both devices.
FLOAT32_OPS = ("mse_loss", "l1_loss", "cross_entropy", "binary_cross_entropy_with_logits", "prod")
#: Operations on no autocast list: they run in their input's dtype.
FOLLOWING_OPS = ("relu", "gelu", "sigmoid")


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


def _low_dtypes() -> tuple[Any, Any]:
    import torch

    return torch.float16, torch.bfloat16


def _matches(found: dict[str, str], wanted: str) -> int:
    """How many results have the dtype ``wanted``."""
    return sum(1 for value in found.values() if value == wanted)


_EN_LOWER = ("low precision", "lower precision", "float16", "half")

#: Words of sentences about autocast's scope (docs/topics/amp.md, ``(amp-scope)=``): the
#: errors that mixed dtypes raise, and regions that turn autocast off. Those have claims of
#: their own; the claims about the dtype an operation returns do not read such sentences.
SCOPE_CASES: dict[Lang, tuple[str, ...]] = {
    "en": ("raise", "error", "enabled=False", "in-place", "inplace", "out="),
    "ja": ("エラー", "送出", "enabled=False", "インプレース", "out="),
    "ko": ("오류", "에러", "enabled=False", "인플레이스", "out="),
}
_JA_LOWER = ("低精度", "float16", "半精度")
_KO_LOWER = ("저정밀", "낮은 정밀도", "float16")
