"""Claims of "Allowing it: ``allow_mutation_on_saved_tensors()``"
(docs/topics/views-and-inplace.md, ``(vi-allow-mutation)=``)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.views._tensors import _error, _values
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_allow_mutation_context_manager(device: Device) -> Observation:
    return _no_switch_rule(device, allow_mutation=True)


def control_set_grad_enabled(device: Device) -> Observation:
    return _no_switch_rule(device, allow_mutation=False)


def _no_switch_rule(device: Device, allow_mutation: bool) -> Observation:
    import torch

    factory: Callable[..., Any] = (
        torch.autograd.graph.allow_mutation_on_saved_tensors
        if allow_mutation
        else torch.set_grad_enabled
    )
    parameters = list(inspect.signature(factory).parameters)
    with_true = _error(lambda: factory(True))
    a: Any = torch.tensor([1.0, 2.0, 3.0], device=device, requires_grad=True)

    def mutate_saved() -> None:
        with factory() if not parameters else factory(True):
            b = a.clone()
            out = (b * b).sum()  # the product saves b for backward
            b.mul_(2.0)
            out.backward()

    backward = _error(mutate_saved)
    original = a.grad is not None and bool(torch.allclose(a.grad, 2 * a.detach()))
    return Observation(
        holds=not parameters
        and with_true.startswith("TypeError")
        and backward == "no error"
        and original,
        rule="holds if "
        + ("allow_mutation_on_saved_tensors" if allow_mutation else "torch.set_grad_enabled")
        + " takes no parameters, calling it with True raises a TypeError, and inside it a "
        "tensor that a product saved can be doubled in place before backward, which then "
        "gives the gradient of the original values (2 * a)",
        measurements=(
            Measurement("vi-allow-mutation-parameters", f"({', '.join(parameters)})", "text"),
            Measurement("vi-allow-mutation-true-error", with_true, "exception"),
            Measurement("vi-allow-mutation-backward", backward, "exception"),
            Measurement(
                "vi-allow-mutation-grad",
                _values(a.grad) if a.grad is not None else "None",
                "text",
            ),
        ),
    )


ALLOW_MUTATION_IS_A_CONTEXT_MANAGER = Claim(
    id="inplace/allow-mutation-is-a-context-manager",
    statement="allow_mutation_on_saved_tensors() is a context manager that takes no "
    "arguments, not a setting to switch to True: inside it, a tensor saved for backward can "
    "be modified in place, and backward uses its original value.",
    expect=Expect.HOLDS,
    probe=probe_allow_mutation_context_manager,
    control=Control(
        "torch.set_grad_enabled(mode), a context manager that takes an argument",
        control_set_grad_enabled,
    ),
    measures=(
        "vi-allow-mutation-parameters",
        "vi-allow-mutation-true-error",
        "vi-allow-mutation-backward",
        "vi-allow-mutation-grad",
    ),
    vocabulary=Vocabulary(
        subjects=("allow_mutation_on_saved_tensors",),
        predicates={
            "en": ("context manager", "takes no argument", "no arguments", "with block"),
            "ja": ("コンテキストマネージャ", "引数を取らな", "引数なし", "with文", "with ブロック"),
            "ko": ("컨텍스트 매니저", "컨텍스트 관리자", "인자를 받지 않", "인자 없이", "with 문"),
        },
        # a switch: the myth's own words
        opposites={
            "en": (
                "set … to True",
                "setting … to True",
                "defaults to False",
                "default is False",
                "False by default",
                "a flag",
            ),
            "ja": (
                "True … にす",
                "True … に設定",
                "True … にし",
                "False … に設定",
                "デフォルトでは … False",
                "デフォルトは … False",
                "既定では … False",
                "フラグ",
            ),
            "ko": (
                "True … 로 설정",
                "True … 로 하",
                "True … 로 바꾸",
                "False … 로 설정",
                "기본값은 … False",
                "기본적으로 … False",
                "플래그",
            ),
        },
        conditions={
            "en": ("if you set it to True", "when set to True", "when it is set to True"),
            "ja": ("True … にすると", "True … に設定すると", "True … にすれば", "True … にしたら"),
            "ko": ("True … 로 설정하면", "True … 로 하면", "True … 로 바꾸면"),
        },
    ),
)


CLAIMS = (ALLOW_MUTATION_IS_A_CONTEXT_MANAGER,)
