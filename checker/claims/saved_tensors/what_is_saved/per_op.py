"""Claims of "Each operation saves what its backward formula needs"
(docs/topics/saved-tensors.md, ``(st-per-op)=``)."""

from __future__ import annotations

import functools
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.measure import packed
from checker.typing import Device


def _saves(op: Any, x: Any) -> tuple[Any, Any]:
    """Run ``op(x)`` under pack hooks; the result and the storages packed."""
    out, tensors = packed(lambda: op(x))
    return out, [t.untyped_storage().data_ptr() for t in tensors]


def _output_ops() -> dict[str, Any]:
    import torch

    return {"exp": torch.exp, "tanh": torch.tanh, "sigmoid": torch.sigmoid, "relu": torch.relu}


def _input_ops() -> dict[str, Any]:
    import torch

    return {"sin": torch.sin, "gelu": torch.nn.functional.gelu, "pow": lambda t: t.pow(2)}


def probe_output_savers(device: Device) -> Observation:
    return _output_saver_rule(device, _output_ops())


def control_input_savers_as_output_savers(device: Device) -> Observation:
    return _output_saver_rule(device, _input_ops())


def _output_saver_rule(device: Device, ops: dict[str, Any]) -> Observation:
    import torch

    x = torch.randn(256, 256, device=device, requires_grad=True)
    found = {}
    for name, op in ops.items():
        out, packed = _saves(op, x)
        found[name] = packed == [out.untyped_storage().data_ptr()]
    return Observation(
        holds=all(found.values()),
        rule=f"holds if {', '.join(ops)} each pack exactly one tensor, whose storage is their "
        "output's",
        measurements=tuple(
            Measurement(f"st-{name}-saves-output", ok, "bool") for name, ok in found.items()
        ),
    )


SOME_OPS_SAVE_THEIR_OUTPUT = Claim(
    id="saved-tensors/some-ops-save-their-output",
    statement="exp, tanh, sigmoid and relu save their output for backward, not their input.",
    expect=Expect.HOLDS,
    probe=probe_output_savers,
    control=Control(
        "sin, gelu and pow with a number exponent, which save their input",
        control_input_savers_as_output_savers,
    ),
    measures=(
        "st-exp-saves-output",
        "st-tanh-saves-output",
        "st-sigmoid-saves-output",
        "st-relu-saves-output",
    ),
    vocabulary=Vocabulary(
        subjects=("sigmoid", "tanh", "relu", "exp(", "`exp`"),
        predicates={
            "en": (
                "saves its output",
                "save their output",
                "saves the output",
                "keeps its output",
                "stores its output",
            ),
            "ja": ("出力を保存",),
            "ko": ("출력을 저장",),
        },
        denies=False,
        opposites={
            "en": (
                "saves its input",
                "save their input",
                "saves the input",
                "keeps its input",
                "stores its input",
            ),
            "ja": ("入力を保存",),
            "ko": ("입력을 저장",),
        },
    ),
)


def probe_input_savers(device: Device) -> Observation:
    return _input_saver_rule(device, _input_ops())


def control_output_savers_as_input_savers(device: Device) -> Observation:
    return _input_saver_rule(device, _output_ops())


def _input_saver_rule(device: Device, ops: dict[str, Any]) -> Observation:
    import torch

    x = torch.randn(256, 256, device=device, requires_grad=True)
    found = {}
    for name, op in ops.items():
        _, packed = _saves(op, x)
        found[name] = packed == [x.untyped_storage().data_ptr()]
    return Observation(
        holds=all(found.values()),
        rule=f"holds if {', '.join(ops)} each pack exactly one tensor, whose storage is their "
        "input's",
        measurements=tuple(
            Measurement(f"st-{name}-saves-input", ok, "bool") for name, ok in found.items()
        ),
    )


SOME_OPS_SAVE_THEIR_INPUT = Claim(
    id="saved-tensors/some-ops-save-their-input",
    statement="sin, gelu and pow with a number as exponent save their input for backward, not "
    "their output.",
    expect=Expect.HOLDS,
    probe=probe_input_savers,
    control=Control(
        "exp, tanh, sigmoid and relu, which save their output",
        control_output_savers_as_input_savers,
    ),
    measures=("st-sin-saves-input", "st-gelu-saves-input", "st-pow-saves-input"),
)


def probe_pow_tensor_exponent_saves_result(device: Device) -> Observation:
    return _saves_result(device, tensor_exponent=True)


def control_pow_scalar_exponent(device: Device) -> Observation:
    return _saves_result(device, tensor_exponent=False)


def _saves_result(device: Device, tensor_exponent: bool) -> Observation:
    import torch

    x = torch.rand(3, device=device, requires_grad=True)
    exponents: list[Any] = (
        [
            torch.rand(3, device=device, requires_grad=True),
            torch.rand(3, device=device),
            torch.tensor(2.0, device=device),
        ]
        if tensor_exponent
        else [2.0, 0.5]
    )
    found = []
    for exponent in exponents:
        y, packs = packed(functools.partial(torch.pow, x, exponent))
        ptrs = [t.untyped_storage().data_ptr() for t in packs]
        found.append(
            y.untyped_storage().data_ptr() in ptrs and x.untyped_storage().data_ptr() in ptrs
        )
    y = x ** exponents[0]
    node = y.grad_fn
    saved = sorted(
        name[len("_saved_") :]
        for name in dir(node)
        if name.startswith("_saved_") and isinstance(getattr(node, name), torch.Tensor)
    )
    is_output = all(found)
    kind = "tensor" if tensor_exponent else "scalar"
    return Observation(
        holds=is_output,
        rule="holds if x ** exponent packs its result (the output itself) as well as x, for "
        + (
            "each of a tensor exponent that requires grad, one that does not, and a 0-dim one"
            if tensor_exponent
            else "each of the number exponents 2 and 0.5"
        ),
        measurements=(
            Measurement(f"st-pow-{kind}-node", type(node).__name__, "text"),
            Measurement(f"st-pow-{kind}-saved", ", ".join(saved), "text"),
            Measurement(f"st-pow-{kind}-saves-result", is_output, "bool"),
        ),
    )


POW_TENSOR_EXPONENT_SAVES_RESULT = Claim(
    id="saved-tensors/pow-tensor-exponent-saves-result",
    statement="x ** y with a tensor exponent y saves its result for backward, as well as "
    "its inputs.",
    expect=Expect.HOLDS,
    probe=probe_pow_tensor_exponent_saves_result,
    measures=(
        "st-pow-tensor-node",
        "st-pow-tensor-saved",
        "st-pow-tensor-saves-result",
    ),
    control=Control(
        "a scalar exponent, which saves no result",
        control_pow_scalar_exponent,
        measures=("st-pow-scalar-saved",),
    ),
)


def probe_saves_what_backward_needs(device: Device) -> Observation:
    return _needs_rule(device, c_requires_grad=False)


def control_constant_requires_grad(device: Device) -> Observation:
    return _needs_rule(device, c_requires_grad=True)


def _needs_rule(device: Device, c_requires_grad: bool) -> Observation:
    import torch

    x = torch.randn(128, 128, device=device, requires_grad=True)
    w = torch.randn(128, 128, device=device, requires_grad=True)
    c = torch.randn(128, 128, device=device, requires_grad=c_requires_grad)
    ptr = {id(t): t.untyped_storage().data_ptr() for t in (x, w, c)}
    _, add = _saves(lambda t: t + w, x)
    _, mul_both = _saves(lambda t: t * w, x)
    _, mul_one = _saves(lambda t: t * c, x)
    _, mm_both = _saves(lambda t: t.mm(w), x)
    _, mm_one = _saves(lambda t: t.mm(c), x)
    holds = (
        add == []
        and sorted(mul_both) == sorted([ptr[id(x)], ptr[id(w)]])
        and mul_one == [ptr[id(c)]]
        and sorted(mm_both) == sorted([ptr[id(x)], ptr[id(w)]])
        and mm_one == [ptr[id(c)]]
    )
    return Observation(
        holds=holds,
        rule="holds if x + w packs nothing, x * w and x.mm(w) pack x and w, and x * c and "
        f"x.mm(c) (c requires grad: {c_requires_grad}) pack only c",
        measurements=(
            Measurement("st-add-packs", len(add), "count"),
            Measurement("st-mul-packs-both-require-grad", len(mul_both), "count"),
            Measurement("st-mul-packs-one-requires-grad", len(mul_one), "count"),
            Measurement("st-mm-packs-both-require-grad", len(mm_both), "count"),
            Measurement("st-mm-packs-one-requires-grad", len(mm_one), "count"),
        ),
    )


SAVES_ONLY_WHAT_BACKWARD_NEEDS = Claim(
    id="saved-tensors/saves-only-what-backward-needs",
    statement="An operation saves only what its backward formula needs: an addition saves no "
    "tensor, and a multiplication or a matrix product saves the other operand of each input "
    "that requires grad.",
    expect=Expect.HOLDS,
    probe=probe_saves_what_backward_needs,
    control=Control(
        "c requiring grad too",
        control_constant_requires_grad,
    ),
    measures=(
        "st-add-packs",
        "st-mul-packs-both-require-grad",
        "st-mul-packs-one-requires-grad",
        "st-mm-packs-both-require-grad",
        "st-mm-packs-one-requires-grad",
    ),
)


CLAIMS = (
    SOME_OPS_SAVE_THEIR_OUTPUT,
    SOME_OPS_SAVE_THEIR_INPUT,
    POW_TENSOR_EXPONENT_SAVES_RESULT,
    SAVES_ONLY_WHAT_BACKWARD_NEEDS,
)
