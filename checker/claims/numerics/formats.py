"""Claims of "float16 and bfloat16" (docs/topics/numerics-facts.md, ``(nm-formats)=``)."""

from __future__ import annotations

import math
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.numerics._words import BFLOAT16, FLOAT16, _g
from checker.evidence import Measurement, Observation
from checker.typing import Device


def _dtype(name: str) -> Any:
    import torch

    return getattr(torch, name)


def _as(value: float, name: str) -> float:
    """``value`` stored in the dtype ``name`` and read back."""
    import torch

    return float(torch.tensor(value, dtype=torch.float32).to(_dtype(name)).item())


def probe_float16_max(device: Device) -> Observation:
    return _max_rule("float16")


def control_bfloat16_max(device: Device) -> Observation:
    return _max_rule("bfloat16")


def _max_rule(name: str) -> Observation:
    import torch

    largest = float(torch.finfo(_dtype(name)).max)
    kept, beyond = _as(65504.0, name), _as(65520.0, name)
    return Observation(
        holds=largest == 65504.0 and kept == 65504.0 and beyond == math.inf,
        rule=f"holds if the largest finite {name} value (torch.finfo) is 65504, 65504 stays "
        f"65504 and 65520 becomes inf in {name}",
        measurements=(
            Measurement(f"nm-{name}-max", _g(largest), "text"),
            Measurement(f"nm-{name}-of-65520", _g(beyond), "text"),
        ),
    )


FLOAT16_MAX = Claim(
    id="numerics/float16-max-is-65504",
    statement="The largest finite float16 value is 65504; a value from 65520 up becomes inf.",
    expect=Expect.HOLDS,
    probe=probe_float16_max,
    control=Control(
        "bfloat16 in place of float16",
        control_bfloat16_max,
        measures=("nm-bfloat16-max", "nm-bfloat16-of-65520"),
    ),
    devices=("cpu",),
    measures=("nm-float16-max", "nm-float16-of-65520"),
    vocabulary=Vocabulary(
        subjects=FLOAT16,
        predicates={lang: ("65504", "65,504", "65 504") for lang in ("en", "ja", "ko")},
    ),
)


#: Elements summed: 262144 values of 1 add up to 2**18, four times float16's largest value.
MANY = 262144
#: Elements summed in the control: 1024 values of 1 stay far below 65504.
FEW = 1024


def probe_float16_sum(device: Device) -> Observation:
    return _sum_rule(MANY)


def control_float16_small_sum(device: Device) -> Observation:
    return _sum_rule(FEW)


def _sum_rule(count: int) -> Observation:
    import torch

    half = float(torch.ones(count, dtype=torch.float16).sum().item())
    brain = float(torch.ones(count, dtype=torch.bfloat16).sum().item())
    single = float(torch.ones(count, dtype=torch.float32).sum().item())
    return Observation(
        holds=half == math.inf and brain == single == count,
        rule=f"holds if the sum of {count} float16 values of 1 is inf while the same sum in "
        f"bfloat16 and float32 is {count}",
        measurements=(
            Measurement(f"nm-sum-{count}-float16", _g(half), "text"),
            Measurement(f"nm-sum-{count}-bfloat16", _g(brain), "text"),
            Measurement(f"nm-sum-{count}-float32", _g(single), "text"),
        ),
    )


FLOAT16_SUM_OVERFLOWS = Claim(
    id="numerics/float16-sum-overflows",
    statement="A float16 sum whose result passes 65504 is inf: adding up 262144 float16 values "
    "of 1 gives inf, while in bfloat16 and float32 it gives 262144.",
    expect=Expect.HOLDS,
    probe=probe_float16_sum,
    control=Control(
        "a sum of 1024 values of 1",
        control_float16_small_sum,
        measures=("nm-sum-1024-float16", "nm-sum-1024-bfloat16", "nm-sum-1024-float32"),
    ),
    devices=("cpu",),
    measures=("nm-sum-262144-float16", "nm-sum-262144-bfloat16", "nm-sum-262144-float32"),
    vocabulary=Vocabulary(
        subjects=FLOAT16,
        predicates={
            "en": (
                "sum … overflow",
                "sum … inf",
                "summ … overflow",
                "summ … inf",
                "add … overflow",
            ),
            "ja": ("合計 … オーバーフロー", "合計 … inf", "総和 … オーバーフロー", "総和 … inf"),
            "ko": ("합 … 오버플로", "합 … inf", "합계 … 오버플로", "더하 … 오버플로"),
        },
    ),
)


def probe_float16_digits(device: Device) -> Observation:
    return _digits_rule("float16")


def control_float32_digits(device: Device) -> Observation:
    return _digits_rule("float32")


def _digits_rule(name: str) -> Observation:
    import torch

    resolution = float(torch.finfo(_dtype(name)).resolution)
    lost, kept = _as(1.0004, name), _as(1.004, name)
    return Observation(
        holds=resolution == 0.001 and lost == 1.0 and kept != 1.0,
        rule=f"holds if the decimal resolution of {name} (torch.finfo) is 0.001, 1.0004 "
        f"becomes 1.0 in {name} and 1.004 does not",
        measurements=(
            Measurement(f"nm-{name}-resolution", _g(resolution), "text"),
            Measurement(f"nm-{name}-of-1-0004", _g(lost), "text"),
            Measurement(f"nm-{name}-of-1-004", _g(kept), "text"),
        ),
    )


FLOAT16_THREE_DIGITS = Claim(
    id="numerics/float16-three-decimal-digits",
    statement="float16 keeps about 3 significant decimal digits: 1.0004 becomes 1.0, while "
    "1.004 stays distinct from 1.",
    expect=Expect.HOLDS,
    probe=probe_float16_digits,
    control=Control(
        "float32 in place of float16",
        control_float32_digits,
        measures=("nm-float32-resolution", "nm-float32-of-1-0004", "nm-float32-of-1-004"),
    ),
    devices=("cpu",),
    measures=("nm-float16-resolution", "nm-float16-of-1-0004", "nm-float16-of-1-004"),
    vocabulary=Vocabulary(
        subjects=FLOAT16,
        predicates={
            "en": ("decimal digit", "significant digit", "3 digits", "three digits"),
            "ja": ("有効数字", "10進数で", "10 進数で", "十進数で", "桁程度"),
            "ko": ("유효 숫자", "유효숫자", "10진수로", "십진수로", "자릿수"),
        },
    ),
)


def probe_sixteen_bit_sizes(device: Device) -> Observation:
    return _size_rule("float16", "bfloat16")


def control_wider_sizes(device: Device) -> Observation:
    return _size_rule("float64", "int64")


def _size_rule(first: str, second: str) -> Observation:
    import torch

    sizes = {name: torch.empty(1000, dtype=_dtype(name)).nbytes for name in (first, second)}
    reference = (
        (Measurement("nm-bytes-1000-float32", torch.empty(1000).nbytes, "bytes"),)
        if first == "float16"
        else ()
    )
    return Observation(
        holds=sizes[first] == sizes[second] == 2000,
        rule=f"holds if 1000 elements take 2000 bytes in {first} and in {second}",
        measurements=tuple(
            Measurement(f"nm-bytes-1000-{name}", size, "bytes") for name, size in sizes.items()
        )
        + reference,
    )


SIXTEEN_BIT_TYPES_TAKE_TWO_BYTES = Claim(
    id="numerics/sixteen-bit-types-take-two-bytes",
    statement="A float16 or a bfloat16 element takes 2 bytes, half of float32's 4; neither "
    "16-bit format takes less memory than the other.",
    expect=Expect.HOLDS,
    probe=probe_sixteen_bit_sizes,
    control=Control(
        "float64 and int64 in place of float16 and bfloat16",
        control_wider_sizes,
        measures=("nm-bytes-1000-float64", "nm-bytes-1000-int64"),
    ),
    devices=("cpu",),
    measures=("nm-bytes-1000-float16", "nm-bytes-1000-bfloat16", "nm-bytes-1000-float32"),
    vocabulary=Vocabulary(
        subjects=FLOAT16 + BFLOAT16,
        predicates={
            "en": ("2 bytes", "two bytes", "2-byte", "half the memory of float32"),
            "ja": ("2バイト", "2 バイト"),
            "ko": ("2바이트", "2 바이트"),
        },
    ),
)


def probe_format_bits(device: Device) -> Observation:
    return _bits_rule("float16", "bfloat16")


def control_wider_format_bits(device: Device) -> Observation:
    return _bits_rule("float32", "float64")


def _bits(name: str) -> tuple[int, int]:
    """(exponent bits, explicit mantissa bits) of a floating dtype, read from ``torch.finfo``:
    eps is 2**-mantissa, and the largest value lies below 2**(2**(exponent - 1))."""
    import torch

    info = torch.finfo(_dtype(name))
    mantissa = round(-math.log2(info.eps))
    _, top = math.frexp(info.max)  # max = m * 2**top with 0.5 <= m < 1
    return round(math.log2(top)) + 1, mantissa


def _bits_rule(first: str, second: str) -> Observation:
    import torch

    (e1, m1), (e2, m2) = _bits(first), _bits(second)
    same_range = torch.finfo(_dtype(second)).smallest_normal == torch.finfo(torch.float32).tiny
    return Observation(
        holds=(e1, m1, e2, m2) == (5, 10, 8, 7) and same_range,
        rule=f"holds if {first} has 5 exponent and 10 mantissa bits, {second} 8 and 7 (read "
        f"from torch.finfo), and {second}'s smallest normal value is float32's",
        measurements=(
            Measurement(f"nm-{first}-exponent-bits", e1, "count"),
            Measurement(f"nm-{first}-mantissa-bits", m1, "count"),
            Measurement(f"nm-{second}-exponent-bits", e2, "count"),
            Measurement(f"nm-{second}-mantissa-bits", m2, "count"),
        ),
    )


FORMAT_BITS = Claim(
    id="numerics/float16-bfloat16-bits",
    statement="float16 has 5 exponent bits and 10 mantissa bits, bfloat16 8 and 7: bfloat16 "
    "has the range of float32, float16 three more bits of precision.",
    expect=Expect.HOLDS,
    probe=probe_format_bits,
    control=Control(
        "float32 and float64 in place of float16 and bfloat16",
        control_wider_format_bits,
        measures=(
            "nm-float32-exponent-bits",
            "nm-float32-mantissa-bits",
            "nm-float64-exponent-bits",
            "nm-float64-mantissa-bits",
        ),
    ),
    devices=("cpu",),
    measures=(
        "nm-float16-exponent-bits",
        "nm-float16-mantissa-bits",
        "nm-bfloat16-exponent-bits",
        "nm-bfloat16-mantissa-bits",
    ),
    vocabulary=Vocabulary(
        subjects=FLOAT16 + BFLOAT16,
        predicates={
            "en": ("exponent bit", "mantissa bit", "fraction bit", "bits of exponent"),
            "ja": ("指数部", "仮数部", "指数ビット", "仮数ビット"),
            "ko": ("지수부", "가수부", "지수 비트", "가수 비트"),
        },
    ),
)


#: float32 values whose conversion is tested: 1 + k / 2**15 for k = 1 .. 255, which covers
#: every pattern of the 8 mantissa bits below bfloat16's 7.
STEPS = 255


def probe_bfloat16_truncates(device: Device) -> Observation:
    return _truncation_rule(low_half_only=False)


def control_values_truncation_keeps(device: Device) -> Observation:
    return _truncation_rule(low_half_only=True)


def _truncation_rule(low_half_only: bool) -> Observation:
    import torch

    values = 1.0 + torch.arange(1, STEPS + 1, dtype=torch.float32) / 2**15
    if low_half_only:
        # the dropped half below its midpoint: truncating and rounding give the same value
        values = values[(values.view(torch.int32) & 0xFFFF) < 0x8000]
    truncated = (values.view(torch.int32) & ~0xFFFF).view(torch.float32)
    converted = values.to(torch.bfloat16).to(torch.float32)
    equal, count = int((converted == truncated).sum()), len(values)
    return Observation(
        holds=equal == count,
        rule=f"holds if converting each of {count} float32 values "
        + ("whose low 16 bits are below 0x8000 " if low_half_only else "")
        + "to bfloat16 gives the value with its low 16 bits cleared",
        measurements=(
            Measurement(f"nm-{'low-' if low_half_only else ''}values", count, "count"),
            Measurement(f"nm-{'low-' if low_half_only else ''}values-truncated", equal, "count"),
        ),
    )


MYTH_BFLOAT16_TRUNCATES = Claim(
    id="numerics/myth-bfloat16-truncates-float32",
    statement="Converting float32 to bfloat16 truncates: it keeps the upper 16 bits and drops "
    "the rest without rounding.",
    expect=Expect.FAILS,
    probe=probe_bfloat16_truncates,
    control=Control(
        "values whose dropped bits are below half a step",
        control_values_truncation_keeps,
        measures=("nm-low-values", "nm-low-values-truncated"),
    ),
    devices=("cpu",),
    measures=("nm-values", "nm-values-truncated"),
    vocabulary=Vocabulary(
        subjects=BFLOAT16,
        predicates={
            "en": ("truncat",),
            "ja": ("切り捨て",),
            "ko": ("truncat", "잘라내", "잘라낸", "잘라낼", "잘라냅", "잘라 내", "버림"),
        },
        opposites={
            "en": (
                "round to nearest",
                "rounds to nearest",
                "round-to-nearest",
                "rounded to nearest",
            ),
            "ja": ("最近接", "偶数丸め"),
            "ko": ("최근접", "가장 가까운 값으로 반올림"),
        },
    ),
)


CLAIMS = (
    FLOAT16_MAX,
    FLOAT16_SUM_OVERFLOWS,
    FLOAT16_THREE_DIGITS,
    SIXTEEN_BIT_TYPES_TAKE_TWO_BYTES,
    FORMAT_BITS,
    MYTH_BFLOAT16_TRUNCATES,
)
