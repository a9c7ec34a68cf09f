"""Claims of "What counts as in-place" (docs/topics/views-and-inplace.md,
``(vi-inplace-kinds)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.views._tensors import _error
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_underscore_returns_self(device: Device) -> Observation:
    return _returns_self_rule(device, in_place=True)


def control_methods_without_underscore(device: Device) -> Observation:
    return _returns_self_rule(device, in_place=False)


def _returns_self_rule(device: Device, in_place: bool) -> Observation:
    import torch

    y = torch.zeros(4, device=device)
    ptr = y.untyped_storage().data_ptr()
    index = torch.tensor([0, 2], device=device)
    added = y.add_(1.0) if in_place else y.add(1.0)
    scattered = y.scatter_(0, index, 5.0) if in_place else y.scatter(0, index, 5.0)
    kept = y.untyped_storage().data_ptr() == ptr
    return Observation(
        holds=added is y and scattered is y and kept,
        rule=f"holds if y.add{'_' if in_place else ''}(1) and y.scatter{'_' if in_place else ''}"
        "(...) return y itself and y keeps its storage",
        measurements=(
            Measurement("vi-add-inplace-returns-self", added is y, "bool"),
            Measurement("vi-scatter-inplace-returns-self", scattered is y, "bool"),
            Measurement("vi-inplace-keeps-storage", kept, "bool"),
        ),
    )


UNDERSCORE_METHODS_RETURN_SELF = Claim(
    id="inplace/underscore-methods-return-self",
    statement="Methods whose name ends in an underscore, such as add_() and scatter_(), "
    "modify the tensor in its own storage and return the tensor itself.",
    expect=Expect.HOLDS,
    probe=probe_underscore_returns_self,
    control=Control(
        "add and scatter without the underscore",
        control_methods_without_underscore,
    ),
    measures=(
        "vi-add-inplace-returns-self",
        "vi-scatter-inplace-returns-self",
        "vi-inplace-keeps-storage",
    ),
    vocabulary=Vocabulary(
        subjects=("add_", "scatter_"),
        predicates={
            "en": ("in-place", "in place"),
            "ja": ("インプレース",),
            "ko": ("인플레이스", "제자리"),
        },
    ),
)


def probe_augmented_assignment(device: Device) -> Observation:
    return _augmented_rule(device, augmented=True)


def control_plain_assignment(device: Device) -> Observation:
    return _augmented_rule(device, augmented=False)


def _augmented_rule(device: Device, augmented: bool) -> Observation:
    import torch

    x = torch.ones(4, device=device)
    y = torch.zeros(4, device=device)
    obj, ptr = id(y), y.untyped_storage().data_ptr()
    alive = [y]  # so that a new y cannot reuse the old one's id or memory
    if augmented:
        y += x
    else:
        y = y + x
    alive.append(y)
    same_object = id(y) == obj
    if augmented:
        y *= 3
    else:
        y = y * 3
    same_storage = y.untyped_storage().data_ptr() == ptr
    return Observation(
        holds=same_object and same_storage and float(y.sum()) == 12.0,
        rule="holds if "
        + ("y += x and y *= 3" if augmented else "y = y + x and y = y * 3")
        + " leave y the same object with the same storage, holding the new values",
        measurements=(
            Measurement("vi-iadd-same-object", same_object, "bool"),
            Measurement("vi-iadd-imul-same-storage", same_storage, "bool"),
        ),
    )


AUGMENTED_ASSIGNMENT_IS_IN_PLACE = Claim(
    id="inplace/augmented-assignment-is-in-place",
    statement="y += x and y *= x on a tensor are in-place: y stays the same object, with the "
    "same storage.",
    expect=Expect.HOLDS,
    probe=probe_augmented_assignment,
    control=Control(
        "y = y + x and y = y * 3",
        control_plain_assignment,
    ),
    measures=("vi-iadd-same-object", "vi-iadd-imul-same-storage"),
    vocabulary=Vocabulary(
        subjects=("+=", "*="),
        predicates={
            "en": ("in-place", "in place"),
            "ja": ("インプレース",),
            "ko": ("인플레이스", "제자리"),
        },
    ),
)


def probe_augmented_dtype(device: Device) -> Observation:
    import torch

    return _augmented_dtype_rule(device, torch.int64)


def control_float_augmented_assignment(device: Device) -> Observation:
    import torch

    return _augmented_dtype_rule(device, torch.float32)


def _augmented_dtype_rule(device: Device, dtype: Any) -> Observation:
    import torch

    y = torch.tensor([1, 2], device=device, dtype=dtype)

    def iadd() -> None:
        nonlocal y
        y += 1.5

    error = _error(iadd)
    promoted = (y + 1.5).dtype
    return Observation(
        holds=error.startswith("RuntimeError") and promoted == torch.float32,
        rule=f"holds if y += 1.5 on a {dtype} tensor raises RuntimeError while y + 1.5 gives "
        "a float32 tensor",
        measurements=(
            Measurement("vi-long-iadd-float-error", error, "exception"),
            Measurement("vi-long-add-float-dtype", str(promoted), "dtype"),
        ),
    )


AUGMENTED_ASSIGNMENT_KEEPS_DTYPE = Claim(
    id="inplace/augmented-assignment-keeps-dtype",
    statement="An in-place operation cannot change a tensor's dtype: y += 1.5 on an integer "
    "tensor raises, where y + 1.5 returns a float tensor.",
    expect=Expect.HOLDS,
    probe=probe_augmented_dtype,
    control=Control(
        "a float32 tensor",
        control_float_augmented_assignment,
    ),
    measures=("vi-long-iadd-float-error", "vi-long-add-float-dtype"),
    # the statement denies that the dtype changes: "an int tensor becomes float" asserts it
    vocabulary=Vocabulary(
        subjects=(
            "integer tensor",
            "int tensor",
            "整数テンソル",
            "整数型のテンソル",
            "정수 텐서",
        ),
        predicates={
            "en": ("becomes a float", "turns into a float", "promoted to float"),
            "ja": ("floatテンソルに変わ", "浮動小数点テンソルに変わ", "floatに変わ"),
            "ko": ("float 텐서로 바뀐", "float 텐서로 바뀝", "float로 바뀐"),
        },
        denies=True,
    ),
)


def probe_same_kind_cast_back(device: Device) -> Observation:
    pairs = (("float32", "float64"), ("float16", "float32"), ("int32", "int64"))
    return _cast_back_rule(device, pairs, "same-kind")


def control_cast_to_lower_kind(device: Device) -> Observation:
    return _cast_back_rule(device, (("int64", "float32"), ("float32", "complex64")), "higher-kind")


def _cast_back_rule(device: Device, pairs: tuple[tuple[str, str], ...], key: str) -> Observation:
    import torch

    kept = []
    for target, other in pairs:
        y = torch.ones(2, device=device, dtype=getattr(torch, target))
        x = torch.ones(2, device=device, dtype=getattr(torch, other))
        try:
            y += x
        except RuntimeError:
            kept.append(f"{target} += {other}: raises")
            continue
        kept.append(f"{target} += {other}: {str(y.dtype).removeprefix('torch.')}")
    runs = [line for line in kept if not line.endswith("raises")]
    same = all(line.split(":")[0].split()[0] == line.split()[-1] for line in runs)
    tried = ", ".join(f"{target} += {other}" for target, other in pairs)
    return Observation(
        holds=len(runs) == len(pairs) and same,
        rule=f"holds if y += x runs and leaves y in its dtype for each pair of dtypes ({tried})",
        measurements=(Measurement(f"vi-iadd-{key}-results", "; ".join(kept), "text"),),
    )


SAME_KIND_CAST_BACK = Claim(
    id="inplace/same-kind-cast-back",
    statement="An in-place operation casts its result back to the tensor's dtype when both are "
    "of the same kind: float32 += float64 runs and leaves a float32 tensor; a result of a "
    "higher kind, such as a float result for an integer tensor, raises.",
    expect=Expect.HOLDS,
    probe=probe_same_kind_cast_back,
    control=Control(
        "results of a higher kind (int64 += float32, float32 += complex64)",
        control_cast_to_lower_kind,
        measures=("vi-iadd-higher-kind-results",),
    ),
    measures=("vi-iadd-same-kind-results",),
)


CLAIMS = (
    UNDERSCORE_METHODS_RETURN_SELF,
    AUGMENTED_ASSIGNMENT_IS_IN_PLACE,
    AUGMENTED_ASSIGNMENT_KEEPS_DTYPE,
    SAME_KIND_CAST_BACK,
)
