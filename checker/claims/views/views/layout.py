"""Claims of "Storage, offset and strides" (docs/topics/views-and-inplace.md,
``(vi-layout)=``)."""

from __future__ import annotations

import math
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.views._tensors import _grid
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_slice_offset_and_strides(device: Device) -> Observation:
    return _offset_rule(device, cloned=False)


def control_cloned_slice(device: Device) -> Observation:
    return _offset_rule(device, cloned=True)


def _from_storage(x: Any, t: Any) -> list[float]:
    """The elements of the two-dimensional ``t`` read from ``x``'s storage at ``t``'s storage
    offset and strides (``x`` is contiguous from offset 0, so ``x.view(-1)`` is that
    storage)."""
    flat = x.view(-1).tolist()
    offset, (row, column) = t.storage_offset(), t.stride()
    rows, columns = t.shape
    return [flat[offset + i * row + j * column] for i in range(rows) for j in range(columns)]


def _offset_rule(device: Device, cloned: bool) -> Observation:
    x = _grid(device)
    t = x[1:, 1:]
    if cloned:
        t = t.clone()
    matches = _from_storage(x, t) == t.reshape(-1).tolist()
    kind = "cloned" if cloned else "sliced"
    return Observation(
        holds=matches,
        rule="holds if every element (i, j) of "
        + ("x[1:, 1:].clone()" if cloned else "x[1:, 1:]")
        + " is the element of x's storage at storage_offset() + i * stride(0) + j * stride(1)",
        measurements=(
            Measurement(f"vi-{kind}-offset", t.storage_offset(), "count"),
            Measurement(f"vi-{kind}-strides", str(t.stride()), "text"),
            Measurement(f"vi-{kind}-read-from-x-storage", matches, "bool"),
        ),
    )


SLICE_IS_OFFSET_AND_STRIDES = Claim(
    id="views/tensor-is-offset-and-strides-over-storage",
    statement="A tensor reads its elements from a one-dimensional storage, at its storage offset "
    "plus each index times its stride: x[1:, 1:] of a 3 × 4 tensor starts at offset 5 of x's "
    "storage, with strides (4, 1).",
    expect=Expect.HOLDS,
    probe=probe_slice_offset_and_strides,
    control=Control(
        "x[1:, 1:].clone(), which has a storage of its own",
        control_cloned_slice,
        measures=("vi-cloned-offset", "vi-cloned-strides", "vi-cloned-read-from-x-storage"),
    ),
    measures=("vi-sliced-offset", "vi-sliced-strides", "vi-sliced-read-from-x-storage"),
    vocabulary=Vocabulary(
        subjects=("storage_offset", "storage offset", "ストレージオフセット", "스토리지 오프셋"),
        predicates={
            "en": ("stride",),
            "ja": ("ストライド", "stride"),
            "ko": ("스트라이드", "stride"),
        },
        requires={
            "en": ("storage",),
            "ja": ("ストレージ", "storage"),
            "ko": ("스토리지", "storage"),
        },
    ),
)


def probe_contiguous_strides_row_major(device: Device) -> Observation:
    return _row_major_rule(device, transposed=False)


def control_transposed_strides(device: Device) -> Observation:
    return _row_major_rule(device, transposed=True)


def _row_major_rule(device: Device, transposed: bool) -> Observation:
    import torch

    t = torch.zeros(2, 3, 2, device=device)
    if transposed:
        t = t.transpose(0, 2)
    sizes = tuple(t.shape)
    row_major = tuple(math.prod(sizes[d + 1 :]) for d in range(len(sizes)))
    kind = "transposed" if transposed else "contiguous"
    return Observation(
        holds=t.stride() == row_major,
        rule="holds if the strides of "
        + ("torch.zeros(2, 3, 2).transpose(0, 2)" if transposed else "torch.zeros(2, 3, 2)")
        + ", of shape (2, 3, 2), are the products of the sizes after each dimension, (6, 2, 1)",
        measurements=(
            Measurement(f"vi-{kind}-2x3x2-strides", str(t.stride()), "text"),
            Measurement(f"vi-{kind}-2x3x2-is-contiguous", t.is_contiguous(), "bool"),
        ),
    )


CONTIGUOUS_STRIDES_ROW_MAJOR = Claim(
    id="views/contiguous-strides-are-row-major",
    statement="A contiguous tensor's strides are row-major: each is the product of the sizes "
    "after its dimension, so a tensor of shape (2, 3, 2) has strides (6, 2, 1).",
    expect=Expect.HOLDS,
    probe=probe_contiguous_strides_row_major,
    control=Control(
        "a tensor of the same shape made by transpose(0, 2)",
        control_transposed_strides,
        measures=("vi-transposed-2x3x2-strides", "vi-transposed-2x3x2-is-contiguous"),
    ),
    measures=("vi-contiguous-2x3x2-strides", "vi-contiguous-2x3x2-is-contiguous"),
    vocabulary=Vocabulary(
        subjects=("stride", "strides", "Strides", "ストライド", "스트라이드"),
        predicates={
            "en": ("row-major", "row major", "C order", "C-order"),
            "ja": ("行優先", "row-major", "C 順", "C順"),
            "ko": ("행 우선", "행우선", "row-major", "C 순서"),
        },
        requires={
            "en": ("contiguous",),
            "ja": ("連続", "contiguous"),
            "ko": ("연속", "contiguous"),
        },
        unless={
            "en": ("non-contiguous", "not contiguous", "transpose", "permute"),
            "ja": ("非連続", "連続でな", "連続ではな", "転置", "transpose", "permute"),
            "ko": ("비연속", "연속적이지 않", "연속이 아니", "전치", "transpose", "permute"),
        },
    ),
)


def probe_column_slice_not_contiguous(device: Device) -> Observation:
    return _column_slice_rule(device, columns=True)


def control_row_slice(device: Device) -> Observation:
    return _column_slice_rule(device, columns=False)


def _column_slice_rule(device: Device, columns: bool) -> Observation:
    x = _grid(device)
    t = x[:, :2] if columns else x[:2]
    kind = "column" if columns else "row"
    return Observation(
        holds=not t.is_contiguous(),
        rule="holds if "
        + ("x[:, :2]" if columns else "x[:2]")
        + " of a 3 × 4 tensor x is not contiguous",
        measurements=(
            Measurement(f"vi-{kind}-slice-is-contiguous", t.is_contiguous(), "bool"),
            Measurement(f"vi-{kind}-slice-strides", str(t.stride()), "text"),
        ),
    )


COLUMN_SLICE_NOT_CONTIGUOUS = Claim(
    id="views/column-slice-is-not-contiguous",
    statement="Slicing columns, as in x[:, :2], gives a tensor that is not contiguous; slicing "
    "rows, as in x[:2], gives a contiguous one.",
    expect=Expect.HOLDS,
    probe=probe_column_slice_not_contiguous,
    control=Control(
        "x[:2], a slice of rows",
        control_row_slice,
        measures=("vi-row-slice-is-contiguous", "vi-row-slice-strides"),
    ),
    measures=("vi-column-slice-is-contiguous", "vi-column-slice-strides"),
    vocabulary=Vocabulary(
        subjects=(
            "column slice",
            "slicing columns",
            "column slicing",
            "slice of columns",
            "列のスライス",
            "列をスライス",
            "열 슬라이스",
            "열을 슬라이싱",
            "열 슬라이싱",
        ),
        predicates={
            "en": ("not contiguous", "non-contiguous", "noncontiguous", "non contiguous"),
            "ja": ("非連続", "連続でな", "連続ではな", "連続していな"),
            "ko": ("비연속", "연속적이지 않", "연속이 아니", "contiguous하지 않"),
        },
        denies=False,
    ),
)


CLAIMS = (
    SLICE_IS_OFFSET_AND_STRIDES,
    CONTIGUOUS_STRIDES_ROW_MAJOR,
    COLUMN_SLICE_NOT_CONTIGUOUS,
)
