"""Claims of "Repeating a tensor" (docs/topics/views-and-inplace.md, ``(vi-repeat)=``):
``repeat``, ``repeat_interleave`` and ``torch.tile``."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.views._tensors import _COPY, _error, _grid
from checker.evidence import Measurement, Observation
from checker.measure import shares_storage
from checker.typing import Device


def _square(device: Device) -> Any:
    """A 2 × 2 float32 tensor holding 0 … 3."""
    import torch

    return torch.arange(4.0, device=device).reshape(2, 2)


def probe_repeat_copies(device: Device) -> Observation:
    return _repeat_copy_rule(device, expanded=False)


def control_expand_shares(device: Device) -> Observation:
    return _repeat_copy_rule(device, expanded=True)


def _repeat_copy_rule(device: Device, expanded: bool) -> Observation:
    import torch

    row = torch.arange(4.0, device=device).reshape(1, 4)
    t = row.expand(3, 4) if expanded else row.repeat(3, 1)
    shares = shares_storage(t, row)
    kind = "expanded-row" if expanded else "repeat"
    return Observation(
        holds=not shares,
        rule="holds if "
        + ("row.expand(3, 4)" if expanded else "row.repeat(3, 1)")
        + " of a 1 × 4 tensor row does not share row's storage",
        measurements=(
            Measurement(f"vi-{kind}-shares", shares, "bool"),
            Measurement(f"vi-{kind}-storage-bytes", t.untyped_storage().nbytes(), "bytes"),
        ),
    )


REPEAT_COPIES = Claim(
    id="views/repeat-copies",
    statement="repeat() copies the data into new memory, unlike expand(), which returns a view.",
    expect=Expect.HOLDS,
    probe=probe_repeat_copies,
    control=Control(
        "row.expand(3, 4)",
        control_expand_shares,
        measures=("vi-expanded-row-shares", "vi-expanded-row-storage-bytes"),
    ),
    measures=("vi-repeat-shares", "vi-repeat-storage-bytes"),
    vocabulary=Vocabulary(
        subjects=("repeat(", ".repeat"),
        predicates=_COPY,
        opposites={
            "en": ("a view", "shares"),
            "ja": ("ビューを返", "共有する"),
            "ko": ("뷰를 반환", "공유한다"),
        },
        unless={
            "en": ("repeat_interleave", "torch.tile"),
            "ja": ("repeat_interleave", "torch.tile"),
            "ko": ("repeat_interleave", "torch.tile"),
        },
    ),
)


def probe_repeat_needs_every_dimension(device: Device) -> Observation:
    return _repeat_counts_rule(device, counts=(2,))


def control_repeat_with_every_dimension(device: Device) -> Observation:
    return _repeat_counts_rule(device, counts=(2, 1))


def _repeat_counts_rule(device: Device, counts: tuple[int, ...]) -> Observation:
    x = _grid(device)
    error = _error(lambda: x.repeat(*counts)).splitlines()[0][:160]
    args, n = ", ".join(str(c) for c in counts), len(counts)
    return Observation(
        holds=error.startswith("RuntimeError"),
        rule=f"holds if x.repeat({args}) of a tensor x of shape (3, 4) raises RuntimeError",
        measurements=(Measurement(f"vi-repeat-{n}-counts-error", error, "exception"),),
    )


REPEAT_NEEDS_EVERY_DIMENSION = Claim(
    id="views/repeat-needs-a-count-per-dimension",
    statement="repeat() needs at least as many counts as the tensor has dimensions: on a tensor "
    "of 2 dimensions, repeat(2) raises an error.",
    expect=Expect.HOLDS,
    probe=probe_repeat_needs_every_dimension,
    control=Control(
        "repeat(2, 1), a count for each dimension",
        control_repeat_with_every_dimension,
        measures=("vi-repeat-2-counts-error",),
    ),
    measures=("vi-repeat-1-counts-error",),
    vocabulary=Vocabulary(
        subjects=("repeat(", ".repeat"),
        predicates={
            "en": ("every dimension", "all dimensions", "each dimension", "number of dimensions"),
            "ja": ("すべての次元", "全ての次元", "各次元", "次元数", "次元の数"),
            "ko": ("모든 차원", "각 차원", "차원 수", "차원의 수"),
        },
        unless={
            "en": ("repeat_interleave", "torch.tile", "tile("),
            "ja": ("repeat_interleave", "torch.tile", "tile("),
            "ko": ("repeat_interleave", "torch.tile", "tile("),
        },
    ),
)


def probe_tile_pads_counts(device: Device) -> Observation:
    return _tile_rule(device, counts=(3,))


def control_tile_with_counts_at_the_front(device: Device) -> Observation:
    return _tile_rule(device, counts=(3, 1))


def _tile_rule(device: Device, counts: tuple[int, ...]) -> Observation:
    import torch

    x = _square(device)
    t = torch.tile(x, counts)
    padded = torch.tile(x, (1, 3))
    same = tuple(t.shape) == tuple(padded.shape) and bool(torch.equal(t, padded))
    name = "-".join(str(c) for c in counts)
    dims = "(" + ", ".join(str(c) for c in counts) + ("," if len(counts) == 1 else "") + ")"
    return Observation(
        holds=same,
        rule=f"holds if torch.tile(x, {dims}) of a 2 × 2 tensor x equals torch.tile(x, (1, 3))",
        measurements=(Measurement(f"vi-tile-{name}-shape", str(tuple(t.shape)), "text"),),
    )


TILE_PADS_COUNTS = Claim(
    id="views/tile-pads-counts-with-ones",
    statement="torch.tile() given fewer counts than the tensor has dimensions fills the missing "
    "leading counts with 1: a 2 × 2 tensor tiled by (3,) becomes 2 × 6.",
    expect=Expect.HOLDS,
    probe=probe_tile_pads_counts,
    control=Control(
        "torch.tile(x, (3, 1))",
        control_tile_with_counts_at_the_front,
        measures=("vi-tile-3-1-shape",),
    ),
    measures=("vi-tile-3-shape",),
    vocabulary=Vocabulary(
        subjects=("tile(",),
        predicates={
            "en": ("prepend", "in front", "padded with 1", "leading counts with 1", "leading 1"),
            "ja": ("前に 1", "前に1", "先頭に 1", "先頭に1", "1 で補", "1で補"),
            "ko": ("앞에 1", "앞쪽에 1", "1로 채", "1을 앞에"),
        },
    ),
)


def probe_repeat_interleave_flattens(device: Device) -> Observation:
    return _interleave_rule(device, dim=None)


def control_repeat_interleave_with_dim(device: Device) -> Observation:
    return _interleave_rule(device, dim=0)


def _interleave_rule(device: Device, dim: int | None) -> Observation:
    import torch

    x = _square(device)
    t = torch.repeat_interleave(x, 2) if dim is None else torch.repeat_interleave(x, 2, dim=dim)
    kind = "flat" if dim is None else "dim"
    return Observation(
        holds=t.dim() == 1,
        rule="holds if torch.repeat_interleave(x, 2"
        + ("" if dim is None else ", dim=0")
        + ") of a 2 × 2 tensor x has 1 dimension",
        measurements=(Measurement(f"vi-interleave-{kind}-shape", str(tuple(t.shape)), "text"),),
    )


REPEAT_INTERLEAVE_FLATTENS = Claim(
    id="views/repeat-interleave-flattens-without-dim",
    statement="repeat_interleave() without dim flattens the tensor: a 2 × 2 tensor with each "
    "element repeated twice becomes 8 elements in 1 dimension; with dim it repeats along that "
    "dimension.",
    expect=Expect.HOLDS,
    probe=probe_repeat_interleave_flattens,
    control=Control(
        "dim=0",
        control_repeat_interleave_with_dim,
        measures=("vi-interleave-dim-shape",),
    ),
    measures=("vi-interleave-flat-shape",),
    vocabulary=Vocabulary(
        subjects=("repeat_interleave",),
        predicates={
            "en": ("1-D", "one-dimensional", "1D", "flat tensor"),
            "ja": ("平坦", "フラット", "1 次元", "1次元"),
            "ko": ("평탄", "펼쳐", "1차원", "1 차원"),
        },
        requires={
            "en": ("dim",),
            "ja": ("dim",),
            "ko": ("dim",),
        },
        denies=False,
    ),
)


CLAIMS = (
    REPEAT_COPIES,
    REPEAT_NEEDS_EVERY_DIMENSION,
    TILE_PADS_COUNTS,
    REPEAT_INTERLEAVE_FLATTENS,
)
