"""Claims of "``detach()``: same memory, outside the graph" (docs/topics/views-and-inplace.md,
``(vi-detach)=``)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.views._tensors import _COPY, _SHARE, _allocated, _error, _square, _values
from checker.evidence import Measurement, Observation
from checker.measure import shares_storage
from checker.typing import Device, Lang


def _metadata_changes(device: Device) -> dict[str, Callable[[Any], Any]]:
    """In-place changes of shape or storage, each applied to a 2x3 tensor."""
    import torch

    return {
        "resize": lambda t: t.resize_(4, 3),
        "resize-as": lambda t: t.resize_as_(torch.zeros(4, 3, device=device)),
        "set": lambda t: t.set_(torch.zeros(2, 3, device=device)),
        "transpose": lambda t: t.transpose_(0, 1),
    }


def probe_detach(device: Device) -> Observation:
    return _detach_rule(device, clone=False)


def control_clone_in_place_of_detach(device: Device) -> Observation:
    return _detach_rule(device, clone=True)


def _detach_rule(device: Device, clone: bool) -> Observation:
    import torch

    x = _square(device).requires_grad_()
    d, allocated = _allocated(x.clone if clone else x.detach, device)
    shared = shares_storage(d, x)
    # d/dv of sum(v * v.detach()) is v's values if no gradient flows through detach(), 2 v if
    # it did
    v: Any = torch.tensor([1.0, 2.0], device=device, requires_grad=True)
    (v * (v.clone() if clone else v.detach())).sum().backward()
    branch = v.grad.tolist()
    return Observation(
        holds=shared
        and d.grad_fn is None
        and not d.requires_grad
        and allocated == 0
        and branch == [1.0, 2.0],
        rule=f"holds if x.{'clone' if clone else 'detach'}() of a tensor that requires grad "
        "shares its storage, has no "
        "grad_fn, does not require grad and allocates no bytes, and if for v = [1, 2] the "
        "gradient of sum(v * v.detach()) is [1, 2] (nothing flows through the detached factor)",
        measurements=(
            Measurement("vi-detach-storage-shared", shared, "bool"),
            Measurement("vi-detach-grad-fn", str(d.grad_fn), "text"),
            Measurement("vi-detach-requires-grad", d.requires_grad, "bool"),
            Measurement("vi-detach-allocated", allocated, "bytes"),
            Measurement("vi-detach-branch-grad", str(branch), "text"),
        ),
    )


DETACH_SHARES_STORAGE_OUTSIDE_GRAPH = Claim(
    id="views/detach-shares-storage-outside-graph",
    statement="detach() returns a tensor that shares the original's storage, has no "
    "grad_fn and does not require grad: no gradient flows through it, and it allocates "
    "nothing.",
    expect=Expect.HOLDS,
    probe=probe_detach,
    control=Control(
        "clone() in place of detach()",
        control_clone_in_place_of_detach,
    ),
    measures=(
        "vi-detach-storage-shared",
        "vi-detach-grad-fn",
        "vi-detach-requires-grad",
        "vi-detach-allocated",
        "vi-detach-branch-grad",
    ),
    vocabulary=Vocabulary(subjects=("detach",), predicates=_SHARE, opposites=_COPY),
)


def probe_detach_sees_updates(device: Device) -> Observation:
    return _sees_updates_rule(device, in_place=True)


def control_update_replacing_data(device: Device) -> Observation:
    return _sees_updates_rule(device, in_place=False)


def _sees_updates_rule(device: Device, in_place: bool) -> Observation:
    import torch

    w: Any = torch.nn.Parameter(torch.tensor([1.0, 2.0], device=device))
    detached, cloned = w.detach(), w.detach().clone()
    optimizer = torch.optim.SGD([w], lr=1.0)
    (w * w).sum().mul(0.5).backward()  # gradient w: one step of lr 1 brings w to 0
    if in_place:
        optimizer.step()
    else:  # the same step, but into new memory: w.data is replaced, not updated
        w.data = w.data - w.grad
    return Observation(
        holds=torch.equal(detached, w.detach()) and not torch.equal(cloned, w.detach()),
        rule="holds if, after "
        + ("an SGD step changes w in place" if in_place else "w.data is replaced by w - grad")
        + ", w.detach() taken before the step shows the new values and w.detach().clone() "
        "keeps the old ones",
        measurements=(
            Measurement("vi-parameter-after-step", _values(w), "text"),
            Measurement("vi-detached-after-step", _values(detached), "text"),
            Measurement("vi-cloned-after-step", _values(cloned), "text"),
        ),
    )


DETACH_SEES_IN_PLACE_UPDATES = Claim(
    id="views/detach-sees-in-place-updates",
    statement="A detached tensor sees later in-place updates of the original, such as an "
    "optimizer step; a clone keeps the old values.",
    expect=Expect.HOLDS,
    probe=probe_detach_sees_updates,
    control=Control(
        "an update that replaces w.data",
        control_update_replacing_data,
    ),
    measures=("vi-parameter-after-step", "vi-detached-after-step", "vi-cloned-after-step"),
    vocabulary=Vocabulary(
        subjects=("detach",),
        predicates={
            "en": ("update", "change"),
            "ja": ("更新", "変わ"),
            "ko": ("업데이트", "변경"),
        },
    ),
)


def probe_detach_metadata_myth(device: Device) -> Observation:
    return _metadata_change_errors(device, on_detached=True)


def control_metadata_change_on_original(device: Device) -> Observation:
    return _metadata_change_errors(device, on_detached=False)


def _metadata_change_errors(device: Device, on_detached: bool) -> Observation:
    import torch

    def strict(call: Callable[[], Any]) -> str:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return _error(call)

    errors = {}
    shape = ""
    for name, change in _metadata_changes(device).items():
        q: Any = torch.ones(2, 3, device=device, requires_grad=True)
        target = q.detach() if on_detached else q
        errors[name] = strict(functools.partial(change, target))
        shape = shape or str(tuple(q.shape))
    prefix = "vi-detach" if on_detached else "vi-original"
    return Observation(
        holds=any(e != "no error" for e in errors.values()),
        rule="holds if resize_, resize_as_, set_ or transpose_ raises an error or a warning "
        "(warnings turned into errors) when applied to "
        + ("the detach() of a tensor that requires grad" if on_detached else "such a tensor"),
        measurements=(
            *(Measurement(f"{prefix}-{k}-error", e, "text") for k, e in errors.items()),
            Measurement(f"{prefix}-shape-after-resize", shape, "text"),
        ),
    )


_ERROR: dict[Lang, tuple[str, ...]] = {
    "en": ("error", "raise", "warning"),
    "ja": ("エラー", "警告"),
    "ko": ("오류", "에러", "경고"),
}


MYTH_DETACH_METADATA_CHANGE_RAISES = Claim(
    id="views/myth-detach-metadata-change-raises",
    statement="Changing the shape or storage of a detach() result in place (resize_, "
    "resize_as_, set_, transpose_) raises an error or a warning.",
    expect=Expect.FAILS,
    probe=probe_detach_metadata_myth,
    measures=(
        "vi-detach-resize-error",
        "vi-detach-resize-as-error",
        "vi-detach-set-error",
        "vi-detach-transpose-error",
        "vi-detach-shape-after-resize",
    ),
    vocabulary=Vocabulary(subjects=("resize_", "set_", "transpose_"), predicates=_ERROR),
    control=Control(
        "the same changes on the tensor itself, a leaf that requires grad",
        control_metadata_change_on_original,
        measures=("vi-original-transpose-error",),
    ),
)


def probe_detach_change_breaks_saved_backward(device: Device) -> Observation:
    return _saved_original_after_change(device, change_detached=True)


def control_saved_original_unchanged(device: Device) -> Observation:
    return _saved_original_after_change(device, change_detached=False)


def _saved_original_after_change(device: Device, change_detached: bool) -> Observation:
    import torch

    bumped = failed = 0
    message = "no error"
    changes = _metadata_changes(device)
    for change in changes.values():
        q: Any = torch.ones(2, 3, device=device, requires_grad=True)
        loss = q.sin().sum()  # sin saves q for backward
        before = q._version
        if change_detached:
            change(q.detach())
        bumped += q._version != before
        error = _error(loss.backward)
        if error != "no error":
            failed += 1
            message = error.splitlines()[0][:160]
    total = len(changes)
    prefix = "vi-saved-detach" if change_detached else "vi-saved-unchanged"
    return Observation(
        holds=bumped == failed == total,
        rule="holds if, for each of resize_, resize_as_, set_ and transpose_, the version "
        "counter of a tensor saved by sin() went up and backward raised"
        + (" after the change was applied to its detach()" if change_detached else ""),
        measurements=(
            Measurement(f"{prefix}-version-bumps", bumped, "count"),
            Measurement(f"{prefix}-backward-errors", failed, "count"),
            Measurement(f"{prefix}-backward-error", message, "exception"),
        ),
    )


DETACH_METADATA_CHANGE_BREAKS_SAVED_BACKWARD = Claim(
    id="views/detach-metadata-change-breaks-saved-backward",
    statement="Changing the shape or storage of a detach() result in place bumps the version "
    "counter it shares with the original, so a backward that saved the original then raises "
    "an error.",
    expect=Expect.HOLDS,
    probe=probe_detach_change_breaks_saved_backward,
    measures=(
        "vi-saved-detach-version-bumps",
        "vi-saved-detach-backward-errors",
        "vi-saved-detach-backward-error",
    ),
    control=Control(
        "the same graph without the change",
        control_saved_original_unchanged,
        measures=("vi-saved-unchanged-backward-errors",),
    ),
)


def probe_resize_requires_grad(device: Device) -> Observation:
    return _resize_rule(device, requires_grad=True)


def control_resize_without_grad(device: Device) -> Observation:
    return _resize_rule(device, requires_grad=False)


def _resize_rule(device: Device, requires_grad: bool) -> Observation:
    import torch

    w = torch.ones(2, device=device, requires_grad=requires_grad)
    leaf = _error(lambda: w.resize_(4))
    w = torch.ones(2, device=device, requires_grad=requires_grad)
    clone = _error(lambda: w.clone().resize_(4))
    clone_transpose = _error(
        lambda: (
            torch.ones(2, 3, device=device, requires_grad=requires_grad).clone().transpose_(0, 1)
        )
    )
    detached = _error(lambda: w.detach().resize_(4))
    holds = (
        leaf.startswith("RuntimeError")
        and clone.startswith("RuntimeError")
        and clone_transpose == "no error"
        and detached == "no error"
    )
    return Observation(
        holds=holds,
        rule=f"holds if resize_ raises RuntimeError on a leaf (requires grad: {requires_grad}) "
        "and on its "
        "clone, while transpose_ on such a clone and resize_ on its detach() raise nothing",
        measurements=(
            Measurement("vi-resize-leaf-error", leaf, "exception"),
            Measurement("vi-resize-clone-error", clone, "exception"),
            Measurement("vi-transpose-clone-error", clone_transpose, "text"),
            Measurement("vi-resize-detached-error", detached, "text"),
        ),
    )


RESIZE_REFUSES_TENSORS_THAT_REQUIRE_GRAD = Claim(
    id="views/resize-refuses-tensors-that-require-grad",
    statement="resize_() raises an error on any tensor that requires grad, a clone included; "
    "other in-place changes of shape such as transpose_() are allowed.",
    expect=Expect.HOLDS,
    probe=probe_resize_requires_grad,
    control=Control(
        "tensors that do not require grad",
        control_resize_without_grad,
    ),
    measures=(
        "vi-resize-leaf-error",
        "vi-resize-clone-error",
        "vi-transpose-clone-error",
        "vi-resize-detached-error",
    ),
)


CLAIMS = (
    DETACH_SHARES_STORAGE_OUTSIDE_GRAPH,
    DETACH_SEES_IN_PLACE_UPDATES,
    MYTH_DETACH_METADATA_CHANGE_RAISES,
    DETACH_METADATA_CHANGE_BREAKS_SAVED_BACKWARD,
    RESIZE_REFUSES_TENSORS_THAT_REQUIRE_GRAD,
)
