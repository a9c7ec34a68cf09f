"""Claims of "Indexing with integers and slices" (docs/topics/views-and-inplace.md,
``(vi-indexing)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.views._tensors import _COPY, _SHARE, _error, _grid
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


def probe_negative_step_raises(device: Device) -> Observation:
    return _step_rule(device, step=-1)


def control_positive_step(device: Device) -> Observation:
    return _step_rule(device, step=2)


def _step_rule(device: Device, step: int) -> Observation:
    x = _grid(device)
    error = _error(lambda: x[::step]).splitlines()[0]
    kind = "negative" if step < 0 else "positive"
    return Observation(
        holds=error.startswith("ValueError"),
        rule=f"holds if x[::{step}] raises ValueError",
        measurements=(Measurement(f"vi-{kind}-step-error", error, "exception"),),
    )


NEGATIVE_STEP_SLICING_RAISES = Claim(
    id="views/negative-step-slicing-raises",
    statement="Slicing a tensor with a negative step, as in x[::-1], raises an error; "
    "torch.flip() reverses it instead.",
    expect=Expect.HOLDS,
    probe=probe_negative_step_raises,
    control=Control("a step of 2", control_positive_step, measures=("vi-positive-step-error",)),
    measures=("vi-negative-step-error",),
    vocabulary=Vocabulary(
        subjects=("negative step", "負のステップ", "음수 스텝", "음의 스텝"),
        predicates={
            "en": ("error", "raise", "not supported", "unsupported"),
            "ja": ("エラー", "例外", "サポートされていな", "対応していな", "使えな"),
            "ko": ("오류", "에러", "예외", "지원하지 않", "지원되지 않"),
        },
        requires={
            "en": ("tensor", "torch", "PyTorch"),
            "ja": ("テンソル", "torch", "PyTorch"),
            "ko": ("텐서", "torch", "PyTorch", "파이토치"),
        },
        # NumPy's own a[::-1] works; a sentence about the array is another case
        unless={lang: ("np.", "NumPy", "numpy", "ndarray") for lang in ("en", "ja", "ko")},
    ),
)


def probe_flip_copies(device: Device) -> Observation:
    return _flip_rule(device, flipped=True)


def control_transpose_in_place_of_flip(device: Device) -> Observation:
    return _flip_rule(device, flipped=False)


def _flip_rule(device: Device, flipped: bool) -> Observation:
    import torch

    x = _grid(device)
    result = torch.flip(x, [0]) if flipped else x.t()
    shares = shares_storage(result, x)
    kind = "flip" if flipped else "transpose"
    return Observation(
        holds=not shares,
        rule="holds if "
        + ("torch.flip(x, [0])" if flipped else "x.t()")
        + " does not share x's storage",
        measurements=(Measurement(f"vi-{kind}-result-shares", shares, "bool"),),
    )


FLIP_COPIES = Claim(
    id="views/flip-copies",
    statement="torch.flip() returns a copy, not a view: its result does not share the input's "
    "memory.",
    expect=Expect.HOLDS,
    probe=probe_flip_copies,
    control=Control(
        "x.t() in place of torch.flip()",
        control_transpose_in_place_of_flip,
        measures=("vi-transpose-result-shares",),
    ),
    measures=("vi-flip-result-shares",),
    vocabulary=Vocabulary(
        subjects=("torch.flip", ".flip("),
        predicates=_COPY,
        opposites=_SHARE,
        # NumPy's np.flip returns a view; a sentence about it is another case
        unless={lang: ("np.flip",) for lang in ("en", "ja", "ko")},
    ),
)


CLAIMS = (BASIC_INDEXING_RETURNS_VIEWS, NEGATIVE_STEP_SLICING_RAISES, FLIP_COPIES)
