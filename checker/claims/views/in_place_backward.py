"""Claims of "Which in-place operations backward survives" (docs/topics/views-and-inplace.md,
``(vi-in-place-backward)=``): two opposite misreadings of the rules of the sections above it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.views._tensors import _error, _values
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_leaf_in_place_breaks_graph(device: Device) -> Observation:
    return _breaks_graph_rule(device, leaf=True)


def control_saved_non_leaf_in_place(device: Device) -> Observation:
    return _breaks_graph_rule(device, leaf=False)


def _breaks_graph_rule(device: Device, leaf: bool) -> Observation:
    import torch

    x: Any = torch.tensor([1.0, 2.0], device=device, requires_grad=True)
    t = x if leaf else x * 1
    loss = (t * t).sum()  # the product saves t for backward
    before = t.detach().clone()
    refused = _error(lambda: t.add_(1.0))
    changed = not bool(torch.equal(t.detach(), before))
    backward = _error(loss.backward)
    correct = x.grad is not None and bool(torch.allclose(x.grad, 2 * before))
    return Observation(
        holds=changed and (backward != "no error" or not correct),
        rule="holds if add_(1) on "
        + ("a leaf" if leaf else "a non-leaf tensor")
        + " that requires grad, which a product recorded before, goes through (the values "
        "change) and backward through that product then raises or gives a gradient other "
        "than 2 * the old values",
        measurements=(
            Measurement(f"vi-{'leaf' if leaf else 'saved'}-add-error", refused, "exception"),
            Measurement(f"vi-{'leaf' if leaf else 'saved'}-add-changed", changed, "bool"),
            Measurement(f"vi-{'leaf' if leaf else 'saved'}-add-backward", backward, "exception"),
            Measurement(
                f"vi-{'leaf' if leaf else 'saved'}-add-grad",
                _values(x.grad) if x.grad is not None else "None",
                "text",
            ),
        ),
    )


#: A leaf, in every language (the term the pages use, and the usual alternatives).
_LEAF = ("leaf", "リーフ", "葉テンソル", "葉ノード", "리프")

MYTH_LEAF_IN_PLACE_BREAKS_GRAPH = Claim(
    id="inplace/myth-leaf-in-place-breaks-graph",
    statement="An in-place operation on a leaf tensor that requires grad goes through and "
    "breaks its computation graph.",
    expect=Expect.FAILS,
    probe=probe_leaf_in_place_breaks_graph,
    control=Control(
        "a non-leaf tensor that the product saved",
        control_saved_non_leaf_in_place,
        measures=("vi-saved-add-changed", "vi-saved-add-backward"),
    ),
    measures=(
        "vi-leaf-add-error",
        "vi-leaf-add-changed",
        "vi-leaf-add-backward",
        "vi-leaf-add-grad",
    ),
    vocabulary=Vocabulary(
        subjects=_LEAF,
        predicates={
            "en": (
                "break … graph",
                "breaks … graph",
                "corrupts … graph",
                "can't track",
                "cannot track",
                "unable to track",
                "loses track",
            ),
            "ja": (
                "計算グラフが壊れ",
                "計算グラフを壊",
                "計算グラフが切れ",
                "計算グラフを切",
                "グラフが壊れ",
                "グラフを壊",
                "追跡できな",
                "追跡できなくな",
            ),
            "ko": (
                "계산 그래프가 깨",
                "계산 그래프를 깨",
                "계산 그래프가 망가",
                "계산 그래프를 망가",
                "그래프가 깨지",
                "그래프가 끊",
                "그래프를 끊",
                "추적할 수 없",
                "추적하지 못",
            ),
        },
        # where the refusal does not apply, what the sentence says may be right
        unless={
            "en": ("no_grad", "non-leaf", "not a leaf", "detach"),
            "ja": ("no_grad", "リーフでない", "リーフではない", "非リーフ", "detach"),
            "ko": ("no_grad", "리프가 아닌", "비리프", "detach"),
        },
    ),
)


#: What each case of :func:`_keeps_rule` modifies in place, made from the leaf ``a``: a leaf
#: that requires grad, the output of exp (which exp saves), the output of sin (which nobody
#: saves: sin saves its input), a clone of a leaf.
_CASES: dict[str, Callable[[Any], Any]] = {
    "leaf": lambda a: a,
    "saved": lambda a: a.exp(),
    "unsaved": lambda a: a.sin(),
    "clone": lambda a: a.clone(),
}


def probe_in_place_keeps_backprop(device: Device) -> Observation:
    return _keeps_rule(device, myth_cases=True)


def control_unsaved_non_leaves(device: Device) -> Observation:
    return _keeps_rule(device, myth_cases=False)


def _add_then_backward(device: Device, make: Callable[[Any], Any]) -> str:
    """Add 1 in place to ``make(a)`` and run backward through it: the first error, else
    ``"no error"`` (with the gradient, where it differs from the one without ``add_``)."""
    import torch

    a: Any = torch.tensor([0.5, 1.0], device=device, requires_grad=True)
    t = make(a)
    added = _error(lambda: t.add_(1.0))
    backward = _error(lambda: (t * 3).sum().backward()) if added == "no error" else ""
    reference: Any = torch.tensor([0.5, 1.0], device=device, requires_grad=True)
    (make(reference) * 3).sum().backward()  # the same gradient: adding 1 changes none
    right = a.grad is not None and bool(torch.allclose(a.grad, reference.grad))
    outcome = next((e for e in (added, backward) if e and e != "no error"), "no error")
    if outcome == "no error" and not right:
        return f"no error, gradient {_values(a.grad)}"
    return outcome


def _keeps_rule(device: Device, myth_cases: bool) -> Observation:
    cases = ("leaf", "saved") if myth_cases else ("unsaved", "clone")
    outcomes = {case: _add_then_backward(device, _CASES[case]) for case in cases}
    return Observation(
        holds=all(outcome == "no error" for outcome in outcomes.values()),
        rule="holds if, on "
        + (
            "a leaf that requires grad and on the output of exp, which exp saved,"
            if myth_cases
            else "the output of sin and on a clone of a leaf, which nothing saved,"
        )
        + " add_(1) runs and backward through the result then gives the gradient of the "
        "same computation without add_",
        measurements=tuple(
            Measurement(f"vi-keeps-backprop-{case}", outcome, "exception")
            for case, outcome in outcomes.items()
        ),
    )


#: In-place operations as a class, and the two the myth usually names.
_IN_PLACE = (
    "in-place",
    "In-place",
    "inplace",
    "Inplace",
    "in_place",
    "インプレース",
    "인플레이스",
    "제자리 연산",
    "add_",
    "mul_",
)

MYTH_IN_PLACE_KEEPS_BACKPROP = Claim(
    id="inplace/myth-in-place-keeps-backprop",
    statement="In-place operations such as add_() and mul_() keep backpropagation working, "
    "whatever tensor they modify.",
    expect=Expect.FAILS,
    probe=probe_in_place_keeps_backprop,
    control=Control(
        "non-leaf tensors that nothing saved",
        control_unsaved_non_leaves,
        measures=("vi-keeps-backprop-unsaved", "vi-keeps-backprop-clone"),
    ),
    measures=("vi-keeps-backprop-leaf", "vi-keeps-backprop-saved"),
    vocabulary=Vocabulary(
        subjects=_IN_PLACE,
        predicates={
            "en": (
                "keep backpropagation",
                "keeps backpropagation",
                "preserve backpropagation",
                "preserves backpropagation",
                "keep backprop",
                "keeps backprop",
                "preserves backprop",
                "backpropagation still works",
                "keep the graph intact",
                "keeps the graph intact",
            ),
            "ja": (
                "バックプロパゲーションを維持",
                "バックプロパゲーションが維持",
                "バックプロパゲーションは維持",
                "逆伝播を維持",
                "逆伝播が維持",
                "逆伝播は維持",
                "逆伝搬を維持",
                "逆伝搬が維持",
            ),
            "ko": (
                "역전파를 유지",
                "역전파가 유지",
                "역전파는 유지",
                "역전파를 보존",
                "역전파가 보존",
            ),
        },
        # the cases where in-place operations do keep it
        unless={
            "en": ("non-leaf", "not a leaf", "clone", "no_grad", "not saved", "nothing saved"),
            "ja": (
                "リーフでない",
                "リーフではない",
                "非リーフ",
                "clone",
                "クローン",
                "no_grad",
                "保存されていない",
            ),
            "ko": ("리프가 아닌", "비리프", "clone", "복제", "no_grad", "저장되지 않은"),
        },
    ),
)


CLAIMS = (MYTH_LEAF_IN_PLACE_BREAKS_GRAPH, MYTH_IN_PLACE_KEEPS_BACKPROP)
