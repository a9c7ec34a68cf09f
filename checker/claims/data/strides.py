"""Claims of "Strides and resizing" (docs/topics/tensors-from-data.md,
``(td-strides)=``)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.data._text import _RAISE, _error
from checker.evidence import Measurement, Observation


def probe_negative_strides(device: str) -> Observation:
    return _strides_rule(reversed_=True)


def control_positive_strides(device: str) -> Observation:
    return _strides_rule(reversed_=False)


def _constructors() -> dict[str, Callable[[Any], Any]]:
    import torch

    return {
        "torch.tensor": torch.tensor,
        "torch.Tensor": torch.Tensor,
        "torch.as_tensor": torch.as_tensor,
        "torch.asarray": torch.asarray,
        "torch.from_numpy": torch.from_numpy,
    }


def _strides_rule(reversed_: bool) -> Observation:
    import numpy as np

    a = np.arange(8.0)
    picked = a[::-1] if reversed_ else a[::2]
    errors = {name: _error(functools.partial(f, picked)) for name, f in _constructors().items()}
    refused = [name for name, e in errors.items() if e.startswith("ValueError")]
    kind = "reversed" if reversed_ else "strided"
    return Observation(
        holds=len(refused) == len(errors),
        rule="holds if torch.tensor, torch.Tensor, torch.as_tensor, torch.asarray and "
        "torch.from_numpy all raise ValueError for "
        + ("a[::-1], which has a negative stride" if reversed_ else "a[::2]"),
        measurements=(
            Measurement(f"data-{kind}-refused", len(refused), "count"),
            Measurement(f"data-{kind}-error", errors["torch.tensor"], "exception"),
        ),
    )


NEGATIVE_STRIDES_REFUSED = Claim(
    id="data/negative-strides-refused",
    statement="torch.tensor, torch.Tensor, torch.as_tensor, torch.asarray and "
    "torch.from_numpy all raise an error for a NumPy array with a negative stride, such as "
    "a[::-1].",
    expect=Expect.HOLDS,
    probe=probe_negative_strides,
    control=Control(
        "a[::2], whose stride is positive",
        control_positive_strides,
        measures=("data-strided-refused", "data-strided-error"),
    ),
    devices=("cpu",),
    measures=("data-reversed-refused", "data-reversed-error"),
    vocabulary=Vocabulary(
        subjects=(
            "negative stride",
            "[::-1]",
            "np.flip",
            "負のストライド",
            "음수 스트라이드",
            "음의 스트라이드",
        ),
        predicates=_RAISE,
        opposites={
            "en": ("accept", "works"),
            "ja": ("受け付け", "動作する"),
            "ko": ("받아들", "동작한"),
        },
    ),
)


def probe_from_numpy_not_resizable(device: str) -> Observation:
    return _resize_rule(from_numpy=True)


def control_tensor_resizable(device: str) -> Observation:
    return _resize_rule(from_numpy=False)


def _resize_rule(from_numpy: bool) -> Observation:
    import numpy as np
    import torch

    a = np.ones(3, dtype=np.float32)
    t = torch.from_numpy(a) if from_numpy else torch.tensor(a)
    error = _error(lambda: t.resize_(1000))
    kind = "from-numpy" if from_numpy else "tensor"
    return Observation(
        holds=error.startswith("RuntimeError"),
        rule="holds if resize_(1000) of a 3-element tensor made by "
        + ("torch.from_numpy" if from_numpy else "torch.tensor")
        + " raises RuntimeError",
        measurements=(Measurement(f"data-{kind}-resize-error", error, "exception"),),
    )


FROM_NUMPY_NOT_RESIZABLE = Claim(
    id="data/from-numpy-not-resizable",
    statement="A tensor made by torch.from_numpy() cannot be resized: resize_() to a "
    "larger size raises an error.",
    expect=Expect.HOLDS,
    probe=probe_from_numpy_not_resizable,
    control=Control(
        "a tensor made by torch.tensor",
        control_tensor_resizable,
        measures=("data-tensor-resize-error",),
    ),
    devices=("cpu",),
    measures=("data-from-numpy-resize-error",),
    vocabulary=Vocabulary(
        subjects=("from_numpy",),
        predicates={
            "en": ("resiz",),
            "ja": ("サイズを変更", "リサイズ"),
            "ko": ("크기를 바꿀", "크기를 변경", "리사이즈"),
        },
        denies=True,
    ),
)


def probe_numpy_strides_count_bytes(device: str) -> Observation:
    return _bytes_rule(dtype="float32")


def control_strides_of_one_byte_elements(device: str) -> Observation:
    return _bytes_rule(dtype="uint8")


def _bytes_rule(dtype: str) -> Observation:
    import numpy as np
    import torch

    a = np.zeros((2, 3), dtype=dtype)
    numpy_strides, torch_strides = a.strides, torch.from_numpy(a).stride()
    in_bytes = tuple(s * a.itemsize for s in torch_strides)
    return Observation(
        holds=numpy_strides != torch_strides and numpy_strides == in_bytes,
        rule=f"holds if the NumPy strides of a (2, 3) {dtype} array differ from the strides of "
        "torch.from_numpy() of it, and equal them times the element size in bytes",
        measurements=(
            Measurement(f"data-{dtype}-numpy-strides", str(numpy_strides), "text"),
            Measurement(f"data-{dtype}-torch-strides", str(torch_strides), "text"),
        ),
    )


NUMPY_STRIDES_COUNT_BYTES = Claim(
    id="data/numpy-strides-count-bytes",
    statement="NumPy strides count bytes while PyTorch strides count elements: a (2, 3) float32 "
    "array has strides (12, 4), and the tensor torch.from_numpy() makes of it has (3, 1).",
    expect=Expect.HOLDS,
    probe=probe_numpy_strides_count_bytes,
    control=Control(
        "a uint8 array, whose elements take 1 byte",
        control_strides_of_one_byte_elements,
        measures=("data-uint8-numpy-strides", "data-uint8-torch-strides"),
    ),
    devices=("cpu",),
    measures=("data-float32-numpy-strides", "data-float32-torch-strides"),
    vocabulary=Vocabulary(
        subjects=("stride", "strides", "Strides", "ストライド", "스트라이드"),
        predicates={
            "en": ("bytes",),
            "ja": ("バイト",),
            "ko": ("바이트",),
        },
        requires={
            "en": ("NumPy", "numpy"),
            "ja": ("NumPy", "numpy"),
            "ko": ("NumPy", "numpy"),
        },
    ),
)


CLAIMS = (
    NEGATIVE_STRIDES_REFUSED,
    FROM_NUMPY_NOT_RESIZABLE,
    NUMPY_STRIDES_COUNT_BYTES,
)
