"""Claims of "The trade, measured" (docs/topics/checkpointing.md, ``(ck-trade)=``)."""

from __future__ import annotations

import itertools

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.checkpointing._variants import _CHECKPOINT, _held, _step_ops
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_trade(device: Device) -> Observation:
    return _trade_rule(device, ("none", "seq2", "each"))


def control_trade_half_batch(device: Device) -> Observation:
    return _trade_rule(device, ("none", "half-batch", "each"))


#: The variants of the trade, from nothing checkpointed to everything.
_TRADE = ("none", "seq2", "each", "whole")


def _trade_rule(device: Device, order: tuple[str, ...]) -> Observation:
    variants = _TRADE if "seq2" in order else order
    held: dict[str, int] = {}
    peak: dict[str, int] = {}
    recomputed: dict[str, int] = {}
    for variant in variants:
        held[variant], peak[variant] = _held(device, variant)
        extra, _ = _step_ops(device, variant)
        recomputed[variant] = sum(extra.values())
    held_order = [held[v] for v in order]
    recomputed_order = [recomputed[v] for v in order]
    holds = all(a > b for a, b in itertools.pairwise(held_order)) and all(
        a < b for a, b in itertools.pairwise(recomputed_order)
    )
    shown = ("half-batch",) if "half-batch" in order else variants
    measurements = []
    for variant in shown:
        measurements += [
            Measurement(f"ckpt-held-{variant}", held[variant], "bytes"),
            Measurement(f"ckpt-peak-{variant}", peak[variant], "bytes"),
            Measurement(f"ckpt-recomputed-{variant}", recomputed[variant], "count"),
        ]
    return Observation(
        holds=holds,
        rule="holds if, from nothing checkpointed through checkpoint_sequential with two "
        "segments to every block checkpointed, each variant holds less memory after forward "
        "and recomputes more addmm and gelu operators than the one before",
        measurements=tuple(measurements),
    )


LESS_HELD_MORE_RECOMPUTED = Claim(
    id="checkpointing/less-held-more-recomputed",
    statement="The more of a model is checkpointed, the less memory it holds after "
    "forward and the more operators its backward runs again.",
    expect=Expect.HOLDS,
    probe=probe_trade,
    measures=tuple(
        f"ckpt-{what}-{variant}" for variant in _TRADE for what in ("held", "peak", "recomputed")
    ),
    control=Control(
        "half the batch in place of checkpoint_sequential",
        control_trade_half_batch,
        measures=("ckpt-held-half-batch", "ckpt-peak-half-batch", "ckpt-recomputed-half-batch"),
    ),
)


def probe_halves_memory_for_free(device: Device) -> Observation:
    return _for_free_rule(device, "each")


def control_half_batch(device: Device) -> Observation:
    return _for_free_rule(device, "half-batch")


def _ratio(a: int, b: int) -> float:
    return round(a / b, 4) if b else float("nan")


def _for_free_rule(device: Device, variant: str) -> Observation:
    default, _ = _held(device, "none")
    held, _ = _held(device, variant)
    extra, _ = _step_ops(device, variant)
    ratio, more = _ratio(held, default), sum(extra.values())
    return Observation(
        holds=ratio <= 0.5 + 0.01 and more == 0,
        rule="holds if the memory held after forward is at most half (within 1%) of what the "
        "step without checkpointing holds, and the step runs no addmm or gelu operator more "
        "than that step",
        measurements=(
            Measurement(f"ckpt-{variant}-held-ratio", ratio, "ratio"),
            Measurement(f"ckpt-{variant}-extra-ops", more, "count"),
        ),
    )


MYTH_HALVES_MEMORY_FOR_FREE = Claim(
    id="checkpointing/myth-halves-memory-for-free",
    statement="Activation checkpointing halves training memory at no extra compute.",
    expect=Expect.FAILS,
    probe=probe_halves_memory_for_free,
    measures=("ckpt-each-held-ratio", "ckpt-each-extra-ops"),
    control=Control(
        "half the batch without checkpointing",
        control_half_batch,
        measures=("ckpt-half-batch-held-ratio", "ckpt-half-batch-extra-ops"),
    ),
    vocabulary=Vocabulary(
        subjects=(*_CHECKPOINT, "checkpointing", "チェックポインティング", "체크포인팅"),
        predicates={
            "en": (
                "no extra compute",
                "without extra compute",
                "for free",
                "no cost",
                "no extra … operations",
                "no additional compute",
                "no overhead",
            ),
            "ja": (
                "追加の計算なし",
                "計算コストなし",
                "無料で",
                "タダで",
                "追加の … 計算 … ない",
                "追加の演算 … ない",
                "計算量は増えない",
            ),
            "ko": (
                "추가 계산 없이",
                "계산 비용 없이",
                "공짜로",
                "추가 연산 … 없",
                "추가 계산 … 없",
                "연산량은 늘지 않",
            ),
        },
    ),
)


CLAIMS = (
    LESS_HELD_MORE_RECOMPUTED,
    MYTH_HALVES_MEMORY_FOR_FREE,
)
