"""Claims of "On CUDA: what the caching allocator reports" (docs/topics/views-and-inplace.md,
``(vi-cuda-allocator)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.measure import cuda_memory
from checker.typing import Device

_MIB = 1024 * 1024


def _alloc_conf() -> str:
    import os

    return os.environ.get("PYTORCH_CUDA_ALLOC_CONF", "") or "(unset)"


def probe_cuda_large_rounding(device: Device) -> Observation:
    return _large_rounding_rule(device, (10000, 3000))


def control_cuda_small_pool(device: Device) -> Observation:
    return _large_rounding_rule(device, (100, 300))


#: The CUDA caching allocator's constants (c10/cuda/CUDACachingAllocator.cpp).
_ROUND_LARGE = 2 * _MIB  # large segments are a multiple of 2 MiB
_MIN_BLOCK = 512  # every block is a multiple of 512 bytes
_SMALL_SIZE = _MIB  # a large block is split only if more than 1 MiB would be left


def _large_rounding_rule(device: Device, sides: tuple[int, int]) -> Observation:
    import torch

    torch.cuda.empty_cache()

    def grow(rows: int, cols: int) -> tuple[Any, int, int, int]:
        torch.cuda.synchronize()
        stats = torch.cuda.memory_stats()
        a0 = stats.get("allocated_bytes.all.current", 0)
        r0 = stats.get("reserved_bytes.all.current", 0)
        q0 = stats.get("requested_bytes.all.current", 0)
        t = torch.empty(rows, cols, device=device)
        torch.cuda.synchronize()
        stats = torch.cuda.memory_stats()
        return (
            t,
            stats["allocated_bytes.all.current"] - a0,
            stats["reserved_bytes.all.current"] - r0,
            stats["requested_bytes.all.current"] - q0,
        )

    large, large_alloc, large_reserved, large_requested = grow(sides[0], sides[0])
    mid, mid_alloc, mid_reserved, _ = grow(sides[1], sides[1])

    def segment(n: int) -> int:
        return -(-n // _ROUND_LARGE) * _ROUND_LARGE

    def block(n: int) -> int:
        return -(-n // _MIN_BLOCK) * _MIN_BLOCK

    large_rest = segment(large.nbytes) - block(large.nbytes)
    mid_rest = segment(mid.nbytes) - block(mid.nbytes)
    holds = (
        large_reserved == segment(large.nbytes)
        and mid_reserved == segment(mid.nbytes)
        and large_requested == large.nbytes
        and large_rest <= _SMALL_SIZE < mid_rest
        and large_alloc == segment(large.nbytes)
        and mid_alloc == block(mid.nbytes)
    )
    return Observation(
        holds=holds,
        rule=f"holds if, for {sides[0]} × {sides[0]} and {sides[1]} × {sides[1]} float32 "
        "tensors, memory_reserved() "
        "grows by the tensor's bytes rounded up to a multiple of 2 MiB, and "
        "memory_allocated() grows by that whole segment when at most 1 MiB of it is left "
        "over (10000 × 10000) but only by the bytes rounded up to 512 when more is left and "
        "split off (3000 × 3000); the rule is that of the default allocator settings, and "
        "PYTORCH_CUDA_ALLOC_CONF is recorded",
        measurements=(
            Measurement("vi-cuda-large-nbytes", large.nbytes, "bytes"),
            Measurement("vi-cuda-large-requested", large_requested, "bytes"),
            Measurement("vi-cuda-large-allocated", large_alloc, "bytes"),
            Measurement("vi-cuda-large-reserved", large_reserved, "bytes"),
            Measurement("vi-cuda-mid-nbytes", mid.nbytes, "bytes"),
            Measurement("vi-cuda-mid-allocated", mid_alloc, "bytes"),
            Measurement("vi-cuda-mid-reserved", mid_reserved, "bytes"),
            Measurement("vi-cuda-alloc-conf", _alloc_conf(), "text"),
        ),
    )


CUDA_LARGE_BLOCKS_ROUNDED_TO_2MIB = Claim(
    id="inplace/cuda-large-blocks-rounded-to-2mib",
    statement="With the default settings, the CUDA caching allocator gives large tensors "
    "segments rounded up to a multiple of 2 MiB, and memory_allocated() counts the whole "
    "segment when at most 1 MiB of it is left over.",
    expect=Expect.HOLDS,
    probe=probe_cuda_large_rounding,
    control=Control(
        "100 × 100 and 300 × 300 tensors, from the small pool",
        control_cuda_small_pool,
    ),
    devices=("cuda",),
    measures=(
        "vi-cuda-large-nbytes",
        "vi-cuda-large-requested",
        "vi-cuda-large-allocated",
        "vi-cuda-large-reserved",
        "vi-cuda-mid-nbytes",
        "vi-cuda-mid-allocated",
        "vi-cuda-mid-reserved",
        "vi-cuda-alloc-conf",
    ),
    vocabulary=Vocabulary(
        subjects=("memory_allocated", "max_memory_allocated"),
        predicates={"en": ("MiB", "MB"), "ja": ("MiB", "MB"), "ko": ("MiB", "MB")},
    ),
)


def probe_cuda_relu_382(device: Device) -> Observation:
    return _relu_382_rule(device, 10000)


def control_cuda_relu_smaller_tensor(device: Device) -> Observation:
    return _relu_382_rule(device, 1000)


def _relu_382_rule(device: Device, side: int) -> Observation:
    import torch
    from torch.nn import functional

    torch.cuda.empty_cache()
    t = torch.randn(side, side, device=device)
    out, relu = cuda_memory(lambda: functional.relu(t))
    _, relu_ = cuda_memory(lambda: functional.relu_(t))
    mib = {
        "output": out.nbytes / _MIB,
        "allocated": relu.allocated / _MIB,
        "peak": relu.peak / _MIB,
        "inplace": relu_.peak / _MIB,
    }
    return Observation(
        holds=mib["allocated"] == mib["peak"] == 382.0 and mib["inplace"] == 0.0,
        rule=f"holds if F.relu of a {side} × {side} float32 tensor raises memory_allocated() and "
        "its peak by 382.0 MiB, and F.relu_ by 0 (default allocator settings; "
        "PYTORCH_CUDA_ALLOC_CONF is recorded)",
        measurements=(
            Measurement("vi-cuda-relu-output-mib", mib["output"], "ratio"),
            Measurement("vi-cuda-relu-allocated-mib", mib["allocated"], "ratio"),
            Measurement("vi-cuda-relu-peak-mib", mib["peak"], "ratio"),
            Measurement("vi-cuda-relu-inplace-mib", mib["inplace"], "ratio"),
            Measurement("vi-cuda-relu-alloc-conf", _alloc_conf(), "text"),
        ),
    )


ARTICLE_RELU_SHOWS_382_MIB = Claim(
    id="inplace/article-relu-shows-382-mib",
    statement="On CUDA with the default allocator settings, the out-of-place ReLU of a 10000 "
    "× 10000 float32 tensor raises memory_allocated() by 382.0 MiB, although its output takes "
    "381.47 MiB; the in-place ReLU raises it by 0.",
    expect=Expect.HOLDS,
    probe=probe_cuda_relu_382,
    control=Control(
        "a 1000 × 1000 tensor",
        control_cuda_relu_smaller_tensor,
    ),
    devices=("cuda",),
    measures=(
        "vi-cuda-relu-output-mib",
        "vi-cuda-relu-allocated-mib",
        "vi-cuda-relu-peak-mib",
        "vi-cuda-relu-inplace-mib",
        "vi-cuda-relu-alloc-conf",
    ),
)


def probe_cuda_peak_high_water(device: Device) -> Observation:
    return _high_water_rule(device, earlier_peak=True)


def control_cuda_no_earlier_peak(device: Device) -> Observation:
    return _high_water_rule(device, earlier_peak=False)


def _high_water_rule(device: Device, earlier_peak: bool) -> Observation:
    import torch

    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    if earlier_peak:
        big = torch.empty(8 * _MIB, device=device)  # 32 MiB
        del big
    torch.cuda.synchronize()
    start = torch.cuda.max_memory_allocated()
    small = torch.empty(2 * _MIB, device=device)  # 8 MiB
    torch.cuda.synchronize()
    without_reset = torch.cuda.max_memory_allocated() - start
    del small
    torch.cuda.reset_peak_memory_stats()
    start = torch.cuda.max_memory_allocated()
    small = torch.empty(2 * _MIB, device=device)
    torch.cuda.synchronize()
    with_reset = torch.cuda.max_memory_allocated() - start
    return Observation(
        holds=without_reset == 0 and with_reset == small.nbytes,
        rule="holds if, after "
        + (
            "a 32 MiB tensor was allocated and freed"
            if earlier_peak
            else "a reset, with no larger allocation before"
        )
        + ", the growth of "
        "max_memory_allocated() over an 8 MiB allocation is 0, and is 8 MiB once "
        "reset_peak_memory_stats() was called first",
        measurements=(
            Measurement("vi-cuda-max-delta-without-reset", without_reset, "bytes"),
            Measurement("vi-cuda-max-delta-with-reset", with_reset, "bytes"),
        ),
    )


CUDA_PEAK_IS_A_HIGH_WATER_MARK = Claim(
    id="inplace/cuda-peak-is-a-high-water-mark",
    statement="torch.cuda.max_memory_allocated() is the highest value since the start or "
    "the last reset_peak_memory_stats(), so its growth over a call reads 0 when an earlier "
    "peak was higher.",
    expect=Expect.HOLDS,
    probe=probe_cuda_peak_high_water,
    control=Control(
        "no larger allocation before the measured one",
        control_cuda_no_earlier_peak,
    ),
    devices=("cuda",),
    measures=("vi-cuda-max-delta-without-reset", "vi-cuda-max-delta-with-reset"),
)


CLAIMS = (
    CUDA_LARGE_BLOCKS_ROUNDED_TO_2MIB,
    ARTICLE_RELU_SHOWS_382_MIB,
    CUDA_PEAK_IS_A_HIGH_WATER_MARK,
)
