"""Claims of "Indexing with integers and slices" (docs/topics/views-and-inplace.md,
``(vi-indexing)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.views._tensors import _COPY, _SHARE, _grid
from checker.evidence import Measurement, Observation
from checker.measure import shares_storage
from checker.typing import Device


def probe_basic_indexing(device: Device) -> Observation:
    x = _grid(device)
    return _indexing_views_rule(
        x, {"all": x[:], "step": x[1:, ::2], "int": x[0], "ellipsis": x[..., 1]}
    )


def control_advanced_indexing_copies(device: Device) -> Observation:
    x = _grid(device)
    return _indexing_views_rule(
        x,
        {"all": x[[0, 1, 2]], "step": x[1:, [0, 2]], "int": x[[0]], "ellipsis": x[..., [1]]},
    )


def _indexing_views_rule(x: Any, views: dict[str, Any]) -> Observation:
    shared = {name: shares_storage(v, x) for name, v in views.items()}
    views["step"].fill_(-1.0)
    written = bool((x[1:, ::2] == -1.0).all()) and float(x[0, 1]) == 1.0
    return Observation(
        holds=all(shared.values()) and written,
        rule="holds if the four indexing results (x[:], x[1:, ::2], x[0] and x[..., 1] for the "
        "claim) share x's storage, and filling the second changes exactly those elements of x",
        measurements=(
            Measurement("vi-slice-all-shares", shared["all"], "bool"),
            Measurement("vi-slice-step-shares", shared["step"], "bool"),
            Measurement("vi-int-index-shares", shared["int"], "bool"),
            Measurement("vi-ellipsis-index-shares", shared["ellipsis"], "bool"),
            Measurement("vi-write-through-slice", written, "bool"),
        ),
    )


BASIC_INDEXING_RETURNS_VIEWS = Claim(
    id="views/basic-indexing-returns-views",
    statement="Indexing with integers, slices and ellipses returns a view: writing "
    "through it changes the original.",
    expect=Expect.HOLDS,
    probe=probe_basic_indexing,
    control=Control(
        "the same selections with integer lists",
        control_advanced_indexing_copies,
    ),
    measures=(
        "vi-slice-all-shares",
        "vi-slice-step-shares",
        "vi-int-index-shares",
        "vi-ellipsis-index-shares",
        "vi-write-through-slice",
    ),
    vocabulary=Vocabulary(subjects=("x[:]", "[:]"), predicates=_SHARE, opposites=_COPY),
)


CLAIMS = (BASIC_INDEXING_RETURNS_VIEWS,)
