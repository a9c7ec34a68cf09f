"""Claims of "On CUDA: fragmentation and expandable segments" (docs/topics/memory-growth.md,
``(mg-fragmentation)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.typing import Device

_MIB = 1024 * 1024

#: Sizes in MiB of tensors allocated one after another, each freed before the next.
_GROWING = (20, 22, 24, 26)
_SHRINKING = tuple(reversed(_GROWING))


def probe_growing_tensors(device: Device) -> Observation:
    return _expandable_rule(device, _GROWING)


def control_shrinking_tensors(device: Device) -> Observation:
    return _expandable_rule(device, _SHRINKING)


def _reserved_after(device: Device, sizes: tuple[int, ...], expandable: bool) -> int:
    """How much ``memory_reserved()`` grew over allocating tensors of ``sizes`` MiB, each
    freed before the next, with expandable segments on or off (the setting is restored
    afterwards)."""
    import torch

    setting = "expandable_segments:" + ("True" if expandable else "False")
    torch.cuda.empty_cache()
    torch.cuda.memory._set_allocator_settings(setting)
    before = torch.cuda.memory_reserved()
    try:
        held: Any = None
        for size in sizes:
            held = None
            held = torch.empty(size * _MIB // 4, device=device)
        del held
        torch.cuda.synchronize()
        return int(torch.cuda.memory_reserved() - before)
    finally:
        torch.cuda.empty_cache()
        torch.cuda.memory._set_allocator_settings("expandable_segments:False")


def _expandable_rule(device: Device, sizes: tuple[int, ...]) -> Observation:
    import os

    default = _reserved_after(device, sizes, expandable=False)
    expandable = _reserved_after(device, sizes, expandable=True)
    kind = "growing" if sizes == _GROWING else "shrinking"
    listed = ", ".join(str(size) for size in sizes)
    return Observation(
        holds=expandable < default,
        rule=f"holds if, after float32 tensors of {listed} MiB allocated one after "
        "another, each freed before the next, memory_reserved() grows less with "
        "expandable_segments:True than with the default settings "
        "(PYTORCH_CUDA_ALLOC_CONF is recorded)",
        measurements=(
            Measurement(f"growth-{kind}-reserved-default", default, "bytes"),
            Measurement(f"growth-{kind}-reserved-expandable", expandable, "bytes"),
            Measurement(
                f"growth-{kind}-alloc-conf",
                os.environ.get("PYTORCH_CUDA_ALLOC_CONF", "") or "(unset)",
                "text",
            ),
        ),
    )


EXPANDABLE_SEGMENTS_REUSE_A_GROWING_BLOCK = Claim(
    id="growth/expandable-segments-reuse-a-growing-block",
    statement="When each new tensor is a little larger than the one just freed, the default "
    "CUDA allocator reserves a new segment every time, and with expandable_segments:True it "
    "reserves less, because it grows one segment.",
    expect=Expect.HOLDS,
    probe=probe_growing_tensors,
    control=Control(
        "tensors that shrink: 26, 24, 22, 20 MiB",
        control_shrinking_tensors,
        measures=("growth-shrinking-reserved-default", "growth-shrinking-reserved-expandable"),
    ),
    devices=("cuda",),
    measures=(
        "growth-growing-reserved-default",
        "growth-growing-reserved-expandable",
        "growth-growing-alloc-conf",
    ),
    vocabulary=Vocabulary(
        subjects=(
            "expandable_segments",
            "expandable segment",
            "拡張可能セグメント",
            "확장 가능한 세그먼트",
        ),
        predicates={
            "en": ("fragment", "reserve"),
            "ja": ("断片化", "予約"),
            "ko": ("단편화", "예약"),
        },
    ),
)


CLAIMS = (EXPANDABLE_SEGMENTS_REUSE_A_GROWING_BLOCK,)
