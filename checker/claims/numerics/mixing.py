"""Claims of "Mixing dtypes" (docs/topics/numerics-facts.md, ``(nm-mixing)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.numerics._words import BFLOAT16, _error
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_matmul_mixed_dtypes(device: Device) -> Observation:
    return _matmul_rule(under_autocast=False)


def control_matmul_under_autocast(device: Device) -> Observation:
    return _matmul_rule(under_autocast=True)


def _matmul_rule(under_autocast: bool) -> Observation:
    import contextlib

    import torch

    a = torch.ones(2, 2)
    half, brain = a.to(torch.float16), a.to(torch.bfloat16)
    region = (
        torch.autocast("cpu", dtype=torch.bfloat16) if under_autocast else contextlib.nullcontext()
    )
    with region:
        with_half, with_brain = _error(lambda: a @ half), _error(lambda: a @ brain)
        added = str((a + half).dtype).removeprefix("torch.")
    prefix = "nm-autocast-" if under_autocast else "nm-"
    return Observation(
        holds=with_half.startswith("RuntimeError")
        and with_brain.startswith("RuntimeError")
        and added == "float32",
        rule="holds if a float32 @ float16 and a float32 @ bfloat16 matrix product raise "
        "RuntimeError"
        + (" inside torch.autocast('cpu', dtype=torch.bfloat16)" if under_autocast else "")
        + ", while float32 + float16 gives float32",
        measurements=(
            Measurement(f"{prefix}matmul-float16-error", with_half, "exception"),
            Measurement(f"{prefix}matmul-bfloat16-error", with_brain, "exception"),
            Measurement(f"{prefix}add-float16-dtype", added, "dtype"),
        ),
    )


MATMUL_REFUSES_MIXED_DTYPES = Claim(
    id="promotion/matmul-refuses-mixed-dtypes",
    statement="Outside autocast, a matrix product of a float32 tensor and a float16 or "
    "bfloat16 tensor raises an error, although adding the same two tensors gives float32.",
    expect=Expect.HOLDS,
    probe=probe_matmul_mixed_dtypes,
    control=Control(
        "the same products inside CPU autocast",
        control_matmul_under_autocast,
        measures=(
            "nm-autocast-matmul-float16-error",
            "nm-autocast-matmul-bfloat16-error",
            "nm-autocast-add-float16-dtype",
        ),
    ),
    devices=("cpu",),
    measures=("nm-matmul-float16-error", "nm-matmul-bfloat16-error", "nm-add-float16-dtype"),
    vocabulary=Vocabulary(
        subjects=("matmul", "torch.mm", ".mm(", "nn.Linear", "F.linear", "mat1 and mat2"),
        predicates={
            "en": (
                "same dtype",
                "dtype mismatch",
                "mismatched dtype",
                "expected scalar type",
                "expected both",
            ),
            "ja": (
                "同じdtype",
                "dtypeが一致",
                "dtypeを揃え",
                "型が一致",
                "型を揃え",
                "データ型を揃え",
            ),
            "ko": (
                "같은 dtype",
                "dtype이 일치",
                "dtype을 맞",
                "타입이 일치",
                "타입을 맞",
                "자료형을 맞",
            ),
        },
        unless={lang: ("autocast",) for lang in ("en", "ja", "ko")},
    ),
)


def probe_zero_dim_promotion(device: Device) -> Observation:
    return _zero_dim_rule(zero_dim=True)


def control_one_dim_promotion(device: Device) -> Observation:
    return _zero_dim_rule(zero_dim=False)


def _zero_dim_rule(zero_dim: bool) -> Observation:
    import torch

    def other(value: float, dtype: torch.dtype) -> torch.Tensor:
        return torch.tensor(value if zero_dim else [value], dtype=dtype)

    floats = (torch.ones(3, dtype=torch.float16) + other(1.0, torch.float64)).dtype
    ints = (torch.ones(3, dtype=torch.int32) + other(1, torch.int64)).dtype
    kind = "zero-dim" if zero_dim else "one-dim"
    return Observation(
        holds=floats == torch.float16 and ints == torch.int32,
        rule="holds if a float16 tensor plus a "
        + ("zero-dimensional" if zero_dim else "one-element, one-dimensional")
        + " float64 tensor stays float16, and an int32 tensor plus such an int64 tensor stays "
        "int32",
        measurements=(
            Measurement(f"nm-{kind}-float-result", str(floats).removeprefix("torch."), "dtype"),
            Measurement(f"nm-{kind}-int-result", str(ints).removeprefix("torch."), "dtype"),
        ),
    )


ZERO_DIM_TENSORS_DO_NOT_PROMOTE = Claim(
    id="promotion/zero-dim-tensors-do-not-promote",
    statement="A zero-dimensional tensor does not promote a tensor with dimensions of the same "
    "kind: a float16 tensor plus a zero-dimensional float64 tensor stays float16.",
    expect=Expect.HOLDS,
    probe=probe_zero_dim_promotion,
    control=Control(
        "a one-element, one-dimensional tensor in place of the zero-dimensional one",
        control_one_dim_promotion,
        measures=("nm-one-dim-float-result", "nm-one-dim-int-result"),
    ),
    devices=("cpu",),
    measures=("nm-zero-dim-float-result", "nm-zero-dim-int-result"),
    vocabulary=Vocabulary(
        subjects=(
            "zero-dimensional",
            "0-dim",
            "0-d ",
            "0d tensor",
            "zero-dim",
            "0次元",
            "0 次元",
            "ゼロ次元",
            "0차원",
            "0 차원",
        ),
        predicates={
            "en": ("promot", "result dtype", "result type", "upcast"),
            "ja": ("昇格", "結果のdtype", "結果の型", "プロモーション"),
            "ko": ("승격", "결과 dtype", "결과 타입", "프로모션"),
        },
        # a sentence that says something follows the rules of type promotion speaks of the
        # rules as a whole (of 0-dim tensors among themselves too), not of this case
        unless={
            "en": ("follows type promotion", "follow type promotion", "promotion rules"),
            "ja": ("昇格の規則に従", "昇格規則に従", "昇格のルールに従"),
            "ko": ("승격 규칙을 따", "승격 규칙에 따"),
        },
    ),
)


def probe_integer_true_division(device: Device) -> Observation:
    return _division_rule(operator="/")


def control_integer_floor_division(device: Device) -> Observation:
    return _division_rule(operator="//")


def _division_rule(operator: str) -> Observation:
    import torch

    seven = torch.tensor([7, -7])
    result = seven / 2 if operator == "/" else seven // 2
    values = [float(v) for v in result.tolist()]
    kind = "true" if operator == "/" else "floor"
    return Observation(
        holds=result.is_floating_point() and values == [3.5, -3.5],
        rule=f"holds if torch.tensor([7, -7]) {operator} 2 is a floating tensor holding "
        "[3.5, -3.5]",
        measurements=(
            Measurement(f"nm-{kind}-division-values", str(values), "text"),
            Measurement(
                f"nm-{kind}-division-dtype", str(result.dtype).removeprefix("torch."), "dtype"
            ),
        ),
    )


INTEGER_DIVISION_RETURNS_FLOAT = Claim(
    id="promotion/integer-division-returns-float",
    statement="Dividing integer tensors with / gives a floating tensor (7 / 2 is 3.5); only // "
    "keeps integers, rounding down.",
    expect=Expect.HOLDS,
    probe=probe_integer_true_division,
    control=Control(
        "// in place of /",
        control_integer_floor_division,
        measures=("nm-floor-division-values", "nm-floor-division-dtype"),
    ),
    devices=("cpu",),
    measures=("nm-true-division-values", "nm-true-division-dtype"),
    vocabulary=Vocabulary(
        subjects=(
            "integer division",
            "Integer division",
            "integer tensors",
            "true_divide",
            "整数の除算",
            "整数同士の割り算",
            "整数テンソル",
            "정수 나눗셈",
            "정수 텐서",
        ),
        predicates={
            "en": ("float", "3.5", "true division"),
            "ja": ("浮動小数点", "float", "3.5"),
            "ko": ("부동소수점", "실수", "float", "3.5"),
        },
        opposites={
            "en": ("deprecated", "no longer supported"),
            "ja": ("非推奨", "サポートされなくな"),
            "ko": ("더 이상 지원", "사용 중단", "deprecated"),
        },
        unless={lang: ("floor_divide", "//", "rounding_mode") for lang in ("en", "ja", "ko")},
    ),
)


def probe_numpy_float64(device: Device) -> Observation:
    return _numpy_float_rule(array_dtype="float64")


def control_numpy_float32(device: Device) -> Observation:
    return _numpy_float_rule(array_dtype="float32")


def _numpy_float_rule(array_dtype: str) -> Observation:
    import numpy as np
    import torch

    array = np.array([1.5, 2.5]) if array_dtype == "float64" else np.array([1.5, 2.5], "f4")
    shared = str(torch.from_numpy(array).dtype).removeprefix("torch.")
    copied = str(torch.tensor(array).dtype).removeprefix("torch.")
    listed = str(torch.tensor([1.5, 2.5]).dtype).removeprefix("torch.")
    return Observation(
        holds=shared == copied == "float64" and listed == "float32",
        rule=f"holds if torch.from_numpy and torch.tensor of a NumPy {array_dtype} array give "
        "float64 while torch.tensor of the Python list [1.5, 2.5] gives float32",
        measurements=(
            Measurement(f"nm-from-numpy-{array_dtype}", shared, "dtype"),
            Measurement(f"nm-tensor-of-numpy-{array_dtype}", copied, "dtype"),
            Measurement(f"nm-tensor-of-list-with-{array_dtype}", listed, "dtype"),
        ),
    )


NUMPY_FLOAT64_STAYS_FLOAT64 = Claim(
    id="promotion/numpy-float64-stays-float64",
    statement="A NumPy array of floats is float64 by default, and torch.from_numpy and "
    "torch.tensor keep float64, while torch.tensor of the same Python list gives float32.",
    expect=Expect.HOLDS,
    probe=probe_numpy_float64,
    control=Control(
        "a float32 NumPy array",
        control_numpy_float32,
        measures=(
            "nm-from-numpy-float32",
            "nm-tensor-of-numpy-float32",
            "nm-tensor-of-list-with-float32",
        ),
    ),
    devices=("cpu",),
    measures=(
        "nm-from-numpy-float64",
        "nm-tensor-of-numpy-float64",
        "nm-tensor-of-list-with-float64",
    ),
    vocabulary=Vocabulary(
        subjects=("from_numpy",),
        predicates={lang: ("float64", "double") for lang in ("en", "ja", "ko")},
        unless={
            "en": ("to float32", "into float32", "as float32", "astype"),
            "ja": ("float32に", "float32へ", "astype"),
            "ko": ("float32로", "astype"),
        },
    ),
)


def probe_numpy_refuses_bfloat16(device: Device) -> Observation:
    return _numpy_dtype_rule("bfloat16")


def control_numpy_of_float16(device: Device) -> Observation:
    return _numpy_dtype_rule("float16")


def _numpy_dtype_rule(name: str) -> Observation:
    import torch

    t = torch.ones(2, dtype=getattr(torch, name))
    direct = _error(t.numpy)
    converted = str(t.float().numpy().dtype)
    return Observation(
        holds=direct.startswith("TypeError") and converted == "float32",
        rule=f"holds if numpy() of a {name} tensor raises TypeError while .float().numpy() "
        "gives a float32 array",
        measurements=(
            Measurement(f"nm-numpy-of-{name}-error", direct, "exception"),
            Measurement(f"nm-numpy-of-{name}-float", converted, "dtype"),
        ),
    )


NUMPY_REFUSES_BFLOAT16 = Claim(
    id="promotion/numpy-refuses-bfloat16",
    statement="Tensor.numpy() raises an error for a bfloat16 tensor, since NumPy has no "
    "bfloat16; .float().numpy() converts it.",
    expect=Expect.HOLDS,
    probe=probe_numpy_refuses_bfloat16,
    control=Control(
        "a float16 tensor",
        control_numpy_of_float16,
        measures=("nm-numpy-of-float16-error", "nm-numpy-of-float16-float"),
    ),
    devices=("cpu",),
    measures=("nm-numpy-of-bfloat16-error", "nm-numpy-of-bfloat16-float"),
    vocabulary=Vocabulary(
        subjects=BFLOAT16,
        predicates={
            "en": (
                "numpy … not support",
                "numpy … error",
                "numpy … unsupported",
                "can't convert … numpy",
                "cannot convert … numpy",
            ),
            "ja": (
                "numpy … 非対応",
                "numpy … エラー",
                "numpy … サポートされていな",
                "numpy … 対応していな",
            ),
            "ko": ("numpy … 지원하지 않", "numpy … 지원되지 않", "numpy … 오류", "numpy … 에러"),
        },
    ),
)


CLAIMS = (
    MATMUL_REFUSES_MIXED_DTYPES,
    ZERO_DIM_TENSORS_DO_NOT_PROMOTE,
    INTEGER_DIVISION_RETURNS_FLOAT,
    NUMPY_FLOAT64_STAYS_FLOAT64,
    NUMPY_REFUSES_BFLOAT16,
)
