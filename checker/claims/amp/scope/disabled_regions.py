"""Claims of "Turning autocast off inside a region" (docs/topics/amp.md,
``(amp-scope-disabled)=``): ``torch.autocast(device_type, enabled=False)`` nested in a region."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.amp._precision import dtype_name
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_disabled_region(device: Device) -> Observation:
    return _suspend_rule(device, inner_enabled=False)


def control_enabled_inner_region(device: Device) -> Observation:
    return _suspend_rule(device, inner_enabled=True)


def _suspend_rule(device: Device, inner_enabled: bool) -> Observation:
    """A product of float32 tensors inside a region nested with ``enabled=inner_enabled`` in
    an autocast region, and after the nested region."""
    import torch

    a = torch.ones(4, 4, device=device)
    with torch.autocast(device):
        with torch.autocast(device, enabled=inner_enabled):
            enabled = torch.is_autocast_enabled(device)
            inside = dtype_name((a @ a).dtype)
        after = dtype_name((a @ a).dtype)
    key = "amp-enabled-inner" if inner_enabled else "amp-disabled-inner"
    return Observation(
        holds=inside == "float32" and after != "float32",
        rule="holds if, in a region nested in an autocast region, a matrix product of float32 "
        "tensors comes out in float32, and in the lower precision again after the nested region",
        measurements=(
            Measurement(f"{key}-mm-dtype", inside, "dtype"),
            Measurement(f"{key}-enabled", enabled, "bool"),
            Measurement(f"{key}-after-mm-dtype", after, "dtype"),
        ),
    )


DISABLED_REGION_SUSPENDS_AUTOCAST = Claim(
    id="amp/disabled-region-suspends-autocast",
    statement="A torch.autocast(device_type, enabled=False) region nested in an autocast region "
    "turns autocast off until it exits: a product of float32 tensors runs in float32 inside "
    "it, and in the lower precision again after it.",
    expect=Expect.HOLDS,
    probe=probe_disabled_region,
    control=Control(
        "a nested region with enabled=True",
        control_enabled_inner_region,
        measures=("amp-enabled-inner-mm-dtype",),
    ),
    measures=(
        "amp-disabled-inner-mm-dtype",
        "amp-disabled-inner-enabled",
        "amp-disabled-inner-after-mm-dtype",
    ),
    vocabulary=Vocabulary(
        subjects=("enabled=False",),
        predicates={
            "en": ("turns autocast off", "disables", "switches off", "turns off"),
            "ja": ("無効", "オフ"),
            "ko": ("비활성", "끄"),
        },
        requires={"en": ("autocast",), "ja": ("autocast",), "ko": ("autocast",)},
    ),
)


def probe_disabled_region_outputs(device: Device) -> Observation:
    return _float32_inside_rule(device, cast_back=False)


def control_disabled_region_cast_inputs(device: Device) -> Observation:
    return _float32_inside_rule(device, cast_back=True)


def _float32_inside_rule(device: Device, cast_back: bool) -> Observation:
    """Inside ``enabled=False`` nested in an autocast region, a product of the outer region's
    output with itself and with a float32 tensor; with ``cast_back``, the output is cast
    with ``.float()`` first."""
    import torch

    a = torch.ones(4, 4, device=device)
    with torch.autocast(device):
        out = a @ a
        with torch.autocast(device, enabled=False):
            x = out.float() if cast_back else out
            square = dtype_name((x @ x).dtype)
            try:
                mixed = dtype_name((a @ x).dtype)
            except RuntimeError as exc:
                mixed = f"RuntimeError: {exc}".splitlines()[0]
    key = "amp-disabled-cast" if cast_back else "amp-disabled-outer"
    return Observation(
        holds=square == "float32" and mixed == "float32",
        rule="holds if, inside torch.autocast(device_type, enabled=False) nested in an autocast "
        "region, products of the outer region's output with itself and with a float32 tensor "
        "run in float32",
        measurements=(
            Measurement(f"{key}-square-dtype", square, "dtype"),
            Measurement(f"{key}-mixed", mixed, "text"),
            Measurement("amp-disabled-outer-output-dtype", dtype_name(out.dtype), "dtype"),
        ),
    )


MYTH_DISABLED_REGION_RUNS_IN_FLOAT32 = Claim(
    id="amp/myth-disabled-region-runs-in-float32",
    statement="Inside a torch.autocast(device_type, enabled=False) region nested in an autocast "
    "region, operations run in float32.",
    expect=Expect.FAILS,
    probe=probe_disabled_region_outputs,
    control=Control(
        "the outer region's output cast with .float() first",
        control_disabled_region_cast_inputs,
        measures=("amp-disabled-cast-square-dtype",),
    ),
    measures=(
        "amp-disabled-outer-square-dtype",
        "amp-disabled-outer-mixed",
        "amp-disabled-outer-output-dtype",
    ),
    vocabulary=Vocabulary(
        subjects=("enabled=False",),
        predicates={
            "en": ("float32", "full precision", "single precision"),
            "ja": ("float32", "単精度"),
            "ko": ("float32", "단정밀도"),
        },
        # the case of the control: inputs cast back ("cast" alone is in "autocast")
        unless={
            "en": ("cast their", "cast its", "cast the", "cast them", ".float()", "scaler"),
            "ja": ("キャストし", "キャストす", ".float()", "スケーラ", "GradScaler"),
            "ko": ("캐스트하", "캐스트한", ".float()", "스케일러", "GradScaler"),
        },
        # enabled=False of autocast, not of GradScaler
        requires={"en": ("autocast",), "ja": ("autocast",), "ko": ("autocast",)},
    ),
)


CLAIMS = (
    DISABLED_REGION_SUSPENDS_AUTOCAST,
    MYTH_DISABLED_REGION_RUNS_IN_FLOAT32,
)
