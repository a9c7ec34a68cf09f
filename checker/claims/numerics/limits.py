"""Claims of "The edges of the two formats" (docs/topics/numerics-facts.md,
``(nm-limits)=``)."""

from __future__ import annotations

import math

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.numerics._words import BFLOAT16, FLOAT16, _g
from checker.claims.numerics.formats import _as, _dtype
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_float16_smallest_normal(device: Device) -> Observation:
    return _smallest_normal_rule("float16")


def control_bfloat16_smallest_normal(device: Device) -> Observation:
    return _smallest_normal_rule("bfloat16")


def _smallest_normal_rule(name: str) -> Observation:
    import torch

    normal = float(torch.finfo(_dtype(name)).smallest_normal)
    subnormal, lost = _as(1e-7, name), _as(2e-8, name)
    return Observation(
        holds=normal == 2.0**-14 and 0.0 < subnormal < normal and lost == 0.0,
        rule=f"holds if the smallest normal {name} value (torch.finfo) is 2**-14, 1e-7 stays "
        f"non-zero in {name} below it, and 2e-8 becomes 0",
        measurements=(
            Measurement(f"nm-{name}-smallest-normal", _g(normal), "text"),
            Measurement(f"nm-{name}-of-1e-7", _g(subnormal), "text"),
            Measurement(f"nm-{name}-of-2e-8", _g(lost), "text"),
        ),
    )


FLOAT16_SMALLEST_NORMAL = Claim(
    id="numerics/float16-smallest-normal",
    statement="The smallest normal float16 value is 2**-14, about 6.1e-5; below it float16 "
    "keeps subnormal values down to about 6e-8, and 2e-8 becomes 0.",
    expect=Expect.HOLDS,
    probe=probe_float16_smallest_normal,
    control=Control(
        "bfloat16 in place of float16",
        control_bfloat16_smallest_normal,
        measures=("nm-bfloat16-smallest-normal", "nm-bfloat16-of-1e-7", "nm-bfloat16-of-2e-8"),
    ),
    devices=("cpu",),
    measures=("nm-float16-smallest-normal", "nm-float16-of-1e-7", "nm-float16-of-2e-8"),
    vocabulary=Vocabulary(
        subjects=FLOAT16,
        predicates={
            "en": ("smallest normal", "smallest positive normal", "6.1e-5", "6.10e-5"),
            "ja": ("最小の正規", "正規化数の最小", "6.1e-5", "6.10e-5"),
            "ko": ("최소 정규", "가장 작은 정규", "6.1e-5", "6.10e-5"),
        },
    ),
)


def probe_float16_rounds_to_max(device: Device) -> Observation:
    return _near_max_rule("float16")


def control_float32_near_max(device: Device) -> Observation:
    return _near_max_rule("float32")


def _near_max_rule(name: str) -> Observation:
    import torch

    top = torch.tensor(65504.0, dtype=_dtype(name))
    below = float(torch.nextafter(top, torch.zeros((), dtype=_dtype(name))).item())
    stored = _as(65500.0, name)
    return Observation(
        holds=stored == 65504.0 and 65504.0 - below == 32.0,
        rule=f"holds if 65500 stored as {name} reads back as 65504 and the next {name} value "
        "below 65504 is 32 lower",
        measurements=(
            Measurement(f"nm-{name}-of-65500", _g(stored), "text"),
            Measurement(f"nm-{name}-below-65504", _g(below), "text"),
        ),
    )


FLOAT16_ROUNDS_TO_65504 = Claim(
    id="numerics/float16-65500-becomes-65504",
    statement="Stored as float16, 65500 becomes 65504: near the top of its range, float16 "
    "values are 32 apart.",
    expect=Expect.HOLDS,
    probe=probe_float16_rounds_to_max,
    control=Control(
        "float32 in place of float16",
        control_float32_near_max,
        measures=("nm-float32-of-65500", "nm-float32-below-65504"),
    ),
    devices=("cpu",),
    measures=("nm-float16-of-65500", "nm-float16-below-65504"),
    vocabulary=Vocabulary(
        subjects=FLOAT16,
        predicates={lang: ("65500",) for lang in ("en", "ja", "ko")},
    ),
)


def probe_bfloat16_max(device: Device) -> Observation:
    return _wide_max_rule("bfloat16")


def control_float16_wide_max(device: Device) -> Observation:
    return _wide_max_rule("float16")


def _wide_max_rule(name: str) -> Observation:
    import torch

    largest = float(torch.finfo(_dtype(name)).max)
    single = float(torch.finfo(torch.float32).max)
    stored = _as(3e38, name)
    return Observation(
        holds=3.38e38 < largest < single and math.isfinite(stored),
        rule=f"holds if the largest finite {name} value (torch.finfo) lies between 3.38e38 and "
        f"float32's largest value, and 3e38 stays finite in {name}",
        measurements=(
            Measurement(f"nm-{name}-max-value", _g(largest), "text"),
            Measurement(f"nm-{name}-of-3e38", _g(stored), "text"),
        )
        + (
            (Measurement("nm-float32-max-value", _g(single), "text"),) if name == "bfloat16" else ()
        ),
    )


BFLOAT16_MAX_NEAR_FLOAT32 = Claim(
    id="numerics/bfloat16-max-near-float32",
    statement="The largest bfloat16 value is about 3.39e38, just below float32's 3.40e38: a "
    "value of 3e38 stays finite in bfloat16.",
    expect=Expect.HOLDS,
    probe=probe_bfloat16_max,
    control=Control(
        "float16 in place of bfloat16",
        control_float16_wide_max,
        measures=("nm-float16-max-value", "nm-float16-of-3e38"),
    ),
    devices=("cpu",),
    measures=("nm-bfloat16-max-value", "nm-bfloat16-of-3e38", "nm-float32-max-value"),
    vocabulary=Vocabulary(
        subjects=BFLOAT16,
        predicates={
            lang: ("3.39e38", "3.39e+38", "3.4e38", "3.39 ×", "3.39×")
            for lang in ("en", "ja", "ko")
        },
    ),
)


#: 1e-39 lies below bfloat16's smallest normal value (about 1.18e-38); 1e-41 lies below half
#: its smallest subnormal value (2**-133, about 9.2e-41), where every format gives 0.
SUBNORMAL, BELOW_SUBNORMALS = 1e-39, 1e-41


def probe_bfloat16_flushes_subnormals(device: Device) -> Observation:
    return _flush_rule(SUBNORMAL)


def control_value_below_subnormals(device: Device) -> Observation:
    return _flush_rule(BELOW_SUBNORMALS)


def _flush_rule(value: float) -> Observation:
    import torch

    normal = float(torch.finfo(torch.bfloat16).smallest_normal)
    stored = _as(value, "bfloat16")
    key = "subnormal" if value == SUBNORMAL else "tiny"
    return Observation(
        holds=stored == 0.0,
        rule=f"holds if {value:g}, below bfloat16's smallest normal value, becomes 0 when "
        "stored as bfloat16",
        measurements=(
            Measurement(f"nm-bfloat16-{key}-input", f"{value:g}", "text"),
            Measurement(f"nm-bfloat16-{key}-stored", _g(stored), "text"),
        )
        + ((Measurement("nm-bfloat16-normal-min", _g(normal), "text"),) if key == "tiny" else ()),
    )


MYTH_BFLOAT16_FLUSHES_SUBNORMALS = Claim(
    id="numerics/myth-bfloat16-flushes-subnormals",
    statement="bfloat16 has no subnormal values: a value below its smallest normal value, "
    "about 1.2e-38, becomes 0.",
    expect=Expect.FAILS,
    probe=probe_bfloat16_flushes_subnormals,
    control=Control(
        "a value below bfloat16's smallest subnormal value",
        control_value_below_subnormals,
        measures=("nm-bfloat16-tiny-input", "nm-bfloat16-tiny-stored", "nm-bfloat16-normal-min"),
    ),
    devices=("cpu",),
    measures=("nm-bfloat16-subnormal-input", "nm-bfloat16-subnormal-stored"),
    vocabulary=Vocabulary(
        subjects=BFLOAT16,
        predicates={
            "en": ("flush", "no subnormal", "no denormal"),
            "ja": (
                "フラッシュ",
                "非正規化数がな",
                "非正規化数はな",
                "非正規化数がありません",
                "非正規化数はありません",
                "非正規化数を持たな",
                "非正規化数を持ちません",
            ),
            "ko": (
                "플러시",
                "비정규화 수가 없",
                "비정규 수가 없",
                "비정규 수는 없",
                "서브노멀이 없",
            ),
        },
        # flushing on request is another case: torch.set_flush_denormal(True)
        unless={lang: ("set_flush_denormal", "flush_denormal") for lang in ("en", "ja", "ko")},
    ),
)


def probe_exact_integers(device: Device) -> Observation:
    return _exact_integers_rule(("bfloat16", 256), ("float16", 2048))


def control_float32_exact_integers(device: Device) -> Observation:
    return _exact_integers_rule(("float32", 256), ("float64", 2048))


def _exact_integers_rule(first: tuple[str, int], second: tuple[str, int]) -> Observation:
    import torch

    measurements, holds = [], True
    for name, limit in (first, second):
        ints = torch.arange(-limit, limit + 1, dtype=torch.float64)
        exact = bool((ints.to(_dtype(name)).double() == ints).all())
        beyond = float(torch.tensor(limit + 1.0, dtype=torch.float64).to(_dtype(name)).item())
        holds = holds and exact and beyond != limit + 1
        measurements += [
            Measurement(f"nm-{name}-exact-to-{limit}", str(exact).lower(), "text"),
            Measurement(f"nm-{name}-of-{limit + 1}", _g(beyond), "text"),
        ]
    (name1, limit1), (name2, limit2) = first, second
    return Observation(
        holds=holds,
        rule=f"holds if every integer from -{limit1} to {limit1} is exact in {name1} while "
        f"{limit1 + 1} is not, and every integer from -{limit2} to {limit2} is exact in {name2} "
        f"while {limit2 + 1} is not",
        measurements=tuple(measurements),
    )


EXACT_INTEGERS = Claim(
    id="numerics/exact-integers-to-256-and-2048",
    statement="bfloat16 represents every integer from -256 to 256 exactly and float16 every "
    "integer from -2048 to 2048; beyond, 257 becomes 256 in bfloat16 and 2049 becomes 2048 in "
    "float16.",
    expect=Expect.HOLDS,
    probe=probe_exact_integers,
    control=Control(
        "float32 and float64 in place of bfloat16 and float16",
        control_float32_exact_integers,
        measures=(
            "nm-float32-exact-to-256",
            "nm-float32-of-257",
            "nm-float64-exact-to-2048",
            "nm-float64-of-2049",
        ),
    ),
    devices=("cpu",),
    measures=(
        "nm-bfloat16-exact-to-256",
        "nm-bfloat16-of-257",
        "nm-float16-exact-to-2048",
        "nm-float16-of-2049",
    ),
    vocabulary=Vocabulary(
        subjects=BFLOAT16 + FLOAT16,
        predicates={
            "en": ("integers … exact", "integer … exactly"),
            "ja": ("整数 … 正確", "整数 … 厳密"),
            "ko": ("정수 … 정확", "정수 … 정확히"),
        },
    ),
)


#: 2**24: float32's 23 stored mantissa bits and its implicit one bit cover every integer up
#: to this value.
FLOAT32_EXACT_LIMIT = 2**24


def probe_float32_exact_integers(device: Device) -> Observation:
    return _float32_exact_rule("float32")


def control_float64_exact_integers(device: Device) -> Observation:
    return _float32_exact_rule("float64")


def _float32_exact_rule(name: str) -> Observation:
    import torch

    top = FLOAT32_EXACT_LIMIT
    ints = torch.arange(top - 4096, top + 1, dtype=torch.int64)
    exact = bool((ints.to(_dtype(name)).to(torch.int64) == ints).all())
    beyond = int(torch.tensor(top + 1, dtype=torch.int64).to(_dtype(name)).to(torch.int64).item())
    return Observation(
        holds=exact and beyond == top,
        rule=f"holds if every integer from {top - 4096} to {top} is exact in {name} while "
        f"{top + 1} becomes {top}",
        measurements=(
            Measurement(f"nm-{name}-exact-to-2-24", str(exact).lower(), "text"),
            Measurement(f"nm-{name}-of-2-24-plus-1", beyond, "count"),
        ),
    )


FLOAT32_EXACT_INTEGERS = Claim(
    id="numerics/float32-exact-integers-to-2-24",
    statement="float32 represents every integer up to 2**24 = 16777216 exactly; 16777217 becomes "
    "16777216.",
    expect=Expect.HOLDS,
    probe=probe_float32_exact_integers,
    control=Control(
        "float64 in place of float32",
        control_float64_exact_integers,
        measures=("nm-float64-exact-to-2-24", "nm-float64-of-2-24-plus-1"),
    ),
    devices=("cpu",),
    measures=("nm-float32-exact-to-2-24", "nm-float32-of-2-24-plus-1"),
    vocabulary=Vocabulary(
        subjects=("float32", "fp32", "FP32", "単精度", "단정밀도"),
        predicates={
            lang: ("2**24", "2^24", "16777216", "16,777,216") for lang in ("en", "ja", "ko")
        },
    ),
)


CLAIMS = (
    FLOAT16_SMALLEST_NORMAL,
    FLOAT16_ROUNDS_TO_65504,
    BFLOAT16_MAX_NEAR_FLOAT32,
    MYTH_BFLOAT16_FLUSHES_SUBNORMALS,
    EXACT_INTEGERS,
    FLOAT32_EXACT_INTEGERS,
)
