"""Claims of "Leaves and requires_grad" (docs/topics/autograd-facts.md, ``(ag-leaves)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.autograd._graph import _error
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_integer_requires_grad(device: Device) -> Observation:
    return _dtype_rule("int64")


def control_float_requires_grad(device: Device) -> Observation:
    return _dtype_rule("float32")


def _dtype_rule(dtype: str) -> Observation:
    import torch

    error = _error(lambda: torch.tensor([1, 2], dtype=getattr(torch, dtype), requires_grad=True))
    return Observation(
        holds=error.startswith("RuntimeError"),
        rule=f"holds if torch.tensor([1, 2], dtype=torch.{dtype}, requires_grad=True) raises "
        "RuntimeError",
        measurements=(Measurement(f"ag-requires-grad-{dtype}-error", error, "exception"),),
    )


INTEGER_TENSORS_CANNOT_REQUIRE_GRAD = Claim(
    id="autograd/integer-tensors-cannot-require-grad",
    statement="Only floating-point and complex tensors can require gradients: "
    "requires_grad=True on an integer tensor raises an error.",
    expect=Expect.HOLDS,
    probe=probe_integer_requires_grad,
    control=Control(
        "a float32 tensor",
        control_float_requires_grad,
        measures=("ag-requires-grad-float32-error",),
    ),
    devices=("cpu",),
    measures=("ag-requires-grad-int64-error",),
    vocabulary=Vocabulary(
        subjects=("requires_grad",),
        predicates={
            "en": ("integer … error", "integer … raise", "int64 … error", "integer … cannot"),
            "ja": ("整数 … エラー", "整数 … 例外", "int64 … エラー", "整数 … できない"),
            "ko": ("정수 … 오류", "정수 … 에러", "정수 … 예외", "int64 … 오류", "정수 … 없"),
        },
    ),
)


def probe_new_tensor_requires_no_grad(device: Device) -> Observation:
    return _default_rule(parameter=False)


def control_parameter_requires_grad(device: Device) -> Observation:
    return _default_rule(parameter=True)


def _default_rule(parameter: bool) -> Observation:
    import torch

    made: Any = torch.nn.Parameter(torch.zeros(2)) if parameter else torch.tensor([1.0, 2.0])
    kind = "parameter" if parameter else "tensor"
    return Observation(
        holds=not made.requires_grad,
        rule="holds if "
        + ("torch.nn.Parameter(torch.zeros(2))" if parameter else "torch.tensor([1.0, 2.0])")
        + ", created without a requires_grad argument, does not require grad",
        measurements=(Measurement(f"ag-new-{kind}-requires-grad", made.requires_grad, "bool"),),
    )


TENSORS_DO_NOT_REQUIRE_GRAD_BY_DEFAULT = Claim(
    id="autograd/tensors-do-not-require-grad-by-default",
    statement="A tensor is created with requires_grad=False unless requires_grad=True is "
    "passed; an nn.Parameter requires grad by default.",
    expect=Expect.HOLDS,
    probe=probe_new_tensor_requires_no_grad,
    control=Control(
        "an nn.Parameter",
        control_parameter_requires_grad,
        measures=("ag-new-parameter-requires-grad",),
    ),
    devices=("cpu",),
    measures=("ag-new-tensor-requires-grad",),
    vocabulary=Vocabulary(
        subjects=("requires_grad",),
        predicates={
            "en": ("false … by default", "default … false", "defaults to false"),
            "ja": ("デフォルト … false", "false … デフォルト"),
            "ko": ("기본 … false", "false … 기본"),
        },
        opposites={
            "en": ("true … by default", "default … true", "defaults to true"),
            "ja": ("デフォルト … true", "true … デフォルト"),
            "ko": ("기본 … true", "true … 기본"),
        },
        # parameters and layers' weights do require grad by default
        unless={
            lang: (
                "Parameter",
                "parameter",
                "weight",
                "model",
                "パラメータ",
                "重み",
                "매개변수",
                "파라미터",
                "가중치",
            )
            for lang in ("en", "ja", "ko")
        },
    ),
)


def probe_plain_result_is_leaf(device: Device) -> Observation:
    return _leaf_rule(input_requires_grad=False)


def control_result_of_tensor_requiring_grad(device: Device) -> Observation:
    return _leaf_rule(input_requires_grad=True)


def _leaf_rule(input_requires_grad: bool) -> Observation:
    import torch

    out = torch.ones(2, requires_grad=input_requires_grad) * 2
    kind = "grad" if input_requires_grad else "plain"
    return Observation(
        holds=out.is_leaf and not out.requires_grad,
        rule="holds if torch.ones(2"
        + (", requires_grad=True" if input_requires_grad else "")
        + ") * 2 does not require grad and is a leaf",
        measurements=(Measurement(f"ag-{kind}-result-is-leaf", out.is_leaf, "bool"),),
    )


TENSORS_WITHOUT_GRAD_ARE_LEAVES = Claim(
    id="autograd/tensors-without-grad-are-leaves",
    statement="Every tensor that does not require grad is a leaf, even the result of an operation.",
    expect=Expect.HOLDS,
    probe=probe_plain_result_is_leaf,
    control=Control(
        "the result of an operation on a tensor that requires grad",
        control_result_of_tensor_requiring_grad,
        measures=("ag-grad-result-is-leaf",),
    ),
    devices=("cpu",),
    measures=("ag-plain-result-is-leaf",),
    vocabulary=Vocabulary(
        subjects=("requires_grad=False", "is_leaf"),
        predicates={
            "en": ("leaf", "leaves"),
            "ja": ("リーフ", "葉"),
            "ko": ("리프", "잎"),
        },
        requires={
            "en": ("requires_grad=False", "does not require grad"),
            "ja": ("requires_grad=False",),
            "ko": ("requires_grad=False",),
        },
    ),
)


def probe_converted_leaf(device: Device) -> Observation:
    return _converted_rule(converted=True)


def control_dtype_given_at_creation(device: Device) -> Observation:
    return _converted_rule(converted=False)


def _converted_rule(converted: bool) -> Observation:
    import warnings

    import torch

    x: Any
    if converted:
        x = torch.ones(2, requires_grad=True).to(torch.float64)
    else:
        x = torch.ones(2, dtype=torch.float64, requires_grad=True)
    (x * x).sum().backward()
    with warnings.catch_warnings():  # reading .grad of a non-leaf warns
        warnings.simplefilter("ignore")
        grad = x.grad
    kind = "converted" if converted else "created"
    return Observation(
        holds=not x.is_leaf and grad is None,
        rule="holds if "
        + (
            "torch.ones(2, requires_grad=True).to(torch.float64)"
            if converted
            else "torch.ones(2, dtype=torch.float64, requires_grad=True)"
        )
        + " is not a leaf and backward() leaves its .grad at None",
        measurements=(
            Measurement(f"ag-{kind}-is-leaf", x.is_leaf, "bool"),
            Measurement(f"ag-{kind}-grad", "None" if grad is None else str(grad.tolist()), "text"),
        ),
    )


CONVERTED_LEAF_IS_NOT_A_LEAF = Claim(
    id="autograd/converted-leaf-is-not-a-leaf",
    statement="Converting a tensor that requires grad, as in torch.ones(2, "
    "requires_grad=True).to(torch.float64), gives a tensor that is not a leaf: backward() "
    "leaves its .grad at None.",
    expect=Expect.HOLDS,
    probe=probe_converted_leaf,
    control=Control(
        "the dtype given when the tensor is created",
        control_dtype_given_at_creation,
        measures=("ag-created-is-leaf", "ag-created-grad"),
    ),
    devices=("cpu",),
    measures=("ag-converted-is-leaf", "ag-converted-grad"),
    vocabulary=Vocabulary(
        subjects=(".cuda()", ".to(device)", ".to(torch."),
        predicates={
            "en": ("not a leaf", "non-leaf", "grad … None"),
            "ja": ("リーフではな", "葉ではな", "非リーフ", "grad … None"),
            "ko": ("리프가 아니", "잎이 아니", "비리프", "grad … None"),
        },
        requires={
            "en": ("requires_grad",),
            "ja": ("requires_grad",),
            "ko": ("requires_grad",),
        },
    ),
)


def probe_retain_grad(device: Device) -> Observation:
    return _retain_grad_rule(retain=True)


def control_without_retain_grad(device: Device) -> Observation:
    return _retain_grad_rule(retain=False)


def _retain_grad_rule(retain: bool) -> Observation:
    import warnings

    import torch

    x: Any = torch.ones(2, requires_grad=True)
    y = x * 2
    if retain:
        y.retain_grad()
    y.sum().backward()
    with warnings.catch_warnings():  # reading .grad of a non-leaf warns
        warnings.simplefilter("ignore")
        grad = y.grad
    shown = "None" if grad is None else str([float(v) for v in grad.tolist()])
    kind = "retained" if retain else "default"
    return Observation(
        holds=shown == "[1.0, 1.0]",
        rule="holds if, for y = x * 2"
        + (" after y.retain_grad()" if retain else "")
        + ", y.sum().backward() fills y.grad with [1.0, 1.0]",
        measurements=(Measurement(f"ag-non-leaf-{kind}-grad", shown, "text"),),
    )


RETAIN_GRAD_FILLS_NON_LEAF_GRAD = Claim(
    id="autograd/retain-grad-fills-non-leaf-grad",
    statement="After y.retain_grad(), backward() fills the .grad of the non-leaf tensor y, "
    "which otherwise stays None.",
    expect=Expect.HOLDS,
    probe=probe_retain_grad,
    control=Control(
        "no retain_grad() call", control_without_retain_grad, measures=("ag-non-leaf-default-grad",)
    ),
    devices=("cpu",),
    measures=("ag-non-leaf-retained-grad",),
    vocabulary=Vocabulary(
        subjects=("retain_grad",),
        predicates={
            "en": ("grad", "gradient"),
            "ja": ("grad", "勾配"),
            "ko": ("grad", "기울기", "변화도", "그래디언트"),
        },
        opposites={
            "en": ("no effect", "does nothing"),
            "ja": ("効果がな", "何もしな"),
            "ko": ("효과가 없", "아무것도 하지 않"),
        },
        # retain_grad() does nothing for a leaf: the claim is about tensors that are not leaves
        requires={
            "en": ("non-leaf", "intermediate", "not a leaf"),
            "ja": ("非リーフ", "中間", "リーフでな", "葉でな"),
            "ko": ("비리프", "중간", "리프가 아닌"),
        },
    ),
)


def probe_leaf_used_twice(device: Device) -> Observation:
    return _reuse_rule(leaf=True)


def control_intermediate_used_after_backward(device: Device) -> Observation:
    return _reuse_rule(leaf=False)


def _reuse_rule(leaf: bool) -> Observation:
    import torch

    x: Any = torch.tensor([1.0, 2.0], requires_grad=True)
    source = x if leaf else x.exp()
    (source * source).sum().backward()
    error = _error((3 * source).sum().backward)
    grad = "None" if x.grad is None else str([round(float(v), 3) for v in x.grad.tolist()])
    kind = "leaf" if leaf else "intermediate"
    return Observation(
        holds=error != "no error",
        rule="holds if, after backward() of (t * t).sum(), backward() of a second computation "
        "(3 * t).sum() raises, t being "
        + ("a leaf x that requires grad" if leaf else "x.exp(), the result of an operation"),
        measurements=(
            Measurement(f"ag-reuse-{kind}-second-backward", error, "exception"),
            Measurement(f"ag-reuse-{kind}-grad", grad, "text"),
        ),
    )


MYTH_LEAF_CANNOT_BE_REUSED = Claim(
    id="autograd/myth-leaf-cannot-be-reused",
    statement="A leaf tensor cannot be used in a second computation once a graph was built "
    "from it and backpropagated.",
    expect=Expect.FAILS,
    probe=probe_leaf_used_twice,
    control=Control(
        "an intermediate result, whose graph backward freed",
        control_intermediate_used_after_backward,
        measures=("ag-reuse-intermediate-second-backward", "ag-reuse-intermediate-grad"),
    ),
    devices=("cpu",),
    measures=("ag-reuse-leaf-second-backward", "ag-reuse-leaf-grad"),
    vocabulary=Vocabulary(
        subjects=("leaf", "リーフ", "葉テンソル", "리프"),
        predicates={
            "en": ("cannot … reuse", "cannot be reused", "can't … reuse", "cannot … used again"),
            "ja": (
                "再利用できな",
                "再利用でき … ない",
                "二度と使えな",
                "再び使えな",
                "もう一度使えな",
            ),
            "ko": ("재사용할 수 없", "다시 사용할 수 없", "다시 쓸 수 없"),
        },
        denies=False,
    ),
)


CLAIMS = (
    TENSORS_DO_NOT_REQUIRE_GRAD_BY_DEFAULT,
    INTEGER_TENSORS_CANNOT_REQUIRE_GRAD,
    TENSORS_WITHOUT_GRAD_ARE_LEAVES,
    CONVERTED_LEAF_IS_NOT_A_LEAF,
    RETAIN_GRAD_FILLS_NON_LEAF_GRAD,
    MYTH_LEAF_CANNOT_BE_REUSED,
)
