"""Claims of "What checkpoint does" (docs/topics/checkpointing.md, ``(ck-basics)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.checkpointing._variants import _CHECKPOINT
from checker.evidence import Measurement, Observation
from checker.measure import caught_warnings
from checker.typing import Device


def probe_only_arguments_tracked(device: Device) -> Observation:
    return _closure_rule(device, input_requires_grad=True)


def control_reentrant_input_without_grad(device: Device) -> Observation:
    return _closure_rule(device, input_requires_grad=False)


def _closure_rule(device: Device, input_requires_grad: bool) -> Observation:
    """The myth "only the tensors passed to checkpoint are tracked": a weight that the
    checkpointed function reaches through its closure, never passed as an argument, gets no
    gradient, or a wrong one, under either implementation."""
    import torch
    from torch.utils.checkpoint import checkpoint

    torch.manual_seed(0)
    weight = torch.randn(16, 16, device=device, requires_grad=True)
    x = torch.randn(8, 16, device=device).requires_grad_(input_requires_grad)

    def block(t: torch.Tensor) -> torch.Tensor:
        return torch.tanh(t @ weight)  # `weight` comes from the enclosing scope

    def checkpointed_grad(reentrant: bool) -> Any:
        """The weight's gradient after backward through ``checkpoint``, or ``None``."""
        weight.grad = None
        out, _ = caught_warnings(lambda: checkpoint(block, x, use_reentrant=reentrant))
        if out.requires_grad:  # the reentrant variant records nothing for a constant input
            out.pow(2).sum().backward()
        return weight.grad

    (expected,) = torch.autograd.grad(block(x).pow(2).sum(), weight)
    correct: dict[str, bool] = {}
    for name, reentrant in (("reentrant", True), ("nonreentrant", False)):
        grad = checkpointed_grad(reentrant)
        correct[name] = grad is not None and bool(torch.allclose(grad, expected))
    prefix = "ckpt-closure" if input_requires_grad else "ckpt-closure-constant-input"
    return Observation(
        holds=not all(correct.values()),
        rule="holds if a weight that the checkpointed function uses from its enclosing scope, "
        "not passed to checkpoint, gets no gradient or one that differs from the gradient "
        "without checkpointing, with use_reentrant=True or with use_reentrant=False, for an "
        + (
            "input that requires a gradient"
            if input_requires_grad
            else "input that does not require a gradient"
        ),
        measurements=(
            Measurement(f"{prefix}-reentrant-grad-correct", correct["reentrant"], "bool"),
            Measurement(f"{prefix}-nonreentrant-grad-correct", correct["nonreentrant"], "bool"),
        ),
    )


MYTH_ONLY_ARGUMENTS_TRACKED = Claim(
    id="checkpointing/myth-only-arguments-tracked",
    statement="Only the tensors passed to checkpoint as arguments are tracked for backward: a "
    "tensor that the function reaches through a closure or a global variable gets no gradient.",
    expect=Expect.FAILS,
    probe=probe_only_arguments_tracked,
    measures=("ckpt-closure-reentrant-grad-correct", "ckpt-closure-nonreentrant-grad-correct"),
    control=Control(
        "an input that does not require a gradient",
        control_reentrant_input_without_grad,
        measures=(
            "ckpt-closure-constant-input-reentrant-grad-correct",
            "ckpt-closure-constant-input-nonreentrant-grad-correct",
        ),
    ),
    vocabulary=Vocabulary(
        subjects=_CHECKPOINT,
        # "only the inputs … tracked / in the graph", or the closure's tensors "not tracked";
        # never "only the inputs" alone: checkpoint does keep only its inputs for backward
        predicates={
            "en": (
                "only the tensors passed … tracked",
                "only tensors passed … tracked",
                "only the input tensors … tracked",
                "only its inputs are tracked",
                "only the inputs are tracked",
                "only the arguments are tracked",
                "only track … passed",
                "only track … inputs",
                "only track … arguments",
                "only … inputs … in the graph",
                "only … arguments … in the graph",
                "closure … not tracked",
                "closure … no gradient",
                "global … not tracked",
            ),
            "ja": (
                "入力テンソルだけ … グラフに",
                "入力テンソルのみ … グラフに",
                "引数 … テンソルだけ … 追跡",
                "引数 … テンソルのみ … 追跡",
                "入力テンソルだけ … 追跡",
                "入力テンソルのみ … 追跡",
                "クロージャ … 追跡されない",
                "クロージャ … 勾配が計算されない",
                "グローバル変数 … 追跡されない",
            ),
            "ko": (
                "입력 텐서만 … 그래프에",
                "입력 텐서만 … 추적",
                "인자로 전달된 텐서만 … 추적",
                "인자로 전달된 텐서만 … 그래프에",
                "클로저 … 추적되지 않",
                "클로저 … 변화도를 받지 못",
                "전역 변수 … 추적되지 않",
            ),
        },
        denies=False,
    ),
)


CLAIMS = (MYTH_ONLY_ARGUMENTS_TRACKED,)
