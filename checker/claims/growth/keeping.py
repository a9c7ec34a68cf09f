"""Claims of "Outputs kept in a list, and retain_graph" (docs/topics/memory-growth.md,
``(mg-keeping)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.growth._saved import STEPS, SavedTensors, new_weight, step_loss
from checker.evidence import Measurement, Observation
from checker.measure import error_text
from checker.typing import Device


def probe_list_of_outputs(device: Device) -> Observation:
    return _list_rule(device, detached=False)


def control_list_of_detached_outputs(device: Device) -> Observation:
    return _list_rule(device, detached=True)


def _list_rule(device: Device, detached: bool) -> Observation:
    weight = new_weight(device)
    outputs: list[Any] = []
    with SavedTensors() as saved:
        for _ in range(STEPS):
            loss = step_loss(device, weight)
            outputs.append(loss.detach() if detached else loss)
        del loss
        alive = saved.alive()
    kind = "detached" if detached else "outputs"
    return Observation(
        holds=saved.packed > 0 and alive == saved.packed,
        rule=f"holds if, after {STEPS} steps that append "
        + ("loss.detach()" if detached else "the loss")
        + " to a list, with the last loss deleted, every tensor that autograd saved for the "
        f"{STEPS} steps is still alive",
        measurements=(
            Measurement(f"growth-list-{kind}-saved", saved.packed, "count"),
            Measurement(f"growth-list-{kind}-alive", alive, "count"),
        ),
    )


LIST_OF_OUTPUTS_KEEPS_THEIR_GRAPHS = Claim(
    id="growth/list-of-outputs-keeps-their-graphs",
    statement="A list that stores each step's output tensor keeps every step's graph and the "
    "tensors it saved for backward; storing output.detach() keeps none.",
    expect=Expect.HOLDS,
    probe=probe_list_of_outputs,
    control=Control(
        "a list of loss.detach()",
        control_list_of_detached_outputs,
        measures=("growth-list-detached-saved", "growth-list-detached-alive"),
    ),
    devices=("cpu",),
    measures=("growth-list-outputs-saved", "growth-list-outputs-alive"),
    vocabulary=Vocabulary(
        subjects=("append(",),
        predicates={
            "en": ("graph", "memory grow", "leak"),
            "ja": ("グラフ", "メモリが増", "リーク"),
            "ko": ("그래프", "메모리가 늘", "누수"),
        },
        unless={
            "en": ("item()", "detach()"),
            "ja": ("item()", "detach()"),
            "ko": ("item()", "detach()"),
        },
        denies=False,
    ),
)


def probe_retain_graph(device: Device) -> Observation:
    return _retain_rule(device, retain=True)


def control_without_retain_graph(device: Device) -> Observation:
    return _retain_rule(device, retain=False)


def _retain_rule(device: Device, retain: bool) -> Observation:
    weight = new_weight(device)
    with SavedTensors() as saved:
        loss = step_loss(device, weight)
    loss.backward(retain_graph=retain)
    alive = saved.alive()
    second = error_text(loss.backward)
    kind = "retain" if retain else "default"
    return Observation(
        holds=saved.packed > 0 and alive == saved.packed and second == "no error",
        rule="holds if, after backward("
        + ("retain_graph=True" if retain else "")
        + "), every tensor that autograd saved for the graph is still alive and a second "
        "backward through the graph raises no error",
        measurements=(
            Measurement(f"growth-{kind}-saved", saved.packed, "count"),
            Measurement(f"growth-{kind}-alive", alive, "count"),
            Measurement(f"growth-{kind}-second-backward", second, "text"),
        ),
    )


RETAIN_GRAPH_KEEPS_SAVED_TENSORS = Claim(
    id="growth/retain-graph-keeps-saved-tensors",
    statement="backward(retain_graph=True) keeps every tensor the graph saved for backward, "
    "as long as the graph is referenced; without it, backward frees them and a second "
    "backward raises a RuntimeError.",
    expect=Expect.HOLDS,
    probe=probe_retain_graph,
    control=Control(
        "backward() without retain_graph",
        control_without_retain_graph,
        measures=(
            "growth-default-saved",
            "growth-default-alive",
            "growth-default-second-backward",
        ),
    ),
    devices=("cpu",),
    measures=("growth-retain-saved", "growth-retain-alive", "growth-retain-second-backward"),
    # One claim for what the survey's posts say of retain_graph: it keeps the saved tensors
    # (memory) and so allows a second backward (the autograd facts page points here).
    vocabulary=Vocabulary(
        subjects=("retain_graph",),
        predicates={
            "en": (
                "keep",
                "kept",
                "memory",
                "saved tensor",
                "retain",
                "twice",
                "second time",
                "multiple times",
                "again",
            ),
            "ja": (
                "保持",
                "メモリ",
                "保存されたテンソル",
                "残",
                "2回",
                "二回",
                "複数回",
                "もう一度",
                "再度",
            ),
            "ko": ("유지", "메모리", "저장된 텐서", "남", "두 번", "여러 번", "다시"),
        },
        opposites={
            "en": ("free",),
            "ja": ("解放",),
            "ko": ("해제",),
        },
        unless={
            # a graph freed on purpose, or the error a second call raises without the flag,
            # is autograd/second-backward-raises's case
            "en": ("retain_graph=False", "retain_graph = False", "error", "raise"),
            "ja": ("retain_graph=False", "retain_graph = False", "エラー", "例外"),
            "ko": ("retain_graph=False", "retain_graph = False", "오류", "에러", "예외"),
        },
    ),
)


CLAIMS = (LIST_OF_OUTPUTS_KEEPS_THEIR_GRAPHS, RETAIN_GRAPH_KEEPS_SAVED_TENSORS)
