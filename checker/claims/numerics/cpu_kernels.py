"""Claims of "16-bit sums and layer_norm on the CPU" (docs/topics/numerics-facts.md,
``(nm-cpu-kernels)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.numerics._words import BFLOAT16, FLOAT16, _error, _g
from checker.claims.numerics.formats import _dtype
from checker.evidence import Measurement, Observation
from checker.typing import Device

#: Values of 1 summed: 4096 lies beyond 256, where a bfloat16 running total stops, and
#: beyond 2048, where a float16 one does.
ONES = 4096


def probe_cpu_sum_accumulates(device: Device) -> Observation:
    return _sum_of_ones_rule(running=False)


def control_running_total(device: Device) -> Observation:
    return _sum_of_ones_rule(running=True)


def _total(name: str, running: bool) -> float:
    import torch

    ones = torch.ones(ONES, dtype=_dtype(name))
    if not running:
        return float(torch.sum(ones).item())
    total = torch.zeros((), dtype=_dtype(name))
    for one in ones:  # each partial sum rounded to the 16-bit format
        total = total + one
    return float(total.item())


def _sum_of_ones_rule(running: bool) -> Observation:
    totals = {name: _total(name, running) for name in ("bfloat16", "float16")}
    way = "running-total" if running else "torch-sum"
    return Observation(
        holds=all(total == ONES for total in totals.values()),
        rule=(
            f"holds if adding {ONES} values of 1 one at a time gives {ONES} in bfloat16 and in "
            "float16 on the CPU"
            if running
            else f"holds if torch.sum of {ONES} values of 1 gives {ONES} in bfloat16 and in "
            "float16 on the CPU"
        ),
        measurements=tuple(
            Measurement(f"nm-{way}-{ONES}-{name}", _g(total), "text")
            for name, total in totals.items()
        ),
    )


CPU_SUM_ACCUMULATES = Claim(
    id="numerics/cpu-16-bit-sum-accumulates-in-float32",
    statement="On the CPU, torch.sum of a bfloat16 or float16 tensor accumulates in float32: "
    "4096 values of 1 sum to 4096, where a bfloat16 running total stops at 256.",
    expect=Expect.HOLDS,
    probe=probe_cpu_sum_accumulates,
    control=Control(
        "the values added one at a time",
        control_running_total,
        measures=("nm-running-total-4096-bfloat16", "nm-running-total-4096-float16"),
    ),
    devices=("cpu",),
    measures=("nm-torch-sum-4096-bfloat16", "nm-torch-sum-4096-float16"),
    vocabulary=Vocabulary(
        subjects=("torch.sum", ".sum()"),
        predicates={
            "en": ("accumulat",),
            "ja": ("累積", "蓄積", "積算"),
            "ko": ("누적",),
        },
        requires={lang: BFLOAT16 + FLOAT16 for lang in ("en", "ja", "ko")},
    ),
)


def probe_cpu_float16_layer_norm(device: Device) -> Observation:
    return _layer_norm_rule("float16")


def control_int64_layer_norm(device: Device) -> Observation:
    return _layer_norm_rule("int64")


def _layer_norm_rule(name: str) -> Observation:
    import torch
    from torch.nn.functional import layer_norm

    inputs = torch.arange(16, dtype=torch.float32).reshape(2, 8).to(_dtype(name))
    raised = _error(lambda: layer_norm(inputs, (8,)))
    return Observation(
        holds=raised != "no error",
        rule=f"holds if torch.nn.functional.layer_norm of a {name} tensor on the CPU raises an "
        "error",
        measurements=(Measurement(f"nm-cpu-layer-norm-{name}", raised, "text"),),
    )


MYTH_CPU_FLOAT16_LAYER_NORM = Claim(
    id="numerics/myth-cpu-float16-layer-norm-unsupported",
    statement="layer_norm is not implemented for float16 tensors on the CPU.",
    expect=Expect.FAILS,
    probe=probe_cpu_float16_layer_norm,
    control=Control(
        "an int64 tensor in place of float16",
        control_int64_layer_norm,
        measures=("nm-cpu-layer-norm-int64",),
    ),
    devices=("cpu",),
    measures=("nm-cpu-layer-norm-float16",),
    vocabulary=Vocabulary(
        subjects=("layer_norm", "LayerNorm"),
        predicates={
            "en": ("implemented", "support"),
            "ja": ("実装", "サポート", "対応"),
            "ko": ("구현", "지원"),
        },
        requires={lang: ("CPU",) for lang in ("en", "ja", "ko")},
    ),
)


CLAIMS = (CPU_SUM_ACCUMULATES, MYTH_CPU_FLOAT16_LAYER_NORM)
