"""Claims of "`view`, `reshape` and `flatten`" (docs/topics/views-and-inplace.md,
``(vi-view-reshape)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.views._tensors import _COPY, _SHARE, _allocated, _error, _grid
from checker.evidence import Measurement, Observation
from checker.measure import shares_storage
from checker.typing import Device


def probe_view_and_reshape(device: Device) -> Observation:
    return _view_reshape_rule(device, transposed=False)


def control_reshape_transposed(device: Device) -> Observation:
    return _view_reshape_rule(device, transposed=True)


def _view_reshape_rule(device: Device, transposed: bool) -> Observation:
    x = _grid(device).reshape(4, 3).t() if transposed else _grid(device)

    def views() -> tuple[Any, Any, Any]:
        try:
            v = x.view(4, 3)
        except RuntimeError:  # a transposed tensor has no such view
            v = None
        return v, x.reshape(2, 6), x.flatten()

    (v, r, f), allocated = _allocated(views, device)
    shared = [t is not None and shares_storage(t, x) for t in (v, r, f)]
    return Observation(
        holds=all(shared) and allocated == 0,
        rule="holds if view, reshape and flatten of a "
        + ("transposed" if transposed else "contiguous")
        + " tensor share its storage and allocate no bytes",
        measurements=(
            Measurement("vi-view-shares", shared[0], "bool"),
            Measurement("vi-reshape-contiguous-shares", shared[1], "bool"),
            Measurement("vi-flatten-contiguous-shares", shared[2], "bool"),
            Measurement("vi-view-reshape-allocated", allocated, "bytes"),
        ),
    )


VIEW_AND_RESHAPE_SHARE_STORAGE = Claim(
    id="views/view-and-reshape-share-storage",
    statement="view(), and reshape() or flatten() of a contiguous tensor, return tensors "
    "that share its storage and allocate nothing.",
    expect=Expect.HOLDS,
    probe=probe_view_and_reshape,
    control=Control(
        "a transposed tensor in place of a contiguous one",
        control_reshape_transposed,
    ),
    measures=(
        "vi-view-shares",
        "vi-reshape-contiguous-shares",
        "vi-flatten-contiguous-shares",
        "vi-view-reshape-allocated",
    ),
    vocabulary=Vocabulary(
        subjects=("view(", "reshape("),
        predicates=_SHARE,
        opposites=_COPY,
        # said of a transposed tensor, "reshape() copies" is the next claim, and true
        unless={
            "en": ("transposed", "non-contiguous", "not contiguous"),
            "ja": ("転置した", "転置後", "非連続", "連続でない", "連続ではない"),
            "ko": ("전치한", "전치된", "비연속", "연속적이지 않은"),
        },
    ),
)


def probe_reshape_non_contiguous(device: Device) -> Observation:
    return _reshape_copy_rule(device, transposed=True)


def control_reshape_contiguous(device: Device) -> Observation:
    return _reshape_copy_rule(device, transposed=False)


def _reshape_copy_rule(device: Device, transposed: bool) -> Observation:
    x = _grid(device)
    t = x.t() if transposed else x
    r, allocated = _allocated(lambda: t.reshape(12), device)
    error = _error(lambda: t.view(12))
    shared = shares_storage(r, x)
    return Observation(
        holds=not shared and allocated > 0 and error.startswith("RuntimeError"),
        rule="holds if reshape(12) of a "
        + ("transposed" if transposed else "contiguous")
        + " 3 × 4 tensor does not share its storage and allocates, while view(12) raises "
        "RuntimeError",
        measurements=(
            Measurement("vi-reshape-transposed-shares", shared, "bool"),
            Measurement("vi-reshape-transposed-allocated", allocated, "bytes"),
            Measurement("vi-view-transposed-error", error, "exception"),
        ),
    )


RESHAPE_COPIES_NON_CONTIGUOUS = Claim(
    id="views/reshape-copies-non-contiguous",
    statement="reshape() of a tensor whose layout does not allow a view, such as a transpose, "
    "returns a copy; view() raises an error instead.",
    expect=Expect.HOLDS,
    probe=probe_reshape_non_contiguous,
    control=Control(
        "a contiguous tensor",
        control_reshape_contiguous,
    ),
    measures=(
        "vi-reshape-transposed-shares",
        "vi-reshape-transposed-allocated",
        "vi-view-transposed-error",
    ),
    vocabulary=Vocabulary(
        subjects=("reshape(",),
        predicates=_COPY,
        opposites=_SHARE,
        # "reshape() always copies" is wider than this claim (the layouts that allow no
        # view): it is views/view-and-reshape-share-storage that judges it
        unless={"en": ("always",), "ja": ("常に", "いつも"), "ko": ("항상", "언제나")},
    ),
)


def probe_view_after_transpose_myth(device: Device) -> Observation:
    return _view_any_layout_rule(device, transposed=True)


def control_view_contiguous(device: Device) -> Observation:
    return _view_any_layout_rule(device, transposed=False)


def _view_any_layout_rule(device: Device, transposed: bool) -> Observation:
    """The myth "view() works on a tensor of any layout": view(12) of a transposed 3 × 4
    tensor returns, as it does on a contiguous one."""
    x = _grid(device)
    t = x.t() if transposed else x
    error = _error(lambda: t.view(12))
    return Observation(
        holds=error == "no error",
        rule="holds if view(12) of a "
        + ("transposed" if transposed else "contiguous")
        + " 3 × 4 tensor returns without an error",
        measurements=(Measurement("vi-view-any-layout-error", error, "exception"),),
    )


MYTH_VIEW_WORKS_ON_ANY_LAYOUT = Claim(
    id="views/myth-view-works-on-any-layout",
    statement="view() works on a tensor of any layout: a transposed tensor can be viewed "
    "with a new shape as well.",
    expect=Expect.FAILS,
    probe=probe_view_after_transpose_myth,
    control=Control("a contiguous tensor", control_view_contiguous),
    measures=("vi-view-any-layout-error",),
    vocabulary=Vocabulary(
        subjects=("view(",),
        predicates={
            "en": (
                "any layout",
                "any shape",
                "any tensor",
                "after transpos",
                "even transpos",
                "transposed tensor can be flattened",
                "transposed tensor can be viewed",
            ),
            "ja": (
                "どんなレイアウト",
                "どんな形",
                "どのような形",
                "どんなテンソル",
                "転置したあと",
                "転置した後",
                "転置後",
            ),
            "ko": (
                "어떤 레이아웃",
                "어떤 모양",
                "어떤 형태",
                "어떤 텐서",
                "전치한 뒤",
                "전치한 후",
                "전치 후",
            ),
        },
        opposites={
            # not "contiguous": "a transposed tensor is not contiguous" is no denial
            "en": ("raise", "error", "fails"),
            "ja": ("エラー", "例外"),
            "ko": ("오류", "에러", "예외"),
        },
    ),
)


def probe_contiguous_copies_myth(device: Device) -> Observation:
    return _contiguous_copies_rule(device, transposed=False)


def control_contiguous_of_transpose(device: Device) -> Observation:
    return _contiguous_copies_rule(device, transposed=True)


def _contiguous_copies_rule(device: Device, transposed: bool) -> Observation:
    """The myth "contiguous() always copies": contiguous() of a tensor that already is
    contiguous returns a new tensor with its own storage, as it does for a transpose."""
    x = _grid(device)
    t = x.t() if transposed else x
    c = t.contiguous()
    shared = shares_storage(c, x)
    key = "transposed" if transposed else "contiguous"
    return Observation(
        holds=not shared and c is not t,
        rule="holds if contiguous() of a "
        + ("transposed" if transposed else "contiguous")
        + " 3 × 4 tensor returns another tensor that does not share its storage",
        measurements=(
            Measurement(f"vi-contiguous-of-{key}-same-object", c is t, "bool"),
            Measurement(f"vi-contiguous-of-{key}-shares", shared, "bool"),
        ),
    )


MYTH_CONTIGUOUS_ALWAYS_COPIES = Claim(
    id="views/myth-contiguous-always-copies",
    statement="contiguous() always returns a copy, even of a tensor that is already contiguous.",
    expect=Expect.FAILS,
    probe=probe_contiguous_copies_myth,
    control=Control(
        "a transposed tensor",
        control_contiguous_of_transpose,
        measures=("vi-contiguous-of-transposed-shares",),
    ),
    measures=("vi-contiguous-of-contiguous-same-object", "vi-contiguous-of-contiguous-shares"),
    vocabulary=Vocabulary(
        subjects=("contiguous(",),
        predicates={
            "en": (
                "always copies",
                "always returns a copy",
                "always returns a new",
                "always allocates",
                "always makes a copy",
            ),
            "ja": ("常にコピー", "必ずコピー", "常に新しい", "必ず新しい", "毎回コピー"),
            "ko": ("항상 복사", "언제나 복사", "항상 새로운", "항상 새 텐서", "매번 복사"),
        },
        opposites={
            "en": (
                "returns the same tensor",
                "returns itself",
                "returns self",
                "no copy when",
                "only copies when",
            ),
            "ja": ("そのまま返", "自身を返", "同じテンソルを返"),
            "ko": ("그대로 반환", "자기 자신을 반환", "같은 텐서를 반환"),
        },
    ),
)


CLAIMS = (
    VIEW_AND_RESHAPE_SHARE_STORAGE,
    RESHAPE_COPIES_NON_CONTIGUOUS,
    MYTH_VIEW_WORKS_ON_ANY_LAYOUT,
    MYTH_CONTIGUOUS_ALWAYS_COPIES,
)
