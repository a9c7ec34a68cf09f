"""Claims of "Sizes in `view`, `unsqueeze` and `squeeze`" (docs/topics/views-and-inplace.md,
``(vi-shapes)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.views._tensors import _error, _grid
from checker.evidence import Measurement, Observation
from checker.measure import shares_storage
from checker.typing import Device


def probe_view_infers_minus_one(device: Device) -> Observation:
    return _minus_one_rule(device, columns=4)


def control_view_minus_one_that_does_not_divide(device: Device) -> Observation:
    return _minus_one_rule(device, columns=5)


def _minus_one_rule(device: Device, columns: int) -> Observation:
    x = _grid(device)
    try:
        shape = str(tuple(x.view(-1, columns).shape))
    except RuntimeError as exc:
        shape = f"RuntimeError: {str(exc).splitlines()[0][:120]}"
    return Observation(
        holds=shape == str((x.numel() // columns, columns)),
        rule=f"holds if view(-1, {columns}) of a tensor of 12 elements returns the shape "
        f"(12 // {columns}, {columns})",
        measurements=(Measurement(f"vi-view-minus-one-{columns}-shape", shape, "text"),),
    )


VIEW_INFERS_MINUS_ONE = Claim(
    id="views/view-infers-minus-one",
    statement="In view(), a size of -1 is inferred from the number of elements and the other "
    "sizes: view(-1, 4) of 12 elements gives the shape (3, 4).",
    expect=Expect.HOLDS,
    probe=probe_view_infers_minus_one,
    control=Control(
        "view(-1, 5), where 5 does not divide 12",
        control_view_minus_one_that_does_not_divide,
        measures=("vi-view-minus-one-5-shape",),
    ),
    measures=("vi-view-minus-one-4-shape",),
    vocabulary=Vocabulary(
        subjects=("-1",),
        predicates={
            "en": ("inferred", "infers", "computed automatically", "calculated automatically"),
            "ja": ("推論", "自動的に計算", "自動で計算", "自動的に決ま", "自動で決ま"),
            "ko": ("추론", "자동으로 계산", "자동으로 결정", "자동으로 정해"),
        },
        requires={
            "en": ("view", "reshape"),
            "ja": ("view", "reshape"),
            "ko": ("view", "reshape"),
        },
    ),
)


def probe_view_needs_same_numel(device: Device) -> Observation:
    return _numel_rule(device, shape=(5, 3))


def control_view_with_same_numel(device: Device) -> Observation:
    return _numel_rule(device, shape=(4, 3))


def _numel_rule(device: Device, shape: tuple[int, int]) -> Observation:
    x = _grid(device)
    error = _error(lambda: x.view(*shape)).splitlines()[0][:160]
    count = shape[0] * shape[1]
    args = f"{shape[0]}, {shape[1]}"
    return Observation(
        holds=error.startswith("RuntimeError"),
        rule=f"holds if view({args}), a shape of {count} elements, of a tensor of 12 elements "
        "raises RuntimeError",
        measurements=(Measurement(f"vi-view-{count}-elements-error", error, "exception"),),
    )


VIEW_NEEDS_SAME_NUMEL = Claim(
    id="views/view-needs-the-same-number-of-elements",
    statement="view() raises an error when the new shape has another number of elements than "
    "the tensor.",
    expect=Expect.HOLDS,
    probe=probe_view_needs_same_numel,
    control=Control(
        "view(4, 3), a shape of 12 elements",
        control_view_with_same_numel,
        measures=("vi-view-12-elements-error",),
    ),
    measures=("vi-view-15-elements-error",),
    vocabulary=Vocabulary(
        subjects=("view(",),
        predicates={
            "en": ("error", "raise", "fail"),
            "ja": ("エラー", "例外"),
            "ko": ("오류", "에러", "예외"),
        },
        requires={
            "en": ("number of elements", "numel", "element count", "total size"),
            "ja": ("要素数", "要素の数", "numel"),
            "ko": (
                "원소 수",
                "원소의 수",
                "원소 개수",
                "요소 수",
                "요소의 수",
                "요소 개수",
                "numel",
            ),
        },
    ),
)


def probe_unsqueeze_squeeze_share(device: Device) -> Observation:
    return _unsqueeze_rule(device, stacked=False)


def control_stack_copies(device: Device) -> Observation:
    return _unsqueeze_rule(device, stacked=True)


def _unsqueeze_rule(device: Device, stacked: bool) -> Observation:
    import torch

    x = _grid(device)
    u = torch.stack([x]) if stacked else x.unsqueeze(0)
    s = u.squeeze(0)
    shares = shares_storage(u, x) and shares_storage(s, x)
    s[0, 0] = 100.0
    shows = float(x[0, 0]) == 100.0
    kind = "stack" if stacked else "unsqueeze"
    return Observation(
        holds=shares and shows,
        rule="holds if "
        + ("torch.stack([x])" if stacked else "x.unsqueeze(0)")
        + " and its squeeze(0) share x's storage and a write through the squeezed tensor "
        "changes x",
        measurements=(
            Measurement(f"vi-{kind}-shares", shares, "bool"),
            Measurement(f"vi-{kind}-squeeze-write-shows", shows, "bool"),
        ),
    )


UNSQUEEZE_SQUEEZE_ARE_VIEWS = Claim(
    id="views/unsqueeze-and-squeeze-are-views",
    statement="unsqueeze() and squeeze() return views: they copy nothing, and a write through "
    "their result changes the original tensor.",
    expect=Expect.HOLDS,
    probe=probe_unsqueeze_squeeze_share,
    control=Control(
        "torch.stack([x]) in place of unsqueeze(0)",
        control_stack_copies,
        measures=("vi-stack-shares", "vi-stack-squeeze-write-shows"),
    ),
    measures=("vi-unsqueeze-shares", "vi-unsqueeze-squeeze-write-shows"),
    vocabulary=Vocabulary(
        subjects=("unsqueeze", "squeeze("),
        predicates={
            "en": ("view", "share", "no copy", "without copying", "same memory"),
            "ja": ("ビュー", "共有", "コピーしない", "コピーせず", "同じメモリ"),
            "ko": ("뷰", "공유", "복사하지 않", "복사 없이", "같은 메모리"),
        },
        opposites={
            "en": ("copies", "new memory"),
            "ja": ("コピーする", "コピーされ", "新しいメモリ"),
            "ko": ("복사한다", "복사된", "새 메모리", "새로운 메모리"),
        },
    ),
)


def probe_view_dtype_same_size(device: Device) -> Observation:
    return _view_dtype_rule(device, columns=4)


def control_view_dtype_odd_last_size(device: Device) -> Observation:
    return _view_dtype_rule(device, columns=3)


def _view_dtype_rule(device: Device, columns: int) -> Observation:
    import torch

    x = torch.ones(3, columns, dtype=torch.float16, device=device)
    try:
        result = str(tuple(x.view(torch.float32).shape))
    except RuntimeError as exc:
        result = f"RuntimeError: {str(exc).splitlines()[0][:120]}"
    return Observation(
        holds=result.startswith("RuntimeError"),
        rule=f"holds if view(torch.float32) of a float16 tensor of shape (3, {columns}) "
        "raises RuntimeError",
        measurements=(Measurement(f"vi-view-dtype-3x{columns}", result, "text"),),
    )


MYTH_VIEW_DTYPE_NEEDS_SAME_SIZE = Claim(
    id="views/myth-view-dtype-needs-the-same-element-size",
    statement="view(dtype) accepts only a dtype with the same element size as the tensor's.",
    expect=Expect.FAILS,
    probe=probe_view_dtype_same_size,
    control=Control(
        "a float16 tensor whose last size, 3, is odd",
        control_view_dtype_odd_last_size,
        measures=("vi-view-dtype-3x3",),
    ),
    measures=("vi-view-dtype-3x4",),
    vocabulary=Vocabulary(
        subjects=("view(torch.", "view(dtype", ".view(dtype"),
        predicates={
            "en": (
                "only … same element size",
                "only … dtype … same … size",
                "only … same size",
                "only … same itemsize",
                "only … same number of bytes",
                "must have the same … size",
                "must be the same size",
                "requires the same … size",
                "needs the same … size",
            ),
            "ja": ("同じ … しか", "同じ … のみ", "同じ … だけ", "同じでなければ", "同じである必要"),
            "ko": ("같은 … 만 ", "같은 … 에만", "같아야", "같은 … 만 가능"),
        },
    ),
)


CLAIMS = (
    VIEW_INFERS_MINUS_ONE,
    VIEW_NEEDS_SAME_NUMEL,
    UNSQUEEZE_SQUEEZE_ARE_VIEWS,
    MYTH_VIEW_DTYPE_NEEDS_SAME_SIZE,
)
