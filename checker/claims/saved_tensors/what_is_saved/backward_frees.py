"""Claims of "Backward frees what it used" (docs/topics/saved-tensors.md,
``(st-backward-frees)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.saved_tensors._model import (
    _RULE_MARGIN,
    _error,
    _forward,
    _trace_step,
    ffn_batch,
    ffn_model,
)
from checker.evidence import Measurement, Observation
from checker.measure import trace_memory
from checker.typing import Device


def probe_backward_frees_saved(device: Device) -> Observation:
    return _backward_frees_rule(device, retain_graph=False)


def control_backward_retains_graph(device: Device) -> Observation:
    return _backward_frees_rule(device, retain_graph=True)


def _backward_frees_rule(device: Device, retain_graph: bool) -> Observation:
    model, batch = ffn_model(device), ffn_batch(device)
    _trace_step("default", model, batch, device)  # warm-up
    holder: dict[str, Any] = {}

    def step(mark: Any) -> None:
        loss = _forward("default", model, batch)
        mark("forward")
        loss.backward(retain_graph=retain_graph)
        mark("backward")
        holder["loss"] = loss  # the graph object stays referenced

    _, trace = trace_memory(step, device)
    grad_bytes = sum(p.grad.nbytes for p in model.parameters())
    node = holder["loss"].grad_fn.next_functions[0][0]  # MeanBackward0 -> AddmmBackward0
    error = _error(lambda: node._saved_mat1)
    extra = trace.marks["backward"] - grad_bytes
    held = trace.marks["forward"]
    return Observation(
        holds=0 <= extra < _RULE_MARGIN * held and error.startswith("RuntimeError"),
        rule="holds if, with the loss and its graph still referenced, the memory left after "
        f"backward (retain_graph={retain_graph}) exceeds the gradients' bytes by less than 1% "
        "of what forward held, "
        "and reading a saved tensor afterwards raises RuntimeError",
        measurements=(
            Measurement("st-held-before-backward", held, "bytes"),
            Measurement("st-held-after-backward", trace.marks["backward"], "bytes"),
            Measurement("st-gradient-bytes", grad_bytes, "bytes"),
            Measurement("st-saved-after-backward-error", error, "exception"),
        ),
    )


BACKWARD_FREES_SAVED_TENSORS = Claim(
    id="saved-tensors/backward-frees-saved-tensors",
    statement="Backward frees the saved tensors it used, even while the graph is still "
    "referenced; reading one afterwards raises an error.",
    expect=Expect.HOLDS,
    probe=probe_backward_frees_saved,
    control=Control(
        "backward(retain_graph=True), which keeps the saved tensors",
        control_backward_retains_graph,
    ),
    measures=(
        "st-held-before-backward",
        "st-held-after-backward",
        "st-gradient-bytes",
        "st-saved-after-backward-error",
    ),
    vocabulary=Vocabulary(
        subjects=("backward(",),
        predicates={
            "en": ("frees the saved", "frees saved", "second time raises", "twice raises"),
            "ja": (
                "2回目はエラー",
                "二度目はエラー",
                "2回呼ぶとエラー",
                "保存されたテンソルを解放",
            ),
            "ko": ("두 번 호출하면 오류", "두 번째 호출은 오류", "저장된 텐서를 해제"),
        },
        # "a second backward just accumulates the gradient again" denies it
        opposites={
            "en": (
                "accumulates the gradient again",
                "accumulates again",
                "can be called twice",
                "can call backward twice",
                "frees nothing",
            ),
            "ja": ("勾配がもう一度加算", "2回呼べ", "二度呼べ", "何度でも呼べ"),
            "ko": ("두 번 호출할 수 있", "여러 번 호출할 수 있", "변화도가 다시 누적"),
        },
        unless={"en": ("retain_graph",), "ja": ("retain_graph",), "ko": ("retain_graph",)},
    ),
)


CLAIMS = (BACKWARD_FREES_SAVED_TENSORS,)
