"""Claims of "Activation checkpointing" (docs/topics/saved-tensors.md, ``(st-checkpoint)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.saved_tensors._model import (
    _clear_grads,
    _compare,
    _forward,
    _ratio,
    ffn_batch,
    ffn_model,
)
from checker.evidence import Measurement, Observation
from checker.measure import count_kernels
from checker.typing import Device


def probe_checkpoint_memory(device: Device) -> Observation:
    return _checkpoint_memory_rule(device, "checkpoint")


def control_disable_checkpoint_memory(device: Device) -> Observation:
    return _checkpoint_memory_rule(device, "disable")


def _checkpoint_memory_rule(device: Device, variant: str) -> Observation:
    default, ckpt = _compare(variant, device)
    held = _ratio(ckpt.marks["forward"], default.marks["forward"])
    peak = _ratio(ckpt.peak, default.peak)
    return Observation(
        holds=held < 0.25 and peak < 1,
        rule=f"holds if, under {variant}, the memory held after forward is under 25% of the "
        "default's and the peak over forward and backward is lower",
        measurements=(
            Measurement(f"st-held-{variant}", ckpt.marks["forward"], "bytes"),
            Measurement(f"st-peak-{variant}", ckpt.peak, "bytes"),
            Measurement(f"st-{variant}-held-ratio", held, "ratio"),
            Measurement(f"st-{variant}-peak-ratio", peak, "ratio"),
        ),
    )


CHECKPOINT_HOLDS_ONLY_BLOCK_INPUTS = Claim(
    id="saved-tensors/checkpoint-holds-only-block-inputs",
    statement="Non-reentrant activation checkpointing keeps each block's input instead of "
    "its activations after forward, and lowers the peak of forward and backward.",
    expect=Expect.HOLDS,
    probe=probe_checkpoint_memory,
    control=Control(
        "disable_saved_tensors_hooks, which saves what the default saves",
        control_disable_checkpoint_memory,
    ),
    measures=(
        "st-held-checkpoint",
        "st-peak-checkpoint",
        "st-checkpoint-held-ratio",
        "st-checkpoint-peak-ratio",
    ),
    vocabulary=Vocabulary(
        subjects=("checkpoint",),
        predicates={
            "en": ("reduc", "save memory"),
            "ja": ("削減", "節約"),
            "ko": ("줄이", "절약"),
        },
    ),
)


def probe_checkpoint_recomputes(device: Device) -> Observation:
    return _recompute_rule(device, "checkpoint")


def control_checkpoint_recomputes(device: Device) -> Observation:
    return _recompute_rule(device, "default")


#: The operators of a feed-forward block's forward: Linear -> addmm, GELU -> gelu.
_FORWARD_OPS = ("addmm", "gelu")


def _recomputed(device: Device, variant: str, early_stop: bool) -> tuple[dict[str, int], int]:
    """Forward operators a training step under ``variant`` runs beyond the default step's,
    with checkpointing's early stop on or off; and how many one plain forward runs."""
    from torch.utils.checkpoint import set_checkpoint_early_stop

    model, batch = ffn_model(device), ffn_batch(device)
    _forward(variant, model, batch).backward()  # warm-up
    _clear_grads(model)
    _, forward = count_kernels(lambda: _forward("default", model, batch), _FORWARD_OPS)
    _, default = count_kernels(lambda: _forward("default", model, batch).backward(), _FORWARD_OPS)
    _clear_grads(model)
    with set_checkpoint_early_stop(early_stop):
        _, step = count_kernels(lambda: _forward(variant, model, batch).backward(), _FORWARD_OPS)
    _clear_grads(model)
    extra = {name: step[name] - default[name] for name in _FORWARD_OPS}
    return extra, sum(forward.values())


def _recompute_rule(device: Device, variant: str) -> Observation:
    full, forward = _recomputed(device, variant, early_stop=False)
    early, _ = _recomputed(device, variant, early_stop=True)
    full_total, early_total = sum(full.values()), sum(early.values())
    return Observation(
        holds=full_total == forward and 0 < early_total < full_total,
        rule="holds if, counted with a TorchDispatchMode, a training step runs exactly one "
        "forward pass of addmm and gelu operators more than the default step with "
        "checkpointing's early stop off, and some but fewer with early stop on (the default)",
        measurements=(
            Measurement(f"st-{variant}-forward-ops", forward, "count"),
            Measurement(f"st-{variant}-recomputed-ops-full", full_total, "count"),
            Measurement(f"st-{variant}-recomputed-ops-early-stop", early_total, "count"),
            Measurement(f"st-{variant}-recomputed-addmm-early-stop", early["addmm"], "count"),
            Measurement(f"st-{variant}-recomputed-gelu-early-stop", early["gelu"], "count"),
        ),
    )


CHECKPOINT_RECOMPUTES_FORWARD = Claim(
    id="saved-tensors/checkpoint-recomputes-forward",
    statement="Activation checkpointing pays for its memory saving by running each "
    "checkpointed forward again during backward, up to the last tensor backward needs, or in "
    "full when early stop is off.",
    expect=Expect.HOLDS,
    probe=probe_checkpoint_recomputes,
    devices=("cpu",),
    measures=(
        "st-checkpoint-forward-ops",
        "st-checkpoint-recomputed-ops-full",
        "st-checkpoint-recomputed-ops-early-stop",
        "st-checkpoint-recomputed-addmm-early-stop",
        "st-checkpoint-recomputed-gelu-early-stop",
    ),
    control=Control("no checkpointing", control_checkpoint_recomputes),
    vocabulary=Vocabulary(
        subjects=("checkpoint", "チェックポイント", "체크포인트"),
        predicates={
            "en": ("recompute", "forward again", "runs the forward"),
            "ja": ("再計算", "もう一度実行", "計算し直"),
            "ko": ("다시 계산", "재계산", "다시 실행"),
        },
        opposites={
            "en": ("compute stays the same", "no extra compute", "costs no compute"),
            "ja": ("計算量はそのまま", "計算量は同じ"),
            "ko": ("계산량은 그대로", "계산량이 그대로", "계산량은 같"),
        },
    ),
)


CLAIMS = (
    CHECKPOINT_HOLDS_ONLY_BLOCK_INPUTS,
    CHECKPOINT_RECOMPUTES_FORWARD,
)
