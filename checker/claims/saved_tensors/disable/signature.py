"""Claims of "It needs an error message" (docs/topics/saved-tensors.md,
``(st-disable-signature)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.saved_tensors._model import MESSAGE, _error
from checker.claims.saved_tensors.disable._block import _DISABLE, _block
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_disable_requires_message(device: Device) -> Observation:
    return _requires_message_rule(with_message=False)


def control_disable_with_message(device: Device) -> Observation:
    return _requires_message_rule(with_message=True)


def _requires_message_rule(with_message: bool) -> Observation:
    from torch.autograd.graph import disable_saved_tensors_hooks

    error = _error(
        (lambda: disable_saved_tensors_hooks(MESSAGE))
        if with_message
        else disable_saved_tensors_hooks
    )
    return Observation(
        holds=error.startswith("TypeError") and "'error_message'" in error,
        rule="holds if calling disable_saved_tensors_hooks("
        + ("MESSAGE" if with_message else "")
        + ") raises a TypeError that names the missing argument error_message",
        measurements=(Measurement("st-disable-without-message", error, "exception"),),
    )


DISABLE_REQUIRES_ERROR_MESSAGE = Claim(
    id="saved-tensors/disable-requires-error-message",
    statement="disable_saved_tensors_hooks has a required argument, error_message: "
    "calling it without one raises TypeError.",
    expect=Expect.HOLDS,
    probe=probe_disable_requires_message,
    control=Control(
        "the call with a message",
        control_disable_with_message,
    ),
    devices=("cpu",),
    measures=("st-disable-without-message",),
    vocabulary=Vocabulary(
        subjects=_DISABLE,
        predicates={
            "en": ("argument", "error_message"),
            "ja": ("引数", "error_message"),
            "ko": ("인수", "인자", "error_message"),
        },
    ),
)


def probe_disable_context_and_decorator(device: Device) -> Observation:
    return _context_rule(device, real=True)


def control_context_without_block(device: Device) -> Observation:
    return _context_rule(device, real=False)


def _context_rule(device: Device, real: bool) -> Observation:
    import torch
    from torch.autograd.graph import disable_saved_tensors_hooks, saved_tensors_hooks

    def register() -> None:
        with saved_tensors_hooks(lambda t: t, lambda t: t):
            pass

    with _block(MESSAGE, real):
        inside_with = _error(register)

    def body() -> str:
        return _error(register)

    decorated = disable_saved_tensors_hooks("decorated")(body) if real else body
    inside_decorated = decorated()
    after = _error(register)
    x = torch.ones(2, device=device, requires_grad=True)
    with _block(MESSAGE, real):
        y = (x * x).sum()
    return Observation(
        holds=inside_with == f"RuntimeError: {MESSAGE}"
        and inside_decorated == "RuntimeError: decorated"
        and after == "no error"
        and y.grad_fn is not None,
        rule="holds if, used in a with statement and as a decorator, registering hooks "
        "inside raises RuntimeError with the given message, registering after it works, "
        "and operations inside still record a graph",
        measurements=(
            Measurement("st-hooks-in-with-block", inside_with, "exception"),
            Measurement("st-hooks-in-decorated-function", inside_decorated, "exception"),
            Measurement("st-hooks-after-block", after, "text"),
        ),
    )


DISABLE_IS_A_CONTEXT_MANAGER = Claim(
    id="saved-tensors/disable-is-a-context-manager",
    statement="disable_saved_tensors_hooks(message) works as a context manager and as a "
    "decorator, and operations inside it still record a graph.",
    expect=Expect.HOLDS,
    probe=probe_disable_context_and_decorator,
    control=Control(
        "the same code without the block",
        control_context_without_block,
    ),
    devices=("cpu",),
    measures=(
        "st-hooks-in-with-block",
        "st-hooks-in-decorated-function",
        "st-hooks-after-block",
    ),
    vocabulary=Vocabulary(
        subjects=_DISABLE,
        predicates={
            "en": ("context manager", "decorator"),
            "ja": ("コンテキストマネージャ", "デコレータ"),
            "ko": ("컨텍스트 매니저", "데코레이터"),
        },
    ),
)


CLAIMS = (
    DISABLE_REQUIRES_ERROR_MESSAGE,
    DISABLE_IS_A_CONTEXT_MANAGER,
)
