"""Claims of "``copy.deepcopy``" (docs/topics/tensors-from-data.md, ``(td-deepcopy)=``)."""

from __future__ import annotations

import copy
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.data._text import _RAISE, _error
from checker.evidence import Measurement, Observation
from checker.measure import shares_storage
from checker.typing import Lang

_DEEPCOPY = ("deepcopy",)


def probe_deepcopy_leaf(device: str) -> Observation:
    return _deepcopy_leaf_rule(device, detach=False)


def control_detach_leaf(device: str) -> Observation:
    return _deepcopy_leaf_rule(device, detach=True)


def _deepcopy_leaf_rule(device: str, detach: bool) -> Observation:
    import torch

    w: Any = torch.ones(3, device=device, requires_grad=True)
    w.mul(2).sum().backward()
    c = w.detach() if detach else copy.deepcopy(w)
    own = not shares_storage(c, w)
    grad = c.grad is not None and w.grad is not None and c.grad is not w.grad
    grad = grad and torch.equal(c.grad, w.grad)
    kind = "detach" if detach else "deepcopy"
    return Observation(
        holds=own and c.is_leaf and c.requires_grad and grad,
        rule="holds if "
        + ("w.detach()" if detach else "copy.deepcopy(w)")
        + " of a leaf w that requires grad and has a .grad is a leaf that requires grad, "
        "has a storage of its own and a copy of w.grad",
        measurements=(
            Measurement(f"data-{kind}-own-storage", own, "bool"),
            Measurement(f"data-{kind}-requires-grad", bool(c.requires_grad), "bool"),
            Measurement(f"data-{kind}-grad-copied", grad, "bool"),
        ),
    )


_NON_LEAF: dict[Lang, tuple[str, ...]] = {
    "en": ("non-leaf", "not a leaf", "in the graph", "intermediate"),
    "ja": ("非リーフ", "リーフでない", "リーフではない", "中間"),
    "ko": ("비리프", "리프가 아닌", "중간"),
}


DEEPCOPY_LEAF_COPIES_MEMORY_AND_GRAD = Claim(
    id="data/deepcopy-leaf-copies-memory-and-grad",
    statement="copy.deepcopy() of a leaf tensor that requires grad returns a leaf that "
    "requires grad, with memory of its own and a copy of the original's .grad.",
    expect=Expect.HOLDS,
    probe=probe_deepcopy_leaf,
    control=Control(
        "detach() in place of copy.deepcopy",
        control_detach_leaf,
        measures=(
            "data-detach-own-storage",
            "data-detach-requires-grad",
            "data-detach-grad-copied",
        ),
    ),
    measures=(
        "data-deepcopy-own-storage",
        "data-deepcopy-requires-grad",
        "data-deepcopy-grad-copied",
    ),
    vocabulary=Vocabulary(
        subjects=_DEEPCOPY,
        predicates={"en": (".grad",), "ja": (".grad",), "ko": (".grad",)},
        unless=_NON_LEAF,
    ),
)


def probe_deepcopy_non_leaf(device: str) -> Observation:
    return _deepcopy_non_leaf_rule(device, detached=False)


def control_deepcopy_detached(device: str) -> Observation:
    return _deepcopy_non_leaf_rule(device, detached=True)


def _deepcopy_non_leaf_rule(device: str, detached: bool) -> Observation:
    import torch

    w = torch.ones(3, device=device, requires_grad=True)
    y = (w * 2).detach() if detached else w * 2
    error = _error(lambda: copy.deepcopy(y))
    kind = "leaf" if detached else "non-leaf"
    return Observation(
        holds=error.startswith("RuntimeError"),
        rule="holds if copy.deepcopy(y) raises RuntimeError, for y = "
        + ("(w * 2).detach(), a leaf" if detached else "w * 2, a tensor in the graph"),
        measurements=(Measurement(f"data-deepcopy-{kind}-error", error, "exception"),),
    )


DEEPCOPY_NON_LEAF_RAISES = Claim(
    id="data/deepcopy-non-leaf-raises",
    statement="copy.deepcopy() of a tensor that is not a leaf of the autograd graph raises "
    "a RuntimeError.",
    expect=Expect.HOLDS,
    probe=probe_deepcopy_non_leaf,
    control=Control(
        "the same tensor detached, which is a leaf",
        control_deepcopy_detached,
        measures=("data-deepcopy-leaf-error",),
    ),
    measures=("data-deepcopy-non-leaf-error",),
    vocabulary=Vocabulary(
        subjects=_DEEPCOPY,
        predicates=_RAISE,
        denies=False,
        # "deepcopy copies intermediate tensors too, no problem": it works on non-leaves
        opposites={
            "en": ("intermediate tensors too", "non-leaf tensors too", "non-leaf tensors as"),
            "ja": ("中間テンソルも問題なく", "中間テンソルもそのまま", "非リーフテンソルも"),
            "ko": ("중간 텐서도 문제없이", "중간 텐서도 그대로", "비리프 텐서도"),
        },
    ),
)


def probe_deepcopy_keeps_graph_myth(device: str) -> Observation:
    return _keeps_graph_rule(device, clone=False)


def control_clone_keeps_graph(device: str) -> Observation:
    return _keeps_graph_rule(device, clone=True)


def _keeps_graph_rule(device: str, clone: bool) -> Observation:
    import torch

    w = torch.ones(3, device=device, requires_grad=True)
    y = w * 2
    try:
        c = y.clone() if clone else copy.deepcopy(y)
        grad_fn = type(c.grad_fn).__name__ if c.grad_fn is not None else "None"
    except RuntimeError:
        grad_fn = "error"
    kind = "clone" if clone else "deepcopy"
    return Observation(
        holds=grad_fn not in ("None", "error"),
        rule="holds if "
        + ("y.clone()" if clone else "copy.deepcopy(y)")
        + " of y = w * 2 returns a tensor with a grad_fn",
        measurements=(Measurement(f"data-{kind}-non-leaf-grad-fn", grad_fn, "text"),),
    )


MYTH_DEEPCOPY_KEEPS_GRAPH = Claim(
    id="data/myth-deepcopy-keeps-graph",
    statement="copy.deepcopy() of a tensor in the autograd graph returns a copy that keeps "
    "its grad_fn.",
    expect=Expect.FAILS,
    probe=probe_deepcopy_keeps_graph_myth,
    control=Control(
        "clone() in place of copy.deepcopy",
        control_clone_keeps_graph,
        measures=("data-clone-non-leaf-grad-fn",),
    ),
    measures=("data-deepcopy-non-leaf-grad-fn",),
    vocabulary=Vocabulary(
        subjects=_DEEPCOPY,
        predicates={
            "en": (
                "grad_fn",
                "copy that keeps",
                "keeps the graph",
                "keeps the history",
                "computation graph",
            ),
            "ja": ("grad_fn", "計算グラフ"),
            "ko": ("grad_fn", "계산 그래프"),
        },
    ),
)


def probe_deepcopy_keeps_sharing(device: str) -> Observation:
    return _deepcopy_sharing_rule(device, together=True)


def control_deepcopy_separately(device: str) -> Observation:
    return _deepcopy_sharing_rule(device, together=False)


def _deepcopy_sharing_rule(device: str, together: bool) -> Observation:
    import torch

    base = torch.arange(6.0, device=device)
    view = base[2:]
    if together:
        base_copy, view_copy = copy.deepcopy([base, view])
    else:
        base_copy, view_copy = copy.deepcopy(base), copy.deepcopy(view)
    shared = shares_storage(base_copy, view_copy)
    fresh = not shares_storage(base_copy, base)
    base_copy[3] = -1.0
    reaches = float(view_copy[1]) == -1.0
    kind = "together" if together else "apart"
    return Observation(
        holds=shared and fresh and reaches,
        rule="holds if the copies of a tensor and its view made by "
        + ("one copy.deepcopy of a list holding both" if together else "two copy.deepcopy calls")
        + " share one new storage, and a write to one copy shows in the other",
        measurements=(
            Measurement(f"data-deepcopy-{kind}-share", shared, "bool"),
            Measurement(f"data-deepcopy-{kind}-write-reaches", reaches, "bool"),
        ),
    )


DEEPCOPY_KEEPS_SHARED_STORAGE = Claim(
    id="data/deepcopy-keeps-shared-storage",
    statement="Tensors that share a storage and are deep-copied in one copy.deepcopy() "
    "call give copies that share one new storage.",
    expect=Expect.HOLDS,
    probe=probe_deepcopy_keeps_sharing,
    control=Control(
        "one copy.deepcopy call per tensor",
        control_deepcopy_separately,
        measures=("data-deepcopy-apart-share", "data-deepcopy-apart-write-reaches"),
    ),
    measures=("data-deepcopy-together-share", "data-deepcopy-together-write-reaches"),
    vocabulary=Vocabulary(
        subjects=_DEEPCOPY,
        # sharing among the copies, not with the originals
        predicates={
            "en": ("still share", "share one storage", "keeps the sharing", "each other"),
            "ja": ("共有したまま", "互いに", "共有関係"),
            "ko": ("공유한 채", "서로 ", "공유 관계"),  # "서로 ", not "텐서로부터"
        },
        unless={"en": (".grad",), "ja": (".grad",), "ko": (".grad",)},
    ),
)


def probe_deepcopy_view(device: str) -> Observation:
    return _view_copy_rule(device, clone=False)


def control_clone_view(device: str) -> Observation:
    return _view_copy_rule(device, clone=True)


def _view_copy_rule(device: str, clone: bool) -> Observation:
    import torch

    base = torch.zeros(1024 * 1024, device=device)
    view = base[:10]
    c = view.clone() if clone else copy.deepcopy(view)
    copied = c.untyped_storage().nbytes()
    kind = "clone" if clone else "deepcopy"
    return Observation(
        holds=copied == base.untyped_storage().nbytes(),
        rule="holds if "
        + ("view.clone()" if clone else "copy.deepcopy(view)")
        + " of a 10-element view of a 1024 × 1024-element tensor has a storage as large as "
        "the whole tensor's",
        measurements=(
            Measurement(f"data-{kind}-view-storage-bytes", copied, "bytes"),
            *(
                ()
                if clone
                else (
                    Measurement("data-view-bytes", view.nbytes, "bytes"),
                    Measurement("data-view-base-bytes", base.untyped_storage().nbytes(), "bytes"),
                )
            ),
        ),
    )


DEEPCOPY_OF_VIEW_COPIES_WHOLE_STORAGE = Claim(
    id="data/deepcopy-of-view-copies-whole-storage",
    statement="copy.deepcopy() of a view copies the whole storage of the tensor it views, "
    "not only the view's elements.",
    expect=Expect.HOLDS,
    probe=probe_deepcopy_view,
    control=Control(
        "clone() in place of copy.deepcopy",
        control_clone_view,
        measures=("data-clone-view-storage-bytes",),
    ),
    measures=("data-deepcopy-view-storage-bytes", "data-view-bytes", "data-view-base-bytes"),
    vocabulary=Vocabulary(
        subjects=_DEEPCOPY,
        predicates={
            "en": ("whole storage", "entire storage"),
            "ja": ("ストレージ全体",),
            "ko": ("스토리지 전체",),
        },
        denies=False,
    ),
)


CLAIMS = (
    DEEPCOPY_LEAF_COPIES_MEMORY_AND_GRAD,
    DEEPCOPY_NON_LEAF_RAISES,
    MYTH_DEEPCOPY_KEEPS_GRAPH,
    DEEPCOPY_KEEPS_SHARED_STORAGE,
    DEEPCOPY_OF_VIEW_COPIES_WHOLE_STORAGE,
)
