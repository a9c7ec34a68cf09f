"""Claims of "In-place operations and autograd" (docs/topics/views-and-inplace.md,
``(vi-autograd)=``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.views._tensors import _IN_PLACE_OPERATIONS, _error, _values
from checker.evidence import Measurement, Observation
from checker.typing import Device


def _sigmoid_case(device: Device, alias: Callable[[Any], Any]) -> tuple[str, Any, int]:
    """Zero the output of sigmoid through ``alias(out)``, then backward.

    Returns the error (or ``"no error"``), the gradient of ``a`` and the output's version.
    """
    import torch

    a: Any = torch.tensor([0.0, 1.0, 2.0], device=device, requires_grad=True)
    out = a.sigmoid()  # sigmoid saves its output for backward
    alias(out).zero_()
    version = out._version
    error = _error(lambda: out.sum().backward())
    return error, a.grad, version


# Subjects name what a claim is about; a concept (not an API) is named in every language.
_IN_PLACE = ("in-place", "In-place", "inplace", "in_place", "インプレース", "인플레이스", "제자리")


def probe_leaf_inplace(device: Device) -> Observation:
    return _leaf_rule(device, leaf=True)


def control_non_leaf_add_inplace(device: Device) -> Observation:
    return _leaf_rule(device, leaf=False)


def _leaf_rule(device: Device, leaf: bool) -> Observation:
    import torch

    source = torch.ones(2, device=device, requires_grad=True)
    w = source if leaf else source * 1
    error = _error(lambda: w.add_(1.0))
    with torch.no_grad():
        w.add_(1.0)
    allowed = float(w.detach().sum()) == 4.0 and w.requires_grad
    return Observation(
        holds=error.startswith("RuntimeError") and "leaf Variable" in error and allowed,
        rule="holds if add_ on a "
        + ("leaf" if leaf else "non-leaf")
        + " that requires grad raises a RuntimeError naming the leaf variable, while the same "
        "add_ inside torch.no_grad() succeeds",
        measurements=(
            Measurement("vi-leaf-inplace-error", error, "exception"),
            Measurement("vi-leaf-inplace-under-no-grad", allowed, "bool"),
        ),
    )


LEAF_REQUIRING_GRAD_REFUSES_IN_PLACE = Claim(
    id="inplace/leaf-requiring-grad-refuses-in-place",
    statement="An in-place operation on a leaf tensor that requires grad raises an error, "
    "except inside torch.no_grad().",
    expect=Expect.HOLDS,
    probe=probe_leaf_inplace,
    control=Control(
        "a non-leaf result",
        control_non_leaf_add_inplace,
    ),
    measures=("vi-leaf-inplace-error", "vi-leaf-inplace-under-no-grad"),
    vocabulary=Vocabulary(
        subjects=("leaf", "リーフ", "葉テンソル", "葉ノード", "리프"),
        predicates={
            "en": ("raises", "refuses", "error"),
            "ja": ("エラー", "使えません", "できません"),
            "ko": ("오류", "에러", "쓸 수 없", "사용할 수 없"),
        },
        opposites={
            "en": ("can be modified in place", "in-place operations work"),
            "ja": ("インプレース演算を使えます", "インプレース演算が使えます"),
            "ko": ("인플레이스 연산을 쓸 수 있", "인플레이스 연산을 사용할 수 있"),
        },
        # a sentence about a leaf that names no in-place change ("a leaf cannot be reused")
        # states something else
        requires={
            "en": ("in place", "in-place", "inplace", "_(", "overwrit", "modif"),
            "ja": ("インプレース", "in-place", "inplace", "_(", "上書き", "書き換え", "変更"),
            "ko": ("인플레이스", "in-place", "inplace", "_(", "덮어쓰", "덮어써", "수정", "변경"),
        },
    ),
)


def probe_leaf_refused_only_while_recording(device: Device) -> Observation:
    return _in_place_refusals(device, leaf=True)


def control_non_leaf_in_place(device: Device) -> Observation:
    return _in_place_refusals(device, leaf=False)


def _in_place_refusals(device: Device, leaf: bool) -> Observation:
    import torch

    def fresh() -> Any:
        t = torch.ones(3, device=device, requires_grad=True)
        return t if leaf else t * 1

    recording = _error(lambda: fresh().add_(1))
    with torch.no_grad():
        quiet = _error(lambda: fresh().add_(1))
    out = torch.empty(3, device=device)
    out_recording = _error(lambda: torch.add(fresh(), 1, out=out))
    with torch.no_grad():
        out_quiet = _error(lambda: torch.add(fresh(), 1, out=out))
    kind = "leaf" if leaf else "non-leaf"
    return Observation(
        holds=recording != "no error"
        and quiet == "no error"
        and out_recording != "no error"
        and out_quiet == "no error",
        rule=f"holds if, for a {kind} tensor that requires grad and that nothing has saved, "
        "add_ raises while autograd records and works under torch.no_grad(), and "
        "torch.add(..., out=) raises in grad mode and works under torch.no_grad()",
        measurements=(
            Measurement(f"vi-{kind}-unsaved-in-place-error", recording, "exception"),
            Measurement(f"vi-{kind}-in-place-no-grad", quiet, "exception"),
            Measurement(f"vi-{kind}-out-grad-mode-error", out_recording, "exception"),
            Measurement(f"vi-{kind}-out-no-grad", out_quiet, "exception"),
        ),
    )


LEAF_REFUSED_ONLY_WHILE_RECORDING = Claim(
    id="inplace/leaf-refused-only-while-recording",
    statement="A leaf that requires grad refuses in-place operations while autograd records, "
    "even when nothing has saved it, and accepts them under torch.no_grad(); out= refuses "
    "inputs that require grad only in grad mode.",
    expect=Expect.HOLDS,
    probe=probe_leaf_refused_only_while_recording,
    measures=(
        "vi-leaf-unsaved-in-place-error",
        "vi-leaf-in-place-no-grad",
        "vi-leaf-out-grad-mode-error",
        "vi-leaf-out-no-grad",
    ),
    control=Control(
        "a non-leaf tensor, which autograd rebases",
        control_non_leaf_in_place,
        measures=("vi-non-leaf-unsaved-in-place-error",),
    ),
)


def probe_saved_tensor_modified(device: Device) -> Observation:
    return _modified_rule(device, saved=True)


def control_unsaved_output_modified(device: Device) -> Observation:
    return _modified_rule(device, saved=False)


def _modified_rule(device: Device, saved: bool) -> Observation:
    import torch

    a: Any = torch.tensor([0.0, 1.0, 2.0], device=device, requires_grad=True)
    e = a.exp() if saved else a.sin()  # exp saves its output for backward, sin its input
    version_before = e._version
    e.add_(1.0)
    version_after = e._version
    error = _error(lambda: e.sum().backward())
    return Observation(
        holds=version_after == version_before + 1
        and error.startswith(
            "RuntimeError: one of the variables needed for gradient computation has been "
            "modified by an inplace operation"
        ),
        rule="holds if add_ on the output of "
        + ("exp (which exp saved)" if saved else "sin (which sin did not save)")
        + " raises its version counter "
        "by one and backward then raises the version-counter RuntimeError",
        measurements=(
            Measurement("vi-saved-version-before", version_before, "count"),
            Measurement("vi-saved-version-after", version_after, "count"),
            Measurement("vi-saved-modified-error", error, "exception"),
        ),
    )


MODIFYING_SAVED_TENSOR_BREAKS_BACKWARD = Claim(
    id="inplace/modifying-saved-tensor-breaks-backward",
    statement="Modifying in place a tensor that autograd saved for backward increments its "
    "version counter, and backward then raises an error.",
    expect=Expect.HOLDS,
    probe=probe_saved_tensor_modified,
    control=Control(
        "the output of sin, which nobody saved",
        control_unsaved_output_modified,
    ),
    measures=(
        "vi-saved-version-before",
        "vi-saved-version-after",
        "vi-saved-modified-error",
    ),
    vocabulary=Vocabulary(
        subjects=_IN_PLACE,
        predicates={
            "en": ("overwrite", "gradient computation", "saved for backward"),
            "ja": ("上書き", "勾配計算", "保存されたテンソル"),
            "ko": (
                "덮어쓸",
                "덮어쓰",
                "기울기 계산",
                "변화도 계산",
                "사다리 계산",
                "저장된 텐서",
            ),
        },
    ),
)


def probe_inplace_rewrites_graph(device: Device) -> Observation:
    return _rewrites_rule(device, in_place=True)


def control_out_of_place_relu(device: Device) -> Observation:
    return _rewrites_rule(device, in_place=False)


def _rewrites_rule(device: Device, in_place: bool) -> Observation:
    import torch

    x: Any = torch.tensor([-1.0, 1.0], device=device, requires_grad=True)
    y = x * 2
    before = type(y.grad_fn).__name__
    if in_place:
        y.relu_()
    else:
        y = y.relu()
    after = type(y.grad_fn).__name__
    version = y._version
    y.sum().backward()
    grad_ok = x.grad is not None and x.grad.tolist() == [0.0, 2.0]
    a = torch.tensor(1.0, device=device, requires_grad=True)
    b = a.clone()
    if in_place:
        b += 1
    else:
        b = b + 1
    clone_after = type(b.grad_fn).__name__
    return Observation(
        holds=(before, after, clone_after) == ("MulBackward0", "ReluBackward0", "AddBackward0")
        and version == 1
        and grad_ok,
        rule="holds if y = x * 2 has grad_fn MulBackward0, "
        + ("y.relu_()" if in_place else "y = y.relu()")
        + " makes it ReluBackward0 "
        "with _version 1 and backward gives the correct gradient, and b = a.clone(); "
        "b += 1 makes b's grad_fn AddBackward0",
        measurements=(
            Measurement("vi-grad-fn-before-relu-inplace", before, "text"),
            Measurement("vi-grad-fn-after-relu-inplace", after, "text"),
            Measurement("vi-version-after-relu-inplace", version, "count"),
            Measurement("vi-relu-inplace-grad-correct", grad_ok, "bool"),
            Measurement("vi-grad-fn-clone-after-iadd", clone_after, "text"),
        ),
    )


IN_PLACE_REWRITES_GRAD_FN = Claim(
    id="inplace/in-place-rewrites-grad-fn",
    statement="An in-place operation on a tensor in the graph replaces its grad_fn with the "
    "operation's own node and increments its version counter.",
    expect=Expect.HOLDS,
    probe=probe_inplace_rewrites_graph,
    control=Control(
        "the out-of-place forms",
        control_out_of_place_relu,
    ),
    measures=(
        "vi-grad-fn-before-relu-inplace",
        "vi-grad-fn-after-relu-inplace",
        "vi-version-after-relu-inplace",
        "vi-relu-inplace-grad-correct",
        "vi-grad-fn-clone-after-iadd",
    ),
    vocabulary=Vocabulary(
        subjects=_IN_PLACE,
        predicates={
            "en": ("rewrite", "creator"),
            "ja": ("書き換え",),
            "ko": ("다시 쓰", "창설자"),
        },
    ),
)


def probe_out_refuses_autograd(device: Device) -> Observation:
    return _out_autograd_rule(device, requires_grad=True)


def control_out_without_grad(device: Device) -> Observation:
    return _out_autograd_rule(device, requires_grad=False)


def _out_autograd_rule(device: Device, requires_grad: bool) -> Observation:
    import torch

    a = torch.ones(3, device=device, requires_grad=requires_grad)
    b = torch.ones(3, device=device)
    c = torch.empty(3, device=device)
    error = _error(lambda: torch.add(a, b, out=c))
    return Observation(
        holds=error.startswith("RuntimeError") and "out=" in error,
        rule=f"holds if torch.add(a, b, out=c) with a (requires grad: {requires_grad}) raises "
        "a RuntimeError about out= arguments",
        measurements=(Measurement("vi-out-requires-grad-error", error, "exception"),),
    )


OUT_REFUSES_AUTOGRAD = Claim(
    id="inplace/out-refuses-autograd",
    statement="Functions called with out= do not support autograd: an input that requires "
    "grad makes them raise an error.",
    expect=Expect.HOLDS,
    probe=probe_out_refuses_autograd,
    control=Control(
        "inputs that do not require grad",
        control_out_without_grad,
    ),
    measures=("vi-out-requires-grad-error",),
)


def probe_no_error_correct_myth(device: Device) -> Observation:
    return _no_error_rule(device, through_data=True)


def control_zeroed_through_detach(device: Device) -> Observation:
    return _no_error_rule(device, through_data=False)


def _no_error_rule(device: Device, through_data: bool) -> Observation:
    import torch

    error, grad, version = _sigmoid_case(
        device, (lambda out: out.data) if through_data else (lambda out: out.detach())
    )
    a: Any = torch.tensor([0.0, 1.0, 2.0], device=device, requires_grad=True)
    a.sigmoid().sum().backward()
    correct = a.grad
    right = grad is not None and bool(torch.allclose(grad, correct))
    return Observation(
        holds=error != "no error" or right,
        rule="holds if zeroing sigmoid's output in place through "
        + (".data" if through_data else "detach()")
        + " either raises an "
        "error at backward or leaves the gradient equal to the unmodified one",
        measurements=(
            Measurement("vi-data-zero-error", error, "text"),
            Measurement("vi-data-zero-version", version, "count"),
            Measurement("vi-data-zero-grad", _values(grad) if grad is not None else "None", "text"),
            Measurement("vi-sigmoid-correct-grad", _values(correct), "text"),
        ),
    )


MYTH_NO_ERROR_MEANS_CORRECT_GRADIENTS = Claim(
    id="inplace/myth-no-error-means-correct-gradients",
    statement="If code with in-place operations runs backward without an error, its "
    "gradients are correct.",
    expect=Expect.FAILS,
    probe=probe_no_error_correct_myth,
    control=Control(
        "the same zeroing through detach()",
        control_zeroed_through_detach,
    ),
    measures=(
        "vi-data-zero-error",
        "vi-data-zero-version",
        "vi-data-zero-grad",
        "vi-sigmoid-correct-grad",
    ),
    vocabulary=Vocabulary(
        subjects=_IN_PLACE_OPERATIONS,
        predicates={
            "en": ("if you see no error", "if there is no error", "correct", "no error"),
            "ja": ("正しい", "正確", "エラーが出な"),
            "ko": ("정확", "오류를 보고하지 않"),
        },
    ),
)


def probe_detach_inplace_caught(device: Device) -> Observation:
    return _caught_rule(device, through_detach=True)


def control_zeroed_through_data(device: Device) -> Observation:
    return _caught_rule(device, through_detach=False)


def _caught_rule(device: Device, through_detach: bool) -> Observation:
    error, _, version = _sigmoid_case(
        device, (lambda out: out.detach()) if through_detach else (lambda out: out.data)
    )
    return Observation(
        holds=version == 1
        and error.startswith(
            "RuntimeError: one of the variables needed for gradient computation has been "
            "modified by an inplace operation"
        ),
        rule="holds if zeroing sigmoid's output in place through "
        + ("detach()" if through_detach else ".data")
        + " raises the output's "
        "version to 1 and backward raises the version-counter RuntimeError",
        measurements=(
            Measurement("vi-detach-zero-version", version, "count"),
            Measurement("vi-detach-zero-error", error, "exception"),
        ),
    )


DETACH_IN_PLACE_IS_CAUGHT = Claim(
    id="inplace/detach-in-place-is-caught",
    statement="An in-place change made through detach() increments the shared version "
    "counter, so backward reports it.",
    expect=Expect.HOLDS,
    probe=probe_detach_inplace_caught,
    control=Control(
        "the same zeroing through .data",
        control_zeroed_through_data,
    ),
    measures=("vi-detach-zero-version", "vi-detach-zero-error"),
    vocabulary=Vocabulary(
        subjects=("detach",),
        predicates={
            "en": ("detect", "caught", "notice"),
            "ja": ("検出", "検知"),
            "ko": ("감지", "검출", "알아차"),
        },
    ),
)


CLAIMS = (
    LEAF_REQUIRING_GRAD_REFUSES_IN_PLACE,
    LEAF_REFUSED_ONLY_WHILE_RECORDING,
    MODIFYING_SAVED_TENSOR_BREAKS_BACKWARD,
    IN_PLACE_REWRITES_GRAD_FN,
    OUT_REFUSES_AUTOGRAD,
    MYTH_NO_ERROR_MEANS_CORRECT_GRADIENTS,
    DETACH_IN_PLACE_IS_CAUGHT,
)
