"""What several sections of the views and in-place page use: the tensors the probes make, the
bytes a call allocates, values, errors and warnings as text, and the words their vocabularies
share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from checker.measure import cpu_allocations, cuda_memory
from checker.typing import Device, Lang

#: Side of the square float32 tensors whose allocations are measured: 4 MiB each.
SIDE = 1024


def _error(call: Callable[[], Any]) -> str:
    """``"Type: message"`` of what ``call()`` raises, or ``"no error"``."""
    try:
        call()
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return "no error"


def _warning(call: Callable[[], Any]) -> str:
    """``"Category: message"`` of the first warning ``call()`` emits, or ``"no warning"``."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    if not caught:
        return "no warning"
    first = caught[0]
    return f"{first.category.__name__}: {first.message}"


def _allocated(fn: Callable[[], Any], device: Device) -> tuple[Any, int]:
    """Bytes a call allocates: the profiler's sum of allocations on CPU, the peak above the
    level before the call on CUDA (the caching allocator's statistics)."""
    if device == "cuda":
        result, memory = cuda_memory(fn)
        return result, memory.peak
    result, allocations = cpu_allocations(fn)
    return result, allocations.allocated


def _square(device: Device, seed: int = 0) -> Any:
    """A :data:`SIDE` × :data:`SIDE` float32 tensor of seeded random values."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    return torch.randn(SIDE, SIDE, generator=generator).to(device)


def _grid(device: Device) -> Any:
    """A 3 × 4 float32 tensor holding 0 … 11."""
    import torch

    return torch.arange(12.0, device=device).reshape(3, 4)


def _values(t: Any) -> str:
    """A tensor's values as a short list, rounded to 4 decimals."""
    return str([round(float(v), 4) for v in t.detach().cpu().reshape(-1)])


def _reaches(a: Any, t: Any) -> bool:
    """Whether a write to the NumPy array ``a`` shows up in the tensor ``t``."""
    old = float(t.reshape(-1)[0])
    a.reshape(-1)[0] += 100.0
    reached = float(t.reshape(-1)[0]) != old
    a.reshape(-1)[0] -= 100.0
    return reached


#: Sharing, also as "no copy is needed" (the negation is part of the wording).
_SHARE: dict[Lang, tuple[str, ...]] = {
    "en": ("share", "same memory", "shallow copy", "no copy", "no need to copy"),
    "ja": ("共有", "浅いコピー", "コピーが不要", "コピーは不要", "コピー不要", "コピーの必要がな"),
    "ko": (
        "공유",
        "얕은 복사",
        "복사가 필요 없",
        "복사할 필요가 없",
        "복사가 불필요",
        "복사 불필요",
    ),
}

_COPY: dict[Lang, tuple[str, ...]] = {
    "en": ("copy", "copies", "new memory", "separate memory", "its own memory"),
    "ja": ("コピー", "複製", "新しいメモリ", "別のメモリ", "別々のメモリ", "独立したメモリ"),
    "ko": ("복사", "새로운 메모리", "새 메모리", "별도의 메모리", "별도 메모리", "독립된 메모리"),
}

#: The generic subject of a myth about in-place operations as a class, not one operation.
_IN_PLACE_OPERATIONS = (
    "in-place operation",
    "In-place operation",
    "インプレース演算",
    "インプレース操作",
    "인플레이스 연산",
    "인플레이스(in-place) 연산",
    "제자리 연산",
    "in-place 연산",
)
