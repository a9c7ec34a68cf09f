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


def probe_view_in_place_myth(device: Device) -> Observation:
    return _shape_in_place_rule(device, resize=False)


def control_resize_in_place(device: Device) -> Observation:
    return _shape_in_place_rule(device, resize=True)


def _shape_in_place_rule(device: Device, resize: bool) -> Observation:
    """The myth "view() changes the shape of the tensor it is called on, in place": after
    ``y = x.view(6, 4)`` of a 2 × 3 × 4 tensor, ``x`` has the shape (6, 4) and ``y`` is ``x``,
    as after ``resize_(6, 4)``, which does work in place."""
    import torch

    x = torch.arange(24.0, device=device).reshape(2, 3, 4)
    y = x.resize_(6, 4) if resize else x.view(6, 4)
    shape, same = str(tuple(x.shape)), y is x
    key = "resize" if resize else "view"
    call = "resize_" if resize else "view"
    return Observation(
        holds=shape == "(6, 4)" and same,
        rule=f"holds if x.{call}(6, 4) of a 2 × 3 × 4 tensor x leaves x with the shape "
        "(6, 4) and returns x itself",
        measurements=(
            Measurement(f"vi-{key}-original-shape", shape, "text"),
            Measurement(f"vi-{key}-returns-original", same, "bool"),
        )
        + (() if resize else (Measurement("vi-view-result-shares", shares_storage(y, x), "bool"),)),
    )


MYTH_VIEW_RESHAPES_IN_PLACE = Claim(
    id="views/myth-view-reshapes-in-place",
    statement="view() changes the shape of the tensor it is called on, in place, instead of "
    "returning a new tensor.",
    expect=Expect.FAILS,
    probe=probe_view_in_place_myth,
    control=Control(
        "resize_(), which changes the shape in place",
        control_resize_in_place,
        measures=("vi-resize-original-shape", "vi-resize-returns-original"),
    ),
    measures=("vi-view-original-shape", "vi-view-returns-original", "vi-view-result-shares"),
    vocabulary=Vocabulary(
        # the function, named as code or as "the view function" (view関数, view 함수)
        subjects=(
            "view(",
            "`view`",
            "view関数",
            "view 関数",
            "viewメソッド",
            "view メソッド",
            "view함수",
            "view 함수",
            "view 메서드",
            "view 메소드",
        ),
        # what the function does to the tensor it is called on: changes its shape, and
        # makes no new tensor (the negation is part of that wording, not a denial)
        predicates={
            "en": (
                "changes the original tensor's shape",
                "changes the shape of the original",
                "modifies the original tensor's shape",
                "modifies the shape of the original",
                "reshapes the original",
                "in place",
                "in-place",
                "does not create a new tensor",
                "doesn't create a new tensor",
                "without creating a new tensor",
                "instead of returning a new tensor",
            ),
            "ja": (
                "形状を … 変更",
                "形状を … 変え",
                "形を … 変え",
                "形を … 変更",
                "サイズを … 変更",
                "形状を … 書き換え",
                "新しいテンソルを作成しな",
                "新しいテンソルを作成せず",
                "新しいテンソルを作らな",
                "新しいテンソルを作らず",
                "新しいテンソルを生成しな",
                "新しいテンソルを生成せず",
                "新しいテンソルは作られな",
                "新しいテンソルは作成されな",
            ),
            "ko": (
                "모양을 … 바꾸",
                "모양을 … 바꿔",
                "모양을 … 바꿉",
                "모양을 … 변경",
                "형태를 … 바꾸",
                "형태를 … 바꿔",
                "형태를 … 바꿉",
                "형태를 … 변경",
                "크기를 … 바꾸",
                "크기를 … 변경",
                "새 텐서를 만들지 않",
                "새로운 텐서를 만들지 않",
                "새 텐서를 생성하지 않",
                "새로운 텐서를 생성하지 않",
                "새 텐서가 만들어지지 않",
                "새 텐서가 생성되지 않",
            ),
        },
        opposites={
            "en": ("returns a new tensor", "new tensor object"),
            "ja": ("新しいテンソルを返", "別のテンソルを返"),
            "ko": ("새 텐서를 반환", "새로운 텐서를 반환"),
        },
        # said of the tensor it is called on: "the original", "in place"
        requires={
            "en": ("original", "in place", "in-place", "itself"),
            "ja": ("元の", "元テンソル", "インプレース", "その場で", "原地", "自体", "そのもの"),
            "ko": ("원래", "원본", "인플레이스", "제자리", "in-place", "자체"),
        },
        # memory, copies and writes are views/view-and-reshape-share-storage ("no new
        # tensor" said of memory means "no copy", and is true); "the original stays as it
        # is" denies the myth in words the predicates do not hold
        unless={
            "en": (
                "memory",
                "storage",
                "copy",
                "copies",
                "writ",
                "value",
                "element",
                "data",
                "unchanged",
                "keeps",
                "intact",
            ),
            "ja": (
                "メモリ",
                "ストレージ",
                "共有",
                "コピー",
                "複製",
                "書き込",
                "値",
                "要素",
                "データ",
                "そのまま",
                "元のまま",
                "保た",
            ),
            "ko": (
                "메모리",
                "스토리지",
                "공유",
                "복사",
                "쓰기",
                "값",
                "원소",
                "요소",
                "데이터",
                "그대로",
                "유지",
            ),
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


def probe_reshape_raises_myth(device: Device) -> Observation:
    return _raises_on_transpose_rule(device, "reshape")


def control_view_raises(device: Device) -> Observation:
    return _raises_on_transpose_rule(device, "view")


def _raises_on_transpose_rule(device: Device, method: str) -> Observation:
    """The myth "reshape() fails on a tensor that is not contiguous": reshape(12) and
    reshape_as() of a transposed 3 × 4 tensor raise RuntimeError, as view(12) and view_as()
    do."""
    import torch

    t = _grid(device).t()
    error = _error(lambda: getattr(t, method)(12))
    error_as = _error(lambda: getattr(t, f"{method}_as")(torch.empty(2, 6, device=device)))
    raised = error.startswith("RuntimeError") and error_as.startswith("RuntimeError")
    return Observation(
        holds=not t.is_contiguous() and raised,
        rule=f"holds if, on a transposed 3 × 4 tensor, which is not contiguous, {method}(12) "
        f"and {method}_as() of a 2 × 6 tensor both raise RuntimeError",
        measurements=(
            Measurement(f"vi-{method}-of-transpose-error", error, "exception"),
            Measurement(f"vi-{method}-as-of-transpose-error", error_as, "exception"),
        ),
    )


MYTH_RESHAPE_FAILS_ON_NON_CONTIGUOUS = Claim(
    id="views/myth-reshape-fails-on-non-contiguous",
    statement="reshape() and reshape_as() raise an error when the tensor is not contiguous, "
    "as view() does.",
    expect=Expect.FAILS,
    probe=probe_reshape_raises_myth,
    control=Control(
        "view() and view_as() in place of reshape() and reshape_as()",
        control_view_raises,
        measures=("vi-view-of-transpose-error", "vi-view-as-of-transpose-error"),
    ),
    measures=("vi-reshape-of-transpose-error", "vi-reshape-as-of-transpose-error"),
    vocabulary=Vocabulary(
        # the method as code, as "the reshape function", or written out in katakana
        subjects=(
            "reshape(",
            "`reshape`",
            "reshape_as",
            "reshape関数",
            "reshape 関数",
            "reshape함수",
            "reshape 함수",
            "リシェイプ",
        ),
        predicates={
            "en": ("raise", "error", "fail"),
            "ja": ("エラー", "失敗", "例外"),
            "ko": ("에러", "오류", "실패", "예외"),
        },
        opposites={
            "en": ("copies", "returns a copy", "makes a copy", "falls back to a copy"),
            "ja": ("コピーを返", "コピーする", "コピーして"),
            "ko": ("복사본을 반환", "복사한다", "복사해", "복사하여"),
        },
        # a tensor that is not contiguous: the case the myth names
        requires={
            "en": ("contiguous", "transpos", "layout", "stride"),
            "ja": ("連続", "contiguous", "転置", "並んでいない", "バラバラ", "ストライド"),
            "ko": ("연속", "contiguous", "전치", "스트라이드"),
        },
        # a sentence that names view() too is about view(), which does raise
        unless={
            "en": ("view(", "`view`", "view ", "numel", "number of elements"),
            "ja": ("view", "ビュー", "要素数"),
            "ko": ("view", "뷰", "원소 수", "요소 수", "원소의 수", "요소의 수"),
        },
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
    MYTH_VIEW_RESHAPES_IN_PLACE,
    RESHAPE_COPIES_NON_CONTIGUOUS,
    MYTH_RESHAPE_FAILS_ON_NON_CONTIGUOUS,
    MYTH_VIEW_WORKS_ON_ANY_LAYOUT,
    MYTH_CONTIGUOUS_ALWAYS_COPIES,
)
