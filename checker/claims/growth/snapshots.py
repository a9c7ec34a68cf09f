"""Claims of "On CUDA: finding who holds memory" (docs/topics/memory-growth.md,
``(mg-snapshots)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.typing import Device

_MIB = 1024 * 1024


def probe_snapshot_with_history(device: Device) -> Observation:
    return _snapshot_rule(device, record=True)


def control_snapshot_without_history(device: Device) -> Observation:
    return _snapshot_rule(device, record=False)


def _allocate_activations(device: Device) -> Any:
    """The function the snapshot must name: it allocates a 4 MiB tensor."""
    import torch

    return torch.empty(_MIB, device=device)


def _snapshot_rule(device: Device, record: bool) -> Observation:
    import torch

    if record:
        torch.cuda.memory._record_memory_history("all", stacks="python")
    else:
        torch.cuda.memory._record_memory_history(None)
    try:
        held = _allocate_activations(device)
        snapshot = torch.cuda.memory._snapshot()
    finally:
        torch.cuda.memory._record_memory_history(None)
    blocks = [
        block
        for segment in snapshot["segments"]
        for block in segment["blocks"]
        if block["state"] == "active_allocated" and block["size"] >= held.nbytes
    ]
    named = sum(
        any(frame.get("name") == "_allocate_activations" for frame in block.get("frames", []))
        for block in blocks
    )
    kind = "history" if record else "no-history"
    return Observation(
        holds=named == 1,
        rule="holds if, with _record_memory_history() "
        + ("enabled" if record else "disabled")
        + ", exactly one live block of torch.cuda.memory._snapshot() names in its stack "
        "frames the Python function that allocated it",
        measurements=(
            Measurement(f"growth-snapshot-{kind}-live-blocks", len(blocks), "count"),
            Measurement(f"growth-snapshot-{kind}-named-blocks", named, "count"),
        ),
    )


SNAPSHOT_NAMES_THE_ALLOCATING_FUNCTION = Claim(
    id="growth/snapshot-names-the-allocating-function",
    statement="After torch.cuda.memory._record_memory_history(), a memory snapshot names, for "
    "each live block, the Python function that allocated it; without it, the snapshot has no "
    "stack frames.",
    expect=Expect.HOLDS,
    probe=probe_snapshot_with_history,
    control=Control(
        "history recording disabled",
        control_snapshot_without_history,
        measures=("growth-snapshot-no-history-named-blocks",),
    ),
    devices=("cuda",),
    measures=("growth-snapshot-history-live-blocks", "growth-snapshot-history-named-blocks"),
    vocabulary=Vocabulary(
        subjects=("_record_memory_history", "_snapshot", "memory_snapshot"),
        predicates={
            "en": ("stack", "trace", "who allocated", "which code"),
            "ja": ("スタック", "トレース", "どのコード"),
            "ko": ("스택", "트레이스", "어느 코드"),
        },
    ),
)


CLAIMS = (SNAPSHOT_NAMES_THE_ALLOCATING_FUNCTION,)
