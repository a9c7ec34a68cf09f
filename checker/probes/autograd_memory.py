"""Measuring an autograd step: bytes saved for backward, bytes held and peak, work done.

The same helpers serve CPU and CUDA, so one probe can decide a claim on both devices:

* :func:`saved_bytes` counts what autograd packs for backward with pack hooks; tensors the
  caller names (parameters, inputs) are left out, since saving them costs no memory.
* :func:`trace_memory` reports the bytes allocated at named marks and the peak. On CUDA it
  reads the caching allocator's statistics; on CPU it replays the allocation events of
  ``torch.autograd.profiler.profile(profile_memory=True)`` in time order, since the CPU
  allocator keeps no statistics of its own.
* :func:`count_work` counts the ATen operators run and the FLOPs the profiler estimates.
* :func:`count_kernels` counts the ATen operators that really ran, by name, with a
  ``TorchDispatchMode`` (the profiler's FLOPs are estimates made at operator entry).
* :func:`ffn_model` and :func:`ffn_batch` build the small model every comparison uses.

Nothing here imports torch at module level: claim modules import this module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

#: Shape of the comparison model: blocks of Linear(width, hidden), GELU, Linear(hidden, width).
FFN_BLOCKS = 4
FFN_WIDTH = 128
FFN_HIDDEN = 512
FFN_ROWS = 256

_MARK = "st-mark:"


@dataclass(frozen=True)
class Saved:
    """What autograd packed for backward while a function ran."""

    #: Pack calls, one per saved tensor (a tensor saved twice counts twice).
    packs: int
    #: Bytes of the distinct storages packed, excluding the storages the caller left out.
    bytes: int
    #: Bytes of every distinct storage packed, the left-out ones included.
    all_bytes: int


def saved_bytes(fn: Callable[[], Any], exclude: Iterable[Any] = ()) -> tuple[Any, Saved]:
    """Run ``fn`` under counting pack hooks; tensors in ``exclude`` do not count as bytes.

    The hooks store a detached alias of each tensor, so the graph stays usable for backward.
    """
    import torch

    skip = {t.untyped_storage().data_ptr() for t in exclude}
    storages: dict[int, int] = {}
    packs = 0

    def pack(tensor: Any) -> Any:
        nonlocal packs
        packs += 1
        storage = tensor.untyped_storage()
        storages[storage.data_ptr()] = storage.nbytes()
        return tensor.detach()  # returning the tensor itself would make a reference cycle

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        result = fn()
    kept = sum(n for ptr, n in storages.items() if ptr not in skip)
    return result, Saved(packs, kept, sum(storages.values()))


@dataclass(frozen=True)
class MemoryTrace:
    """Bytes allocated on a device during a function, relative to when it started."""

    #: Bytes allocated at each mark the function set, by name.
    marks: dict[str, int] = field(default_factory=dict)
    #: The highest allocation level reached.
    peak: int = 0
    #: The level when the function returned.
    end: int = 0


def trace_memory(
    fn: Callable[[Callable[[str], None]], Any], device: str
) -> tuple[Any, MemoryTrace]:
    """Run ``fn(mark)`` and report the allocated bytes at each ``mark(name)`` and the peak.

    On CPU only allocations made while ``fn`` runs are seen: a tensor created before and freed
    inside is invisible, so create everything that is to be freed inside ``fn``.
    """
    if device == "cuda":
        return _trace_cuda(fn)
    return _trace_cpu(fn)


def _trace_cuda(fn: Callable[[Callable[[str], None]], Any]) -> tuple[Any, MemoryTrace]:
    import torch

    marks: dict[str, int] = {}
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()

    def mark(name: str) -> None:
        torch.cuda.synchronize()
        marks[name] = torch.cuda.memory_allocated() - base

    result = fn(mark)
    torch.cuda.synchronize()
    end = torch.cuda.memory_allocated() - base
    peak = torch.cuda.max_memory_allocated() - base
    return result, MemoryTrace(marks, peak, end)


def _trace_cpu(fn: Callable[[Callable[[str], None]], Any]) -> tuple[Any, MemoryTrace]:
    import torch
    from torch._C._profiler import _EventType

    def mark(name: str) -> None:
        with torch.autograd.profiler.record_function(_MARK + name):
            pass

    with torch.autograd.profiler.profile(profile_memory=True) as prof:
        result = fn(mark)
    events = list(_walk(prof.kineto_results.experimental_event_tree()))
    allocations = sorted(
        (
            (e.start_time_ns, int(e.extra_fields.alloc_size))
            for e in events
            if e.tag == _EventType.Allocation
        ),
        key=lambda pair: pair[0],
    )
    mark_times = {e.name[len(_MARK) :]: e.start_time_ns for e in events if e.name.startswith(_MARK)}
    level = peak = 0
    levels: list[tuple[int, int]] = []
    for time_ns, size in allocations:
        level += size
        peak = max(peak, level)
        levels.append((time_ns, level))
    marks = {name: _level_at(levels, t) for name, t in mark_times.items()}
    return result, MemoryTrace(marks, peak, level)


def _level_at(levels: list[tuple[int, int]], time_ns: int) -> int:
    found = 0
    for t, level in levels:
        if t > time_ns:
            break
        found = level
    return found


def _walk(events: Iterable[Any]) -> Iterator[Any]:
    for event in events:
        yield event
        yield from _walk(event.children)


@dataclass(frozen=True)
class Work:
    """Work the profiler saw while a function ran."""

    #: ATen operators called (nested calls such as ``aten::linear`` → ``aten::addmm`` count
    #: each).
    ops: int
    #: Floating-point operations the profiler estimates (matrix products and the like).
    flops: int


def count_work(fn: Callable[[], Any]) -> tuple[Any, Work]:
    """Run ``fn`` under the profiler and count the operators and FLOPs it recorded."""
    import torch

    with torch.autograd.profiler.profile(with_flops=True) as prof:
        result = fn()
    events = [e for e in prof.function_events if e.name.startswith("aten::")]
    return result, Work(len(events), int(sum(e.flops or 0 for e in events)))


def count_kernels(fn: Callable[[], Any], names: Iterable[str]) -> tuple[Any, dict[str, int]]:
    """Run ``fn`` and count the calls of each ATen operator in ``names`` (``"addmm"``, ...).

    A ``TorchDispatchMode`` sees every operator that reaches the kernels, in forward and in
    backward (the autograd engine carries the mode into its threads), and only those: work
    that is skipped is not counted.
    """
    from torch.utils._python_dispatch import TorchDispatchMode

    mode_base: Any = TorchDispatchMode  # torch's class is untyped
    wanted = tuple(names)
    counts = dict.fromkeys(wanted, 0)

    class Counting(mode_base):  # type: ignore[misc]
        def __torch_dispatch__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            name = func.overloadpacket.__name__
            if name in counts:
                counts[name] += 1
            return func(*args, **(kwargs or {}))

    with Counting():
        result = fn()
    return result, counts


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
