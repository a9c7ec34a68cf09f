"""Claims of "Casting and integer arithmetic" (docs/topics/numerics-facts.md,
``(nm-casting)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.numerics._dtypes import dtype_name
from checker.claims.numerics._words import _error
from checker.evidence import Measurement, Observation
from checker.typing import Device, Lang

_LANGS: tuple[Lang, ...] = ("en", "ja", "ko")
_DIVISION = ("//", "floor_divide", "rounding_mode")
#: A conversion asked for: what it gives is not what torch.ceil returns.
_CONVERSIONS = (".long()", ".int()", ".to(", "astype", "convert")


def probe_ceil_keeps_float(device: Device) -> Observation:
    return _ceil_rule("float32")


def control_ceil_of_integers(device: Device) -> Observation:
    return _ceil_rule("int64")


def _ceil_rule(name: str) -> Observation:
    import torch

    values = [1.1, -1.1] if name == "float32" else [1, -1]
    result = torch.ceil(torch.tensor(values, dtype=getattr(torch, name)))
    return Observation(
        holds=result.is_floating_point(),
        rule=f"holds if torch.ceil of a {name} tensor returns a floating tensor",
        measurements=(
            Measurement(f"nm-ceil-of-{name}-dtype", dtype_name(result.dtype), "dtype"),
            Measurement(f"nm-ceil-of-{name}-values", str(result.tolist()), "text"),
        ),
    )


CEIL_KEEPS_FLOAT_DTYPE = Claim(
    id="promotion/ceil-keeps-float-dtype",
    statement="torch.ceil of a float32 tensor returns float32, not an integer dtype: "
    "torch.ceil(torch.tensor([1.1])) gives 2.0; .long() converts the result.",
    expect=Expect.HOLDS,
    probe=probe_ceil_keeps_float,
    control=Control(
        "an int64 tensor",
        control_ceil_of_integers,
        measures=("nm-ceil-of-int64-dtype", "nm-ceil-of-int64-values"),
    ),
    devices=("cpu",),
    measures=("nm-ceil-of-float32-dtype", "nm-ceil-of-float32-values"),
    vocabulary=Vocabulary(
        subjects=("torch.ceil", "ceil()", "torch.floor", "floor()"),
        predicates={
            "en": ("floating tensor", "float tensor", "float32", "floating-point dtype"),
            "ja": ("浮動小数点", "float32", "float 型"),
            "ko": ("부동소수점", "float32", "float 타입"),
        },
        opposites={
            "en": ("integer tensor", "integer dtype", "int64", "LongTensor"),
            "ja": ("整数テンソル", "整数型", "int64"),
            "ko": ("정수 텐서", "정수 타입", "정수형", "int64"),
        },
        # floor division, and ceil of an integer input (which keeps its integer dtype), are
        # other cases
        unless={
            "en": (
                *_DIVISION,
                *_CONVERSIONS,
                "of an int",
                "of an integer",
                "on an int",
                "on an integer",
                "to an int",
                "to an integer",
                "integer input",
            ),
            "ja": (
                *_DIVISION,
                "整数テンソルに",
                "整数テンソルの",
                "整数の入力",
                "int64 のテンソルに",
            ),
            "ko": (
                *_DIVISION,
                *_CONVERSIONS,
                "변환",
                "정수 텐서에",
                "정수 텐서의",
                "정수 입력",
                "int64 텐서에",
            ),
        },
    ),
)


def probe_float_to_int_truncates(device: Device) -> Observation:
    return _truncation_rule(floor_first=False)


def control_floor_before_converting(device: Device) -> Observation:
    return _truncation_rule(floor_first=True)


def _truncation_rule(floor_first: bool) -> Observation:
    import torch

    values = torch.tensor([1.7, -1.7])
    if floor_first:
        values = torch.floor(values)
    converted = {name: values.to(getattr(torch, name)).tolist() for name in ("int64", "int32")}
    kind = "floor-then-" if floor_first else ""
    return Observation(
        holds=all(result == [1, -1] for result in converted.values()),
        rule="holds if "
        + ("torch.floor([1.7, -1.7])" if floor_first else "[1.7, -1.7]")
        + " converted to int64 and to int32 gives [1, -1]",
        measurements=tuple(
            Measurement(f"nm-{kind}{name}-of-1-7", str(result), "text")
            for name, result in converted.items()
        ),
    )


FLOAT_TO_INT_TRUNCATES = Claim(
    id="promotion/float-to-int-truncates",
    statement="Converting a floating tensor to an integer dtype truncates toward zero: 1.7 "
    "gives 1 and -1.7 gives -1.",
    expect=Expect.HOLDS,
    probe=probe_float_to_int_truncates,
    control=Control(
        "torch.floor before the conversion",
        control_floor_before_converting,
        measures=("nm-floor-then-int64-of-1-7", "nm-floor-then-int32-of-1-7"),
    ),
    devices=("cpu",),
    measures=("nm-int64-of-1-7", "nm-int32-of-1-7"),
    vocabulary=Vocabulary(
        subjects=(".long()", ".int()", "integer dtype", "整数型", "정수형", "정수 타입"),
        predicates={
            "en": ("truncat", "toward zero", "towards zero", "drops the fractional"),
            "ja": ("切り捨て", "0 方向", "0方向", "ゼロ方向", "小数部"),
            "ko": ("버림", "버린", "0 방향", "0방향", "소수부"),
        },
        opposites={
            # not "floor" nor "rounds down": torch.floor is the way to round down, and for
            # positive values truncating is rounding down
            "en": ("rounds to the nearest",),
            "ja": ("四捨五入", "最も近い整数"),
            "ko": ("반올림", "가장 가까운 정수"),
        },
        unless={
            lang: ("//", "floor_divide", "rounding_mode", "uint8", "bfloat16") for lang in _LANGS
        },
    ),
)


def probe_uint8_wraps(device: Device) -> Observation:
    return _wrap_rule("uint8")


def control_int16_does_not_wrap(device: Device) -> Observation:
    return _wrap_rule("int16")


def _wrap_rule(name: str) -> Observation:
    import torch

    dtype = getattr(torch, name)
    total = int((torch.tensor([200], dtype=dtype) + torch.tensor([100], dtype=dtype)).item())
    difference = int((torch.tensor([5], dtype=dtype) - torch.tensor([10], dtype=dtype)).item())
    with_int = int((torch.tensor([200], dtype=dtype) + 100).item())
    return Observation(
        holds=(total, difference, with_int) == (44, 251, 44),
        rule=f"holds if, in {name}, 200 + 100 gives 44 and 5 - 10 gives 251 (modulo 256), "
        "and so does 200 + 100 with 100 a Python int",
        measurements=(
            Measurement(f"nm-{name}-200-plus-100", str(total), "text"),
            Measurement(f"nm-{name}-5-minus-10", str(difference), "text"),
            Measurement(f"nm-{name}-200-plus-python-100", str(with_int), "text"),
        ),
    )


UINT8_ARITHMETIC_WRAPS = Claim(
    id="promotion/uint8-arithmetic-wraps",
    statement="uint8 arithmetic wraps around modulo 256: 200 + 100 gives 44 and 5 - 10 gives 251.",
    expect=Expect.HOLDS,
    probe=probe_uint8_wraps,
    control=Control(
        "int16 tensors",
        control_int16_does_not_wrap,
        measures=("nm-int16-200-plus-100", "nm-int16-5-minus-10", "nm-int16-200-plus-python-100"),
    ),
    devices=("cpu",),
    measures=("nm-uint8-200-plus-100", "nm-uint8-5-minus-10", "nm-uint8-200-plus-python-100"),
    vocabulary=Vocabulary(
        subjects=("uint8", "torch.uint8", "ByteTensor"),
        predicates={
            "en": ("wrap", "modulo 256", "overflows"),
            "ja": ("ラップアラウンド", "256 を法", "256を法", "オーバーフロー"),
            "ko": ("랩어라운드", "256으로 나눈 나머지", "오버플로"),
        },
        opposites={
            "en": ("saturat", "clamps to 255", "clips to 255"),
            "ja": ("飽和", "255 で止ま", "255で止ま"),
            "ko": ("포화", "255에서 멈"),
        },
        unless={
            lang: (
                "float",
                "-1",
                "compar",
                "比較",
                "비교",
                "to(torch.uint8)",
                "image",
                "画像",
                "이미지",
            )
            for lang in _LANGS
        },
    ),
)


def probe_uint8_compares_minus_one_as_255(device: Device) -> Observation:
    return _compare_rule("uint8")


def control_int16_compares_minus_one(device: Device) -> Observation:
    return _compare_rule("int16")


def _compare_rule(name: str) -> Observation:
    import torch

    dtype = getattr(torch, name)
    one = torch.tensor([1], dtype=dtype)
    below, above = bool((one < -1).item()), bool((one > -1).item())
    equal = bool((torch.tensor([255], dtype=dtype) == -1).item())
    return Observation(
        holds=below and not above and equal,
        rule=f"holds if, for a {name} tensor holding 1, x < -1 is True and x > -1 is False, "
        f"and a {name} tensor holding 255 equals -1",
        measurements=(
            Measurement(f"nm-{name}-1-less-than-minus-1", below, "bool"),
            Measurement(f"nm-{name}-1-greater-than-minus-1", above, "bool"),
            Measurement(f"nm-{name}-255-equals-minus-1", equal, "bool"),
        ),
    )


UINT8_COMPARES_MINUS_ONE_AS_255 = Claim(
    id="promotion/uint8-compares-minus-one-as-255",
    statement="Comparing a uint8 tensor with the Python int -1 compares with 255: for a uint8 "
    "tensor x holding 1, x < -1 is True.",
    expect=Expect.HOLDS,
    probe=probe_uint8_compares_minus_one_as_255,
    control=Control(
        "an int16 tensor",
        control_int16_compares_minus_one,
        measures=(
            "nm-int16-1-less-than-minus-1",
            "nm-int16-1-greater-than-minus-1",
            "nm-int16-255-equals-minus-1",
        ),
    ),
    devices=("cpu",),
    measures=(
        "nm-uint8-1-less-than-minus-1",
        "nm-uint8-1-greater-than-minus-1",
        "nm-uint8-255-equals-minus-1",
    ),
    vocabulary=Vocabulary(
        subjects=("uint8", "torch.uint8", "ByteTensor"),
        predicates={
            "en": ("-1 … 255", "negative … 255"),
            "ja": ("-1 … 255", "負 … 255"),
            "ko": ("-1 … 255", "음수 … 255"),
        },
        requires={
            "en": ("compar", "<", ">"),
            "ja": ("比較", "<", ">"),
            "ko": ("비교", "<", ">"),
        },
        unless={lang: ("float", "to(torch.uint8)", "image") for lang in _LANGS},
    ),
)


def probe_bce_refuses_integer_target(device: Device) -> Observation:
    return _bce_rule("int64")


def control_bce_float_target(device: Device) -> Observation:
    return _bce_rule("float32")


def _bce_rule(name: str) -> Observation:
    import torch

    probabilities = torch.tensor([0.2, 0.7, 0.9])
    target = torch.tensor([0, 1, 1], dtype=getattr(torch, name))
    plain = _error(lambda: torch.nn.BCELoss()(probabilities, target))
    logits = _error(lambda: torch.nn.BCEWithLogitsLoss()(probabilities, target))
    return Observation(
        holds=plain != "no error" and logits != "no error",
        rule=f"holds if nn.BCELoss and nn.BCEWithLogitsLoss raise an error for the {name} "
        "target [0, 1, 1]",
        measurements=(
            Measurement(f"nm-bce-{name}-target", plain, "exception"),
            Measurement(f"nm-bce-with-logits-{name}-target", logits, "exception"),
        ),
    )


BCE_TARGET_MUST_BE_FLOAT = Claim(
    id="promotion/bce-target-must-be-float",
    statement="nn.BCELoss and nn.BCEWithLogitsLoss raise an error for an int64 target: the "
    "target of 0s and 1s must be a floating tensor, like the input.",
    expect=Expect.HOLDS,
    probe=probe_bce_refuses_integer_target,
    control=Control(
        "a float32 target",
        control_bce_float_target,
        measures=("nm-bce-float32-target", "nm-bce-with-logits-float32-target"),
    ),
    devices=("cpu",),
    measures=("nm-bce-int64-target", "nm-bce-with-logits-int64-target"),
    vocabulary=Vocabulary(
        subjects=(
            "BCELoss",
            "BCEWithLogitsLoss",
            "binary_cross_entropy",
            "binary_cross_entropy_with_logits",
        ),
        predicates={
            "en": ("float target", "floating target", "target … float", "Found dtype Long"),
            "ja": (
                "ターゲット … float",
                "target … float",
                "正解ラベル … float",
                "Found dtype Long",
            ),
            "ko": ("타깃 … float", "타겟 … float", "target … float", "Found dtype Long"),
        },
        unless={lang: ("CrossEntropyLoss", "weight", "pos_weight") for lang in _LANGS},
    ),
)


CLAIMS = (
    CEIL_KEEPS_FLOAT_DTYPE,
    FLOAT_TO_INT_TRUNCATES,
    UINT8_ARITHMETIC_WRAPS,
    UINT8_COMPARES_MINUS_ONE_AS_255,
    BCE_TARGET_MUST_BE_FLOAT,
)
