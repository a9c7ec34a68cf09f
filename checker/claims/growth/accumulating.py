"""Claims of "A running total of the loss" (docs/topics/memory-growth.md,
``(mg-accumulating)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.growth._saved import STEPS, SavedTensors, new_weight, step_loss
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_total_of_tensors(device: Device) -> Observation:
    return _running_total_rule(device, as_number=False)


def control_total_of_numbers(device: Device) -> Observation:
    return _running_total_rule(device, as_number=True)


def _running_total_rule(device: Device, as_number: bool) -> Observation:
    weight = new_weight(device)
    with SavedTensors() as saved:
        total: Any = 0
        for _ in range(STEPS):
            loss = step_loss(device, weight)
            if as_number:
                total += loss.item()
            else:
                total += loss
        del loss
        alive, alive_bytes = saved.alive(), saved.alive_bytes()
    kind = "item" if as_number else "tensor"
    return Observation(
        holds=saved.packed > 0 and alive == saved.packed,
        rule=f"holds if, after {STEPS} steps of "
        + ("total += loss.item()" if as_number else "total += loss")
        + " with the last loss deleted, every tensor that autograd saved for the "
        f"{STEPS} steps is still alive",
        measurements=(
            Measurement(f"growth-total-{kind}-saved", saved.packed, "count"),
            Measurement(f"growth-total-{kind}-alive", alive, "count"),
            Measurement(f"growth-total-{kind}-alive-bytes", alive_bytes, "bytes"),
        ),
    )


RUNNING_TOTAL_KEEPS_EVERY_GRAPH = Claim(
    id="growth/running-total-keeps-every-graph",
    statement="Adding each step's loss tensor to a running total (total += loss) keeps the "
    "graph of every step and the tensors it saved for backward; adding loss.item() keeps none.",
    expect=Expect.HOLDS,
    probe=probe_total_of_tensors,
    control=Control(
        "total += loss.item()",
        control_total_of_numbers,
        measures=("growth-total-item-saved", "growth-total-item-alive"),
    ),
    devices=("cpu",),
    measures=(
        "growth-total-tensor-saved",
        "growth-total-tensor-alive",
        "growth-total-tensor-alive-bytes",
    ),
    vocabulary=Vocabulary(
        subjects=(
            "running_loss",
            "total_loss",
            "running total",
            "累計",
            "누계",
        ),
        predicates={
            "en": ("graph", "leak", "memory grow", "memory keeps growing"),
            "ja": ("グラフ", "リーク", "メモリが増"),
            "ko": ("그래프", "누수", "메모리가 늘", "메모리가 계속"),
        },
        unless={
            "en": ("item()", "detach()"),
            "ja": ("item()", "detach()"),
            "ko": ("item()", "detach()"),
        },
        denies=False,
    ),
)


CLAIMS = (RUNNING_TOTAL_KEEPS_EVERY_GRAPH,)
