"""Memory of one step (a statement or a short function), on CPU and on CUDA alike.

:func:`step_memory` reports three numbers for a step, each relative to the moment it started:

* ``allocated``: the bytes of every allocation the step made, whether or not it freed them;
* ``peak``: the highest level the step reached;
* ``end``: the level when it returned (allocations minus frees).

On CUDA they come from the caching allocator's statistics, which see every allocation and
every free. On CPU they come from the allocation events that
``torch.autograd.profiler.profile(profile_memory=True)`` records, replayed in time order. The
CPU profiler does not report the free of a block that was allocated before profiling started,
so a step that frees a tensor must create it too, or its ``end`` on CPU will not show the free.

Nothing here imports torch at module level: claim modules import this module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class StepMemory:
    """Bytes allocated by a step, relative to when it started."""

    #: Sum of the sizes of the allocations the step made (frees not subtracted).
    allocated: int
    #: Highest level reached while the step ran.
    peak: int
    #: Level when the step returned.
    end: int


def step_memory(fn: Callable[[], Any], device: str) -> tuple[Any, StepMemory]:
    """Run ``fn`` and report what it allocated, its peak and its final level on ``device``."""
    if device == "cuda":
        return _cuda(fn)
    return _cpu(fn)


def levels(sizes: Iterable[int]) -> StepMemory:
    """Replay allocation sizes (negative for frees) in order: total allocated, peak, end."""
    allocated = level = peak = 0
    for size in sizes:
        if size > 0:
            allocated += size
        level += size
        peak = max(peak, level)
    return StepMemory(allocated, peak, level)


def _cuda(fn: Callable[[], Any]) -> tuple[Any, StepMemory]:
    import torch

    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    stats = torch.cuda.memory_stats()
    base = stats.get("allocated_bytes.all.current", 0)
    total = stats.get("allocated_bytes.all.allocated", 0)
    result = fn()
    torch.cuda.synchronize()
    stats = torch.cuda.memory_stats()
    return result, StepMemory(
        allocated=stats["allocated_bytes.all.allocated"] - total,
        peak=stats["allocated_bytes.all.peak"] - base,
        end=stats["allocated_bytes.all.current"] - base,
    )


def _cpu(fn: Callable[[], Any]) -> tuple[Any, StepMemory]:
    import torch
    from torch._C._profiler import _EventType

    with torch.autograd.profiler.profile(profile_memory=True) as prof:
        result = fn()
    events = [
        (e.start_time_ns, int(e.extra_fields.alloc_size))
        for e in _walk(prof.kineto_results.experimental_event_tree())
        if e.tag == _EventType.Allocation
    ]
    events.sort(key=lambda pair: pair[0])
    return result, levels(size for _, size in events)


def _walk(events: Iterable[Any]) -> Iterator[Any]:
    for event in events:
        yield event
        yield from _walk(event.children)
