"""Claims of "Selective activation checkpointing" (docs/topics/checkpointing.md,
``(ck-selective)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.checkpointing._variants import _held, _step_ops
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_selective_saves_listed_ops(device: Device) -> Observation:
    return _selective_rule(device, "selective")


def control_selective_empty_list(device: Device) -> Observation:
    return _selective_rule(device, "selective-empty")


def _selective_rule(device: Device, variant: str) -> Observation:
    extra, _ = _step_ops(device, variant)
    measurements = [
        Measurement(f"ckpt-{variant}-recomputed-addmm", extra["addmm"], "count"),
        Measurement(f"ckpt-{variant}-recomputed-gelu", extra["gelu"], "count"),
    ]
    if variant == "selective":
        held, peak = _held(device, variant)
        measurements += [
            Measurement("ckpt-held-selective", held, "bytes"),
            Measurement("ckpt-peak-selective", peak, "bytes"),
            Measurement("ckpt-recomputed-selective", sum(extra.values()), "count"),
        ]
    return Observation(
        holds=extra["addmm"] == 0 and extra["gelu"] > 0,
        rule="holds if, with every block checkpointed under a selective policy listing "
        "aten.addmm.default, backward runs no addmm again but does run gelu again",
        measurements=tuple(measurements),
    )


SELECTIVE_SAVES_LISTED_OPS = Claim(
    id="checkpointing/selective-saves-listed-ops",
    statement="With create_selective_checkpoint_contexts and a list of operators, checkpoint "
    "keeps the outputs of the listed operators and recomputes only the others.",
    expect=Expect.HOLDS,
    probe=probe_selective_saves_listed_ops,
    measures=(
        "ckpt-selective-recomputed-addmm",
        "ckpt-selective-recomputed-gelu",
        "ckpt-held-selective",
        "ckpt-peak-selective",
        "ckpt-recomputed-selective",
    ),
    control=Control(
        "an empty list of operators",
        control_selective_empty_list,
        measures=(
            "ckpt-selective-empty-recomputed-addmm",
            "ckpt-selective-empty-recomputed-gelu",
        ),
    ),
    vocabulary=Vocabulary(
        subjects=("create_selective_checkpoint_contexts", "selective", "選択的", "선택적"),
        predicates={
            "en": ("recompute only", "not recompute", "saves the output"),
            "ja": ("再計算しない", "だけを再計算", "出力を保存"),
            "ko": ("다시 계산하지 않", "만 다시 계산", "출력을 저장"),
        },
    ),
)


CLAIMS = (SELECTIVE_SAVES_LISTED_OPS,)
