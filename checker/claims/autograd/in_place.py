"""Claims of "In-place changes and the graph" (docs/topics/autograd-facts.md,
``(ag-in-place)=``): which in-place changes backward or autograd refuse, and which it
accepts."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.autograd._graph import _error
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_in_place_after_multiplication(device: Device) -> Observation:
    return _intermediate_rule(op="mul")


def control_in_place_after_sigmoid(device: Device) -> Observation:
    return _intermediate_rule(op="sigmoid")


def _intermediate_rule(op: str) -> Observation:
    import torch

    x: Any = torch.ones(3, requires_grad=True)
    y = x * 2 if op == "mul" else x.sigmoid()
    y.add_(1)
    error = _error(y.sum().backward)
    grad = "None" if x.grad is None else str([float(v) for v in x.grad.tolist()])
    expression = "x * 2" if op == "mul" else "x.sigmoid()"
    return Observation(
        holds=error != "no error",
        rule=f"holds if backward() raises after the intermediate y = {expression} of a leaf x "
        "is modified in place by y.add_(1)",
        measurements=(
            Measurement(f"ag-in-place-{op}-backward", error, "exception"),
            Measurement(f"ag-in-place-{op}-grad", grad, "text"),
        ),
    )


MYTH_ANY_IN_PLACE_BREAKS_BACKWARD = Claim(
    id="autograd/myth-any-in-place-breaks-backward",
    statement="Modifying any intermediate tensor in place makes backward() fail.",
    expect=Expect.FAILS,
    probe=probe_in_place_after_multiplication,
    control=Control(
        "the output of sigmoid, which backward needs",
        control_in_place_after_sigmoid,
        measures=("ag-in-place-sigmoid-backward", "ag-in-place-sigmoid-grad"),
    ),
    devices=("cpu",),
    measures=("ag-in-place-mul-backward", "ag-in-place-mul-grad"),
    vocabulary=Vocabulary(
        subjects=("in-place", "in place", "inplace", "インプレース", "인플레이스", "add_", "mul_"),
        predicates={
            "en": ("always … backward … fail", "any … backward … fail", "always … break"),
            "ja": ("必ず … エラー", "どんな … エラー", "常に … エラー", "必ず … 失敗"),
            "ko": ("항상 … 오류", "어떤 … 오류", "반드시 … 오류", "항상 … 실패"),
        },
        requires={
            "en": ("intermediate",),
            "ja": ("中間",),
            "ko": ("중간",),
        },
        denies=False,
    ),
)


def probe_view_of_leaf_in_place(device: Device) -> Observation:
    return _view_rule(of_leaf=True)


def control_view_of_intermediate(device: Device) -> Observation:
    return _view_rule(of_leaf=False)


def _view_rule(of_leaf: bool) -> Observation:
    import torch

    x = torch.ones(3, requires_grad=True)
    base = x if of_leaf else x * 1
    error = _error(lambda: base[0:1].mul_(2))
    kind = "leaf" if of_leaf else "intermediate"
    return Observation(
        holds=error.startswith("RuntimeError"),
        rule="holds if, for t = "
        + (
            "x, a leaf that requires grad,"
            if of_leaf
            else "x * 1, the result of an operation on a leaf x that requires grad,"
        )
        + " t[0:1].mul_(2) raises RuntimeError",
        measurements=(Measurement(f"ag-view-of-{kind}-in-place", error, "exception"),),
    )


VIEW_OF_LEAF_REFUSES_IN_PLACE = Claim(
    id="autograd/view-of-leaf-refuses-in-place",
    statement="An in-place operation through a view of a leaf that requires grad, such as "
    "x[0:1].mul_(2), raises an error.",
    expect=Expect.HOLDS,
    probe=probe_view_of_leaf_in_place,
    control=Control(
        "a view of an intermediate result",
        control_view_of_intermediate,
        measures=("ag-view-of-intermediate-in-place",),
    ),
    devices=("cpu",),
    measures=("ag-view-of-leaf-in-place",),
    vocabulary=Vocabulary(
        subjects=("view", "ビュー", "뷰"),
        predicates={
            "en": ("error", "raise", "not allowed"),
            "ja": ("エラー", "例外", "許されな"),
            "ko": ("오류", "에러", "예외", "허용되지 않"),
        },
        requires={
            "en": ("leaf",),
            "ja": ("リーフ", "葉"),
            "ko": ("리프",),
        },
        unless={lang: ("no_grad",) for lang in ("en", "ja", "ko")},
        denies=False,
    ),
)


def probe_inference_tensor_in_place(device: Device) -> Observation:
    return _inference_rule(mode="inference_mode")


def control_no_grad_tensor_in_place(device: Device) -> Observation:
    return _inference_rule(mode="no_grad")


def _inference_rule(mode: str) -> Observation:
    import torch

    with getattr(torch, mode)():
        t = torch.ones(3)
    direct = _error(lambda: t.add_(1))
    cloned = _error(lambda: t.clone().add_(1))
    kind = "inference" if mode == "inference_mode" else "no-grad"
    return Observation(
        holds=direct.startswith("RuntimeError") and cloned == "no error",
        rule=f"holds if, outside the block, add_(1) on a tensor created under torch.{mode}() "
        "raises RuntimeError while add_(1) on its clone() runs",
        measurements=(
            Measurement(f"ag-{kind}-tensor-in-place", direct, "exception"),
            Measurement(f"ag-{kind}-clone-in-place", cloned, "exception"),
        ),
    )


INFERENCE_TENSOR_REFUSES_IN_PLACE_OUTSIDE = Claim(
    id="autograd/inference-tensor-refuses-in-place-outside",
    statement="A tensor created under torch.inference_mode() cannot be modified in place "
    "outside it; its clone() can.",
    expect=Expect.HOLDS,
    probe=probe_inference_tensor_in_place,
    control=Control(
        "a tensor created under torch.no_grad()",
        control_no_grad_tensor_in_place,
        measures=("ag-no-grad-tensor-in-place", "ag-no-grad-clone-in-place"),
    ),
    devices=("cpu",),
    measures=("ag-inference-tensor-in-place", "ag-inference-clone-in-place"),
    vocabulary=Vocabulary(
        subjects=(
            "inference_mode",
            "inference tensor",
            "Inference tensor",
            "推論テンソル",
            "추론 텐서",
        ),
        predicates={
            "en": (
                "cannot … in-place",
                "cannot … in place",
                "in-place … error",
                "in-place … raise",
            ),
            "ja": (
                "インプレース … できな",
                "インプレース … できません",
                "インプレース … エラー",
                "in-place … エラー",
            ),
            "ko": ("인플레이스 … 할 수 없", "인플레이스 … 오류", "in-place … 오류"),
        },
        denies=False,
    ),
)


CLAIMS = (
    MYTH_ANY_IN_PLACE_BREAKS_BACKWARD,
    VIEW_OF_LEAF_REFUSES_IN_PLACE,
    INFERENCE_TENSOR_REFUSES_IN_PLACE_OUTSIDE,
)
