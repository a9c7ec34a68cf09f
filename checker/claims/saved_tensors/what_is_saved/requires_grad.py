"""Claims of "A graph only where a gradient is needed" (docs/topics/saved-tensors.md,
``(st-requires-grad)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.saved_tensors._model import MESSAGE, _error
from checker.evidence import Measurement, Observation
from checker.measure import saved_bytes
from checker.typing import Device, Lang


def probe_graph_needs_requires_grad(device: Device) -> Observation:
    return _requires_grad_rule(device, plain_requires_grad=False)


def control_plain_requires_grad(device: Device) -> Observation:
    return _requires_grad_rule(device, plain_requires_grad=True)


def _requires_grad_rule(device: Device, plain_requires_grad: bool) -> Observation:
    import torch
    from torch.autograd.graph import disable_saved_tensors_hooks

    a: Any = torch.rand(64, 64, device=device, requires_grad=plain_requires_grad)
    b = torch.rand(64, 64, device=device, requires_grad=True)
    with_grad, saved_with = saved_bytes(lambda: a.mm(b))
    plain, saved_plain = saved_bytes(lambda: a.mm(a))
    error_plain = _error(lambda: a.mm(a).sum().backward())
    with disable_saved_tensors_hooks(MESSAGE):
        z = a.mm(a).sum()
    error_disable = _error(z.backward)
    recorded = type(with_grad.grad_fn).__name__
    holds = (
        with_grad.grad_fn is not None
        and saved_with.packs > 0
        and plain.grad_fn is None
        and saved_plain.packs == 0
        and error_plain.startswith("RuntimeError")
        and error_plain == error_disable
    )
    return Observation(
        holds=holds,
        rule="holds if an mm with an input that requires grad gets a grad_fn and saves "
        "tensors, the same mm on tensors that don't"
        + (" (here: that do)" if plain_requires_grad else "")
        + " gets no grad_fn and saves nothing, "
        "and backward then raises the same RuntimeError with and without "
        "disable_saved_tensors_hooks",
        measurements=(
            Measurement("st-grad-fn-with-requires-grad", recorded, "text"),
            Measurement("st-grad-fn-without-requires-grad", str(plain.grad_fn), "text"),
            Measurement("st-packs-without-requires-grad", saved_plain.packs, "count"),
            Measurement("st-backward-error-plain", error_plain, "exception"),
            Measurement("st-backward-error-in-disable", error_disable, "exception"),
        ),
    )


GRAPH_NEEDS_REQUIRES_GRAD = Claim(
    id="saved-tensors/graph-needs-requires-grad",
    statement="Autograd records an operation only when one of its inputs requires grad. "
    "Otherwise the result has no grad_fn, nothing is saved, and calling backward() on it "
    "raises the same error whether or not the code ran inside disable_saved_tensors_hooks.",
    expect=Expect.HOLDS,
    probe=probe_graph_needs_requires_grad,
    control=Control(
        "the plain product with an input that requires grad",
        control_plain_requires_grad,
    ),
    measures=(
        "st-grad-fn-with-requires-grad",
        "st-grad-fn-without-requires-grad",
        "st-packs-without-requires-grad",
        "st-backward-error-plain",
        "st-backward-error-in-disable",
    ),
    vocabulary=Vocabulary(
        subjects=("requires_grad", "grad_fn"),
        predicates={
            "en": ("record", "graph"),
            "ja": ("記録", "計算グラフ"),
            "ko": ("기록", "그래프"),
        },
    ),
)


def probe_graph_recorded_in_forward(device: Device) -> Observation:
    return _forward_rule(device, grad_mode=True)


def control_forward_under_no_grad(device: Device) -> Observation:
    return _forward_rule(device, grad_mode=False)


def _forward_rule(device: Device, grad_mode: bool) -> Observation:
    import torch

    x: Any = torch.tensor([2.0], device=device, requires_grad=True)
    with torch.set_grad_enabled(grad_mode):
        z: Any = (x * 2) ** 2
    node = z.grad_fn
    chain = []  # the nodes from z back to x, as the forward pass left them
    walk = node
    while walk is not None:
        chain.append(type(walk).__name__)
        walk = walk.next_functions[0][0] if walk.next_functions else None
    if node is not None:
        z.backward()
    kept = node is not None and z.grad_fn is node
    return Observation(
        holds=chain == ["PowBackward0", "MulBackward0", "AccumulateGrad"] and kept,
        rule="holds if z = (x * 2) ** 2, computed "
        + ("in grad mode" if grad_mode else "under torch.no_grad()")
        + ", has before any backward() a grad_fn whose chain PowBackward0, MulBackward0, "
        "AccumulateGrad reaches x, and backward() leaves that same grad_fn on z",
        measurements=(
            Measurement("st-forward-graph", ", ".join(chain) or "None", "text"),
            Measurement("st-backward-keeps-grad-fn", kept, "bool"),
        ),
    )


#: Where a sentence says the graph is built: a verb of making next to the graph.
_BUILT: dict[Lang, tuple[str, ...]] = {
    "en": (
        "construct … graph",
        "build … graph",
        "builds … graph",
        "built … graph",
        "creat … graph",
        "record … graph",
        "graph is built",
        "graph is constructed",
        "graph is created",
        "graph is recorded",
    ),
    "ja": (
        "グラフ … 構築",
        "グラフ … 作成",
        "グラフ … 生成",
        "グラフ … 作ら",
        "グラフ … 作る",
        "グラフ … 作り",
        "グラフ … 記録",
    ),
    "ko": (
        "그래프 … 구축",
        "그래프 … 생성",
        "그래프 … 만들",
        "그래프 … 만든",
        "그래프 … 기록",
        "그래프 … 구성",
    ),
}


GRAPH_RECORDED_IN_FORWARD = Claim(
    id="saved-tensors/graph-recorded-in-forward",
    statement="Autograd records the computation graph during the forward pass: each result gets "
    "its grad_fn as it is computed, and backward() only walks the graph that is already there.",
    expect=Expect.HOLDS,
    probe=probe_graph_recorded_in_forward,
    control=Control(
        "the same forward under torch.no_grad()",
        control_forward_under_no_grad,
    ),
    measures=("st-forward-graph", "st-backward-keeps-grad-fn"),
    vocabulary=Vocabulary(
        subjects=(
            "computation graph",
            "computational graph",
            "autograd graph",
            "計算グラフ",
            "계산 그래프",
            "연산 그래프",
        ),
        predicates={
            "en": ("forward pass", "during the forward", "in the forward"),
            "ja": ("順伝播", "フォワード", "順方向"),
            "ko": ("순전파", "포워드", "순방향"),
        },
        opposites={
            "en": (
                "during the backward pass",
                "in the backward pass",
                "during backward",
                "during the backward",
                "at backward time",
            ),
            "ja": (
                "逆伝播の際",
                "逆伝播時",
                "逆伝播中",
                "逆伝播のとき",
                "逆伝播の時",
                "逆伝播の間",
            ),
            "ko": (
                "역전파 때",
                "역전파 시",
                "역전파 중",
                "역전파 과정에서",
                "역전파할 때",
                "역전파하는 동안",
            ),
        },
        requires=_BUILT,
        # a backward that records a graph of its own (higher-order gradients)
        unless={
            "en": ("create_graph", "higher-order", "second derivative", "double backward"),
            "ja": ("create_graph", "高階", "二階微分", "2階微分"),
            "ko": ("create_graph", "고계", "이계 도함수", "2차 미분", "고차 미분"),
        },
    ),
)


CLAIMS = (GRAPH_NEEDS_REQUIRES_GRAD, GRAPH_RECORDED_IN_FORWARD)
