"""Claims of "Integers meet floats" (docs/topics/numerics-facts.md, ``(nm-kinds)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.numerics._dtypes import dtype_name
from checker.evidence import Measurement, Observation
from checker.typing import Device, Lang

_LANGS: tuple[Lang, ...] = ("en", "ja", "ko")


def probe_integer_with_float_gives_float(device: Device) -> Observation:
    return _integer_with_rule(other="float")


def control_integer_with_integer(device: Device) -> Observation:
    return _integer_with_rule(other="int16")


def _integer_with_rule(other: str) -> Observation:
    import torch

    def second(floating: str) -> torch.Tensor:
        return torch.ones(3, dtype=getattr(torch, floating if other == "float" else other))

    first = dtype_name((torch.ones(3, dtype=torch.int64) + second("float32")).dtype)
    narrow = dtype_name((torch.ones(3, dtype=torch.int32) + second("float16")).dtype)
    return Observation(
        holds=(first, narrow) == ("float32", "float16"),
        # the control puts int16 tensors where the rule names the floating ones
        rule="holds if an int64 tensor plus a float32 tensor gives float32 and an int32 tensor "
        "plus a float16 tensor gives float16",
        measurements=(
            Measurement(f"nm-int64-plus-{other}-tensor", first, "dtype"),
            Measurement(f"nm-int32-plus-{other}-tensor", narrow, "dtype"),
        ),
    )


INTEGER_WITH_FLOAT_GIVES_FLOAT = Claim(
    id="promotion/integer-with-float-gives-float",
    statement="An integer tensor combined with a floating tensor gives the floating dtype, "
    "however narrow: int64 with float32 gives float32, and int32 with float16 gives float16.",
    expect=Expect.HOLDS,
    probe=probe_integer_with_float_gives_float,
    control=Control(
        "an int16 tensor in place of the floating one",
        control_integer_with_integer,
        measures=("nm-int64-plus-int16-tensor", "nm-int32-plus-int16-tensor"),
    ),
    devices=("cpu",),
    measures=("nm-int64-plus-float-tensor", "nm-int32-plus-float-tensor"),
    vocabulary=Vocabulary(
        subjects=(
            "integer tensor",
            "int64 tensor",
            "int32 tensor",
            "LongTensor",
            "整数テンソル",
            "整数のテンソル",
            "int64 のテンソル",
            "정수 텐서",
            "int64 텐서",
        ),
        predicates={
            "en": ("floating tensor … float32", "float tensor … float32", "float32 tensor"),
            "ja": ("float32 のテンソル", "float32 テンソル", "float32テンソル"),
            "ko": ("float32 텐서",),
        },
        unless={
            lang: (
                *("in-place", "add_", "mean", "matmul", "@", "bfloat16", "scalar", "Python"),
                # a conversion, or indexing with an integer tensor, is another operation
                *(".float()", ".to(", "convert", "変換", "변환", "index", "インデックス", "인덱스"),
            )
            for lang in _LANGS
        },
    ),
)


def probe_python_int_keeps_dtype(device: Device) -> Observation:
    return _python_int_rule(as_tensor=False)


def control_int64_tensor_operand(device: Device) -> Observation:
    return _python_int_rule(as_tensor=True)


def _python_int_rule(as_tensor: bool) -> Observation:
    import torch

    def five() -> int | torch.Tensor:
        return torch.tensor([5]) if as_tensor else 5

    results = {
        name: dtype_name((torch.ones(3, dtype=getattr(torch, name)) + five()).dtype)
        for name in ("int32", "uint8")
    }
    kind = "int64-tensor" if as_tensor else "python-int"
    return Observation(
        holds=results == {"int32": "int32", "uint8": "uint8"},
        rule="holds if an int32 tensor plus "
        + ("the int64 tensor [5]" if as_tensor else "the Python int 5")
        + " stays int32 and a uint8 tensor plus it stays uint8",
        measurements=tuple(
            Measurement(f"nm-{name}-plus-{kind}", result, "dtype")
            for name, result in results.items()
        ),
    )


PYTHON_INT_KEEPS_INTEGER_DTYPE = Claim(
    id="promotion/python-int-keeps-integer-dtype",
    statement="An int32 tensor plus a Python int stays int32, and a uint8 tensor plus 5 stays "
    "uint8: a Python int does not widen an integer tensor.",
    expect=Expect.HOLDS,
    probe=probe_python_int_keeps_dtype,
    control=Control(
        "the one-dimensional int64 tensor [5] in place of the Python int",
        control_int64_tensor_operand,
        measures=("nm-int32-plus-int64-tensor", "nm-uint8-plus-int64-tensor"),
    ),
    devices=("cpu",),
    measures=("nm-int32-plus-python-int", "nm-uint8-plus-python-int"),
    vocabulary=Vocabulary(
        subjects=("Python int", "Python integer", "Python の int", "Python の整数", "Python 정수"),
        predicates={
            "en": ("stays int32", "stays uint8", "keeps its dtype", "keeps the dtype"),
            "ja": (
                "int32 のまま",
                "uint8 のまま",
                "int32のまま",
                "uint8のまま",
                "dtype は変わらない",
            ),
            "ko": ("int32로 유지", "uint8로 유지", "int32 그대로", "dtype이 유지"),
        },
        opposites={
            "en": ("gives int64", "promotes … to int64", "becomes int64"),
            "ja": ("int64 になる", "int64 に昇格", "int64になる"),
            "ko": ("int64가 된다", "int64로 승격", "int64가 됩"),
        },
        unless={
            "en": ("list", "float", "torch.tensor("),
            "ja": ("リスト", "float", "浮動小数点"),
            "ko": ("리스트", "목록", "float", "실수"),
        },
    ),
)


def probe_integer_plus_bfloat16(device: Device) -> Observation:
    return _bfloat16_rule("bfloat16")


def control_integer_plus_float32(device: Device) -> Observation:
    return _bfloat16_rule("float32")


def _bfloat16_rule(floating: str) -> Observation:
    import torch

    total = torch.tensor([257], dtype=torch.int32) + torch.tensor(
        [0.0], dtype=getattr(torch, floating)
    )
    value = float(total.item())
    return Observation(
        holds=total.dtype == torch.bfloat16 and value == 256.0,
        rule=f"holds if the int32 tensor [257] plus the {floating} tensor [0.0] gives bfloat16 "
        "holding 256",
        measurements=(
            Measurement(f"nm-int32-plus-{floating}-dtype", dtype_name(total.dtype), "dtype"),
            Measurement(f"nm-int32-257-plus-{floating}", f"{value:g}", "text"),
        ),
    )


INTEGER_PLUS_BFLOAT16_IS_BFLOAT16 = Claim(
    id="promotion/integer-plus-bfloat16-is-bfloat16",
    statement="An int32 tensor plus a bfloat16 tensor gives bfloat16, so the int32 value 257 "
    "becomes 256.",
    expect=Expect.HOLDS,
    probe=probe_integer_plus_bfloat16,
    control=Control(
        "a float32 tensor in place of the bfloat16 one",
        control_integer_plus_float32,
        measures=("nm-int32-plus-float32-dtype", "nm-int32-257-plus-float32"),
    ),
    devices=("cpu",),
    measures=("nm-int32-plus-bfloat16-dtype", "nm-int32-257-plus-bfloat16"),
    vocabulary=Vocabulary(
        subjects=("int32", "int64", "integer tensor", "整数テンソル", "정수 텐서"),
        predicates={
            "en": ("bfloat16 tensor … bfloat16", "bfloat16 tensor gives bfloat16"),
            "ja": ("bfloat16 のテンソル … bfloat16 にな", "bfloat16 テンソル … bfloat16 にな"),
            "ko": ("bfloat16 텐서 … bfloat16이 되", "bfloat16 텐서 … bfloat16가 되"),
        },
        unless={lang: ("autocast", "matmul", "@", "float32 tensor") for lang in _LANGS},
    ),
)


def probe_can_cast_refuses_lower_kind(device: Device) -> Observation:
    return _can_cast_rule("int32")


def control_can_cast_narrower_float(device: Device) -> Observation:
    return _can_cast_rule("float16")


def _can_cast_rule(other: str) -> Observation:
    import torch

    target = getattr(torch, other)
    down = bool(torch.can_cast(torch.float64, target))
    up = bool(torch.can_cast(target, torch.float64))
    return Observation(
        holds=not down and up,
        rule=f"holds if torch.can_cast(torch.float64, torch.{other}) is False and "
        f"torch.can_cast(torch.{other}, torch.float64) is True",
        measurements=(
            Measurement(f"nm-can-cast-float64-to-{other}", down, "bool"),
            Measurement(f"nm-can-cast-{other}-to-float64", up, "bool"),
        ),
    )


CAN_CAST_REFUSES_FLOAT_TO_INT = Claim(
    id="promotion/can-cast-refuses-float-to-int",
    statement="torch.can_cast(torch.float64, torch.int32) returns False while "
    "torch.can_cast(torch.int32, torch.float64) returns True: can_cast refuses a cast to a lower "
    "kind, not a cast to a narrower dtype of the same kind.",
    expect=Expect.HOLDS,
    probe=probe_can_cast_refuses_lower_kind,
    control=Control(
        "float16 in place of int32",
        control_can_cast_narrower_float,
        measures=("nm-can-cast-float64-to-float16", "nm-can-cast-float16-to-float64"),
    ),
    devices=("cpu",),
    measures=("nm-can-cast-float64-to-int32", "nm-can-cast-int32-to-float64"),
    vocabulary=Vocabulary(
        subjects=("can_cast",),
        # the statement denies that a float can be cast to an integer dtype
        predicates={
            "en": ("float … to int", "floating … to integer", "float … into int"),
            "ja": ("float … から int", "浮動小数点 … から整数"),
            "ko": ("float … 에서 int", "부동소수점 … 에서 정수"),
        },
        denies=True,
        # a sentence on what can_cast checks, not on what it answers
        unless={
            "en": ("result_type", "promote_types", ".to(", "astype", "whether", "check"),
            "ja": ("result_type", "promote_types", ".to(", "astype", "かどうか", "確認", "調べ"),
            "ko": ("result_type", "promote_types", ".to(", "astype", "인지", "확인"),
        },
    ),
)


CLAIMS = (
    INTEGER_WITH_FLOAT_GIVES_FLOAT,
    PYTHON_INT_KEEPS_INTEGER_DTYPE,
    INTEGER_PLUS_BFLOAT16_IS_BFLOAT16,
    CAN_CAST_REFUSES_FLOAT_TO_INT,
)
