"""Claims of "What they allocate" (docs/topics/views-and-inplace.md, ``(vi-inplace-memory)=``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.views._tensors import _IN_PLACE_OPERATIONS, SIDE, _allocated, _square
from checker.evidence import Measurement, Observation
from checker.measure import trace_memory
from checker.typing import Device, Lang

_ALLOCATE: dict[Lang, tuple[str, ...]] = {
    "en": ("allocat", "new memory", "extra memory"),
    "ja": ("割り当て", "確保", "新しいメモリ"),
    "ko": ("할당", "새로운 메모리", "메모리를 열", "새 메모리"),
}


def probe_relu_inplace(device: Device) -> Observation:
    from torch.nn import functional

    return _relu_alloc_rule(device, functional.relu_)


def control_relu_out_of_place_twice(device: Device) -> Observation:
    from torch.nn import functional

    return _relu_alloc_rule(device, functional.relu)


def _relu_alloc_rule(device: Device, second: Any) -> Observation:
    from torch.nn import functional

    t = _square(device)
    _, out_of_place = _allocated(lambda: functional.relu(t), device)
    same, in_place = _allocated(lambda: second(t), device)
    kept = same is t
    return Observation(
        holds=in_place == 0 and out_of_place >= t.nbytes and kept,
        rule=f"holds if, on a {SIDE} × {SIDE} float32 tensor, F.relu allocates at least the "
        f"tensor's bytes while F.{second.__name__} allocates none and returns the tensor itself "
        "(CPU: profiler allocations; CUDA: peak above the start)",
        measurements=(
            Measurement("vi-alloc-relu", out_of_place, "bytes"),
            Measurement("vi-alloc-relu-inplace", in_place, "bytes"),
            Measurement("vi-relu-inplace-returns-input", kept, "bool"),
            Measurement("vi-square-nbytes", t.nbytes, "bytes"),
        ),
    )


RELU_IN_PLACE_ALLOCATES_NOTHING = Claim(
    id="inplace/relu-in-place-allocates-nothing",
    statement="F.relu_() allocates no memory, where F.relu() allocates a new tensor of the "
    "input's size.",
    expect=Expect.HOLDS,
    probe=probe_relu_inplace,
    control=Control(
        "F.relu in place of F.relu_",
        control_relu_out_of_place_twice,
    ),
    measures=(
        "vi-alloc-relu",
        "vi-alloc-relu-inplace",
        "vi-relu-inplace-returns-input",
        "vi-square-nbytes",
    ),
    vocabulary=Vocabulary(
        subjects=("relu_", "ReLU"),
        predicates={
            "en": ("save memory", "reduc", "less memory"),
            "ja": ("節約", "削減", "減ら"),
            "ko": ("절약", "줄이", "감소"),
        },
    ),
)


def probe_rebinding(device: Device) -> Observation:
    return _rebinding_rule(device, augmented=False)


def control_augmented_keeps_object(device: Device) -> Observation:
    return _rebinding_rule(device, augmented=True)


def _rebinding_rule(device: Device, augmented: bool) -> Observation:
    x = _square(device, seed=1)
    box = [_square(device)]
    obj, ptr = id(box[0]), box[0].untyped_storage().data_ptr()

    def rebind() -> None:
        if augmented:
            box[0] += x
        else:
            box[0] = box[0] + x

    _, allocated = _allocated(rebind, device)
    same_object = id(box[0]) == obj
    same_storage = box[0].untyped_storage().data_ptr() == ptr
    return Observation(
        holds=not same_object and not same_storage and allocated >= x.nbytes,
        rule=f"holds if {'y += x' if augmented else 'y = y + x'} makes y a new object with a "
        "new storage and allocates at "
        "least y's bytes (the sum is created while the old y is alive, so their ids differ)",
        measurements=(
            Measurement("vi-alloc-rebind", allocated, "bytes"),
            Measurement("vi-rebind-same-object", same_object, "bool"),
            Measurement("vi-rebind-same-storage", same_storage, "bool"),
        ),
    )


REBINDING_ALLOCATES_NEW_STORAGE = Claim(
    id="inplace/rebinding-allocates-new-storage",
    statement="y = y + x allocates a new tensor for the result and rebinds the name y to it.",
    expect=Expect.HOLDS,
    probe=probe_rebinding,
    control=Control(
        "y += x",
        control_augmented_keeps_object,
    ),
    measures=("vi-alloc-rebind", "vi-rebind-same-object", "vi-rebind-same-storage"),
    vocabulary=Vocabulary(subjects=("y = x + y", "y = y + x"), predicates=_ALLOCATE),
)


def probe_slice_assignment_keeps(device: Device) -> Observation:
    return _slice_keeps_rule(device, slice_assign=True)


def control_rebinding_replaces(device: Device) -> Observation:
    return _slice_keeps_rule(device, slice_assign=False)


def _slice_keeps_rule(device: Device, slice_assign: bool) -> Observation:
    x = _square(device, seed=1)
    y = _square(device)
    expected = y + x
    alive = [y]  # so that a new y cannot take the old one's id
    obj, ptr = id(y), y.untyped_storage().data_ptr()
    if slice_assign:
        y[:] = y + x
    else:
        y = y + x
    alive.append(y)
    same_object = id(y) == obj
    same_storage = y.untyped_storage().data_ptr() == ptr
    return Observation(
        holds=same_object and same_storage and bool(y.equal(expected)),
        rule=f"holds if after {'y[:] = y + x' if slice_assign else 'y = y + x'}, y is the same "
        "object with the same storage and holds the sum",
        measurements=(
            Measurement("vi-slice-assign-same-object", same_object, "bool"),
            Measurement("vi-slice-assign-same-storage", same_storage, "bool"),
        ),
    )


SLICE_ASSIGNMENT_KEEPS_STORAGE = Claim(
    id="inplace/slice-assignment-keeps-storage",
    statement="After y[:] = y + x, y is the same object with the same storage, and holds the sum.",
    expect=Expect.HOLDS,
    probe=probe_slice_assignment_keeps,
    control=Control(
        "y = y + x",
        control_rebinding_replaces,
    ),
    measures=("vi-slice-assign-same-object", "vi-slice-assign-same-storage"),
)


def probe_slice_assignment_myth(device: Device) -> Observation:
    return _slice_alloc_rule(device, slice_assign=True)


def control_add_inplace_allocates_nothing(device: Device) -> Observation:
    return _slice_alloc_rule(device, slice_assign=False)


def _slice_alloc_rule(device: Device, slice_assign: bool) -> Observation:
    x = _square(device, seed=1)
    y = _square(device)

    def assign() -> None:
        if slice_assign:
            y[:] = y + x
        else:
            y.add_(x)

    _, allocated = _allocated(assign, device)
    return Observation(
        holds=allocated == 0,
        rule=f"holds if {'y[:] = y + x' if slice_assign else 'y.add_(x)'} on {SIDE} × {SIDE} "
        "float32 tensors allocates no bytes "
        "(CPU: profiler allocations; CUDA: peak above the start)",
        measurements=(
            Measurement("vi-alloc-slice-assign", allocated, "bytes"),
            Measurement("vi-slice-assign-y-nbytes", y.nbytes, "bytes"),
        ),
    )


MYTH_SLICE_ASSIGNMENT_ALLOCATES_NOTHING = Claim(
    id="inplace/myth-slice-assignment-allocates-nothing",
    statement="y[:] = y + x writes the result into y without allocating any new memory.",
    expect=Expect.FAILS,
    probe=probe_slice_assignment_myth,
    control=Control(
        "y.add_(x)",
        control_add_inplace_allocates_nothing,
    ),
    measures=("vi-alloc-slice-assign", "vi-slice-assign-y-nbytes"),
    vocabulary=Vocabulary(subjects=("[:]",), predicates=_ALLOCATE),
)


def probe_slice_assignment_peak(device: Device) -> Observation:
    return _peak_rule(device, compare_add=False)


def control_add_inplace_peak(device: Device) -> Observation:
    return _peak_rule(device, compare_add=True)


def _peak_rule(device: Device, compare_add: bool) -> Observation:
    import torch

    x = _square(device, seed=1)
    nbytes = x.nbytes

    def variant(update: Callable[[Any], Any]) -> tuple[int, int]:
        """Peak and end above y's own bytes, for a step that creates y then updates it."""
        if device == "cuda":  # the allocator sees the old y freed: create it before the step
            box = [torch.randn(SIDE, SIDE, device=device)]
            _, memory = trace_memory(lambda mark: box.__setitem__(0, update(box[0])), device)
            return memory.peak, memory.end
        # the CPU profiler misses frees of older blocks: create y inside, subtract its bytes
        _, memory = trace_memory(lambda mark: update(torch.randn(SIDE, SIDE)), device)
        return memory.peak - nbytes, memory.end - nbytes

    def rebind(y: Any) -> Any:
        return y + x

    def assign(y: Any) -> Any:
        y[:] = y + x
        return y

    def add_(y: Any) -> Any:
        return y.add_(x)

    rebind_peak, rebind_end = variant(rebind)
    assign_peak, assign_end = variant(add_ if compare_add else assign)
    add_peak, _ = variant(add_)
    return Observation(
        holds=assign_peak == rebind_peak >= nbytes and assign_end == rebind_end == 0,
        rule=f"holds if {'y.add_(x)' if compare_add else 'y[:] = y + x'} and y = y + x reach "
        "the same peak above y's own bytes, at "
        "least one tensor's worth, and both end with nothing extra allocated once the old y "
        "or the temporary is freed",
        measurements=(
            Measurement("vi-peak-rebind", rebind_peak, "bytes"),
            Measurement("vi-peak-slice-assign", assign_peak, "bytes"),
            Measurement("vi-peak-add-inplace", add_peak, "bytes"),
        ),
    )


SLICE_ASSIGNMENT_PEAKS_LIKE_REBINDING = Claim(
    id="inplace/slice-assignment-peaks-like-rebinding",
    statement="y[:] = y + x reaches the same peak memory as y = y + x: the sum is computed "
    "into a temporary first.",
    expect=Expect.HOLDS,
    probe=probe_slice_assignment_peak,
    control=Control(
        "y.add_(x) in place of y[:] = y + x",
        control_add_inplace_peak,
    ),
    measures=("vi-peak-rebind", "vi-peak-slice-assign", "vi-peak-add-inplace"),
)


def probe_out_and_inplace(device: Device) -> Observation:
    return _out_inplace_rule(device, in_place=True)


def control_out_of_place_forms(device: Device) -> Observation:
    return _out_inplace_rule(device, in_place=False)


def _out_inplace_rule(device: Device, in_place: bool) -> Observation:
    import torch

    x = _square(device, seed=1)
    y = _square(device)
    ptr = y.untyped_storage().data_ptr()

    def iadd() -> None:
        nonlocal y
        if in_place:
            y += x
        else:
            y = y + x

    returned, out = _allocated(
        (lambda: torch.add(x, y, out=y)) if in_place else (lambda: torch.add(x, y)), device
    )
    _, augmented = _allocated(iadd, device)
    _, method = _allocated((lambda: y.add_(x)) if in_place else (lambda: y.add(x)), device)
    kept = y.untyped_storage().data_ptr() == ptr and returned is y
    return Observation(
        holds=out == augmented == method == 0 and kept,
        rule="holds if "
        + (
            "torch.add(x, y, out=y), y += x and y.add_(x)"
            if in_place
            else "torch.add(x, y), y = y + x and y.add(x)"
        )
        + " each allocate no bytes "
        "and y keeps its storage (CPU: profiler allocations; CUDA: peak above the start)",
        measurements=(
            Measurement("vi-alloc-out", out, "bytes"),
            Measurement("vi-alloc-iadd", augmented, "bytes"),
            Measurement("vi-alloc-add-inplace", method, "bytes"),
        ),
    )


OUT_AND_IN_PLACE_ALLOCATE_NOTHING = Claim(
    id="inplace/out-and-in-place-allocate-nothing",
    statement="torch.add(x, y, out=y), y += x and y.add_(x) write the sum into y without "
    "allocating anything.",
    expect=Expect.HOLDS,
    probe=probe_out_and_inplace,
    control=Control(
        "the out-of-place forms",
        control_out_of_place_forms,
    ),
    measures=("vi-alloc-out", "vi-alloc-iadd", "vi-alloc-add-inplace"),
    vocabulary=Vocabulary(subjects=("out=", "add_", "+="), predicates=_ALLOCATE),
)


def probe_inplace_never_allocates_myth(device: Device) -> Observation:
    import torch

    return _never_allocates_rule(device, torch.float64)


def control_add_inplace_same_dtype(device: Device) -> Observation:
    import torch

    return _never_allocates_rule(device, torch.float32)


def _never_allocates_rule(device: Device, other: Any) -> Observation:
    import torch

    y = _square(device)
    x64 = _square(device, seed=1).to(other)
    _, converted = _allocated(lambda: y.add_(x64.float()), device)
    _, mixed = _allocated(lambda: y.add_(x64), device)
    return Observation(
        holds=mixed == 0 and y.dtype == torch.float32,
        rule=f"holds if y.add_(x) allocates no bytes when y is float32 and x {other}",
        measurements=(
            Measurement("vi-alloc-add-inplace-float64", mixed, "bytes"),
            Measurement("vi-alloc-add-inplace-converted-first", converted, "bytes"),
            Measurement("vi-add-inplace-float64-result-dtype", str(y.dtype), "dtype"),
        ),
    )


MYTH_IN_PLACE_NEVER_ALLOCATES = Claim(
    id="inplace/myth-in-place-never-allocates",
    statement="An in-place operation never allocates memory.",
    expect=Expect.FAILS,
    probe=probe_inplace_never_allocates_myth,
    control=Control(
        "x of the same dtype as y",
        control_add_inplace_same_dtype,
    ),
    devices=("cpu",),
    measures=(
        "vi-alloc-add-inplace-float64",
        "vi-alloc-add-inplace-converted-first",
        "vi-add-inplace-float64-result-dtype",
    ),
    vocabulary=Vocabulary(subjects=_IN_PLACE_OPERATIONS, predicates=_ALLOCATE),
)


CLAIMS = (
    RELU_IN_PLACE_ALLOCATES_NOTHING,
    REBINDING_ALLOCATES_NEW_STORAGE,
    SLICE_ASSIGNMENT_KEEPS_STORAGE,
    MYTH_SLICE_ASSIGNMENT_ALLOCATES_NOTHING,
    SLICE_ASSIGNMENT_PEAKS_LIKE_REBINDING,
    OUT_AND_IN_PLACE_ALLOCATE_NOTHING,
    MYTH_IN_PLACE_NEVER_ALLOCATES,
)
