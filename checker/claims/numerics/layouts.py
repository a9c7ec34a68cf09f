"""Claims of "Bits, digits and bytes" (docs/topics/numerics-facts.md, ``(nm-layouts)=``).

The probes read the formats from what they store: bit patterns viewed as integers, values
read back after a conversion, and the bytes a tensor takes.
"""

from __future__ import annotations

import functools
import math
import operator
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.numerics._words import BFLOAT16, FLOAT16, _g
from checker.claims.numerics.formats import _dtype
from checker.evidence import Measurement, Observation
from checker.typing import Device

#: How posts name float32.
FLOAT32 = ("float32", "fp32", "FP32", "単精度", "단정밀도")


def _stored(value: float, name: str) -> float:
    """``value`` (a Python float) stored in the dtype ``name`` and read back."""
    import torch

    return float(torch.tensor(value, dtype=_dtype(name)).item())


def _patterns(values: list[float], name: str) -> list[int]:
    """The bit patterns of ``values`` stored in ``name``, as unsigned integers."""
    import torch

    width = torch.finfo(_dtype(name)).bits
    ints = {16: torch.int16, 32: torch.int32, 64: torch.int64}[width]
    stored = torch.tensor(values, dtype=torch.float64).to(_dtype(name))
    return [p & ((1 << width) - 1) for p in stored.view(ints).tolist()]


def probe_float32_layout(device: Device) -> Observation:
    return _layout_rule("float32")


def control_float64_layout(device: Device) -> Observation:
    return _layout_rule("float64")


def _layout_rule(name: str) -> Observation:
    import torch

    info = torch.finfo(_dtype(name))
    one, minus_one, below_two = _patterns([1.0, -1.0, _below_two(name)], name)
    sign = one ^ minus_one
    # every normal power of two: together their patterns set every exponent bit
    lowest, highest = (math.frexp(v)[1] - 1 for v in (info.smallest_normal, info.max))
    powers = _patterns([2.0**k for k in range(lowest, highest + 1)], name)
    exponent = functools.reduce(operator.or_, powers)
    mantissa = one ^ below_two  # 1.0 and the largest value below 2 differ in every mantissa bit
    fields = [bin(mask).count("1") for mask in (sign, exponent, mantissa)]
    disjoint = sign & exponent == sign & mantissa == exponent & mantissa == 0
    return Observation(
        holds=fields == [1, 8, 23] and disjoint and sum(fields) == info.bits,
        rule=f"holds if the bit patterns of {name} values give 1 sign bit, 8 exponent bits and "
        f"23 mantissa bits, which do not overlap and together make up all the bits of a {name} "
        "value",
        measurements=(
            Measurement(f"nm-{name}-sign-field-bits", fields[0], "count"),
            Measurement(f"nm-{name}-exponent-field-bits", fields[1], "count"),
            Measurement(f"nm-{name}-mantissa-field-bits", fields[2], "count"),
        ),
    )


def _below_two(name: str) -> float:
    import torch

    two = torch.tensor(2.0, dtype=_dtype(name))
    return float(torch.nextafter(two, torch.zeros_like(two)).item())


FLOAT32_LAYOUT = Claim(
    id="numerics/float32-bit-layout",
    statement="float32 has 1 sign bit, 8 exponent bits and 23 mantissa bits.",
    expect=Expect.HOLDS,
    probe=probe_float32_layout,
    control=Control(
        "float64 in place of float32",
        control_float64_layout,
        measures=(
            "nm-float64-sign-field-bits",
            "nm-float64-exponent-field-bits",
            "nm-float64-mantissa-field-bits",
        ),
    ),
    devices=("cpu",),
    measures=(
        "nm-float32-sign-field-bits",
        "nm-float32-exponent-field-bits",
        "nm-float32-mantissa-field-bits",
    ),
    vocabulary=Vocabulary(
        subjects=FLOAT32,
        predicates={
            "en": ("23 mantissa", "23 fraction", "23-bit mantissa", "23 bits of mantissa"),
            "ja": ("仮数部が 23", "仮数部が23", "仮数部 23", "仮数部23", "23 ビットの仮数"),
            "ko": ("가수부가 23", "가수부 23", "가수 23", "23비트 가수", "23 비트 가수"),
        },
    ),
)


def probe_float32_seven_digits(device: Device) -> Observation:
    return _seven_digits_rule("float32")


def control_float64_seven_digits(device: Device) -> Observation:
    return _seven_digits_rule("float64")


def _seven_digits_rule(name: str) -> Observation:
    import torch

    digits = -math.log10(float(torch.finfo(_dtype(name)).eps))
    kept, lost = _stored(1.0 + 1e-7, name), _stored(1.0 + 1e-8, name)
    return Observation(
        holds=kept != 1.0 and lost == 1.0 and 6.5 < digits < 7.5,
        rule=f"holds if 1 + 1e-7 stays distinct from 1 in {name} while 1 + 1e-8 becomes 1, and "
        f"torch.finfo({name}).eps gives between 6.5 and 7.5 decimal digits",
        measurements=(
            Measurement(f"nm-{name}-of-1-plus-1e-7", repr(kept), "text"),
            Measurement(f"nm-{name}-of-1-plus-1e-8", repr(lost), "text"),
            Measurement(f"nm-{name}-decimal-digits", f"{digits:.2f}", "text"),
        ),
    )


FLOAT32_SEVEN_DIGITS = Claim(
    id="numerics/float32-seven-decimal-digits",
    statement="float32 keeps about 7 significant decimal digits: 1 + 1e-7 stays distinct from 1, "
    "while 1 + 1e-8 becomes 1.",
    expect=Expect.HOLDS,
    probe=probe_float32_seven_digits,
    control=Control(
        "float64 in place of float32",
        control_float64_seven_digits,
        measures=(
            "nm-float64-of-1-plus-1e-7",
            "nm-float64-of-1-plus-1e-8",
            "nm-float64-decimal-digits",
        ),
    ),
    devices=("cpu",),
    measures=(
        "nm-float32-of-1-plus-1e-7",
        "nm-float32-of-1-plus-1e-8",
        "nm-float32-decimal-digits",
    ),
    vocabulary=Vocabulary(
        subjects=FLOAT32,
        predicates={
            "en": ("7 significant", "seven significant", "7 decimal digits", "7 digits"),
            "ja": ("有効数字 7", "有効数字7", "有効数字は 7", "有効数字は7", "7 桁", "7桁"),
            "ko": ("유효 숫자 7", "유효숫자 7", "유효 숫자는 7", "7자리", "7 자리"),
        },
        # a comparison with another format is another case
        unless={"en": (" than ",), "ja": ("より",), "ko": ("보다",)},
    ),
)


#: The numbers with three significant digits from 1.00 to 9.99.
THREE_DIGIT_NUMBERS = 900


def probe_bfloat16_three_digits(device: Device) -> Observation:
    return _three_digits_rule("bfloat16")


def control_float16_three_digits(device: Device) -> Observation:
    return _three_digits_rule("float16")


def _three_digits_rule(name: str) -> Observation:
    import torch

    numbers = torch.arange(100, 100 + THREE_DIGIT_NUMBERS, dtype=torch.float64) / 100
    distinct = int(torch.unique(numbers.to(_dtype(name))).numel())
    return Observation(
        holds=distinct == THREE_DIGIT_NUMBERS,
        rule=f"holds if the {THREE_DIGIT_NUMBERS} numbers with three significant digits from "
        f"1.00 to 9.99 stay distinct when stored as {name}",
        measurements=(
            Measurement(f"nm-{name}-distinct-of-900", distinct, "count"),
            Measurement(f"nm-{name}-of-9-87", _g(_stored(9.87, name)), "text"),
        ),
    )


MYTH_BFLOAT16_THREE_DIGITS = Claim(
    id="numerics/myth-bfloat16-three-decimal-digits",
    statement="bfloat16 keeps about 3 significant decimal digits.",
    expect=Expect.FAILS,
    probe=probe_bfloat16_three_digits,
    control=Control(
        "float16 in place of bfloat16",
        control_float16_three_digits,
        measures=("nm-float16-distinct-of-900", "nm-float16-of-9-87"),
    ),
    devices=("cpu",),
    measures=("nm-bfloat16-distinct-of-900", "nm-bfloat16-of-9-87"),
    vocabulary=Vocabulary(
        subjects=BFLOAT16,
        predicates={
            "en": ("3 significant", "three significant", "3 decimal digits", "3 digits"),
            "ja": ("有効数字 3", "有効数字3", "有効数字は 3", "有効数字は3", "3 桁", "3桁"),
            "ko": ("유효 숫자 3", "유효숫자 3", "유효 숫자는 3", "3자리", "3 자리"),
        },
        # a comparison ("float16 has more digits than bfloat16, about 3") is another case
        unless={"en": (" than ",), "ja": ("より",), "ko": ("보다",)},
    ),
)


#: 1/3 lies in float16's normal range; 1e-6 lies below it, where float16 has fewer digits.
ONE_THIRD, SUBNORMAL_FOR_FLOAT16 = 1 / 3, 1e-6


def probe_bfloat16_coarser(device: Device) -> Observation:
    return _coarser_rule(ONE_THIRD)


def control_float16_subnormal_coarser(device: Device) -> Observation:
    return _coarser_rule(SUBNORMAL_FOR_FLOAT16)


def _coarser_rule(value: float) -> Observation:
    brain, half = _stored(value, "bfloat16"), _stored(value, "float16")
    label = "1/3" if value == ONE_THIRD else f"{value:g}"
    key = "one-third" if value == ONE_THIRD else "1e-6"
    return Observation(
        holds=abs(brain - value) > abs(half - value),
        rule=f"holds if {label} stored as bfloat16 is further from {label} than {label} stored "
        "as float16",
        measurements=(
            Measurement(f"nm-bfloat16-of-{key}", _g(brain), "text"),
            Measurement(f"nm-float16-of-{key}", _g(half), "text"),
        ),
    )


BFLOAT16_COARSER = Claim(
    id="numerics/bfloat16-coarser-than-float16",
    statement="bfloat16 rounds more coarsely than float16 in float16's normal range: 1/3 is "
    "further off in bfloat16 than in float16.",
    expect=Expect.HOLDS,
    probe=probe_bfloat16_coarser,
    control=Control(
        "1e-6, below float16's normal range, in place of 1/3",
        control_float16_subnormal_coarser,
        measures=("nm-bfloat16-of-1e-6", "nm-float16-of-1e-6"),
    ),
    devices=("cpu",),
    measures=("nm-bfloat16-of-one-third", "nm-float16-of-one-third"),
    vocabulary=Vocabulary(
        subjects=BFLOAT16,
        predicates={
            "en": ("coarse", "less precise than", "lower precision than", "less precision than"),
            "ja": ("精度が低", "粗い", "粗く", "精度 … 劣"),
            "ko": ("정밀도가 낮", "정밀도 … 떨어", "더 거칠"),
        },
        requires={lang: FLOAT16 for lang in ("en", "ja", "ko")},
    ),
)


def probe_bfloat16_holds_every_float32(device: Device) -> Observation:
    return _round_trip_rule(cleared=False)


def control_values_with_cleared_low_bits(device: Device) -> Observation:
    return _round_trip_rule(cleared=True)


#: float32 values tested: k / 7 for k = 1 .. 1000.
ROUND_TRIP_VALUES = 1000


def _round_trip_rule(cleared: bool) -> Observation:
    import torch

    values = torch.arange(1, ROUND_TRIP_VALUES + 1, dtype=torch.float32) / 7
    if cleared:  # the same values with their low 16 bits cleared: bfloat16 values already
        values = (values.view(torch.int32) & ~0xFFFF).view(torch.float32)
    kept = int((values.to(torch.bfloat16).to(torch.float32) == values).sum())
    prefix = "cleared" if cleared else "float32"
    return Observation(
        holds=kept == len(values),
        rule=(
            f"holds if each of {ROUND_TRIP_VALUES} float32 values with their low 16 bits "
            "cleared reads back unchanged after a round trip through bfloat16"
            if cleared
            else f"holds if each of {ROUND_TRIP_VALUES} float32 values reads back unchanged "
            "after a round trip through bfloat16"
        ),
        measurements=(
            Measurement(f"nm-{prefix}-values-round-trip", len(values), "count"),
            Measurement(f"nm-{prefix}-values-kept-by-bfloat16", kept, "count"),
        ),
    )


MYTH_BFLOAT16_HOLDS_EVERY_FLOAT32 = Claim(
    id="numerics/myth-bfloat16-holds-every-float32-value",
    statement="bfloat16 can represent every value that float32 can.",
    expect=Expect.FAILS,
    probe=probe_bfloat16_holds_every_float32,
    control=Control(
        "float32 values whose low 16 bits are 0",
        control_values_with_cleared_low_bits,
        measures=("nm-cleared-values-round-trip", "nm-cleared-values-kept-by-bfloat16"),
    ),
    devices=("cpu",),
    measures=("nm-float32-values-round-trip", "nm-float32-values-kept-by-bfloat16"),
    vocabulary=Vocabulary(
        subjects=BFLOAT16,
        predicates={
            # a verb of holding values: "the range of every float32 value" is another thing
            "en": (
                "represent every … float32",
                "represent all … float32",
                "represent any float32",
                "store every … float32",
                "store all … float32",
                "hold every … float32",
                "hold all … float32",
            ),
            "ja": ("float32 … すべての値を表", "float32 … 値をすべて表", "float32 … 全ての値を表"),
            "ko": (
                "float32 … 모든 값을 표현",
                "float32 … 값을 모두 표현",
                "float32 … 모든 값을 담",
            ),
        },
    ),
)


def probe_bool_one_byte(device: Device) -> Observation:
    return _one_byte_rule("bool")


def control_int32_one_byte(device: Device) -> Observation:
    return _one_byte_rule("int32")


def _one_byte_rule(name: str) -> Observation:
    import torch

    tensor: Any = torch.zeros(1000, dtype=_dtype(name))
    storage = tensor.untyped_storage().nbytes()
    return Observation(
        holds=tensor.element_size() == 1 and tensor.nbytes == storage == 1000,
        rule=f"holds if a {name} element takes 1 byte (element_size) and 1000 {name} elements "
        "take 1000 bytes, in the tensor and in its storage",
        measurements=(
            Measurement(f"nm-element-size-{name}", tensor.element_size(), "bytes"),
            Measurement(f"nm-storage-bytes-1000-{name}", storage, "bytes"),
        ),
    )


BOOL_ONE_BYTE = Claim(
    id="numerics/bool-takes-one-byte",
    statement="A torch.bool element takes 1 byte: 1000 bool elements take 1000 bytes.",
    expect=Expect.HOLDS,
    probe=probe_bool_one_byte,
    control=Control(
        "int32 in place of bool",
        control_int32_one_byte,
        measures=("nm-element-size-int32", "nm-storage-bytes-1000-int32"),
    ),
    devices=("cpu",),
    measures=("nm-element-size-bool", "nm-storage-bytes-1000-bool"),
    vocabulary=Vocabulary(
        subjects=("torch.bool", "bool"),
        predicates={
            "en": ("1 byte", "one byte", "a byte per", "a full byte"),
            "ja": ("1 バイト", "1バイト"),
            "ko": ("1 바이트", "1바이트"),
        },
    ),
)


CLAIMS = (
    FLOAT32_LAYOUT,
    FLOAT32_SEVEN_DIGITS,
    MYTH_BFLOAT16_THREE_DIGITS,
    BFLOAT16_COARSER,
    MYTH_BFLOAT16_HOLDS_EVERY_FLOAT32,
    BOOL_ONE_BYTE,
)
