"""Claims of "Dtypes inferred from Python values" (docs/topics/numerics-facts.md,
``(nm-inference)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.numerics._dtypes import default_dtype, dtype_name
from checker.evidence import Measurement, Observation
from checker.typing import Device

#: Where a sentence speaks of NumPy arrays or of an explicit dtype: other cases.
_OTHER_SOURCES = ("numpy", "np.", "dtype=", "from_numpy", "as_tensor")


def probe_int_list_gives_int64(device: Device) -> Observation:
    return _int_list_rule(with_float=False)


def control_list_with_a_float(device: Device) -> Observation:
    return _int_list_rule(with_float=True)


def _int_list_rule(with_float: bool) -> Observation:
    import torch

    values: list[int | float] = [1, 2, 3.0] if with_float else [1, 2, 3]
    inferred = dtype_name(torch.tensor(values).dtype)
    label = "[1, 2, 3.0]" if with_float else "[1, 2, 3]"
    return Observation(
        holds=inferred == "int64",
        rule=f"holds if torch.tensor({label}) gives int64",
        measurements=(
            Measurement(
                "nm-int-list-with-a-float-dtype" if with_float else "nm-int-list-dtype",
                inferred,
                "dtype",
            ),
        ),
    )


INT_LIST_GIVES_INT64 = Claim(
    id="promotion/int-list-gives-int64",
    statement="torch.tensor of a list of Python ints gives int64, not the default dtype.",
    expect=Expect.HOLDS,
    probe=probe_int_list_gives_int64,
    control=Control(
        "the list [1, 2, 3.0], one of its values a float",
        control_list_with_a_float,
        measures=("nm-int-list-with-a-float-dtype",),
    ),
    devices=("cpu",),
    measures=("nm-int-list-dtype",),
    vocabulary=Vocabulary(
        subjects=(
            "list of Python ints",
            "list of ints",
            "list of integers",
            "Python ints",
            "Python integers",
            "整数のリスト",
            "整数リスト",
            "Python の整数",
            "정수 리스트",
            "정수의 리스트",
            "정수 목록",
            "Python 정수",
        ),
        predicates={
            "en": ("int64", "torch.long", "LongTensor"),
            "ja": ("int64", "torch.long", "LongTensor"),
            "ko": ("int64", "torch.long", "LongTensor"),
        },
        opposites={
            "en": ("float32", "default dtype", "default floating"),
            "ja": ("float32", "デフォルトの dtype", "デフォルトのdtype"),
            "ko": ("float32", "기본 dtype"),
        },
        # a list with a float in it, or a sum, is another case
        unless={
            "en": (*_OTHER_SOURCES, "floats", "a float", "2.5", "3.0", "plus", "added", "add "),
            "ja": (*_OTHER_SOURCES, "浮動小数点", "小数", "足", "加算"),
            "ko": (*_OTHER_SOURCES, "부동소수점", "실수", "더하", "덧셈"),
        },
    ),
)


def probe_mixed_list_gives_float32(device: Device) -> Observation:
    return _mixed_list_rule(from_numpy=False)


def control_mixed_numpy_array(device: Device) -> Observation:
    return _mixed_list_rule(from_numpy=True)


def _mixed_list_rule(from_numpy: bool) -> Observation:
    import numpy as np
    import torch

    values = [1, 2.5]
    made = torch.tensor(np.array(values) if from_numpy else values)
    kind = "numpy" if from_numpy else "list"
    return Observation(
        holds=made.dtype == torch.float32 and [float(v) for v in made.tolist()] == [1.0, 2.5],
        rule="holds if torch.tensor("
        + ("np.array([1, 2.5])" if from_numpy else "[1, 2.5]")
        + ") gives float32 holding [1.0, 2.5]",
        measurements=(Measurement(f"nm-mixed-{kind}-dtype", dtype_name(made.dtype), "dtype"),),
    )


MIXED_LIST_GIVES_FLOAT32 = Claim(
    id="promotion/mixed-list-gives-float32",
    statement="torch.tensor of a list that mixes Python ints and floats gives float32, the "
    "default dtype, not float64.",
    expect=Expect.HOLDS,
    probe=probe_mixed_list_gives_float32,
    control=Control(
        "the same values as a NumPy array",
        control_mixed_numpy_array,
        measures=("nm-mixed-numpy-dtype",),
    ),
    devices=("cpu",),
    measures=("nm-mixed-list-dtype",),
    vocabulary=Vocabulary(
        subjects=(
            "ints and floats",
            "integers and floats",
            "ints with floats",
            "整数と浮動小数点",
            "整数と小数",
            "int と float",
            "정수와 실수",
            "정수와 부동소수점",
            "int와 float",
        ),
        predicates={
            "en": ("float32", "default dtype"),
            "ja": ("float32", "デフォルトの dtype", "デフォルトのdtype"),
            "ko": ("float32", "기본 dtype"),
        },
        opposites={"en": ("float64",), "ja": ("float64",), "ko": ("float64",)},
        unless={
            lang: (*_OTHER_SOURCES, "set_default_dtype", "tensor plus", "+")
            for lang in ("en", "ja", "ko")
        },
    ),
)


def probe_float64_default_for_python_floats(device: Device) -> Observation:
    return _default_rule("float64")


def control_float32_default(device: Device) -> Observation:
    return _default_rule("float32")


def _default_rule(default: str) -> Observation:
    import torch

    with default_dtype(default):
        floats = dtype_name(torch.tensor([1.5]).dtype)
        zeros = dtype_name(torch.zeros(2).dtype)
        ints = dtype_name(torch.tensor([1, 2]).dtype)
    return Observation(
        holds=(floats, zeros, ints) == ("float64", "float64", "int64"),
        rule=f"holds if, with the default dtype {default}, torch.tensor([1.5]) and "
        "torch.zeros(2) give float64 while torch.tensor([1, 2]) gives int64",
        measurements=(
            Measurement(f"nm-python-floats-{default}-default", floats, "dtype"),
            Measurement(f"nm-zeros-{default}-default", zeros, "dtype"),
            Measurement(f"nm-python-ints-{default}-default", ints, "dtype"),
        ),
    )


SET_DEFAULT_DTYPE_FLOAT64 = Claim(
    id="promotion/set-default-dtype-float64",
    statement="After torch.set_default_dtype(torch.float64), tensors made from Python floats "
    "and torch.zeros are float64; tensors made from Python ints stay int64.",
    expect=Expect.HOLDS,
    probe=probe_float64_default_for_python_floats,
    control=Control(
        "the default dtype left at float32",
        control_float32_default,
        measures=(
            "nm-python-floats-float32-default",
            "nm-zeros-float32-default",
            "nm-python-ints-float32-default",
        ),
    ),
    devices=("cpu",),
    measures=(
        "nm-python-floats-float64-default",
        "nm-zeros-float64-default",
        "nm-python-ints-float64-default",
    ),
    vocabulary=Vocabulary(
        subjects=(
            "set_default_dtype(torch.float64)",
            "set_default_dtype(torch.double)",
            "set_default_dtype",
        ),
        predicates={
            "en": ("float64", "torch.double", "double precision"),
            "ja": ("float64", "torch.double", "倍精度"),
            "ko": ("float64", "torch.double", "배정밀도"),
        },
        unless={
            lang: ("complex", "numpy", "np.", "int64", "dtype=", "float16", "bfloat16")
            for lang in ("en", "ja", "ko")
        },
    ),
)


def probe_complex_follows_default(device: Device) -> Observation:
    return _complex_rule(from_numpy=False)


def control_complex_numpy_array(device: Device) -> Observation:
    return _complex_rule(from_numpy=True)


def _complex_rule(from_numpy: bool) -> Observation:
    import numpy as np
    import torch

    found = {}
    for default in ("float32", "float64"):
        with default_dtype(default):
            made = torch.tensor(np.array([1j]) if from_numpy else [1j])
        found[default] = dtype_name(made.dtype)
    kind = "numpy-complex" if from_numpy else "python-complex"
    return Observation(
        holds=found == {"float32": "complex64", "float64": "complex128"},
        rule="holds if torch.tensor("
        + ("np.array([1j])" if from_numpy else "[1j]")
        + ") gives complex64 with the default dtype float32 and complex128 with float64",
        measurements=tuple(
            Measurement(f"nm-{kind}-{default}-default", name, "dtype")
            for default, name in found.items()
        ),
    )


COMPLEX_FOLLOWS_DEFAULT_DTYPE = Claim(
    id="promotion/complex-follows-default-dtype",
    statement="Python complex numbers give complex64 with the default dtype float32, and "
    "complex128 after torch.set_default_dtype(torch.float64).",
    expect=Expect.HOLDS,
    probe=probe_complex_follows_default,
    control=Control(
        "a NumPy complex array in place of the Python numbers",
        control_complex_numpy_array,
        measures=("nm-numpy-complex-float32-default", "nm-numpy-complex-float64-default"),
    ),
    devices=("cpu",),
    measures=("nm-python-complex-float32-default", "nm-python-complex-float64-default"),
    vocabulary=Vocabulary(
        subjects=("Python complex", "complex numbers", "複素数", "복소수"),
        predicates={
            "en": ("complex64", "complex128"),
            "ja": ("complex64", "complex128"),
            "ko": ("complex64", "complex128"),
        },
        unless={
            lang: ("numpy", "np.", "dtype=", "view_as_complex", "complex32")
            for lang in ("en", "ja", "ko")
        },
    ),
)


CLAIMS = (
    INT_LIST_GIVES_INT64,
    MIXED_LIST_GIVES_FLOAT32,
    SET_DEFAULT_DTYPE_FLOAT64,
    COMPLEX_FOLLOWS_DEFAULT_DTYPE,
)
