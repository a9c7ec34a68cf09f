"""Claims of "Contiguity" (docs/topics/views-and-inplace.md, ``(vi-contiguity)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.views._tensors import _grid
from checker.evidence import Measurement, Observation
from checker.measure import shares_storage
from checker.typing import Device


def probe_transpose_not_contiguous(device: Device) -> Observation:
    return _contiguity_rule(device, materialized=False)


def control_materialized_not_contiguous(device: Device) -> Observation:
    return _contiguity_rule(device, materialized=True)


def _contiguity_rule(device: Device, materialized: bool) -> Observation:
    x = _grid(device)
    t, p = x.t(), x.reshape(3, 2, 2).permute(2, 0, 1)
    if materialized:
        t, p = t.contiguous(), p.contiguous()
    made = t.contiguous()
    copied = made.is_contiguous() and not shares_storage(made, x)
    kind = "materialized" if materialized else "transposed"
    return Observation(
        holds=not t.is_contiguous() and not p.is_contiguous() and copied,
        rule="holds if x.t() and a permute() of x"
        + (", each made contiguous first," if materialized else "")
        + " are not contiguous, and contiguous() of the first returns a contiguous tensor "
        "that does not share x's storage",
        measurements=(
            Measurement(f"vi-{kind}-t-contiguous", t.is_contiguous(), "bool"),
            Measurement(f"vi-{kind}-permute-contiguous", p.is_contiguous(), "bool"),
            Measurement(f"vi-{kind}-contiguous-copies", copied, "bool"),
        ),
    )


TRANSPOSE_IS_NOT_CONTIGUOUS = Claim(
    id="views/transpose-is-not-contiguous",
    statement="transpose() and permute() return tensors that are not contiguous; contiguous() "
    "copies such a tensor into new memory in row-major order.",
    expect=Expect.HOLDS,
    probe=probe_transpose_not_contiguous,
    control=Control(
        "the same tensors made contiguous first",
        control_materialized_not_contiguous,
        measures=(
            "vi-materialized-t-contiguous",
            "vi-materialized-permute-contiguous",
            "vi-materialized-contiguous-copies",
        ),
    ),
    devices=("cpu",),
    measures=(
        "vi-transposed-t-contiguous",
        "vi-transposed-permute-contiguous",
        "vi-transposed-contiguous-copies",
    ),
    vocabulary=Vocabulary(
        subjects=("transpose", "permute", ".t()"),
        predicates={
            "en": ("not contiguous", "non-contiguous", "noncontiguous", "non contiguous"),
            "ja": ("非連続", "連続でな", "連続ではな", "連続していな"),
            "ko": ("비연속", "연속적이지 않", "연속이 아니", "contiguous하지 않"),
        },
        denies=False,
    ),
)


def probe_view_needs_contiguous(device: Device) -> Observation:
    return _view_rule(device, shape=(2, 2, 3))


def control_view_merging_dimensions(device: Device) -> Observation:
    return _view_rule(device, shape=(12,))


def _view_rule(device: Device, shape: tuple[int, ...]) -> Observation:
    t = _grid(device).t()  # 4 x 3, strides (1, 4): not contiguous
    try:
        v = t.view(*shape)
    except RuntimeError as exc:
        error, shares = f"RuntimeError: {str(exc).splitlines()[0][:120]}", False
    else:
        error, shares = "no error", shares_storage(v, t)
    kind = "split" if len(shape) > 2 else "flat"
    return Observation(
        holds=not t.is_contiguous() and error.startswith("RuntimeError"),
        rule=f"holds if view{shape} of the non-contiguous x.t() raises RuntimeError",
        measurements=(
            Measurement(f"vi-view-{kind}-error", error, "exception"),
            Measurement(f"vi-view-{kind}-shares", shares, "bool"),
        ),
    )


MYTH_VIEW_NEEDS_CONTIGUOUS = Claim(
    id="views/myth-view-needs-contiguous",
    statement="view() works only on contiguous tensors: on a tensor that is not contiguous it "
    "always raises an error.",
    expect=Expect.FAILS,
    probe=probe_view_needs_contiguous,
    control=Control(
        "view(12), which merges the two dimensions",
        control_view_merging_dimensions,
        measures=("vi-view-flat-error", "vi-view-flat-shares"),
    ),
    devices=("cpu",),
    measures=("vi-view-split-error", "vi-view-split-shares"),
    vocabulary=Vocabulary(
        subjects=("view(",),
        predicates={
            "en": ("only … contiguous", "contiguous tensors only", "always … contiguous"),
            "ja": ("連続 … のみ", "連続 … しか", "contiguous … のみ", "contiguous … しか"),
            "ko": ("연속 … 에서만", "연속 … 만 ", "contiguous … 에서만"),
        },
    ),
)


CLAIMS = (
    TRANSPOSE_IS_NOT_CONTIGUOUS,
    MYTH_VIEW_NEEDS_CONTIGUOUS,
)
