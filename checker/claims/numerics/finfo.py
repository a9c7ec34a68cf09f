"""Claims of "What torch.finfo reports" (docs/topics/numerics-facts.md, ``(nm-finfo)=``).

Each probe compares a value of ``torch.finfo`` with what the format itself does: the next
value above 1 (``torch.nextafter``), the values just below the smallest normal value, and
what half of a value becomes when it is stored in the format.
"""

from __future__ import annotations

import math
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.numerics._words import BFLOAT16, FLOAT16, _g
from checker.claims.numerics.formats import _dtype
from checker.evidence import Measurement, Observation
from checker.typing import Device

#: The floating dtypes whose torch.finfo the general claims compare.
FLOATS = ("float16", "bfloat16", "float32", "float64")


def _scalar(value: float, name: str) -> Any:
    import torch

    return torch.tensor(value, dtype=_dtype(name))


def _next_above_one(name: str) -> float:
    import torch

    one = _scalar(1.0, name)
    return float(torch.nextafter(one, one + 1).item())


def _fields(value: Any, name: str) -> tuple[int, int]:
    """(exponent field, mantissa field) of the bit pattern of a scalar tensor of ``name``;
    the mantissa's width is read from ``torch.finfo`` (eps is 2**-mantissa)."""
    import torch

    info = torch.finfo(_dtype(name))
    mantissa = round(-math.log2(info.eps))
    width = info.bits
    ints = {16: torch.int16, 32: torch.int32, 64: torch.int64}[width]
    pattern = int(value.view(ints).item()) & ((1 << width) - 1)
    return (pattern >> mantissa) & ((1 << (width - 1 - mantissa)) - 1), pattern & (
        (1 << mantissa) - 1
    )


def probe_finfo_eps_is_gap(device: Device) -> Observation:
    return _gap_rule("eps")


def control_finfo_resolution_as_gap(device: Device) -> Observation:
    return _gap_rule("resolution")


def _gap_rule(attribute: str) -> Observation:
    import torch

    matching = 0
    for name in FLOATS:
        value = float(getattr(torch.finfo(_dtype(name)), attribute))
        gap = _next_above_one(name) - 1.0
        moved = float((_scalar(1.0, name) + _scalar(value, name)).item())
        matching += value == gap and moved != 1.0
    single = float(getattr(torch.finfo(torch.float32), attribute))
    return Observation(
        holds=matching == len(FLOATS),
        rule=f"holds if, in float16, bfloat16, float32 and float64, torch.finfo(dtype)."
        f"{attribute} equals the gap between 1 and the next value above 1, and 1 + "
        f"{attribute} differs from 1",
        measurements=(
            Measurement(f"nm-finfo-{attribute}-is-gap-dtypes", matching, "count"),
            Measurement(f"nm-finfo-{attribute}-float32", _g(single), "text"),
        )
        + (
            (Measurement("nm-gap-above-1-float32", _g(_next_above_one("float32") - 1.0), "text"),)
            if attribute == "eps"
            else ()
        ),
    )


FINFO_EPS_IS_GAP = Claim(
    id="numerics/finfo-eps-is-gap-above-one",
    statement="torch.finfo(dtype).eps is the gap between 1 and the next value of the dtype, "
    "so 1 + eps differs from 1, in float16, bfloat16, float32 and float64 alike.",
    expect=Expect.HOLDS,
    probe=probe_finfo_eps_is_gap,
    control=Control(
        "torch.finfo(dtype).resolution in place of eps",
        control_finfo_resolution_as_gap,
        measures=("nm-finfo-resolution-is-gap-dtypes", "nm-finfo-resolution-float32"),
    ),
    devices=("cpu",),
    measures=("nm-finfo-eps-is-gap-dtypes", "nm-finfo-eps-float32", "nm-gap-above-1-float32"),
    vocabulary=Vocabulary(
        subjects=(
            "finfo",
            ".eps",
            "machine epsilon",
            "マシンイプシロン",
            "機械イプシロン",
            "머신 엡실론",
        ),
        predicates={
            "en": ("next representable", "next value above 1", "1 + eps", "gap between 1"),
            "ja": ("次に表せる", "1 の次の", "1の次の", "1 + eps", "1 より大きい最小"),
            "ko": ("다음 값", "다음으로 표현", "1 + eps", "1보다 큰 가장 작은"),
        },
    ),
)


def probe_bfloat16_eps(device: Device) -> Observation:
    return _next_above_one_rule("bfloat16", 7)


def control_float32_eps(device: Device) -> Observation:
    return _next_above_one_rule("float32", 7)


def probe_float16_next_above_one(device: Device) -> Observation:
    return _next_above_one_rule("float16", 10)


def control_float64_next_above_one(device: Device) -> Observation:
    return _next_above_one_rule("float64", 10)


def _next_above_one_rule(name: str, exponent: int) -> Observation:
    import torch

    eps = float(torch.finfo(_dtype(name)).eps)
    above = _next_above_one(name)
    quarter = float(_scalar(1.0 + 2.0 ** -(exponent + 2), name).item())
    return Observation(
        holds=eps == 2.0**-exponent and above == 1.0 + 2.0**-exponent and quarter == 1.0,
        rule=f"holds if torch.finfo({name}).eps is 2**-{exponent}, the next {name} value above "
        f"1 is 1 + 2**-{exponent}, and 1 + 2**-{exponent + 2} becomes 1 in {name}",
        measurements=(
            Measurement(f"nm-{name}-eps", _g(eps), "text"),
            Measurement(f"nm-{name}-next-above-1", repr(above), "text"),
            Measurement(f"nm-{name}-of-1-plus-quarter-step", _g(quarter), "text"),
        ),
    )


BFLOAT16_EPS = Claim(
    id="numerics/bfloat16-eps-2-pow-minus-7",
    statement="The machine epsilon of bfloat16 is 2**-7 = 0.0078125: the next bfloat16 value "
    "above 1 is 1.0078125.",
    expect=Expect.HOLDS,
    probe=probe_bfloat16_eps,
    control=Control(
        "float32 in place of bfloat16",
        control_float32_eps,
        measures=(
            "nm-float32-eps",
            "nm-float32-next-above-1",
            "nm-float32-of-1-plus-quarter-step",
        ),
    ),
    devices=("cpu",),
    measures=(
        "nm-bfloat16-eps",
        "nm-bfloat16-next-above-1",
        "nm-bfloat16-of-1-plus-quarter-step",
    ),
    vocabulary=Vocabulary(
        subjects=BFLOAT16,
        predicates={
            lang: ("2**-7", "2^-7", "2^(-7)", "0.0078125", "0.0078", "1.0078125")
            for lang in ("en", "ja", "ko")
        },
    ),
)


FLOAT16_NEXT_ABOVE_ONE = Claim(
    id="numerics/float16-next-above-one",
    statement="The next float16 value above 1 is 1 + 2**-10, about 1.00098; 1 + 2**-12 "
    "stored as float16 becomes 1.",
    expect=Expect.HOLDS,
    probe=probe_float16_next_above_one,
    control=Control(
        "float64 in place of float16",
        control_float64_next_above_one,
        measures=(
            "nm-float64-eps",
            "nm-float64-next-above-1",
            "nm-float64-of-1-plus-quarter-step",
        ),
    ),
    devices=("cpu",),
    measures=("nm-float16-eps", "nm-float16-next-above-1", "nm-float16-of-1-plus-quarter-step"),
    vocabulary=Vocabulary(
        subjects=FLOAT16,
        predicates={
            lang: ("2**-10", "2^-10", "2^(-10)", "1.00098", "0.000977", "0.0009765625")
            for lang in ("en", "ja", "ko")
        },
    ),
)


def probe_finfo_tiny_is_smallest_normal(device: Device) -> Observation:
    return _smallest_normal_fields_rule(below=False)


def control_largest_subnormal(device: Device) -> Observation:
    return _smallest_normal_fields_rule(below=True)


def _smallest_normal_fields_rule(below: bool) -> Observation:
    import torch

    matching = 0
    for name in FLOATS:
        info = torch.finfo(_dtype(name))
        value = _scalar(float(info.tiny), name)
        if below:  # the largest subnormal value, just below tiny
            value = torch.nextafter(value, torch.zeros_like(value))
        under = torch.nextafter(value, torch.zeros_like(value))
        matching += (
            float(value.item()) == float(info.smallest_normal)
            and _fields(value, name) == (1, 0)
            and _fields(under, name)[0] == 0
        )
    which = "largest-subnormal" if below else "tiny"
    single = _scalar(float(torch.finfo(torch.float32).tiny), "float32")
    if below:
        single = torch.nextafter(single, torch.zeros_like(single))
    return Observation(
        holds=matching == len(FLOATS),
        rule=(
            "holds if, in float16, bfloat16, float32 and float64, the value just below "
            "torch.finfo(dtype).tiny equals smallest_normal, has an exponent field of 1 and a "
            "mantissa of 0, and the next value below it has an exponent field of 0"
            if below
            else "holds if, in float16, bfloat16, float32 and float64, torch.finfo(dtype).tiny "
            "equals smallest_normal, has an exponent field of 1 and a mantissa of 0, and the "
            "next value below it has an exponent field of 0"
        ),
        measurements=(
            Measurement(f"nm-{which}-is-smallest-normal-dtypes", matching, "count"),
            Measurement(f"nm-float32-{which}-value", repr(float(single.item())), "text"),
            Measurement(
                f"nm-float32-{which}-exponent-field", _fields(single, "float32")[0], "count"
            ),
        ),
    )


FINFO_TINY_IS_SMALLEST_NORMAL = Claim(
    id="numerics/finfo-tiny-is-smallest-normal",
    statement="torch.finfo(dtype).tiny equals smallest_normal, the smallest positive normal "
    "value of the dtype; the values below it are subnormal.",
    expect=Expect.HOLDS,
    probe=probe_finfo_tiny_is_smallest_normal,
    control=Control(
        "the largest subnormal value in place of tiny",
        control_largest_subnormal,
        measures=(
            "nm-largest-subnormal-is-smallest-normal-dtypes",
            "nm-float32-largest-subnormal-value",
            "nm-float32-largest-subnormal-exponent-field",
        ),
    ),
    devices=("cpu",),
    measures=(
        "nm-tiny-is-smallest-normal-dtypes",
        "nm-float32-tiny-value",
        "nm-float32-tiny-exponent-field",
    ),
    vocabulary=Vocabulary(
        subjects=("finfo", ".tiny"),
        predicates={
            "en": ("smallest_normal", "smallest normal", "smallest positive normal"),
            "ja": ("smallest_normal", "最小の正規", "正規化数の最小", "最小正規"),
            "ko": ("smallest_normal", "최소 정규", "가장 작은 정규", "가장 작은 양의 정규"),
        },
    ),
)


#: The dtypes the tiny myth is tested on.
SMALL_FLOATS = ("float16", "bfloat16", "float32")


def probe_tiny_smallest_positive(device: Device) -> Observation:
    return _nothing_below_rule(smallest=False)


def control_smallest_positive(device: Device) -> Observation:
    return _nothing_below_rule(smallest=True)


def _nothing_below_rule(smallest: bool) -> Observation:
    import torch

    halves: dict[str, float] = {}
    for name in SMALL_FLOATS:
        value = _scalar(float(torch.finfo(_dtype(name)).tiny), name)
        if smallest:
            value = torch.nextafter(torch.zeros_like(value), torch.ones_like(value))
        halves[name] = float((value / 2).item())
    which = "smallest-positive" if smallest else "tiny"
    below = sum(half > 0.0 for half in halves.values())
    return Observation(
        holds=below == 0,
        rule=(
            "holds if half of the smallest positive value becomes 0 in float16, bfloat16 and "
            "float32: no positive value lies below it"
            if smallest
            else "holds if half of torch.finfo(dtype).tiny becomes 0 in float16, bfloat16 and "
            "float32: no positive value lies below it"
        ),
        measurements=(
            Measurement(f"nm-half-of-{which}-float16", _g(halves["float16"]), "text"),
            Measurement(f"nm-values-below-{which}-dtypes", below, "count"),
        ),
    )


MYTH_TINY_SMALLEST_POSITIVE = Claim(
    id="numerics/myth-finfo-tiny-smallest-positive",
    statement="torch.finfo(dtype).tiny is the smallest positive value the dtype can hold.",
    expect=Expect.FAILS,
    probe=probe_tiny_smallest_positive,
    control=Control(
        "the smallest positive value in place of tiny",
        control_smallest_positive,
        measures=(
            "nm-half-of-smallest-positive-float16",
            "nm-values-below-smallest-positive-dtypes",
        ),
    ),
    devices=("cpu",),
    measures=("nm-half-of-tiny-float16", "nm-values-below-tiny-dtypes"),
    vocabulary=Vocabulary(
        subjects=("finfo", ".tiny"),
        predicates={
            "en": ("smallest positive value", "smallest positive number", "smallest value"),
            "ja": ("最小の正の値", "正の最小値", "最小の正の数"),
            "ko": ("가장 작은 양수", "가장 작은 양의 값", "최소 양수"),
        },
        # "smallest positive normal value" is what tiny is
        unless={lang: ("normal", "正規", "정규") for lang in ("en", "ja", "ko")},
    ),
)


def probe_float16_smallest_subnormal(device: Device) -> Observation:
    return _smallest_positive_rule("float16", 24)


def control_bfloat16_smallest_subnormal(device: Device) -> Observation:
    return _smallest_positive_rule("bfloat16", 24)


def _smallest_positive_rule(name: str, exponent: int) -> Observation:
    import torch

    zero = _scalar(0.0, name)
    smallest = float(torch.nextafter(zero, zero + 1).item())
    stored = float(_scalar(2.0**-exponent, name).item())
    half = float(_scalar(2.0 ** -(exponent + 1), name).item())
    normal = float(torch.finfo(_dtype(name)).smallest_normal)
    return Observation(
        holds=smallest == 2.0**-exponent == stored and half == 0.0 and smallest < normal,
        rule=f"holds if the smallest positive {name} value (torch.nextafter from 0) is "
        f"2**-{exponent}, below the smallest normal value, and 2**-{exponent + 1} becomes 0 in "
        f"{name}",
        measurements=(
            Measurement(f"nm-{name}-smallest-positive", _g(smallest), "text"),
            Measurement(f"nm-{name}-of-half-smallest", _g(half), "text"),
        ),
    )


FLOAT16_SMALLEST_SUBNORMAL = Claim(
    id="numerics/float16-smallest-subnormal",
    statement="The smallest positive float16 value is the subnormal 2**-24, about 6e-8; "
    "2**-25 stored as float16 becomes 0.",
    expect=Expect.HOLDS,
    probe=probe_float16_smallest_subnormal,
    control=Control(
        "bfloat16 in place of float16",
        control_bfloat16_smallest_subnormal,
        measures=("nm-bfloat16-smallest-positive", "nm-bfloat16-of-half-smallest"),
    ),
    devices=("cpu",),
    measures=("nm-float16-smallest-positive", "nm-float16-of-half-smallest"),
    vocabulary=Vocabulary(
        subjects=FLOAT16,
        predicates={
            lang: ("2**-24", "2^-24", "2^(-24)", "5.96e-8", "5.96e-08", "6e-8", "6e-08")
            for lang in ("en", "ja", "ko")
        },
    ),
)


def probe_bfloat16_smallest_normal(device: Device) -> Observation:
    return _float32_normal_rule("bfloat16")


def control_float16_smallest_normal(device: Device) -> Observation:
    return _float32_normal_rule("float16")


def _float32_normal_rule(name: str) -> Observation:
    import torch

    normal = float(torch.finfo(_dtype(name)).smallest_normal)
    single = float(torch.finfo(torch.float32).smallest_normal)
    kept = float(_scalar(single, name).item())
    return Observation(
        holds=normal == single == 2.0**-126 and kept == single,
        rule=f"holds if the smallest normal {name} value (torch.finfo) is 2**-126, float32's "
        f"smallest normal value, and that value stays unchanged when stored as {name}",
        measurements=(
            Measurement(f"nm-{name}-normal-as-float32", _g(normal), "text"),
            Measurement(f"nm-{name}-of-float32-normal", _g(kept), "text"),
        )
        + (
            (Measurement("nm-float32-smallest-normal", _g(single), "text"),)
            if name == "bfloat16"
            else ()
        ),
    )


BFLOAT16_SMALLEST_NORMAL = Claim(
    id="numerics/bfloat16-smallest-normal-as-float32",
    statement="The smallest normal bfloat16 value is 2**-126, about 1.18e-38, the same as "
    "float32's.",
    expect=Expect.HOLDS,
    probe=probe_bfloat16_smallest_normal,
    control=Control(
        "float16 in place of bfloat16",
        control_float16_smallest_normal,
        measures=("nm-float16-normal-as-float32", "nm-float16-of-float32-normal"),
    ),
    devices=("cpu",),
    measures=(
        "nm-bfloat16-normal-as-float32",
        "nm-bfloat16-of-float32-normal",
        "nm-float32-smallest-normal",
    ),
    vocabulary=Vocabulary(
        subjects=BFLOAT16,
        predicates={
            lang: ("1.18e-38", "1.175e-38", "1.1755e-38", "2**-126", "2^-126", "2^(-126)")
            for lang in ("en", "ja", "ko")
        },
    ),
)


CLAIMS = (
    FINFO_EPS_IS_GAP,
    BFLOAT16_EPS,
    FLOAT16_NEXT_ABOVE_ONE,
    FINFO_TINY_IS_SMALLEST_NORMAL,
    MYTH_TINY_SMALLEST_POSITIVE,
    FLOAT16_SMALLEST_SUBNORMAL,
    BFLOAT16_SMALLEST_NORMAL,
)
