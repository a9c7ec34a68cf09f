"""Claims of "``checkpoint_sequential``" (docs/topics/checkpointing.md, ``(ck-sequential)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.checkpointing._variants import _step_ops
from checker.evidence import Measurement, Observation
from checker.measure import error_text
from checker.typing import Device

_SEQUENTIAL = ("checkpoint_sequential",)


def probe_sequential_takes_a_list(device: Device) -> Observation:
    return _sequence_rule(device, listed=True)


def control_sequential_given_one_module(device: Device) -> Observation:
    return _sequence_rule(device, listed=False)


def _sequence_rule(device: Device, listed: bool) -> Observation:
    import torch
    from torch import nn
    from torch.utils.checkpoint import checkpoint_sequential

    torch.manual_seed(0)
    first, last = nn.Linear(8, 8).to(device), nn.Linear(8, 8).to(device)
    x = torch.randn(4, 8, device=device, requires_grad=True)
    functions: Any = [first, torch.tanh, last] if listed else first
    expected = last(torch.tanh(first(x))) if listed else first(x)
    found: list[Any] = []

    def run() -> None:
        found.append(checkpoint_sequential(functions, 2, x, use_reentrant=False))  # type: ignore[no-untyped-call]

    error = error_text(run)
    same = bool(found) and bool(torch.allclose(found[0], expected))
    return Observation(
        holds=error == "no error" and same,
        rule="holds if checkpoint_sequential(functions, 2, x, use_reentrant=False) runs without "
        "error and gives the result of applying the functions in turn, with "
        + (
            "a list of two nn.Linear modules and torch.tanh as functions"
            if listed
            else "a lone nn.Linear module as functions"
        ),
        measurements=(
            Measurement(
                "ckpt-sequential-list-error" if listed else "ckpt-sequential-module-error",
                error,
                "exception",
            ),
        ),
    )


SEQUENTIAL_TAKES_A_LIST = Claim(
    id="checkpointing/sequential-takes-a-list",
    statement="checkpoint_sequential takes a list of modules or plain functions as well "
    "as an nn.Sequential: anything with len() and indexing.",
    expect=Expect.HOLDS,
    probe=probe_sequential_takes_a_list,
    devices=("cpu",),
    measures=("ckpt-sequential-list-error",),
    control=Control(
        "a lone nn.Linear module, which has no len()",
        control_sequential_given_one_module,
        measures=("ckpt-sequential-module-error",),
    ),
    vocabulary=Vocabulary(
        subjects=_SEQUENTIAL,
        predicates={
            "en": ("a list of modules", "list of functions", "a list of"),
            # "nn.Sequential以外のモデルには使えない": the negation is the sentence's
            "ja": (
                "リストも",
                "リストを渡せ",
                "nn.Sequential以外",
                "nn.Sequential 以外",
            ),
            "ko": ("리스트도", "리스트를 넘길 수"),
        },
        denies=False,
        opposites={  # only an nn.Sequential, or one presupposed ("前提", "전제")
            "en": (
                "only … nn.Sequential",
                "must be an nn.Sequential",
                "requires an nn.Sequential",
                "assumes … nn.Sequential",
            ),
            "ja": (
                "nn.Sequentialのみ",
                "nn.Sequential のみ",
                "nn.Sequentialだけ",
                "nn.Sequential … しか",
                "nn.Sequential … 前提",
                "nn.Sequential である必要",
            ),
            "ko": (
                "nn.Sequential만",
                "nn.Sequential에만",
                "nn.Sequential … 만 받",
                "nn.Sequential … 전제",
                "nn.Sequential이어야",
            ),
        },
    ),
)


def probe_sequential_segments(device: Device) -> Observation:
    return _segments_rule(device, sequential=True)


def control_every_block_checkpointed(device: Device) -> Observation:
    return _segments_rule(device, sequential=False)


def _segments_rule(device: Device, sequential: bool) -> Observation:
    # With early stop off, every checkpointed block runs its GELU again, once.
    recomputed = {}
    for segments in (2, 4):
        variant = f"seq{segments}" if sequential else "each"
        extra, _ = _step_ops(device, variant, early_stop=False)
        recomputed[segments] = extra["gelu"]
    expected = {2: 2, 4: 3}  # segments of 4 // s blocks; all but the last checkpointed
    name = "seq" if sequential else "each"
    return Observation(
        holds=recomputed == expected,
        rule="holds if, with early stop off, a step over four blocks recomputes the GELU of "
        "exactly the blocks outside the last segment: 2 blocks with 2 segments, 3 blocks with "
        "4 segments",
        measurements=(
            Measurement(f"ckpt-{name}2-recomputed-blocks", recomputed[2], "count"),
            Measurement(f"ckpt-{name}4-recomputed-blocks", recomputed[4], "count"),
        ),
    )


SEQUENTIAL_LEAVES_LAST_SEGMENT = Claim(
    id="checkpointing/sequential-leaves-last-segment",
    statement="checkpoint_sequential cuts the functions into segments of "
    "len(functions) // segments, checkpoints every segment but the last, and runs the "
    "last one without checkpointing.",
    expect=Expect.HOLDS,
    probe=probe_sequential_segments,
    devices=("cpu",),
    measures=("ckpt-seq2-recomputed-blocks", "ckpt-seq4-recomputed-blocks"),
    control=Control(
        "checkpoint around every block, the last included",
        control_every_block_checkpointed,
        measures=("ckpt-each2-recomputed-blocks", "ckpt-each4-recomputed-blocks"),
    ),
    vocabulary=Vocabulary(
        subjects=_SEQUENTIAL,
        predicates={
            "en": ("last segment",),
            "ja": ("最後のセグメント",),
            "ko": ("마지막 세그먼트", "마지막 구간"),
        },
        denies=True,  # "runs the last one without checkpointing"
    ),
)


CLAIMS = (
    SEQUENTIAL_TAKES_A_LIST,
    SEQUENTIAL_LEAVES_LAST_SEGMENT,
)
