"""Claims of "Losses run in float32" (docs/topics/amp.md, ``(amp-float32-ops)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.amp.op_categories._ops import (
    FLOAT32_OPS,
    LOWER_PRECISION_OPS,
    SCOPE_CASES,
    _low_dtypes,
    _matches,
    describe,
    result_dtypes,
)
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_float32_ops(device: Device) -> Observation:
    return _float32_rule(device, FLOAT32_OPS)


def control_float32_ops(device: Device) -> Observation:
    return _float32_rule(device, LOWER_PRECISION_OPS)


def _float32_rule(device: Device, ops: tuple[str, ...]) -> Observation:
    f16, bf16 = _low_dtypes()
    from_f16 = result_dtypes(device, ops, f16, f16)
    from_bf16 = result_dtypes(device, ops, bf16, bf16)
    total = len(ops)
    return Observation(
        holds=_matches(from_f16, "float32") == total and _matches(from_bf16, "float32") == total,
        rule="holds if every listed operation returns float32 under autocast even when its "
        "inputs are float16 (float16 autocast) or bfloat16 (bfloat16 autocast)",
        measurements=(
            Measurement("amp-float32-ops", ", ".join(ops), "text"),
            Measurement("amp-float32-ops-count", total, "count"),
            Measurement("amp-float32-from-float16", _matches(from_f16, "float32"), "count"),
            Measurement("amp-float32-from-bfloat16", _matches(from_bf16, "float32"), "count"),
            Measurement("amp-float32-float16-results", describe(from_f16), "text"),
        ),
    )


LOSSES_RUN_IN_FLOAT32 = Claim(
    id="amp/losses-run-in-float32",
    statement="Under autocast, losses such as mse_loss and cross_entropy, and the product "
    "reduction prod, return float32 even for float16 or bfloat16 inputs.",
    expect=Expect.HOLDS,
    probe=probe_float32_ops,
    control=Control(
        "matrix products (mm, matmul, bmm, linear, conv2d) in place of the listed operations",
        control_float32_ops,
    ),
    measures=(
        "amp-float32-ops",
        "amp-float32-ops-count",
        "amp-float32-from-float16",
        "amp-float32-from-bfloat16",
        "amp-float32-float16-results",
    ),
    vocabulary=Vocabulary(
        subjects=("autocast", "loss"),
        predicates={
            "en": ("float32", "high precision", "full precision"),
            "ja": ("高精度", "float32"),
            "ko": ("고정밀", "float32"),
        },
        unless={  # other operations' rules, and autocast's scope, with claims of their own
            lang: ("softmax", "layer_norm", "relu", "gelu", "sigmoid", *SCOPE_CASES[lang])
            for lang in ("en", "ja", "ko")
        },
    ),
)


def probe_unlisted_losses(device: Device) -> Observation:
    return _unlisted_rule(device, listed=False)


def control_listed_loss(device: Device) -> Observation:
    return _unlisted_rule(device, listed=True)


def _unlisted_rule(device: Device, listed: bool) -> Observation:
    """Losses that autocast's float32 list does not name (gaussian_nll_loss, a hand-written
    mean squared error), or with ``listed`` the listed mse_loss, under float16 and bfloat16
    autocast: the dtype each returns."""
    import torch
    from torch.nn import functional

    found: dict[str, list[str]] = {}
    for dtype in (torch.float16, torch.bfloat16):
        generator = torch.Generator().manual_seed(0)
        a = torch.randn(8, 8, generator=generator).to(device=device, dtype=dtype)
        b = torch.randn(8, 8, generator=generator).to(device=device, dtype=dtype)
        var = torch.ones(8, 8, device=device, dtype=dtype)
        with torch.autocast(device, dtype=dtype):
            losses: dict[str, Any] = (
                {"mse_loss": functional.mse_loss(a, b)}
                if listed
                else {
                    "gaussian_nll_loss": functional.gaussian_nll_loss(a, b, var),
                    "hand-written": ((a - b) ** 2).mean(),
                }
            )
        for name, loss in losses.items():
            found.setdefault(name, []).append(str(loss.dtype).removeprefix("torch."))
    lowered = all(dtypes == ["float16", "bfloat16"] for dtypes in found.values())
    key = "listed" if listed else "unlisted"
    return Observation(
        holds=lowered,
        rule="holds if "
        + ("mse_loss returns" if listed else "gaussian_nll_loss and ((a - b) ** 2).mean() return")
        + " float16 under float16 autocast and bfloat16 under bfloat16 autocast, for inputs "
        "of those dtypes",
        measurements=tuple(
            Measurement(
                f"amp-{key}-loss-{name.replace('_', '-')}-dtypes", ", ".join(dtypes), "text"
            )
            for name, dtypes in found.items()
        ),
    )


UNLISTED_LOSSES_STAY_LOWER_PRECISION = Claim(
    id="amp/unlisted-losses-stay-lower-precision",
    statement="On the CPU, a loss that autocast's float32 list does not name, such as "
    "gaussian_nll_loss or a hand-written ((a - b) ** 2).mean(), returns the lower-precision "
    "dtype of its inputs.",
    expect=Expect.HOLDS,
    probe=probe_unlisted_losses,
    devices=("cpu",),
    control=Control(
        "mse_loss, which the list names",
        control_listed_loss,
        measures=("amp-listed-loss-mse-loss-dtypes",),
    ),
    measures=(
        "amp-unlisted-loss-gaussian-nll-loss-dtypes",
        "amp-unlisted-loss-hand-written-dtypes",
    ),
)


CLAIMS = (LOSSES_RUN_IN_FLOAT32, UNLISTED_LOSSES_STAY_LOWER_PRECISION)
