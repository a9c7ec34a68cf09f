"""Memory measurements: storage identity, bytes saved for backward, allocator statistics."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


def storage_ptr(tensor: Any) -> int:
    """Address of the storage behind ``tensor``: equal for tensors that share memory."""
    return int(tensor.untyped_storage().data_ptr())


def shares_storage(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are backed by the same storage (``id()`` cannot tell)."""
    return storage_ptr(a) == storage_ptr(b)


@dataclass(frozen=True)
class SavedTensors:
    """What autograd packed for backward while a function ran."""

    #: Number of pack calls (one per tensor saved, counting repeats).
    count: int
    #: Bytes of the distinct storages packed.
    bytes: int


def saved_for_backward(fn: Callable[[], Any]) -> tuple[Any, SavedTensors]:
    """Run ``fn`` with pack hooks that count what autograd saves; return its result too.

    The hooks return the tensor unchanged, so ``fn``'s graph stays usable for backward.
    """
    import torch

    storages: dict[int, int] = {}
    count = 0

    def pack(tensor: Any) -> Any:
        nonlocal count
        count += 1
        storage = tensor.untyped_storage()
        storages[storage.data_ptr()] = storage.nbytes()
        return tensor

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        result = fn()
    return result, SavedTensors(count, sum(storages.values()))


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
