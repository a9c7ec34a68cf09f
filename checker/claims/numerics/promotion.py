"""Claims of "Promotion between dtypes" (docs/topics/numerics-facts.md, ``(nm-promotion)=``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.numerics._dtypes import default_dtype, dtype_name
from checker.claims.numerics._words import _error, _g
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_wider_integer_wins(device: Device) -> Observation:
    return _integer_rule(zero_dim=False)


def control_zero_dim_integer(device: Device) -> Observation:
    return _integer_rule(zero_dim=True)


def _integer_rule(zero_dim: bool) -> Observation:
    import torch

    def other(dtype: torch.dtype) -> torch.Tensor:
        return torch.tensor(1, dtype=dtype) if zero_dim else torch.ones(3, dtype=dtype)

    wide = (torch.ones(3, dtype=torch.int32) + other(torch.int64)).dtype
    mixed = (torch.ones(3, dtype=torch.uint8) + other(torch.int8)).dtype
    kind = "zero-dim" if zero_dim else "tensors"
    return Observation(
        holds=wide == torch.int64 and mixed == torch.int16,
        rule="holds if an int32 tensor plus an int64 "
        + ("zero-dimensional tensor" if zero_dim else "tensor")
        + " gives int64, and a uint8 tensor plus such an int8 tensor gives int16",
        measurements=(
            Measurement(f"nm-int32-int64-{kind}", dtype_name(wide), "dtype"),
            Measurement(f"nm-uint8-int8-{kind}", dtype_name(mixed), "dtype"),
        ),
    )


WIDER_INTEGER_WINS = Claim(
    id="promotion/wider-integer-wins",
    statement="An int32 tensor plus an int64 tensor gives int64: between integer tensors the "
    "wider dtype wins, and uint8 with int8 gives int16.",
    expect=Expect.HOLDS,
    probe=probe_wider_integer_wins,
    control=Control(
        "a zero-dimensional tensor as the second operand",
        control_zero_dim_integer,
        measures=("nm-int32-int64-zero-dim", "nm-uint8-int8-zero-dim"),
    ),
    devices=("cpu",),
    measures=("nm-int32-int64-tensors", "nm-uint8-int8-tensors"),
    vocabulary=Vocabulary(
        subjects=("int32", "torch.int", "IntTensor"),
        predicates={
            "en": ("int64", "torch.long", "LongTensor", "wider dtype"),
            "ja": ("int64", "torch.long", "LongTensor", "幅の広い dtype", "幅の広いdtype"),
            "ko": ("int64", "torch.long", "LongTensor", "더 넓은 dtype"),
        },
        # a zero-dimensional or scalar operand does not promote (promotion/zero-dim-...)
        unless={
            "en": ("zero-dim", "0-dim", "scalar", "Python int", "cast", "convert"),
            "ja": ("0次元", "0 次元", "スカラー", "変換", "キャスト", "Python"),
            "ko": ("0차원", "0 차원", "스칼라", "변환", "캐스트", "Python"),
        },
    ),
)


def probe_bool_takes_other_dtype(device: Device) -> Observation:
    return _bool_rule(other_is_bool=False)


def control_bool_with_bool(device: Device) -> Observation:
    return _bool_rule(other_is_bool=True)


def _bool_rule(other_is_bool: bool) -> Observation:
    import torch

    flags = torch.tensor([True, False, True])
    results = {}
    for name in ("int64", "float16"):
        other = flags if other_is_bool else torch.ones(3, dtype=getattr(torch, name))
        results[name] = dtype_name((flags + other).dtype)
    kind = "bool" if other_is_bool else "other"
    first, second = (
        ("a bool tensor",) * 2 if other_is_bool else ("an int64 tensor", "a float16 tensor")
    )
    return Observation(
        holds=results == {"int64": "int64", "float16": "float16"},
        rule=f"holds if a bool tensor plus a {first} tensor gives int64 and a bool tensor plus a "
        f"{second} tensor gives float16",
        measurements=tuple(
            Measurement(f"nm-bool-plus-{kind}-{name}", dtype, "dtype")
            for name, dtype in results.items()
        ),
    )


BOOL_TAKES_OTHER_DTYPE = Claim(
    id="promotion/bool-takes-the-other-dtype",
    statement="A bool tensor plus an int64 tensor gives int64, and plus a float16 tensor gives "
    "float16: bool takes the dtype of the other operand.",
    expect=Expect.HOLDS,
    probe=probe_bool_takes_other_dtype,
    control=Control(
        "a bool tensor as the other operand",
        control_bool_with_bool,
        measures=("nm-bool-plus-bool-int64", "nm-bool-plus-bool-float16"),
    ),
    devices=("cpu",),
    measures=("nm-bool-plus-other-int64", "nm-bool-plus-other-float16"),
    vocabulary=Vocabulary(
        subjects=(
            "bool tensor",
            "torch.bool",
            "BoolTensor",
            "bool 텐서",
            "bool テンソル",
            "boolテンソル",
            "bool型",
        ),
        predicates={
            "en": ("int64", "promot"),
            "ja": ("int64", "昇格"),
            "ko": ("int64", "승격"),
        },
        unless={lang: ("logical", "sum(", ".sum", "mask", "where") for lang in ("en", "ja", "ko")},
    ),
)


def probe_python_float_default_dtype(device: Device) -> Observation:
    return _python_float_rule("float32")


def control_python_float_float64_default(device: Device) -> Observation:
    return _python_float_rule("float64")


def _python_float_rule(default: str) -> Observation:
    import torch

    with default_dtype(default):
        ints = dtype_name((torch.tensor([1, 2]) + 5.5).dtype)
        halves = dtype_name((torch.ones(2, dtype=torch.float16) + 5.5).dtype)
    return Observation(
        holds=ints == "float32" and halves == "float16",
        rule=f"holds if, with the default dtype {default}, an int64 tensor plus the Python float "
        "5.5 gives float32 and a float16 tensor plus 5.5 stays float16",
        measurements=(
            Measurement(f"nm-int-plus-float-{default}-default", ints, "dtype"),
            Measurement(f"nm-half-plus-float-{default}-default", halves, "dtype"),
        ),
    )


PYTHON_FLOAT_GIVES_DEFAULT_DTYPE = Claim(
    id="promotion/python-float-gives-default-dtype",
    statement="An integer tensor plus a Python float gives the default dtype, float32, not "
    "float64; a Python float leaves a float16 tensor float16.",
    expect=Expect.HOLDS,
    probe=probe_python_float_default_dtype,
    control=Control(
        "torch.set_default_dtype(torch.float64)",
        control_python_float_float64_default,
        measures=("nm-int-plus-float-float64-default", "nm-half-plus-float-float64-default"),
    ),
    devices=("cpu",),
    measures=("nm-int-plus-float-float32-default", "nm-half-plus-float-float32-default"),
    vocabulary=Vocabulary(
        subjects=(
            "Python float",
            "Python scalar",
            "Python の float",
            "Python の浮動小数点",
            "Python float",
            "파이썬 float",
            "Python의 float",
            "Python 스칼라",
        ),
        predicates={
            "en": ("default dtype", "float32", "float64"),
            "ja": ("デフォルトのdtype", "デフォルトの dtype", "float32", "float64"),
            "ko": ("기본 dtype", "float32", "float64"),
        },
        unless={
            lang: ("set_default_dtype", "numpy", "NumPy", "np.") for lang in ("en", "ja", "ko")
        },
    ),
)


def probe_floor_division_truncates(device: Device) -> Observation:
    return _truncation_rule(lambda a: a // 2, "a // 2")


def control_division_with_trunc_mode(device: Device) -> Observation:
    import torch

    return _truncation_rule(
        lambda a: torch.div(a, 2, rounding_mode="trunc"), "torch.div(a, 2, rounding_mode='trunc')"
    )


def _truncation_rule(divide: Callable[[Any], Any], label: str) -> Observation:
    import torch

    values = [int(v) for v in divide(torch.tensor([7, -7])).tolist()]
    floats = [float(v) for v in divide(torch.tensor([7.5, -7.5])).tolist()]
    key = "floor" if label == "a // 2" else "trunc"
    return Observation(
        holds=values == [3, -3] and floats == [3.0, -3.0],
        rule="holds if, for a = [7, -7] and a = [7.5, -7.5], "
        f"{label} gives [3, -3] and [3.0, -3.0], rounding toward zero",
        measurements=(
            Measurement(f"nm-{key}-of-7", str(values), "text"),
            Measurement(f"nm-{key}-of-7-5", str(floats), "text"),
        ),
    )


MYTH_FLOOR_DIVISION_TRUNCATES = Claim(
    id="promotion/myth-floor-division-truncates",
    statement="On tensors, // rounds toward zero: torch.tensor([-7]) // 2 gives -3.",
    expect=Expect.FAILS,
    probe=probe_floor_division_truncates,
    control=Control(
        "torch.div(a, 2, rounding_mode='trunc') in place of a // 2",
        control_division_with_trunc_mode,
        measures=("nm-trunc-of-7", "nm-trunc-of-7-5"),
    ),
    devices=("cpu",),
    measures=("nm-floor-of-7", "nm-floor-of-7-5"),
    vocabulary=Vocabulary(
        subjects=(
            "//",
            "floor_divide",
            "floordiv",
            "floor division",
            "Floor division",
            "切り捨て除算",
            "내림 나눗셈",
        ),
        predicates={
            "en": ("toward zero", "towards zero", "truncation division"),
            "ja": ("0 方向", "0方向", "ゼロ方向"),
            "ko": ("0 방향", "0방향", "0 쪽으로", "0쪽으로"),
        },
        opposites={
            "en": ("round down", "rounds down", "toward negative infinity", "floor"),
            "ja": ("負の無限大", "床関数", "小さい方"),
            "ko": ("음의 무한대", "내림"),
        },
        unless={
            lang: ("rounding_mode", "trunc(", "1.13", "1.12", "1.1") for lang in ("en", "ja", "ko")
        },
    ),
)


def probe_in_place_keeps_dtype(device: Device) -> Observation:
    return _in_place_rule("int64")


def control_in_place_on_float(device: Device) -> Observation:
    return _in_place_rule("float32")


def _in_place_rule(name: str) -> Observation:
    import torch

    def fresh() -> torch.Tensor:
        return torch.tensor([1, 2], dtype=getattr(torch, name))

    def add_(t: torch.Tensor) -> None:
        t.add_(0.5)

    def iadd(t: torch.Tensor) -> None:
        t += 0.5

    def clamp_(t: torch.Tensor) -> None:
        t.clamp_(0, 2.5)

    changes: dict[str, Callable[[torch.Tensor], None]] = {
        "add": add_,
        "iadd": iadd,
        "clamp": clamp_,
    }
    errors = {label: _error(partial(change, fresh())) for label, change in changes.items()}
    out_of_place = dtype_name((fresh() + 0.5).dtype)
    return Observation(
        holds=all(e.startswith("RuntimeError") for e in errors.values())
        and out_of_place == "float32",
        rule=f"holds if add_(0.5), += 0.5 and clamp_(0, 2.5) on a {name} tensor raise "
        "RuntimeError while the tensor plus 0.5 gives float32",
        measurements=(
            *(
                Measurement(f"nm-{name}-{label}-in-place", error, "exception")
                for label, error in errors.items()
            ),
            Measurement(f"nm-{name}-plus-half", out_of_place, "dtype"),
        ),
    )


IN_PLACE_KEEPS_DTYPE = Claim(
    id="promotion/in-place-keeps-dtype",
    statement="An in-place operation cannot change its tensor's dtype: on an int64 tensor, "
    "add_(0.5), += 0.5 and clamp_(0, 2.5) raise an error, while the tensor plus 0.5 gives "
    "float32.",
    expect=Expect.HOLDS,
    probe=probe_in_place_keeps_dtype,
    control=Control(
        "a float32 tensor",
        control_in_place_on_float,
        measures=(
            "nm-float32-add-in-place",
            "nm-float32-iadd-in-place",
            "nm-float32-clamp-in-place",
            "nm-float32-plus-half",
        ),
    ),
    devices=("cpu",),
    measures=(
        "nm-int64-add-in-place",
        "nm-int64-iadd-in-place",
        "nm-int64-clamp-in-place",
        "nm-int64-plus-half",
    ),
    vocabulary=Vocabulary(
        subjects=(
            "in-place",
            "In-place",
            "add_",
            "clamp_",
            "インプレース",
            "인플레이스",
            "제자리 연산",
        ),
        predicates={
            "en": ("change the dtype", "change its dtype", "change a tensor's dtype"),
            "ja": ("dtype を変え", "dtypeを変え", "型を変え"),
            "ko": ("dtype을 바꿀", "dtype을 바꾸", "타입을 바꿀", "dtype을 변경"),
        },
        denies=True,
        unless={lang: (".float()", ".long()", ".to(", "autocast") for lang in ("en", "ja", "ko")},
    ),
)


def probe_integer_mean_raises(device: Device) -> Observation:
    return _mean_rule("int64")


def control_float_mean(device: Device) -> Observation:
    return _mean_rule("float32")


def _mean_rule(name: str) -> Observation:
    import torch

    t = torch.tensor([1, 2], dtype=getattr(torch, name))
    plain = _error(t.mean)
    asked = float(t.mean(dtype=torch.float32).item())
    return Observation(
        holds=plain.startswith("RuntimeError") and asked == 1.5,
        rule=f"holds if mean() of a {name} tensor raises RuntimeError while "
        "mean(dtype=torch.float32) gives 1.5",
        measurements=(
            Measurement(f"nm-{name}-mean", plain, "exception"),
            Measurement(f"nm-{name}-mean-float32", _g(asked), "text"),
        ),
    )


INTEGER_MEAN_RAISES = Claim(
    id="promotion/integer-mean-raises",
    statement="mean() of an integer tensor raises an error instead of promoting to a floating "
    "dtype; mean(dtype=torch.float32) or .float().mean() computes it.",
    expect=Expect.HOLDS,
    probe=probe_integer_mean_raises,
    control=Control(
        "a float32 tensor",
        control_float_mean,
        measures=("nm-float32-mean", "nm-float32-mean-float32"),
    ),
    devices=("cpu",),
    measures=("nm-int64-mean", "nm-int64-mean-float32"),
    vocabulary=Vocabulary(
        subjects=("mean()", ".mean", "torch.mean"),
        predicates={
            "en": (
                "could not infer output dtype",
                "integer … error",
                "LongTensor … error",
                "int64 … error",
                "integer … raises",
            ),
            "ja": ("整数 … エラー", "int64 … エラー", "LongTensor … エラー"),
            "ko": ("정수 … 오류", "정수 … 에러", "int64 … 오류", "int64 … 에러"),
        },
        unless={lang: ("dtype=", ".float()", "float()") for lang in ("en", "ja", "ko")},
    ),
)


CLAIMS = (
    WIDER_INTEGER_WINS,
    BOOL_TAKES_OTHER_DTYPE,
    PYTHON_FLOAT_GIVES_DEFAULT_DTYPE,
    MYTH_FLOOR_DIVISION_TRUNCATES,
    IN_PLACE_KEEPS_DTYPE,
    INTEGER_MEAN_RAISES,
)
