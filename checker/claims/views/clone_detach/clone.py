"""Claims of "``clone()``: new memory, inside the graph" (docs/topics/views-and-inplace.md,
``(vi-clone)=``)."""

from __future__ import annotations

import functools
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.views._tensors import _COPY, _SHARE, _allocated, _square, _warning
from checker.evidence import Measurement, Observation
from checker.measure import shares_storage
from checker.typing import Device


def probe_clone(device: Device) -> Observation:
    return _clone_rule(device, "clone")


def control_view_as_is_no_clone(device: Device) -> Observation:
    return _clone_rule(device, "view_as")


def _clone_rule(device: Device, method: str) -> Observation:
    x = _square(device).requires_grad_()
    c, allocated = _allocated(
        x.clone if method == "clone" else functools.partial(x.view_as, x), device
    )
    shared = shares_storage(c, x)
    node = type(c.grad_fn).__name__
    return Observation(
        holds=not shared and node == "CloneBackward0" and c.requires_grad and allocated >= x.nbytes,
        rule=f"holds if x.{method}() of a tensor that requires grad allocates at least x's "
        "bytes, shares no storage with x, requires grad and has grad_fn CloneBackward0",
        measurements=(
            Measurement("vi-clone-storage-shared", shared, "bool"),
            Measurement("vi-clone-grad-fn", node, "text"),
            Measurement("vi-clone-requires-grad", c.requires_grad, "bool"),
            Measurement("vi-clone-allocated", allocated, "bytes"),
            Measurement("vi-clone-source-nbytes", x.nbytes, "bytes"),
        ),
    )


CLONE_COPIES_AND_STAYS_IN_GRAPH = Claim(
    id="views/clone-copies-and-stays-in-graph",
    statement="clone() allocates a copy that shares no storage with the original, and the "
    "copy stays in the autograd graph: its grad_fn is CloneBackward0, and it keeps "
    "requires_grad.",
    expect=Expect.HOLDS,
    probe=probe_clone,
    control=Control(
        "view_as in place of clone",
        control_view_as_is_no_clone,
    ),
    measures=(
        "vi-clone-storage-shared",
        "vi-clone-grad-fn",
        "vi-clone-requires-grad",
        "vi-clone-allocated",
        "vi-clone-source-nbytes",
    ),
    vocabulary=Vocabulary(subjects=("clone",), predicates=_COPY, opposites=_SHARE),
)


def probe_gradient_through_clone(device: Device) -> Observation:
    return _through_clone_rule(device, detach=False)


def control_gradient_through_detached_clone(device: Device) -> Observation:
    return _through_clone_rule(device, detach=True)


def _through_clone_rule(device: Device, detach: bool) -> Observation:
    import torch

    a: Any = torch.tensor(1.0, device=device, requires_grad=True)
    a_copy = a.clone().detach() if detach else a.clone()
    (a**2).backward()
    first = float(a.grad)
    (a**2 + 3 * a_copy).backward()
    second = float(a.grad)
    return Observation(
        holds=first == 2.0 and second == 2.0 + 2.0 + 3.0,
        rule="holds if, for a = 1, backward of a**2 gives a.grad 2, and backward of "
        f"a**2 + 3 * a.clone(){'.detach()' if detach else ''} then accumulates 2 + 3 into it (7)",
        measurements=(
            Measurement("vi-clone-grad-first", str(first), "text"),
            Measurement("vi-clone-grad-accumulated", str(second), "text"),
        ),
    )


GRADIENT_FLOWS_THROUGH_CLONE = Claim(
    id="views/gradient-flows-through-clone",
    statement="Gradients flow through clone() to the original unchanged, and accumulate "
    "in the original's .grad.",
    expect=Expect.HOLDS,
    probe=probe_gradient_through_clone,
    control=Control(
        "clone().detach() in place of clone()",
        control_gradient_through_detached_clone,
    ),
    measures=("vi-clone-grad-first", "vi-clone-grad-accumulated"),
    vocabulary=Vocabulary(
        subjects=("clone",),
        predicates={
            "en": ("gradients flow", "gradient flows", "flow back", "flows back", "accumulate"),
            "ja": ("勾配が流れ", "勾配は流れ", "流れ戻", "へ流れ", "蓄積", "累積"),
            "ko": ("변화도가 흐", "변화도는 흐", "기울기가 흐", "흘러", "되돌아", "누적"),
        },
    ),
)


def probe_clone_grad_none(device: Device) -> Observation:
    return _clone_grad_rule(device, leaf_copy=False)


def control_leaf_copy_gets_grad(device: Device) -> Observation:
    return _clone_grad_rule(device, leaf_copy=True)


def _clone_grad_rule(device: Device, leaf_copy: bool) -> Observation:
    import torch

    a: Any = torch.tensor(1.0, device=device, requires_grad=True)
    b = a.clone().detach().requires_grad_() if leaf_copy else a.clone()
    (3 * b).backward()
    box: list[Any] = []
    warning = _warning(lambda: box.append(b.grad))
    b2 = a.clone()
    b2.retain_grad()
    (3 * b2).backward()
    return Observation(
        holds=box[0] is None
        and warning.startswith("UserWarning")
        and "not a leaf" in warning
        and b2.grad is not None,
        rule="holds if, after backward, b = a.clone()"
        + (".detach().requires_grad_()" if leaf_copy else "")
        + " has .grad None and reading it emits a "
        "UserWarning about a non-leaf tensor, while a clone that called retain_grad() gets "
        "its gradient",
        measurements=(
            Measurement("vi-clone-grad-after-backward", str(box[0]), "text"),
            Measurement("vi-non-leaf-grad-warning", warning.split(". ")[0], "text"),
            Measurement("vi-clone-retained-grad", str(float(b2.grad)), "text"),
        ),
    )


CLONE_GRAD_IS_NONE_WITH_WARNING = Claim(
    id="views/clone-grad-is-none-with-warning",
    statement="A clone of a tensor that requires grad is not a leaf: its .grad stays None "
    "after backward and reading it emits a UserWarning, unless retain_grad() was called on it.",
    expect=Expect.HOLDS,
    probe=probe_clone_grad_none,
    control=Control(
        "a copy made a leaf with detach().requires_grad_()",
        control_leaf_copy_gets_grad,
    ),
    measures=(
        "vi-clone-grad-after-backward",
        "vi-non-leaf-grad-warning",
        "vi-clone-retained-grad",
    ),
    vocabulary=Vocabulary(
        subjects=("clone",),
        predicates={"en": ("None",), "ja": ("None",), "ko": ("None",)},
    ),
)


def probe_constant_clone_leaf(device: Device) -> Observation:
    return _constant_clone_rule(device, source_requires_grad=False)


def control_clone_of_trainable_tensor(device: Device) -> Observation:
    return _constant_clone_rule(device, source_requires_grad=True)


def _constant_clone_rule(device: Device, source_requires_grad: bool) -> Observation:
    import torch

    a: Any = torch.tensor(1.0, device=device, requires_grad=source_requires_grad)
    a_copy = a.clone()
    leaf_before = a_copy.is_leaf
    if not source_requires_grad:
        a_copy.requires_grad_()
    else:
        a_copy.retain_grad()
    (a_copy**2).backward()
    grad = None if a_copy.grad is None else float(a_copy.grad)
    return Observation(
        holds=leaf_before and a.grad is None and grad == 2.0,
        rule="holds if the clone of a tensor that "
        + ("requires" if source_requires_grad else "does not require")
        + " grad is a leaf; after "
        "requires_grad_() and backward of its square (at 1), it has .grad 2 and the source "
        ".grad None",
        measurements=(
            Measurement("vi-constant-clone-is-leaf", leaf_before, "bool"),
            Measurement("vi-constant-source-grad", str(a.grad), "text"),
            Measurement("vi-constant-clone-grad", str(grad), "text"),
        ),
    )


CLONE_OF_CONSTANT_BECOMES_TRAINABLE_LEAF = Claim(
    id="views/clone-of-constant-becomes-trainable-leaf",
    statement="The clone of a tensor that does not require grad is a leaf: after "
    "requires_grad_() it receives its own .grad, and nothing flows back to the source.",
    expect=Expect.HOLDS,
    probe=probe_constant_clone_leaf,
    control=Control(
        "the clone of a tensor that requires grad",
        control_clone_of_trainable_tensor,
    ),
    measures=(
        "vi-constant-clone-is-leaf",
        "vi-constant-source-grad",
        "vi-constant-clone-grad",
    ),
)


CLAIMS = (
    CLONE_COPIES_AND_STAYS_IN_GRAPH,
    GRADIENT_FLOWS_THROUGH_CLONE,
    CLONE_GRAD_IS_NONE_WITH_WARNING,
    CLONE_OF_CONSTANT_BECOMES_TRAINABLE_LEAF,
)
