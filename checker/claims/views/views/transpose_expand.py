"""Claims of "`transpose` and `expand`" (docs/topics/views-and-inplace.md,
``(vi-transpose-expand)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.views._tensors import _COPY, _SHARE, _error, _grid
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


def probe_permute_needs_every_dimension(device: Device) -> Observation:
    return _permute_rule(device, dims=3)


def control_permute_of_two_dimensions(device: Device) -> Observation:
    return _permute_rule(device, dims=2)


def _permute_rule(device: Device, dims: int) -> Observation:
    x = _grid(device).reshape((1, 3, 4) if dims == 3 else (3, 4))
    error = _error(lambda: x.permute(1, 0)).splitlines()[0]
    return Observation(
        holds=error.startswith("RuntimeError"),
        rule=f"holds if permute(1, 0) of a tensor of {dims} dimensions raises RuntimeError",
        measurements=(Measurement(f"vi-permute-{dims}d-error", error, "exception"),),
    )


PERMUTE_NEEDS_EVERY_DIMENSION = Claim(
    id="views/permute-needs-every-dimension",
    statement="permute() needs every dimension of the tensor: on a tensor of 3 dimensions, "
    "permute(1, 0) raises an error.",
    expect=Expect.HOLDS,
    probe=probe_permute_needs_every_dimension,
    control=Control(
        "a tensor of 2 dimensions",
        control_permute_of_two_dimensions,
        measures=("vi-permute-2d-error",),
    ),
    measures=("vi-permute-3d-error",),
    vocabulary=Vocabulary(
        subjects=("permute(",),
        predicates={
            "en": ("every dimension", "all dimensions", "all the dimensions", "each dimension"),
            "ja": ("すべての次元", "全ての次元", "全次元"),
            "ko": ("모든 차원",),
        },
    ),
)


def probe_write_to_expanded(device: Device) -> Observation:
    return _expanded_write_rule(device, cloned=False)


def control_write_to_cloned_expansion(device: Device) -> Observation:
    return _expanded_write_rule(device, cloned=True)


def _expanded_write_rule(device: Device, cloned: bool) -> Observation:
    e = _grid(device)[:1].expand(3, 4)
    if cloned:
        e = e.clone()
    error = _error(lambda: e.add_(1.0)).splitlines()[0]
    kind = "cloned" if cloned else "expanded"
    return Observation(
        holds=error.startswith("RuntimeError"),
        rule="holds if add_(1.0) on x[:1].expand(3, 4)"
        + (".clone()" if cloned else "")
        + " raises RuntimeError",
        measurements=(Measurement(f"vi-{kind}-add-error", error, "exception"),),
    )


IN_PLACE_WRITE_TO_EXPANDED_TENSOR_RAISES = Claim(
    id="views/in-place-write-to-expanded-tensor-raises",
    statement="An in-place operation on a tensor returned by expand() raises an error, because "
    "several of its elements share one memory location; clone() it first.",
    expect=Expect.HOLDS,
    probe=probe_write_to_expanded,
    control=Control(
        "the expanded tensor cloned first",
        control_write_to_cloned_expansion,
        measures=("vi-cloned-add-error",),
    ),
    measures=("vi-expanded-add-error",),
    vocabulary=Vocabulary(
        subjects=("expand(",),
        predicates={
            "en": ("error", "raise"),
            "ja": ("エラー", "例外"),
            "ko": ("오류", "에러", "예외"),
        },
        requires={
            "en": ("in-place", "in place", "add_("),
            "ja": ("インプレース", "in-place", "書き込"),
            "ko": ("인플레이스", "in-place", "제자리"),
        },
    ),
)


def probe_expand_only_size_one(device: Device) -> Observation:
    return _expand_size_rule(device, columns=2)


def control_expand_of_size_one(device: Device) -> Observation:
    return _expand_size_rule(device, columns=1)


def _expand_size_rule(device: Device, columns: int) -> Observation:
    x = _grid(device)[:, :columns]
    error = _error(lambda: x.expand(3, 4)).splitlines()[0][:160]
    return Observation(
        holds=error.startswith("RuntimeError"),
        rule=f"holds if expand(3, 4) of a tensor of shape (3, {columns}) raises RuntimeError",
        measurements=(Measurement(f"vi-expand-3x{columns}-error", error, "exception"),),
    )


EXPAND_ONLY_SIZE_ONE = Claim(
    id="views/expand-enlarges-only-size-one-dimensions",
    statement="expand() can enlarge only dimensions of size 1: expanding a tensor of shape "
    "(3, 2) to (3, 4) raises an error.",
    expect=Expect.HOLDS,
    probe=probe_expand_only_size_one,
    control=Control(
        "a tensor of shape (3, 1)",
        control_expand_of_size_one,
        measures=("vi-expand-3x1-error",),
    ),
    measures=("vi-expand-3x2-error",),
    vocabulary=Vocabulary(
        subjects=("expand(",),
        predicates={
            "en": ("size 1", "size of 1", "size-1", "singleton"),
            "ja": ("サイズ 1", "サイズ1", "サイズが 1", "サイズが1", "大きさ 1", "大きさが1"),
            "ko": ("크기 1", "크기가 1", "크기1", "크기가1"),
        },
        requires={
            "en": ("only", "must", "error", "raise"),
            "ja": ("のみ", "だけ", "しか", "エラー", "例外"),
            "ko": ("만 ", "에만", "오류", "에러", "예외"),
        },
    ),
)


CLAIMS = (
    TRANSPOSE_AND_EXPAND_ARE_VIEWS,
    IN_PLACE_WRITE_TO_EXPANDED_TENSOR_RAISES,
    PERMUTE_NEEDS_EVERY_DIMENSION,
    EXPAND_ONLY_SIZE_ONE,
)
