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


def probe_cached_names(device: Device) -> Observation:
    return _renamed_rule(device, ("memory_cached", "max_memory_cached"))


def control_reserved_names(device: Device) -> Observation:
    return _renamed_rule(device, ("memory_reserved", "max_memory_reserved"))


#: The old names of the allocator's statistics and the names they were given.
_RENAMED = {"memory_cached": "memory_reserved", "max_memory_cached": "max_memory_reserved"}


def _renamed_rule(device: Device, names: tuple[str, ...]) -> Observation:
    """Whether each named ``torch.cuda`` function warns that it was renamed to its
    ``reserved`` counterpart and returns what that counterpart returns; on CUDA with a tensor
    allocated, so that the values are not zero."""
    import torch

    from checker.measure import caught_warnings

    held = torch.empty(_MIB, device=device) if device == "cuda" else None
    renamed = 0
    same = 0
    for name in names:
        new = _RENAMED.get(name, name)
        value, caught = caught_warnings(getattr(torch.cuda, name))
        if any(f"renamed to `torch.cuda.{new}`" in message for _, message in caught):
            renamed += 1
        same += int(value == getattr(torch.cuda, new)())
    del held
    key = "growth-cached-names" if names[0] == "memory_cached" else "growth-reserved-names"
    message = ""
    if names[0] == "memory_cached":
        _, caught = caught_warnings(torch.cuda.memory_cached)
        message = next((m for _, m in caught if "renamed" in m), "no warning")
    measurements = [
        Measurement(f"{key}-renamed", renamed, "count"),
        Measurement(f"{key}-same-value", same, "count"),
    ]
    if message:
        measurements.append(Measurement("growth-memory-cached-warning", message, "text"))
    return Observation(
        holds=renamed == same == len(names),
        rule="holds if each listed torch.cuda function warns that it has been renamed to "
        "memory_reserved or max_memory_reserved and returns what that function returns",
        measurements=tuple(measurements),
    )


MEMORY_CACHED_IS_MEMORY_RESERVED = Claim(
    id="growth/memory-cached-is-memory-reserved",
    statement="torch.cuda.memory_cached() and max_memory_cached() are the old names of "
    "memory_reserved() and max_memory_reserved(): they warn that they were renamed and return "
    "the same values.",
    expect=Expect.HOLDS,
    probe=probe_cached_names,
    control=Control(
        "memory_reserved() and max_memory_reserved() themselves",
        control_reserved_names,
        measures=("growth-reserved-names-renamed", "growth-reserved-names-same-value"),
    ),
    measures=(
        "growth-cached-names-renamed",
        "growth-cached-names-same-value",
        "growth-memory-cached-warning",
    ),
    vocabulary=Vocabulary(
        subjects=("memory_cached",),
        predicates={
            "en": ("renamed", "old name", "deprecated", "alias"),
            "ja": ("名前が変わ", "旧名", "古い名前", "非推奨", "別名"),
            "ko": ("이름이 바뀌", "옛 이름", "이전 이름", "더 이상 사용되지", "별칭"),
        },
    ),
)


CLAIMS = (EMPTY_CACHE_FREES_NO_LIVE_TENSOR, MEMORY_CACHED_IS_MEMORY_RESERVED)
