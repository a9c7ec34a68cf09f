"""Claims of "In-place operations and ``out=`` keep their dtype" (docs/topics/amp.md,
``(amp-inplace-out-ops)=``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.amp._precision import dtype_name
from checker.claims.amp.op_categories._ops import _matches, describe
from checker.evidence import Measurement, Observation
from checker.typing import Device

#: The lower-precision dtype each device's region is opened with.
REGION_DTYPE = {"cpu": "bfloat16", "cuda": "float16"}

#: Matrix products written in place or into a given ``out=`` tensor.
WRITING_CALLS = ("mm(out=)", "addmm(out=)", "addmm_", "baddbmm_")
#: The same products out of place, which autocast lowers.
OUT_OF_PLACE_CALLS = ("mm", "addmm", "baddbmm")


def probe_inplace_and_out(device: Device) -> Observation:
    return _writing_rule(device, WRITING_CALLS)


def control_out_of_place(device: Device) -> Observation:
    return _writing_rule(device, OUT_OF_PLACE_CALLS)


def _results(device: Device, names: tuple[str, ...]) -> dict[str, str]:
    """Each call's result dtype (or error) on float32 tensors inside an autocast region."""
    import torch

    a = torch.ones(4, 4, device=device)
    b = torch.ones(4, 4, device=device)
    batch = torch.ones(2, 4, 4, device=device)
    calls: dict[str, Callable[[], Any]] = {
        "mm(out=)": lambda: torch.mm(a, b, out=torch.empty(4, 4, device=device)),
        "addmm(out=)": lambda: torch.addmm(a, a, b, out=torch.empty(4, 4, device=device)),
        "addmm_": lambda: a.clone().addmm_(a, b),
        "baddbmm_": lambda: batch.clone().baddbmm_(batch, batch),
        "mm": lambda: torch.mm(a, b),
        "addmm": lambda: torch.addmm(a, a, b),
        "baddbmm": lambda: torch.baddbmm(batch, batch, batch),
    }
    found = {}
    with torch.autocast(device, dtype=getattr(torch, REGION_DTYPE[device])):
        for name in names:
            try:
                found[name] = dtype_name(calls[name]().dtype)
            except Exception as exc:
                found[name] = f"{type(exc).__name__}: {exc}".splitlines()[0]
    return found


def _writing_rule(device: Device, names: tuple[str, ...]) -> Observation:
    found = _results(device, names)
    key = "amp-writing" if names == WRITING_CALLS else "amp-out-of-place"
    return Observation(
        holds=all(value == "float32" for value in found.values()),
        rule="holds if every listed matrix product of float32 tensors returns float32 inside "
        "an autocast region opened with bfloat16 on the CPU or float16 on CUDA",
        measurements=(
            Measurement(f"{key}-calls", ", ".join(names), "text"),
            Measurement(f"{key}-float32-results", _matches(found, "float32"), "count"),
            Measurement(f"{key}-results", describe(found), "text"),
            Measurement(f"{key}-region-dtype", REGION_DTYPE[device], "dtype"),
        ),
    )


AUTOCAST_SKIPS_INPLACE_AND_OUT = Claim(
    id="amp/autocast-skips-inplace-and-out",
    statement="Autocast does not apply to in-place operations or to calls with out=: inside a "
    "region, addmm_ and mm(out=) of float32 tensors return float32, while mm and addmm return "
    "the region's lower precision.",
    expect=Expect.HOLDS,
    probe=probe_inplace_and_out,
    measures=(
        "amp-writing-calls",
        "amp-writing-float32-results",
        "amp-writing-results",
        "amp-writing-region-dtype",
    ),
    control=Control(
        "the same products out of place",
        control_out_of_place,
        measures=("amp-out-of-place-float32-results", "amp-out-of-place-results"),
    ),
    vocabulary=Vocabulary(
        subjects=("autocast", "Autocast"),
        predicates={
            "en": ("in-place", "inplace", "out="),
            "ja": ("インプレース", "out="),
            "ko": ("인플레이스", "제자리", "out="),
        },
        # "autocast does not apply to in-place operations": the English denies it
        denies=True,
        # sentences about errors belong to the mixed-dtype claims
        unless={
            "en": ("raise", "error"),
            "ja": ("エラー", "送出"),
            "ko": ("오류", "에러"),
        },
    ),
)


CLAIMS = (AUTOCAST_SKIPS_INPLACE_AND_OUT,)
