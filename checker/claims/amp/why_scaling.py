"""Claims of "Why float16 gradients need scaling" (docs/topics/amp.md, ``(amp-why-scaling)=``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.amp._precision import _g, dtype_name
from checker.evidence import Measurement, Observation
from checker.typing import Device

#: The sweep of gradient magnitudes: ``10**SWEEP_LOW`` to ``10**SWEEP_HIGH``, evenly spaced on
#: a log scale, ``SWEEP_PER_DECADE`` values per factor of ten. It reaches down into float32's
#: subnormal range (below about 1.2e-38), so that the limits of every dtype show.
SWEEP_LOW = -44
SWEEP_HIGH = -2
SWEEP_PER_DECADE = 10


def gradient_magnitudes(device: str) -> Any:
    """The float32 gradient magnitudes of the sweep, on ``device``."""
    import torch

    count = (SWEEP_HIGH - SWEEP_LOW) * SWEEP_PER_DECADE + 1
    return torch.logspace(SWEEP_LOW, SWEEP_HIGH, count, dtype=torch.float64).to(
        device=device, dtype=torch.float32
    )


@dataclass(frozen=True)
class Sweep:
    """The sweep's gradients as sent and as they arrived at a float32 weight."""

    #: The gradient each weight should receive (float32 values, as Python floats).
    sent: tuple[float, ...]
    #: The gradient it received.
    arrived: tuple[float, ...]

    def kept(self, low: float = 0.0, high: float = float("inf")) -> int:
        """How many gradients with ``low <= sent < high`` arrived non-zero."""
        return sum(1 for s, a in zip(self.sent, self.arrived, strict=True) if low <= s < high and a)

    def count(self, low: float = 0.0, high: float = float("inf")) -> int:
        """How many gradients were sent with ``low <= sent < high``."""
        return sum(1 for s in self.sent if low <= s < high)

    def smallest_kept(self) -> float:
        """The smallest gradient that arrived non-zero (``inf`` when none did)."""
        return min(
            (s for s, a in zip(self.sent, self.arrived, strict=True) if a), default=float("inf")
        )

    def max_relative_error(self, low: float = 0.0) -> float:
        """The largest ``|arrived - sent| / sent`` over the gradients ``>= low`` that arrived."""
        errors = [
            abs(a - s) / s for s, a in zip(self.sent, self.arrived, strict=True) if s >= low and a
        ]
        return max(errors, default=0.0)


def gradient_sweep(device: str, dtype: Any, *, scaled: bool = False) -> Sweep:
    """Send every gradient of the sweep back through a ``dtype`` copy of a float32 weight.

    The float32 weight is cast to ``dtype``, as autocast casts a parameter before a matrix
    product, and the float32 loss weighs element ``i`` of the cast copy by the sweep's
    ``i``-th magnitude: that magnitude is the gradient weight ``i`` should receive. On its
    way back it is a gradient of a ``dtype`` tensor, so it is rounded to ``dtype``. With
    ``scaled``, a ``GradScaler`` at its initial scale multiplies the loss before ``backward``
    and ``unscale_`` divides the float32 gradients afterwards. ``dtype`` float32 is the
    reference.

    Everything on the way is element-wise, so the rounding is the same on every device.
    """
    import torch

    magnitudes = gradient_magnitudes(device)
    weight = torch.ones(magnitudes.numel(), device=device, requires_grad=True)
    loss = (weight.to(dtype) * magnitudes).sum()
    if scaled:
        optimizer = torch.optim.SGD([weight], lr=0.0)
        scaler = torch.amp.GradScaler(device)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
    else:
        loss.backward()
    assert weight.grad is not None
    return Sweep(
        tuple(float(v) for v in magnitudes.cpu().tolist()),
        tuple(float(v) for v in weight.grad.cpu().tolist()),
    )


def probe_float16_range(device: Device) -> Observation:
    import torch

    return _float16_range_rule(device, torch.float16)


def control_bfloat16_in_float16_rule(device: Device) -> Observation:
    import torch

    return _float16_range_rule(device, torch.bfloat16)


def _float16_range_rule(device: Device, dtype: Any) -> Observation:
    import torch

    def as_f16(value: float) -> float:
        return float(torch.tensor(value, device=device).to(dtype).item())

    info = torch.finfo(dtype)
    smallest = info.smallest_normal * info.eps  # the smallest positive (subnormal) float16
    tiny, largest, beyond = as_f16(1e-8), as_f16(info.max), as_f16(70000.0)
    kept, lost = as_f16(smallest), as_f16(smallest / 2)
    return Observation(
        holds=tiny == 0.0
        and kept == smallest
        and lost == 0.0
        and largest == info.max
        and beyond == float("inf"),
        rule=f"holds if 1e-8 and half of the smallest {dtype_name(dtype)} become 0 in "
        f"{dtype_name(dtype)}, the smallest itself survives, the largest is exact and 70000 "
        "becomes inf",
        measurements=(
            Measurement("amp-float16-of-1e-8", _g(tiny), "text"),
            Measurement("amp-float16-smallest", _g(kept), "text"),
            Measurement("amp-float16-half-smallest", _g(lost), "text"),
            Measurement("amp-float16-smallest-normal", _g(info.smallest_normal), "text"),
            Measurement("amp-float16-max", _g(largest), "text"),
            Measurement("amp-float16-of-70000", _g(beyond), "text"),
        ),
    )


FLOAT16_RANGE = Claim(
    id="amp/float16-range",
    statement="float16 can hold neither 1e-8 (it becomes 0) nor 70000 (it becomes inf).",
    expect=Expect.HOLDS,
    probe=probe_float16_range,
    control=Control(
        "bfloat16 in place of float16",
        control_bfloat16_in_float16_rule,
    ),
    measures=(
        "amp-float16-of-1e-8",
        "amp-float16-smallest",
        "amp-float16-half-smallest",
        "amp-float16-smallest-normal",
        "amp-float16-max",
        "amp-float16-of-70000",
    ),
)


def probe_bfloat16_range(device: Device) -> Observation:
    import torch

    return _bfloat16_range_rule(device, torch.bfloat16)


def control_float16_in_bfloat16_rule(device: Device) -> Observation:
    import torch

    return _bfloat16_range_rule(device, torch.float16)


def _bfloat16_range_rule(device: Device, dtype: Any) -> Observation:
    import torch

    def as_bf16(value: float) -> float:
        return float(torch.tensor(value, device=device).to(dtype).item())

    tiny, coarse = as_bf16(1e-8), as_bf16(257.0)
    normal_bf16 = torch.finfo(dtype).smallest_normal
    normal_f32 = torch.finfo(torch.float32).smallest_normal
    return Observation(
        holds=tiny != 0.0 and normal_bf16 == normal_f32 and coarse == 256.0,
        rule=f"holds if 1e-8 stays non-zero in {dtype_name(dtype)}, its smallest normal number "
        "equals float32's, and 257 rounds to 256",
        measurements=(
            Measurement("amp-bfloat16-of-1e-8", _g(tiny), "text"),
            Measurement("amp-bfloat16-smallest-normal", _g(normal_bf16), "text"),
            Measurement("amp-float32-smallest-normal", _g(normal_f32), "text"),
            Measurement("amp-bfloat16-of-257", _g(coarse), "text"),
            Measurement("amp-bfloat16-eps", _g(torch.finfo(torch.bfloat16).eps), "text"),
            Measurement("amp-float16-eps", _g(torch.finfo(torch.float16).eps), "text"),
        ),
    )


BFLOAT16_RANGE = Claim(
    id="amp/bfloat16-range",
    statement="bfloat16 has the range of float32 (1e-8 stays non-zero) but fewer digits (257 "
    "becomes 256).",
    expect=Expect.HOLDS,
    probe=probe_bfloat16_range,
    control=Control(
        "float16 in place of bfloat16",
        control_float16_in_bfloat16_rule,
    ),
    measures=(
        "amp-bfloat16-of-1e-8",
        "amp-bfloat16-smallest-normal",
        "amp-float32-smallest-normal",
        "amp-bfloat16-of-257",
        "amp-bfloat16-eps",
        "amp-float16-eps",
    ),
    vocabulary=Vocabulary(
        subjects=("bfloat16",),
        predicates={
            "en": ("range", "exponent", "no scaling"),
            "ja": ("範囲", "指数", "スケーリング"),
            "ko": ("범위", "지수", "스케일링"),
        },
    ),
)


def probe_gradient_underflow(device: Device) -> Observation:
    import torch

    found = _underflow_rule(device, torch.float16)
    return Observation(
        found.holds,
        found.rule,
        (
            *found.measurements,
            Measurement("amp-sweep-smallest", _g(10.0**SWEEP_LOW), "text"),
            Measurement("amp-sweep-largest", _g(10.0**SWEEP_HIGH), "text"),
            Measurement("amp-sweep-float32-normal-limit", _g(FLOAT32_SMALLEST_NORMAL), "text"),
        ),
    )


def control_underflow_float32(device: Device) -> Observation:
    import torch

    return _underflow_rule(device, torch.float32)


#: float32's smallest normal number, 2**-126: below it values are subnormal.
FLOAT32_SMALLEST_NORMAL = 2.0**-126


def _underflow_rule(device: Device, narrow: Any) -> Observation:
    import torch

    reference = gradient_sweep(device, torch.float32)
    bf16 = gradient_sweep(device, torch.bfloat16)
    tested = gradient_sweep(device, narrow)
    normal = FLOAT32_SMALLEST_NORMAL
    name = dtype_name(narrow)
    lost_normal = reference.kept(normal) - tested.kept(normal)
    bf16_lost_normal = reference.kept(normal) - bf16.kept(normal)
    bf16_lost_subnormal = reference.kept(0.0, normal) - bf16.kept(0.0, normal)
    return Observation(
        holds=lost_normal > 0 and bf16_lost_normal == 0,
        rule=f"holds if {name} turns to zero some gradients of the sweep that float32 keeps in "
        "its normal range (at or above 2**-126), while bfloat16 keeps every one of them",
        measurements=(
            Measurement(f"amp-sweep-{name}-count", tested.count(), "count"),
            Measurement(f"amp-survive-{name}", tested.kept(), "count"),
            Measurement(f"amp-lost-{name}-normal", lost_normal, "count"),
            Measurement(f"amp-smallest-kept-{name}", _g(tested.smallest_kept()), "text"),
            Measurement(f"amp-bfloat16-lost-normal-vs-{name}", bf16_lost_normal, "count"),
            Measurement(f"amp-bfloat16-lost-subnormal-vs-{name}", bf16_lost_subnormal, "count"),
            Measurement(f"amp-survive-float32-vs-{name}", reference.kept(), "count"),
            Measurement(f"amp-survive-bfloat16-vs-{name}", bf16.kept(), "count"),
            Measurement(f"amp-smallest-kept-bfloat16-vs-{name}", _g(bf16.smallest_kept()), "text"),
        ),
    )


FLOAT16_GRADIENTS_UNDERFLOW = Claim(
    id="amp/float16-gradients-underflow",
    statement="Small gradients that pass through float16 become exactly zero, while bfloat16 "
    "keeps every gradient that float32 keeps in its normal range.",
    expect=Expect.HOLDS,
    probe=probe_gradient_underflow,
    measures=(
        "amp-sweep-float16-count",
        "amp-sweep-smallest",
        "amp-sweep-largest",
        "amp-sweep-float32-normal-limit",
        "amp-survive-float32-vs-float16",
        "amp-survive-bfloat16-vs-float16",
        "amp-survive-float16",
        "amp-lost-float16-normal",
        "amp-smallest-kept-float16",
        "amp-bfloat16-lost-normal-vs-float16",
        "amp-bfloat16-lost-subnormal-vs-float16",
        "amp-smallest-kept-bfloat16-vs-float16",
    ),
    control=Control("float32 in place of float16", control_underflow_float32),
    vocabulary=Vocabulary(
        subjects=("float16", "GradScaler"),
        predicates={
            "en": ("underflow", "zero", "vanish"),
            "ja": ("アンダーフロー", "ゼロ", "消え"),
            "ko": ("언더플로", "0이", "사라"),
        },
    ),
)


def probe_scaler_recovers_gradients(device: Device) -> Observation:
    return _scaler_rule(device, scaled=True)


def control_scaler_unscaled(device: Device) -> Observation:
    return _scaler_rule(device, scaled=False)


#: With a GradScaler at its initial scale, gradients from here up arrive through float16 ...
SCALER_KEEPS_FROM = 1e-12
#: ... and gradients below this one still become zero.
SCALER_LOSES_BELOW = 1e-13


#: The gradients above the sweep, 1e-2 to 1e2 (10 per decade): at the initial scale of
#: 65536, those from 1 up exceed float16's largest value, 65504, once scaled.
CEILING_LOW, CEILING_HIGH = -2, 2


def large_gradients(device: str, *, scaled: bool) -> tuple[list[float], list[float]]:
    """Gradients from 1e-2 to 1e2 sent back through a float16 copy of a float32 weight, as
    :func:`gradient_sweep` sends the small ones: ``(sent, arrived)``."""
    import torch

    count = (CEILING_HIGH - CEILING_LOW) * SWEEP_PER_DECADE + 1
    sent: Any = torch.logspace(CEILING_LOW, CEILING_HIGH, count, dtype=torch.float64).to(
        device=device, dtype=torch.float32
    )
    weight: Any = torch.ones(count, device=device, requires_grad=True)
    loss = (weight.to(torch.float16) * sent).sum()
    if scaled:
        scaler = torch.amp.GradScaler(device)
        scaler.scale(loss).backward()
        scaler.unscale_(torch.optim.SGD([weight], lr=0.0))
    else:
        loss.backward()
    assert weight.grad is not None
    return sent.cpu().tolist(), weight.grad.cpu().tolist()


def _scaler_rule(device: Device, scaled: bool) -> Observation:
    import math

    import torch

    found = gradient_sweep(device, torch.float16, scaled=scaled)
    scale = torch.amp.GradScaler(device).get_scale() if scaled else 1.0
    kept_from = found.kept(SCALER_KEEPS_FROM)
    expected = found.count(SCALER_KEEPS_FROM)
    kept_below = found.kept(0.0, SCALER_LOSES_BELOW)
    sent, arrived = large_gradients(device, scaled=scaled)
    finite_below_1 = sum(
        1 for s, a in zip(sent, arrived, strict=True) if s < 1.0 and math.isfinite(a)
    )
    below_1 = sum(1 for s in sent if s < 1.0)
    inf_from_1 = sum(1 for s, a in zip(sent, arrived, strict=True) if s >= 1.0 and math.isinf(a))
    from_1 = len(sent) - below_1
    largest_finite = max((s for s, a in zip(sent, arrived, strict=True) if math.isfinite(a)))
    key = "scaled" if scaled else "unscaled"
    return Observation(
        holds=kept_from == expected
        and kept_below == 0
        and finite_below_1 == below_1
        and inf_from_1 == from_1,
        rule="holds if every gradient from 1e-12 up to below 1 arrives non-zero and finite "
        "through float16, every one below 1e-13 arrives as zero and every one from 1 to 100 "
        "arrives as inf"
        + (", with a GradScaler at its initial scale" if scaled else ", without scaling"),
        measurements=(
            Measurement(f"amp-{key}-inf-from-1", inf_from_1, "count"),
            Measurement(f"amp-{key}-sent-from-1", from_1, "count"),
            Measurement(f"amp-{key}-largest-finite", _g(largest_finite), "text"),
            Measurement(f"amp-{key}-kept-from-1e-12", kept_from, "count"),
            Measurement(f"amp-{key}-sweep-from-1e-12", expected, "count"),
            Measurement(f"amp-{key}-kept-below-1e-13", kept_below, "count"),
            Measurement(f"amp-{key}-smallest-kept", _g(found.smallest_kept()), "text"),
            Measurement(
                f"amp-{key}-max-relative-error",
                round(found.max_relative_error(SCALER_KEEPS_FROM), 6),
                "ratio",
            ),
            Measurement(f"amp-{key}-scale", _g(scale), "text"),
            Measurement(f"amp-survive-float16-{key}", found.kept(), "count"),
        ),
    )


GRADSCALER_RECOVERS_SMALL_GRADIENTS = Claim(
    id="amp/gradscaler-recovers-small-gradients",
    statement="With a GradScaler at its initial scale, float16 gradients from about 1e-12 "
    "to just below 1 arrive non-zero, rounded to float16's precision; smaller ones still "
    "become zero, and from 1 up they overflow to inf.",
    expect=Expect.HOLDS,
    probe=probe_scaler_recovers_gradients,
    measures=(
        "amp-scaled-inf-from-1",
        "amp-scaled-sent-from-1",
        "amp-scaled-largest-finite",
        "amp-scaled-kept-from-1e-12",
        "amp-scaled-sweep-from-1e-12",
        "amp-scaled-kept-below-1e-13",
        "amp-scaled-smallest-kept",
        "amp-scaled-max-relative-error",
        "amp-scaled-scale",
        "amp-survive-float16-scaled",
    ),
    control=Control(
        "the same sweep without a GradScaler",
        control_scaler_unscaled,
        measures=("amp-unscaled-kept-from-1e-12", "amp-unscaled-inf-from-1"),
    ),
    vocabulary=Vocabulary(
        subjects=("GradScaler",),
        # "small gradients do not underflow" says what the claim says: the negation is
        # part of these stems, which come before the bare word
        predicates={
            "en": (
                "do not underflow",
                "does not underflow",
                "don't underflow",
                "no longer underflow",
                "underflow",
                "small gradient",
                "vanish",
            ),
            "ja": (
                "アンダーフローしない",
                "アンダーフローせず",
                "アンダーフロー",
                "小さな勾配",
                "消失",
            ),
            "ko": (
                "언더플로가 일어나지 않",
                "언더플로되지 않",
                "언더플로",
                "작은 기울기",
                "작은 변화도",
                "소실",
            ),
        },
    ),
)


CLAIMS = (
    FLOAT16_RANGE,
    BFLOAT16_RANGE,
    FLOAT16_GRADIENTS_UNDERFLOW,
    GRADSCALER_RECOVERS_SMALL_GRADIENTS,
)
