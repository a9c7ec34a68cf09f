"""Measuring what the probes measure in more than one place, with one API.

Every function runs on CPU and CUDA alike unless its name says otherwise, returns what the
measured call returned together with a frozen result, and imports torch itself, so claim
modules can be imported (and their sources hashed) without paying for torch:

* storage identity: :func:`storage_ptr`, :func:`shares_storage` (``id()`` cannot tell);
* what autograd saves for backward, seen through pack hooks: :func:`packed` (the tensors, in
  order), :func:`saved_bytes` (how many, and the bytes of their distinct storages);
* allocated bytes: :func:`cuda_memory` (the CUDA caching allocator's deltas and peak around a
  call), :func:`cpu_allocations` (what the CPU profiler says the operators allocated and
  freed), :func:`trace_memory` (the level at named marks and the peak, on either device: the
  CUDA allocator's statistics, or the CPU profiler's allocation events replayed in time
  order);
* work: :func:`count_work` (operators and FLOPs the profiler recorded),
  :func:`count_kernels` (operators that really ran, by name, with a ``TorchDispatchMode``);
* what a call raised or warned: :func:`error_text`, :func:`caught_warnings`.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

# -- storage identity ------------------------------------------------------------------------


def storage_ptr(tensor: Any) -> int:
    """Address of the storage behind ``tensor``: equal for tensors that share memory."""
    return int(tensor.untyped_storage().data_ptr())


def shares_storage(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are backed by the same storage (``id()`` cannot tell)."""
    return storage_ptr(a) == storage_ptr(b)


# -- saved for backward ----------------------------------------------------------------------


def packed(fn: Callable[[], Any]) -> tuple[Any, list[Any]]:
    """Run ``fn`` under pack hooks; its result and every tensor autograd packed, in order.

    The hooks hand autograd a detached alias of each tensor, so the graph stays usable for
    backward; the tensors returned keep their storages alive, so that their addresses can be
    compared after the call.
    """
    import torch

    tensors: list[Any] = []

    def pack(tensor: Any) -> Any:
        tensors.append(tensor)
        return tensor.detach()

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        result = fn()
    return result, tensors


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


# -- allocated bytes -------------------------------------------------------------------------


@dataclass(frozen=True)
class CudaMemory:
    """CUDA caching-allocator deltas around a function call."""

    #: ``memory_allocated()`` after minus before: what the result still holds.
    allocated: int
    #: ``max_memory_allocated()`` during the call minus ``memory_allocated()`` before.
    peak: int


def cuda_memory(fn: Callable[[], Any]) -> tuple[Any, CudaMemory]:
    """Run ``fn`` on CUDA and report allocated and peak bytes relative to before."""
    import torch

    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    before = torch.cuda.memory_allocated()
    result = fn()
    torch.cuda.synchronize()
    after = torch.cuda.memory_allocated()
    peak = torch.cuda.max_memory_allocated()
    return result, CudaMemory(after - before, peak - before)


@dataclass(frozen=True)
class CpuAllocations:
    """CPU allocator activity recorded by ``torch.profiler`` with ``profile_memory=True``."""

    #: Bytes allocated during the call (the sum of every operator's own allocations).
    allocated: int
    #: Bytes still allocated when the call returned (allocations minus frees).
    retained: int


def cpu_allocations(fn: Callable[[], Any]) -> tuple[Any, CpuAllocations]:
    """Run ``fn`` under the profiler and sum the CPU memory its operators allocate and free.

    Each event's *self* memory is its own allocations minus its own frees; frees that happen
    outside any operator (a temporary dropped by Python) appear as ``[memory]`` events.
    """
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        result = fn()
    deltas = [int(e.self_cpu_memory_usage) for e in prof.events()]
    allocated = sum(d for d in deltas if d > 0)
    return result, CpuAllocations(allocated, sum(deltas))


#: The prefix of the profiler events that :func:`trace_memory`'s marks record on CPU.
_MARK = "st-mark:"


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


# -- work ------------------------------------------------------------------------------------


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


# -- errors and warnings ---------------------------------------------------------------------


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
