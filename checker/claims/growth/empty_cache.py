"""Claims of "On CUDA: what empty_cache() returns" (docs/topics/memory-growth.md,
``(mg-empty-cache)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.typing import Device

_MIB = 1024 * 1024


def probe_empty_cache_with_live_tensor(device: Device) -> Observation:
    return _empty_cache_rule(device, drop_live=False)


def control_empty_cache_after_del(device: Device) -> Observation:
    return _empty_cache_rule(device, drop_live=True)


def _empty_cache_rule(device: Device, drop_live: bool) -> Observation:
    import torch

    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    live = torch.empty(8 * _MIB, device=device)  # 32 MiB, referenced by the name live
    freed = torch.empty(8 * _MIB, device=device)  # 32 MiB, freed before the call
    del freed
    if drop_live:
        del live
    torch.cuda.synchronize()
    allocated, reserved = torch.cuda.memory_allocated(), torch.cuda.memory_reserved()
    torch.cuda.empty_cache()
    allocated_after = torch.cuda.memory_allocated()
    returned = reserved - torch.cuda.memory_reserved()
    kind = "del" if drop_live else "live"
    return Observation(
        holds=allocated_after == allocated >= 32 * _MIB and returned >= 32 * _MIB,
        rule="holds if, with a 32 MiB tensor "
        + ("deleted too" if drop_live else "still referenced")
        + " and another 32 MiB tensor deleted, empty_cache() returns at least 32 MiB of "
        "memory_reserved() to the driver and leaves memory_allocated() unchanged, at no less "
        "than 32 MiB",
        measurements=(
            Measurement(f"growth-empty-cache-{kind}-allocated", allocated, "bytes"),
            Measurement(f"growth-empty-cache-{kind}-allocated-after", allocated_after, "bytes"),
            Measurement(f"growth-empty-cache-{kind}-returned", returned, "bytes"),
        ),
    )


EMPTY_CACHE_FREES_NO_LIVE_TENSOR = Claim(
    id="growth/empty-cache-frees-no-live-tensor",
    statement="torch.cuda.empty_cache() returns the cached blocks that no tensor uses to the "
    "driver, and frees no memory of a tensor that is still referenced.",
    expect=Expect.HOLDS,
    probe=probe_empty_cache_with_live_tensor,
    control=Control(
        "the 32 MiB tensor deleted before the call",
        control_empty_cache_after_del,
        measures=(
            "growth-empty-cache-del-allocated",
            "growth-empty-cache-del-allocated-after",
            "growth-empty-cache-del-returned",
        ),
    ),
    devices=("cuda",),
    measures=(
        "growth-empty-cache-live-allocated",
        "growth-empty-cache-live-allocated-after",
        "growth-empty-cache-live-returned",
    ),
    vocabulary=Vocabulary(
        subjects=("empty_cache",),
        predicates={
            "en": ("free", "release"),
            "ja": ("解放",),
            "ko": ("해제",),
        },
        unless={
            "en": ("cached block", "unused block", "unoccupied"),
            "ja": ("キャッシュされたブロック", "未使用のブロック"),
            "ko": ("캐시된 블록", "사용하지 않는 블록"),
        },
        denies=True,
    ),
)


CLAIMS = (EMPTY_CACHE_FREES_NO_LIVE_TENSOR,)
