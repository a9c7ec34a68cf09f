"""Claims of "Lower-precision outputs meet float32 tensors" (docs/topics/amp.md,
``(amp-scope-mixed-dtypes)=``).

Every experiment here mixes an output of an autocast region, in the device's default
lower-precision dtype (``bfloat16`` on the CPU, ``float16`` on CUDA), with a ``float32``
tensor, and records each call's result dtype or the first line of the error it raised.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.amp._precision import dtype_name
from checker.evidence import Measurement, Observation
from checker.typing import Device


def _outcome(call: Callable[[], Any]) -> str:
    """The dtype ``call()`` returned (``"none"`` for an in-place write that returns
    nothing), or ``"Type: first line"`` of the error it raised."""
    try:
        result = call()
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}".splitlines()[0]
    return dtype_name(result.dtype) if result is not None else "none"


def _raised(found: dict[str, str]) -> int:
    return sum(1 for value in found.values() if "Error" in value)


def _mixed_calls(
    device: Device, cast_back: bool = False
) -> tuple[Any, dict[str, Callable[[], Any]]]:
    """The lower-precision output ``y`` of an autocast region and calls that mix it with
    ``float32`` tensors; with ``cast_back``, ``y`` is first cast to ``float32``."""
    import torch

    a = torch.ones(4, 4, device=device)
    with torch.autocast(device):
        y = a @ a
    low = y.dtype
    if cast_back:
        y = y.float()
    f = torch.ones(4, 4, device=device)
    row = torch.tensor([0], device=device)
    zeros = torch.zeros(1, 4, dtype=torch.long, device=device)
    layer = torch.nn.Linear(4, 4).to(device)
    calls: dict[str, Callable[[], Any]] = {
        # matrix products: on autocast's lower-precision list
        "mm": lambda: torch.mm(y, f),
        "bmm": lambda: torch.bmm(y[None], f[None]),
        "baddbmm": lambda: torch.baddbmm(f[None], y[None], y[None]),
        "addmm": lambda: torch.addmm(f, y, f),
        "Linear": lambda: layer(y),
        # writes into a float32 tensor, and lerp: on no list of either device
        "index assignment": lambda: f.clone().__setitem__(row, y[:1]),
        "scatter_": lambda: f.clone().scatter_(0, zeros, y[:1]),
        "index_add_": lambda: f.clone().index_add_(0, row, y[:1]),
        "lerp": lambda: torch.lerp(f, y, 0.5),
        # type promotion, or autocast's own promotion
        "add": lambda: f + y,
        "cat": lambda: torch.cat([f, y]),
        "where": lambda: torch.where(f > 0, f, y),
        "slice assignment": lambda: f.clone().__setitem__(slice(0, 1), y[:1]),
        # promoted by CUDA autocast, refused on the CPU
        "index_put": lambda: f.index_put((row,), y[:1]),
        "scatter_add": lambda: f.scatter_add(0, zeros, y[:1]),
        "dot": lambda: torch.dot(f[0], y[0]),
        "cross": lambda: torch.cross(f[:, :3], y[:, :3], dim=1),
    }
    return low, calls


def _run(
    device: Device, names: tuple[str, ...], inside: bool, cast_back: bool = False
) -> dict[str, str]:
    """Each named call's outcome, inside a new autocast region or outside any, and the
    output's dtype under ``"_low"``."""
    import torch

    low, calls = _mixed_calls(device, cast_back)
    with torch.autocast(device) if inside else nullcontext():
        return {name: _outcome(calls[name]) for name in names} | {"_low": dtype_name(low)}


def _split(found: dict[str, str]) -> tuple[str, dict[str, str]]:
    low = found.pop("_low")
    return low, found


def _listing(found: dict[str, str]) -> str:
    return "; ".join(f"{name}: {value}" for name, value in found.items())


#: The batched and fused products of the first claim (``@`` and ``mm`` are the facts page's,
#: ``promotion/matmul-refuses-mixed-dtypes``).
PRODUCTS = ("bmm", "baddbmm", "addmm", "Linear")


def probe_products_outside_region(device: Device) -> Observation:
    return _products_rule(device, inside=False)


def control_products_inside_region(device: Device) -> Observation:
    return _products_rule(device, inside=True)


def _products_rule(device: Device, inside: bool) -> Observation:
    low, found = _split(_run(device, (*PRODUCTS, "mm"), inside))
    mm = found.pop("mm")
    where = "inside" if inside else "outside"
    return Observation(
        holds=_raised(found) == len(PRODUCTS),
        rule="holds if bmm, baddbmm, addmm and a Linear layer, each given an autocast output "
        "and a float32 tensor, all raise",
        measurements=(
            Measurement(f"amp-{where}-products-raised", _raised(found), "count"),
            Measurement(f"amp-{where}-products", _listing(found), "text"),
            Measurement(f"amp-{where}-mm", mm, "text"),
            Measurement(f"amp-{where}-bmm", found["bmm"], "text"),
            Measurement("amp-mixed-output-dtype", low, "dtype"),
        ),
    )


BATCHED_PRODUCTS_AFTER_THE_REGION_REFUSE_MIXED_DTYPES = Claim(
    id="amp/batched-products-after-the-region-refuse-mixed-dtypes",
    statement="After an autocast region, bmm, baddbmm, addmm and a Linear layer raise a "
    "RuntimeError about mismatched dtypes when given one of its lower-precision outputs and a "
    "float32 tensor, on CUDA as on the CPU; inside the region, the same calls run.",
    expect=Expect.HOLDS,
    probe=probe_products_outside_region,
    control=Control(
        "the same calls inside the region",
        control_products_inside_region,
        measures=("amp-inside-products-raised",),
    ),
    measures=(
        "amp-outside-products-raised",
        "amp-outside-products",
        "amp-outside-mm",
        "amp-outside-bmm",
        "amp-mixed-output-dtype",
    ),
    vocabulary=Vocabulary(
        subjects=("bmm", "baddbmm", "addmm"),
        predicates={
            "en": (
                "after the region",
                "after the autocast region",
                "after an autocast region",
                "outside the region",
                "outside the autocast region",
                "outside autocast",
                "after autocast",
            ),
            "ja": ("領域の外", "領域を出た後", "領域を抜けた後", "autocast の外", "autocastの外"),
            "ko": ("영역 밖", "영역이 끝난 뒤", "영역을 벗어난 뒤", "autocast 밖"),
        },
        requires={
            "en": ("raise", "error", "fail"),
            "ja": ("エラー", "送出", "失敗"),
            "ko": ("오류", "에러", "발생", "실패"),
        },
    ),
)


#: Writes and lerp, which raise inside the region on both devices.
WRITES = ("index assignment", "scatter_", "index_add_", "lerp")


def probe_writes_inside_region(device: Device) -> Observation:
    return _writes_rule(device, cast_back=False)


def control_writes_cast_back(device: Device) -> Observation:
    return _writes_rule(device, cast_back=True)


def _writes_rule(device: Device, cast_back: bool) -> Observation:
    _, found = _split(_run(device, WRITES, inside=True, cast_back=cast_back))
    key = "amp-cast-writes" if cast_back else "amp-writes"
    extra: tuple[Measurement, ...] = ()
    if not cast_back:
        _, elsewhere = _split(
            _run(device, ("index_put", "scatter_add", "dot", "cross"), inside=True)
        )
        extra = (
            Measurement("amp-writes-index-assignment-error", found["index assignment"], "text"),
            Measurement("amp-writes-scatter-error", found["scatter_"], "text"),
            Measurement("amp-device-promoted", _listing(elsewhere), "text"),
        )
    return Observation(
        holds=_raised(found) == len(WRITES),
        rule="holds if, inside an autocast region, x[idx] = y, scatter_, index_add_ and lerp "
        "of a float32 x and an autocast output y all raise",
        measurements=(
            Measurement(f"{key}-raised", _raised(found), "count"),
            Measurement(f"{key}", _listing(found), "text"),
            *extra,
        ),
    )


WRITES_INSIDE_THE_REGION_REFUSE_MIXED_DTYPES = Claim(
    id="amp/writes-inside-the-region-refuse-mixed-dtypes",
    statement="Inside an autocast region too, writing one of its outputs into a float32 tensor "
    "with x[idx] = y, scatter_ or index_add_, or calling lerp on the two, raises; casting the "
    "output with .to(x.dtype) first makes these calls run.",
    expect=Expect.HOLDS,
    probe=probe_writes_inside_region,
    control=Control(
        "the output cast back to float32 first",
        control_writes_cast_back,
        measures=("amp-cast-writes-raised",),
    ),
    measures=(
        "amp-writes-raised",
        "amp-writes",
        "amp-writes-index-assignment-error",
        "amp-writes-scatter-error",
        "amp-device-promoted",
    ),
    vocabulary=Vocabulary(
        subjects=("scatter_", "index_add_", "index_put_", "lerp"),
        predicates={
            "en": ("raise", "error", "fail"),
            "ja": ("エラー", "送出", "失敗"),
            "ko": ("오류", "에러", "발생", "실패"),
        },
        requires={"en": ("autocast",), "ja": ("autocast",), "ko": ("autocast",)},
    ),
)


#: Calls that promote to float32 instead of raising, inside the region and after it.
PROMOTING = ("add", "cat", "where", "slice assignment")


def probe_promoting_calls(device: Device) -> Observation:
    return _always_raise_rule(device, PROMOTING)


def control_products_raise(device: Device) -> Observation:
    return _always_raise_rule(device, ("mm", "bmm"))


def _always_raise_rule(device: Device, names: tuple[str, ...]) -> Observation:
    _, inside = _split(_run(device, names, inside=True))
    _, outside = _split(_run(device, names, inside=False))
    raised = _raised(inside) + _raised(outside)
    promoted = "promoting" if names == PROMOTING else "products"
    return Observation(
        holds=_raised(outside) == len(names),
        rule="holds if every listed call, given an autocast output and a float32 tensor after "
        "the region, raises",
        measurements=(
            Measurement(f"amp-{promoted}-raised", raised, "count"),
            Measurement(f"amp-{promoted}-inside", _listing(inside), "text"),
            Measurement(f"amp-{promoted}-outside", _listing(outside), "text"),
        ),
    )


MYTH_MIXED_DTYPES_ALWAYS_RAISE = Claim(
    id="amp/myth-mixed-dtypes-always-raise",
    statement="Any operation that combines an autocast output with a float32 tensor raises an "
    'error such as "expected scalar type Half but found Float".',
    expect=Expect.FAILS,
    probe=probe_promoting_calls,
    control=Control("mm and bmm after the region", control_products_raise),
    measures=("amp-promoting-raised", "amp-promoting-inside", "amp-promoting-outside"),
    vocabulary=Vocabulary(
        subjects=("expected scalar type", "autocast"),
        predicates={
            "en": ("any operation", "every operation", "all operations", "always raise"),
            "ja": ("すべての演算", "あらゆる演算", "どれも", "いずれも"),
            "ko": ("어떤 연산이든", "모든 연산", "연산은 모두"),
        },
        opposites={
            "en": ("promote",),
            "ja": ("昇格",),
            "ko": ("승격",),
        },
        # inside a region that turns autocast off: amp/myth-disabled-region-runs-in-float32
        unless={
            "en": ("autocast off", "enabled=False"),
            "ja": ("オフ", "無効", "enabled=False"),
            "ko": ("꺼져", "끄", "enabled=False"),
        },
        # a sentence about errors, not about which dtype operations run in
        requires={
            "en": ("raise", "error", "expected scalar type"),
            "ja": ("エラー", "送出", "expected scalar type"),
            "ko": ("오류", "에러", "발생", "expected scalar type"),
        },
    ),
)


CLAIMS = (
    BATCHED_PRODUCTS_AFTER_THE_REGION_REFUSE_MIXED_DTYPES,
    WRITES_INSIDE_THE_REGION_REFUSE_MIXED_DTYPES,
    MYTH_MIXED_DTYPES_ALWAYS_RAISE,
)
