"""Claims of "`transpose` and `expand`" (docs/topics/views-and-inplace.md,
``(vi-transpose-expand)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.views._tensors import _COPY, _SHARE, _grid
from checker.evidence import Measurement, Observation
from checker.measure import shares_storage
from checker.typing import Device


def probe_transpose_expand(device: Device) -> Observation:
    return _transpose_expand_rule(device, materialized=False)


def control_materialized_transpose_expand(device: Device) -> Observation:
    return _transpose_expand_rule(device, materialized=True)


def _transpose_expand_rule(device: Device, materialized: bool) -> Observation:
    x = _grid(device)
    t = x.t().contiguous() if materialized else x.t()
    e = x.unsqueeze(0).expand(2, 3, 4)
    if materialized:
        e = e.clone()
    shared_t, shared_e = shares_storage(t, x), shares_storage(e, x)
    return Observation(
        holds=shared_t and shared_e and e.stride()[0] == 0,
        rule="holds if x.t() and x.unsqueeze(0).expand(2, 3, 4)"
        + (", made contiguous and cloned," if materialized else "")
        + " share x's storage and the expanded dimension has stride 0",
        measurements=(
            Measurement("vi-transpose-shares", shared_t, "bool"),
            Measurement("vi-expand-shares", shared_e, "bool"),
            Measurement("vi-expand-stride", str(tuple(e.stride())), "text"),
        ),
    )


TRANSPOSE_AND_EXPAND_ARE_VIEWS = Claim(
    id="views/transpose-and-expand-are-views",
    statement="t(), transpose() and expand() return views; expand() repeats elements "
    "with a stride of 0 instead of copying them.",
    expect=Expect.HOLDS,
    probe=probe_transpose_expand,
    control=Control(
        "the same results made contiguous and cloned",
        control_materialized_transpose_expand,
    ),
    measures=("vi-transpose-shares", "vi-expand-shares", "vi-expand-stride"),
    vocabulary=Vocabulary(subjects=("transpose(", "expand("), predicates=_SHARE, opposites=_COPY),
)


CLAIMS = (TRANSPOSE_AND_EXPAND_ARE_VIEWS,)
