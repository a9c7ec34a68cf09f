"""Claims of "Negative strides and resizing" (docs/topics/tensors-from-data.md,
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


CLAIMS = (
    NEGATIVE_STRIDES_REFUSED,
    FROM_NUMPY_NOT_RESIZABLE,
)
