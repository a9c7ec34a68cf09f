"""Claims of "Operations at the limits" (docs/topics/numerics-facts.md, ``(nm-operations)=``)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.numerics._dtypes import dtype_name
from checker.claims.numerics._words import _error, _g
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_isfinite_flags_both(device: Device) -> Observation:
    return _flags_rule("isfinite")


def control_isnan_flags(device: Device) -> Observation:
    return _flags_rule("isnan")


def _flags_rule(function: str) -> Observation:
    import torch

    values = torch.tensor([1.0, float("inf"), float("-inf"), float("nan")])
    found = getattr(torch, function)(values)
    flagged = ~found if function == "isfinite" else found
    marks = [bool(v) for v in flagged.tolist()]
    return Observation(
        holds=marks == [False, True, True, True],
        rule=f"holds if torch.{function} tells inf, -inf and nan apart from 1.0, all three "
        "alike, in the tensor [1.0, inf, -inf, nan]",
        measurements=(
            Measurement(f"nm-{function}-result", str([bool(v) for v in found.tolist()]), "text"),
        ),
    )


ISFINITE_FLAGS_INF_AND_NAN = Claim(
    id="numerics/isfinite-flags-inf-and-nan",
    statement="torch.isfinite is False for inf, -inf and nan alike, while torch.isnan flags "
    "only nan.",
    expect=Expect.HOLDS,
    probe=probe_isfinite_flags_both,
    control=Control(
        "torch.isnan in place of torch.isfinite",
        control_isnan_flags,
        measures=("nm-isnan-result",),
    ),
    devices=("cpu",),
    measures=("nm-isfinite-result",),
    vocabulary=Vocabulary(
        subjects=("isfinite",),
        predicates={
            "en": ("inf … nan", "nan … inf", "infinit … NaN", "NaN … infinit"),
            "ja": ("inf … nan", "nan … inf", "-inf、nan", "無限大 … NaN", "NaN … 無限大"),
            "ko": ("inf … nan", "nan … inf", "-inf, nan", "무한대 … NaN", "NaN … 무한대"),
        },
        denies=False,
    ),
)


#: Elements of the dot product: the exact result, 4096, lies past 2048, where float16's
#: spacing becomes 2 and adding 1 to a float16 running sum no longer changes it.
LENGTH = 4096


def probe_matmul_accumulates_wider(device: Device) -> Observation:
    import torch

    row = torch.ones(1, LENGTH, dtype=torch.float16)
    return _accumulation_rule(float((row @ row.T).item()), "matmul")


def control_float16_running_sum(device: Device) -> Observation:
    import torch

    total = torch.zeros((), dtype=torch.float16)
    for product in torch.ones(LENGTH, dtype=torch.float16) * torch.ones(
        LENGTH, dtype=torch.float16
    ):
        total = total + product
    return _accumulation_rule(float(total.item()), "running-sum")


def _accumulation_rule(result: float, key: str) -> Observation:
    return Observation(
        holds=result == LENGTH,
        rule=f"holds if the {LENGTH} products of float16 values of 1 add up to {LENGTH}",
        measurements=(Measurement(f"nm-{key}-of-{LENGTH}-ones", _g(result), "text"),),
    )


CPU_MATMUL_ACCUMULATES_WIDER = Claim(
    id="numerics/cpu-float16-matmul-accumulates-in-float32",
    statement="On the CPU, a float16 matrix product accumulates in float32: the product of a "
    "row of 4096 float16 values of 1 with itself gives 4096, where a float16 running sum stops "
    "at 2048.",
    expect=Expect.HOLDS,
    probe=probe_matmul_accumulates_wider,
    control=Control(
        "the products added one by one in float16",
        control_float16_running_sum,
        measures=("nm-running-sum-of-4096-ones",),
    ),
    devices=("cpu",),
    measures=("nm-matmul-of-4096-ones",),
    vocabulary=Vocabulary(
        subjects=(
            "matmul",
            "matrix product",
            "matrix multiplication",
            "torch.mm",
            "行列積",
            "行列の積",
            "行列乗算",
            "행렬 곱",
            "행렬곱",
        ),
        predicates={
            "en": ("accumulat",),
            "ja": ("累積", "累算"),
            "ko": ("누적", "누산"),
        },
        requires={lang: ("CPU",) for lang in ("en", "ja", "ko")},
        unless={
            lang: ("cuBLAS", "Tensor Core", "tensor core", "GPU") for lang in ("en", "ja", "ko")
        },
    ),
)


#: Finite values beyond float8_e4m3fn's largest value, 448 (464 still rounds down to it).
BEYOND = (465.0, 1000.0, -1000.0)


def probe_float8_saturates(device: Device) -> Observation:
    return _saturation_rule("float8_e4m3fn", 448.0)


def control_float8_e5m2_overflows(device: Device) -> Observation:
    return _saturation_rule("float8_e5m2", 57344.0, scale=128.0)


def _saturation_rule(name: str, largest: float, scale: float = 1.0) -> Observation:
    import torch

    dtype = getattr(torch, name)
    inputs = [value * scale for value in BEYOND]
    stored = [float(v) for v in torch.tensor(inputs).to(dtype).float().tolist()]
    return Observation(
        holds=float(torch.finfo(dtype).max) == largest and stored == [largest, largest, -largest],
        rule=f"holds if the finite values {inputs} converted to {name} give its largest value "
        f"{largest:g} with their signs",
        measurements=(
            Measurement(f"nm-{name.removeprefix('float8_')}-max", _g(largest), "text"),
            Measurement(f"nm-{name.removeprefix('float8_')}-of-beyond", str(stored), "text"),
        ),
    )


FLOAT8_SATURATES = Claim(
    id="numerics/float8-e4m3fn-saturates",
    statement="Converting a finite value beyond 448 to float8_e4m3fn gives 448 (or -448): the "
    "conversion saturates.",
    expect=Expect.HOLDS,
    probe=probe_float8_saturates,
    control=Control(
        "float8_e5m2, whose largest value is 57344, in place of float8_e4m3fn",
        control_float8_e5m2_overflows,
        measures=("nm-e5m2-max", "nm-e5m2-of-beyond"),
    ),
    devices=("cpu",),
    measures=("nm-e4m3fn-max", "nm-e4m3fn-of-beyond"),
    vocabulary=Vocabulary(
        subjects=("float8_e4m3fn", "e4m3fn", "E4M3", "e4m3"),
        predicates={"en": ("saturat",), "ja": ("飽和",), "ko": ("포화",)},
        # out-of-range values said to become nan: the older releases' conversion
        opposites={
            "en": ("out-of-range … nan", "out of range … nan", "overflow … nan", "beyond … nan"),
            "ja": ("範囲外 … nan", "範囲を超え … nan", "オーバーフロー … nan"),
            "ko": ("범위 밖 … nan", "범위를 넘 … nan", "오버플로 … nan"),
        },
    ),
)


#: Halves, where rounding to even and rounding away from zero differ (but for 1.5).
HALVES = (0.5, 1.5, 2.5, -2.5)


def probe_round_half_to_even(device: Device) -> Observation:
    import torch

    return _halves_rule(torch.round, "torch.round")


def control_round_half_away(device: Device) -> Observation:
    import torch

    return _halves_rule(lambda x: torch.trunc(x + 0.5 * x.sign()), "half-away")


def _halves_rule(rounding: Callable[[Any], Any], key: str) -> Observation:
    import torch

    rounded = {
        name: [
            float(v) for v in rounding(torch.tensor(HALVES, dtype=getattr(torch, name))).tolist()
        ]
        for name in ("float32", "float16")
    }
    halves, even = list(HALVES), [0.0, 2.0, 2.0, -2.0]
    slug = "round" if key == "torch.round" else "half-away"
    return Observation(
        holds=all(values == even for values in rounded.values()),
        rule=f"holds if rounding {halves} in float32 and in float16 gives {even}",
        measurements=tuple(
            Measurement(f"nm-{slug}-halves-{name}", str(values), "text")
            for name, values in rounded.items()
        ),
    )


ROUND_HALF_TO_EVEN = Claim(
    id="numerics/round-half-to-even",
    statement="torch.round rounds halves to the nearest even integer: 0.5 gives 0, 1.5 and 2.5 "
    "give 2, and -2.5 gives -2.",
    expect=Expect.HOLDS,
    probe=probe_round_half_to_even,
    control=Control(
        "rounding halves away from zero, torch.trunc(x + 0.5 * x.sign())",
        control_round_half_away,
        measures=("nm-half-away-halves-float32", "nm-half-away-halves-float16"),
    ),
    devices=("cpu",),
    measures=("nm-round-halves-float32", "nm-round-halves-float16"),
    vocabulary=Vocabulary(
        subjects=("torch.round", ".round()"),
        predicates={
            "en": ("half to even", "nearest even", "banker"),
            "ja": ("偶数丸め", "最も近い偶数", "銀行家"),
            "ko": ("짝수", "은행가"),
        },
        opposites={
            "en": ("half away from zero", "halves away from zero", "half up"),
            "ja": ("四捨五入",),
            "ko": ("사사오입",),
        },
        unless={lang: ("decimals", "2.6", "2.7") for lang in ("en", "ja", "ko")},
    ),
)


def probe_cpu_float16_matmul_runs(device: Device) -> Observation:
    return _cpu_matmul_rule("float16")


def control_cpu_complex32_matmul(device: Device) -> Observation:
    return _cpu_matmul_rule("complex32")


def _cpu_matmul_rule(name: str) -> Observation:
    import warnings

    import torch

    dtype = getattr(torch, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # complex32 support is experimental, and says so
        a = torch.ones(2, 2).to(dtype)
        calls: dict[str, Callable[[], torch.Tensor]] = {
            "addmm": lambda: torch.addmm(a, a, a),
            "matmul": lambda: a @ a,
            "linear": lambda: torch.nn.functional.linear(a, a),
        }
        results: dict[str, str] = {}
        for label, call in calls.items():
            raised = _error(call)
            results[label] = raised if raised != "no error" else dtype_name(call().dtype)
    return Observation(
        holds=all(result == name for result in results.values()),
        rule=f"holds if torch.addmm, @ and F.linear of {name} tensors run on the CPU and return "
        f"{name}",
        measurements=tuple(
            Measurement(f"nm-cpu-{label}-{name}", result, "text")
            for label, result in results.items()
        ),
    )


CPU_FLOAT16_MATMUL_RUNS = Claim(
    id="numerics/cpu-float16-matmul-runs",
    statement="On the CPU, float16 matrix products run: torch.addmm, torch.matmul and F.linear of "
    "float16 tensors return float16.",
    expect=Expect.HOLDS,
    probe=probe_cpu_float16_matmul_runs,
    control=Control(
        "complex32 in place of float16",
        control_cpu_complex32_matmul,
        measures=("nm-cpu-addmm-complex32", "nm-cpu-matmul-complex32", "nm-cpu-linear-complex32"),
    ),
    devices=("cpu",),
    measures=("nm-cpu-addmm-float16", "nm-cpu-matmul-float16", "nm-cpu-linear-float16"),
    vocabulary=Vocabulary(
        subjects=(
            "addmm_impl_cpu_",
            "addmm",
            "matmul",
            "matrix product",
            "matrix multiplication",
            "nn.Linear",
            "行列積",
            "行列の積",
            "行列演算",
            "행렬 곱",
            "행렬곱",
            "행렬 연산",
        ),
        predicates={
            "en": ("support", "runs on the CPU", "works on the CPU"),
            "ja": ("サポート", "対応", "実行でき"),
            "ko": ("지원", "실행할 수 있", "실행됩니다"),
        },
        opposites={
            "en": ("not implemented for",),
            "ja": ("not implemented for", "未実装", "実装されていな"),
            "ko": ("not implemented for", "구현되어 있지 않", "구현되지 않"),
        },
        requires={lang: ("CPU",) for lang in ("en", "ja", "ko")},
        unless={
            lang: (
                "complex",
                "float8",
                "fp8",
                "int8",
                "int16",
                "int32",
                "int64",
                "integer",
                "정수",
                "整数",
                "GPU",
                "CUDA",
            )
            for lang in ("en", "ja", "ko")
        },
    ),
)


def probe_gradscaler_defaults(device: Device) -> Observation:
    return _scaler_rule(None)


def control_gradscaler_init_scale_1024(device: Device) -> Observation:
    return _scaler_rule(1024.0)


def _scaler_rule(init_scale: float | None) -> Observation:
    import torch

    scaler = (
        torch.amp.GradScaler("cpu")
        if init_scale is None
        else torch.amp.GradScaler("cpu", init_scale=init_scale)
    )
    start = float(scaler.get_scale())
    settings = (
        scaler.get_growth_factor(),
        scaler.get_backoff_factor(),
        scaler.get_growth_interval(),
    )
    in_float16 = float(torch.tensor(start).to(torch.float16).item())
    key = "default" if init_scale is None else "1024"
    return Observation(
        holds=start == 65536.0 and settings == (2.0, 0.5, 2000) and in_float16 == math.inf,
        rule="holds if a GradScaler('cpu') starts with a scale of 65536, with growth factor 2, "
        "backoff factor 0.5 and growth interval 2000, and its scale is inf in float16",
        measurements=(
            Measurement(f"nm-scaler-{key}-scale", _g(start), "text"),
            Measurement(f"nm-scaler-{key}-scale-in-float16", _g(in_float16), "text"),
        )
        + (
            (
                Measurement("nm-scaler-growth-factor", _g(settings[0]), "text"),
                Measurement("nm-scaler-backoff-factor", _g(settings[1]), "text"),
                Measurement("nm-scaler-growth-interval", settings[2], "count"),
            )
            if init_scale is None
            else ()
        ),
    )


GRADSCALER_STARTS_AT_65536 = Claim(
    id="numerics/gradscaler-starts-at-65536",
    statement="GradScaler starts with a scale of 65536 (2**16), which is inf in float16; by "
    "default it halves the scale after a step with inf or nan gradients and doubles it after "
    "2000 steps without.",
    expect=Expect.HOLDS,
    probe=probe_gradscaler_defaults,
    control=Control(
        "GradScaler('cpu', init_scale=1024.0)",
        control_gradscaler_init_scale_1024,
        measures=("nm-scaler-1024-scale", "nm-scaler-1024-scale-in-float16"),
    ),
    devices=("cpu",),
    measures=(
        "nm-scaler-default-scale",
        "nm-scaler-default-scale-in-float16",
        "nm-scaler-growth-factor",
        "nm-scaler-backoff-factor",
        "nm-scaler-growth-interval",
    ),
    vocabulary=Vocabulary(
        subjects=("GradScaler", "init_scale"),
        predicates={lang: ("65536", "65,536", "2**16", "2^16") for lang in ("en", "ja", "ko")},
        unless={lang: ("init_scale=",) for lang in ("en", "ja", "ko")},
    ),
)


CLAIMS = (
    ISFINITE_FLAGS_INF_AND_NAN,
    CPU_FLOAT16_MATMUL_RUNS,
    CPU_MATMUL_ACCUMULATES_WIDER,
    FLOAT8_SATURATES,
    ROUND_HALF_TO_EVEN,
    GRADSCALER_STARTS_AT_65536,
)
