"""Claims of "What is kept and what is recomputed" (docs/topics/checkpointing.md,
``(ck-recompute)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.checkpointing._variants import _CHECKPOINT, _step_ops
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_whole_forward_recomputed(device: Device) -> Observation:
    return _whole_rule(device, early_stop=True)


def control_whole_forward_without_early_stop(device: Device) -> Observation:
    return _whole_rule(device, early_stop=False)


def _whole_rule(device: Device, early_stop: bool) -> Observation:
    extra, forward = _step_ops(device, "whole", early_stop)
    recomputed, forward_ops = sum(extra.values()), sum(forward.values())
    measurements: tuple[Measurement, ...]
    if early_stop:
        reentrant, _ = _step_ops(device, "whole-reentrant")
        measurements = (
            Measurement("ckpt-whole-forward-ops", forward_ops, "count"),
            Measurement("ckpt-whole-recomputed-ops", recomputed, "count"),
            Measurement("ckpt-whole-recomputed-addmm", extra["addmm"], "count"),
            Measurement("ckpt-whole-reentrant-recomputed-ops", sum(reentrant.values()), "count"),
        )
    else:
        key = "ckpt-whole-recomputed-ops-no-early-stop"
        measurements = (Measurement(key, recomputed, "count"),)
    return Observation(
        holds=recomputed == forward_ops,
        rule="holds if a training step with the whole model in one non-reentrant checkpoint "
        "runs as many addmm and gelu operators beyond the step without checkpointing as one "
        "forward pass runs",
        measurements=measurements,
    )


MYTH_RECOMPUTES_WHOLE_FORWARD = Claim(
    id="checkpointing/myth-recomputes-whole-forward",
    statement="During backward, checkpoint runs the whole checkpointed forward pass again.",
    expect=Expect.FAILS,
    probe=probe_whole_forward_recomputed,
    devices=("cpu",),
    measures=(
        "ckpt-whole-forward-ops",
        "ckpt-whole-recomputed-ops",
        "ckpt-whole-recomputed-addmm",
        "ckpt-whole-reentrant-recomputed-ops",
    ),
    control=Control(
        "early stop off (set_checkpoint_early_stop(False))",
        control_whole_forward_without_early_stop,
        measures=("ckpt-whole-recomputed-ops-no-early-stop",),
    ),
    vocabulary=Vocabulary(
        subjects=_CHECKPOINT,
        predicates={
            "en": ("whole forward", "entire forward", "full forward"),
            "ja": ("順伝播全体", "順伝播をすべて", "フォワード全体"),
            "ko": ("순전파 전체", "순전파를 모두", "전체 순전파"),
        },
    ),
)


CLAIMS = (MYTH_RECOMPUTES_WHOLE_FORWARD,)
