"""Claims of "Operations on several inputs run in the widest type" (docs/topics/amp.md,
``(amp-widest-type-ops)=``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from checker.claim import Claim, Control, Expect
from checker.claims.amp._precision import dtype_name
from checker.claims.amp.op_categories._ops import _matches, describe
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_widest_type_ops(device: Device) -> Observation:
    return _widest_rule(device, WIDEST_TYPE_OPS)


def control_widest_type_mm(device: Device) -> Observation:
    return _widest_rule(device, ("mm",))


#: Operations autocast runs in the widest floating type of their inputs.
WIDEST_TYPE_OPS = ("cat", "stack", "addcmul")


def _mixed_results(device: Device, ops: tuple[str, ...]) -> dict[str, str]:
    """Each operation on one float16 and one float32 input, under float16 autocast."""
    import torch

    low = torch.ones(4, device=device, dtype=torch.float16)
    high = torch.ones(4, device=device, dtype=torch.float32)
    calls: dict[str, Callable[[], Any]] = {
        "cat": lambda: torch.cat([low, high]),
        "stack": lambda: torch.stack([low, high]),
        "addcmul": lambda: torch.addcmul(low, high, high),
        "mm": lambda: torch.mm(low.reshape(2, 2), high.reshape(2, 2)),
        "mul": lambda: low * high,
    }
    found = {}
    with torch.autocast(device, dtype=torch.float16):
        for op in ops:
            try:
                found[op] = dtype_name(calls[op]().dtype)
            except Exception as exc:
                found[op] = f"{type(exc).__name__}: {exc}".splitlines()[0]
    return found


def _widest_rule(device: Device, ops: tuple[str, ...]) -> Observation:
    found = _mixed_results(device, ops)
    return Observation(
        holds=all(v == "float32" for v in found.values()),
        rule="holds if every listed operation, given one float16 and one float32 input under "
        "float16 autocast, returns float32, the widest of its input types",
        measurements=(
            Measurement("amp-widest-ops", ", ".join(ops), "text"),
            Measurement("amp-widest-float32-results", _matches(found, "float32"), "count"),
            Measurement("amp-widest-results", describe(found), "text"),
        ),
    )


WIDEST_INPUT_TYPE_OPS = Claim(
    id="amp/widest-input-type-ops",
    statement="Under autocast, cat, stack and addcmul run in the widest floating type of "
    "their inputs: float16 mixed with float32 gives float32.",
    expect=Expect.HOLDS,
    probe=probe_widest_type_ops,
    measures=("amp-widest-ops", "amp-widest-float32-results", "amp-widest-results"),
    control=Control("mm, which autocast casts down", control_widest_type_mm),
)


CLAIMS = (WIDEST_INPUT_TYPE_OPS,)
