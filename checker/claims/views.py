"""Claims of the page "Views, copies and in-place operations" (docs/topics/views-and-inplace.md)
and of the review of an article on copies and in-place operations
(docs/reviews/copies-and-inplace-article.md).

Claim ids are ``views/...`` (which operations share storage, ``clone`` and ``detach``) and
``inplace/...`` (what in-place operations allocate, and how autograd treats them). Every
measurement key starts with ``vi-``.

Sharing is decided by comparing ``untyped_storage().data_ptr()`` (or, between NumPy and
PyTorch, by writing through one side and reading the other). Allocations are measured with the
profiler on CPU and with the caching allocator's statistics on CUDA, on tensors of
:data:`SIDE` × :data:`SIDE` ``float32`` values (4 MiB, a size both allocators report exactly).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.measure import cpu_allocations, cuda_memory, shares_storage, step_memory
from checker.typing import Device, Lang

#: Side of the square float32 tensors whose allocations are measured: 4 MiB each.
SIDE = 1024
_MIB = 1024 * 1024
#: The CUDA caching allocator's constants (c10/cuda/CUDACachingAllocator.cpp).
_ROUND_LARGE = 2 * _MIB  # large segments are a multiple of 2 MiB
_MIN_BLOCK = 512  # every block is a multiple of 512 bytes
_SMALL_SIZE = _MIB  # a large block is split only if more than 1 MiB would be left


# -- shared pieces ---------------------------------------------------------------------------


def _error(call: Callable[[], Any]) -> str:
    """``"Type: message"`` of what ``call()`` raises, or ``"no error"``."""
    try:
        call()
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return "no error"


def _warning(call: Callable[[], Any]) -> str:
    """``"Category: message"`` of the first warning ``call()`` emits, or ``"no warning"``."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    if not caught:
        return "no warning"
    first = caught[0]
    return f"{first.category.__name__}: {first.message}"


def _allocated(fn: Callable[[], Any], device: Device) -> tuple[Any, int]:
    """Bytes a call allocates: the profiler's sum of allocations on CPU, the peak above the
    level before the call on CUDA (the caching allocator's statistics)."""
    if device == "cuda":
        result, memory = cuda_memory(fn)
        return result, memory.peak
    result, allocations = cpu_allocations(fn)
    return result, allocations.allocated


def _square(device: Device, seed: int = 0) -> Any:
    """A :data:`SIDE` × :data:`SIDE` float32 tensor of seeded random values."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    return torch.randn(SIDE, SIDE, generator=generator).to(device)


def _grid(device: Device) -> Any:
    """A 3 × 4 float32 tensor holding 0 … 11."""
    import torch

    return torch.arange(12.0, device=device).reshape(3, 4)


def _values(t: Any) -> str:
    """A tensor's values as a short list, rounded to 4 decimals."""
    return str([round(float(v), 4) for v in t.detach().cpu().reshape(-1)])


# -- views -----------------------------------------------------------------------------------


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


def probe_transpose_expand(device: Device) -> Observation:
    return _transpose_expand_rule(device, materialized=False)


def control_materialized_transpose_expand(device: Device) -> Observation:
    return _transpose_expand_rule(device, materialized=True)


def _transpose_expand_rule(device: Device, materialized: bool) -> Observation:
    x = _grid(device)
    t = x.t().contiguous() if materialized else x.t()
    e = x.unsqueeze(0).expand(2, 3, 4)
    if materialized:
        e = e.clone()
    shared_t, shared_e = shares_storage(t, x), shares_storage(e, x)
    return Observation(
        holds=shared_t and shared_e and e.stride()[0] == 0,
        rule="holds if x.t() and x.unsqueeze(0).expand(2, 3, 4)"
        + (", made contiguous and cloned," if materialized else "")
        + " share x's storage and the expanded dimension has stride 0",
        measurements=(
            Measurement("vi-transpose-shares", shared_t, "bool"),
            Measurement("vi-expand-shares", shared_e, "bool"),
            Measurement("vi-expand-stride", str(tuple(e.stride())), "text"),
        ),
    )


def _selection_myth(device: Device, name: str) -> Observation:
    """Shared probe of the three selection myths: ``name`` is the function tested."""
    import torch

    x = _square(device)
    every = torch.arange(SIDE, device=device)
    mask = torch.ones_like(x, dtype=torch.bool)
    columns = every.expand(SIDE, SIDE)
    select: dict[str, Callable[[], Any]] = {
        "index_select": lambda: x.index_select(0, every),
        "masked_select": lambda: x.masked_select(mask),
        "gather": lambda: x.gather(1, columns),
        "slicing": lambda: x[:],
    }
    before = x.clone()
    out, allocated = _allocated(select[name], device)
    shared = shares_storage(out, x)
    out.fill_(0.0)
    reached = not torch.equal(x, before)
    key = name.replace("_", "-")
    return Observation(
        holds=shared or reached,
        rule=f"holds if {name} selecting every element of a {SIDE} × {SIDE} tensor returns "
        "a tensor that shares its storage, or if filling the result changes the input",
        measurements=(
            Measurement(f"vi-{key}-shares", shared, "bool"),
            Measurement(f"vi-{key}-write-reaches-input", reached, "bool"),
            Measurement(f"vi-{key}-allocated", allocated, "bytes"),
        ),
    )


def probe_index_select_myth(device: Device) -> Observation:
    return _selection_myth(device, "index_select")


def probe_masked_select_myth(device: Device) -> Observation:
    return _selection_myth(device, "masked_select")


def probe_gather_myth(device: Device) -> Observation:
    return _selection_myth(device, "gather")


def control_slicing_shares(device: Device) -> Observation:
    return _selection_myth(device, "slicing")


def probe_advanced_indexing(device: Device) -> Observation:
    import torch

    x = _grid(device)
    return _own_storage_rule(
        x, {"list": x[[0, 2]], "tensor": x[torch.tensor([0, 2], device=device)], "mask": x[x > 5]}
    )


def control_basic_indexing_shares(device: Device) -> Observation:
    x = _grid(device)
    return _own_storage_rule(x, {"list": x[0:3:2], "tensor": x[::2], "mask": x[1:]})


def _own_storage_rule(x: Any, results: dict[str, Any]) -> Observation:
    shared = {name: shares_storage(r, x) for name, r in results.items()}
    return Observation(
        holds=not any(shared.values()),
        rule="holds if the three indexing results (x[[0, 2]], x[torch.tensor([0, 2])] and "
        "x[x > 5] for the claim) all have storage of their own",
        measurements=(
            Measurement("vi-list-index-shares", shared["list"], "bool"),
            Measurement("vi-tensor-index-shares", shared["tensor"], "bool"),
            Measurement("vi-mask-index-shares", shared["mask"], "bool"),
        ),
    )


def probe_index_assignment(device: Device) -> Observation:
    return _index_assignment_rule(device, through_copy=False)


def control_assignment_to_indexed_copy(device: Device) -> Observation:
    return _index_assignment_rule(device, through_copy=True)


def _index_assignment_rule(device: Device, through_copy: bool) -> Observation:
    x = _grid(device)
    ptr = x.untyped_storage().data_ptr()
    if through_copy:
        rows = x[[0, 2]]
        rows[:] = 0.0
    else:
        x[[0, 2]] = 0.0
    assigned = float(x[0].abs().sum() + x[2].abs().sum()) == 0.0
    same_storage = x.untyped_storage().data_ptr() == ptr
    y = _grid(device)
    y[[0, 2]].fill_(0.0)
    filled = float(y[0].abs().sum()) == 0.0
    return Observation(
        holds=assigned and same_storage and not filled,
        rule="holds if "
        + ("rows = x[[0, 2]]; rows[:] = 0" if through_copy else "x[[0, 2]] = 0")
        + " zeroes rows 0 and 2 of x in its own storage, while x[[0, 2]].fill_(0) leaves x "
        "unchanged",
        measurements=(
            Measurement("vi-index-assign-changes-input", assigned, "bool"),
            Measurement("vi-index-assign-same-storage", same_storage, "bool"),
            Measurement("vi-indexed-fill-changes-input", filled, "bool"),
        ),
    )


# -- NumPy and constructors ------------------------------------------------------------------


def probe_numpy_shares(device: Device) -> Observation:
    return _numpy_rule(copying=False)


def control_numpy_copies(device: Device) -> Observation:
    return _numpy_rule(copying=True)


def _numpy_rule(copying: bool) -> Observation:
    import numpy as np
    import torch

    t = torch.zeros(3)
    n = t.numpy().copy() if copying else t.numpy()
    n[0] = 5.0
    numpy_write = float(t[0]) == 5.0
    a = np.ones(4)
    b, allocated = _allocated(
        (lambda: torch.tensor(a)) if copying else (lambda: torch.from_numpy(a)), "cpu"
    )
    b.add_(1)
    from_numpy_write = bool((a == 2.0).all())
    return Observation(
        holds=numpy_write and from_numpy_write and allocated == 0,
        rule="holds if writing to "
        + ("t.numpy().copy()" if copying else "t.numpy()")
        + " changes t, b.add_(1) on b = "
        + ("torch.tensor(a)" if copying else "torch.from_numpy(a)")
        + " changes a, and that conversion allocates no bytes",
        measurements=(
            Measurement("vi-numpy-write-reaches-tensor", numpy_write, "bool"),
            Measurement("vi-from-numpy-write-reaches-array", from_numpy_write, "bool"),
            Measurement("vi-from-numpy-dtype", str(b.dtype), "dtype"),
            Measurement("vi-from-numpy-allocated", allocated, "bytes"),
        ),
    )


def _reaches(a: Any, t: Any) -> bool:
    """Whether a write to the NumPy array ``a`` shows up in the tensor ``t``."""
    old = float(t.reshape(-1)[0])
    a.reshape(-1)[0] += 100.0
    reached = float(t.reshape(-1)[0]) != old
    a.reshape(-1)[0] -= 100.0
    return reached


def probe_as_tensor(device: Device) -> Observation:
    import torch

    return _as_tensor_rule(device, torch.as_tensor)


def control_tensor_in_place_of_as_tensor(device: Device) -> Observation:
    import torch

    return _as_tensor_rule(device, torch.tensor)


def _as_tensor_rule(device: Device, convert: Any) -> Observation:
    import numpy as np
    import torch

    a = np.ones(4)  # float64
    same = _reaches(a, convert(a))
    other = _reaches(a, convert(a, dtype=torch.float32))
    on_device = _reaches(a, convert(a, device=device))
    moved = device != "cpu"
    return Observation(
        holds=same and not other and on_device != moved,
        rule=f"holds if torch.{convert.__name__}(a) of a float64 array shares its memory, "
        "the same with dtype=torch.float32 does not, and with device=device it shares on "
        "the CPU and copies on a GPU (decided by writing to a and reading the tensor)",
        measurements=(
            Measurement("vi-as-tensor-same-dtype-shares", same, "bool"),
            Measurement("vi-as-tensor-other-dtype-shares", other, "bool"),
            Measurement("vi-as-tensor-on-device-shares", on_device, "bool"),
        ),
    )


def probe_torch_tensor_copies(device: Device) -> Observation:
    import torch

    return _copies_rule(device, torch.tensor)


def control_as_tensor_in_place_of_tensor(device: Device) -> Observation:
    import torch

    return _copies_rule(device, torch.as_tensor)


def _copies_rule(device: Device, convert: Any) -> Observation:
    import numpy as np

    a = np.ones((SIDE, SIDE), dtype=np.float32)
    from_array, allocated = _allocated(lambda: convert(a, device=device), device)
    array_shared = _reaches(a, from_array)
    x = _grid(device)
    holder: list[Any] = []
    warning = _warning(lambda: holder.append(convert(x)))
    tensor_shared = shares_storage(holder[0], x)
    return Observation(
        holds=not array_shared and not tensor_shared and allocated >= a.nbytes,
        rule=f"holds if torch.{convert.__name__}(a) of a NumPy array allocates at least the "
        "array's bytes and does not see later writes to it, and the same of a tensor has "
        "storage of its own",
        measurements=(
            Measurement("vi-tensor-from-array-shares", array_shared, "bool"),
            Measurement("vi-tensor-from-array-allocated", allocated, "bytes"),
            Measurement("vi-tensor-from-tensor-shares", tensor_shared, "bool"),
            Measurement("vi-tensor-from-tensor-warning", warning, "text"),
        ),
    )


# -- identity ----------------------------------------------------------------------------------


def _byte_ranges_overlap(a: Any, b: Any) -> bool:
    """Whether the storages of ``a`` and ``b`` overlap in memory; empty storages never do."""
    sa, sb = a.untyped_storage(), b.untyped_storage()
    if sa.nbytes() == 0 or sb.nbytes() == 0:
        return False
    return bool(
        sa.data_ptr() < sb.data_ptr() + sb.nbytes() and sb.data_ptr() < sa.data_ptr() + sa.nbytes()
    )


def _pointer_test_limits(from_numpy: bool) -> Observation:
    import numpy as np
    import torch

    array = np.zeros(9, dtype=np.float32)
    if from_numpy:
        first, second = torch.from_numpy(array[0:6]), torch.from_numpy(array[3:9])
    else:
        base = torch.from_numpy(array)
        first, second = base[0:6], base[3:9]
    pointer = shares_storage(first, second)
    first[4] = 7.0  # element 4 of the first is element 1 of the second
    reaches = float(second[1]) == 7.0
    ranges = _byte_ranges_overlap(first, second)
    empty_a, empty_b = torch.empty(0), torch.empty(0)
    empty_pointer = shares_storage(empty_a, empty_b)
    empty_ranges = _byte_ranges_overlap(empty_a, empty_b)
    kind = "numpy" if from_numpy else "view"
    return Observation(
        holds=reaches and not pointer and ranges and empty_pointer and not empty_ranges,
        rule="holds if, for two tensors over overlapping slices of one NumPy array made with "
        + ("torch.from_numpy" if from_numpy else "slicing one tensor")
        + ", a write through one reaches the other but their storage pointers differ, while "
        "the byte ranges of their storages overlap; and if two empty tensors have equal "
        "storage pointers but no overlapping bytes",
        measurements=(
            Measurement(f"vi-{kind}-overlap-pointers-equal", pointer, "bool"),
            Measurement(f"vi-{kind}-overlap-write-reaches", reaches, "bool"),
            Measurement(f"vi-{kind}-overlap-ranges-overlap", ranges, "bool"),
            Measurement(f"vi-{kind}-empty-pointers-equal", empty_pointer, "bool"),
            Measurement(f"vi-{kind}-empty-ranges-overlap", empty_ranges, "bool"),
        ),
    )


def probe_pointer_test_limits(device: Device) -> Observation:
    return _pointer_test_limits(from_numpy=True)


def control_pointer_test_on_views(device: Device) -> Observation:
    return _pointer_test_limits(from_numpy=False)


def _warning_advice(source_is_tensor: bool) -> Observation:
    import torch

    source: Any = torch.ones(3) if source_is_tensor else [1.0, 2.0, 3.0]
    warning = _warning(lambda: torch.tensor(source))
    advice = "detach().clone()" in warning
    older = "clone().detach()" in warning
    return Observation(
        holds=advice,
        rule="holds if torch.tensor("
        + ("a tensor" if source_is_tensor else "a list")
        + ") warns and recommends sourceTensor.detach().clone()",
        measurements=(
            Measurement(
                f"vi-tensor-{'tensor' if source_is_tensor else 'list'}-warning",
                warning.split(", rather")[0][:200],
                "text",
            ),
            Measurement(
                f"vi-tensor-{'tensor' if source_is_tensor else 'list'}-advice-detach-clone",
                advice,
                "bool",
            ),
            Measurement(
                f"vi-tensor-{'tensor' if source_is_tensor else 'list'}-advice-clone-detach",
                older,
                "bool",
            ),
        ),
    )


def probe_torch_tensor_advice(device: Device) -> Observation:
    return _warning_advice(source_is_tensor=True)


def control_torch_tensor_of_list(device: Device) -> Observation:
    return _warning_advice(source_is_tensor=False)


def _in_place_refusals(device: Device, leaf: bool) -> Observation:
    import torch

    def fresh() -> Any:
        t = torch.ones(3, device=device, requires_grad=True)
        return t if leaf else t * 1

    recording = _error(lambda: fresh().add_(1))
    with torch.no_grad():
        quiet = _error(lambda: fresh().add_(1))
    out = torch.empty(3, device=device)
    out_recording = _error(lambda: torch.add(fresh(), 1, out=out))
    with torch.no_grad():
        out_quiet = _error(lambda: torch.add(fresh(), 1, out=out))
    kind = "leaf" if leaf else "non-leaf"
    return Observation(
        holds=recording != "no error"
        and quiet == "no error"
        and out_recording != "no error"
        and out_quiet == "no error",
        rule=f"holds if, for a {kind} tensor that requires grad and that nothing has saved, "
        "add_ raises while autograd records and works under torch.no_grad(), and "
        "torch.add(..., out=) raises in grad mode and works under torch.no_grad()",
        measurements=(
            Measurement(f"vi-{kind}-unsaved-in-place-error", recording, "exception"),
            Measurement(f"vi-{kind}-in-place-no-grad", quiet, "exception"),
            Measurement(f"vi-{kind}-out-grad-mode-error", out_recording, "exception"),
            Measurement(f"vi-{kind}-out-no-grad", out_quiet, "exception"),
        ),
    )


def probe_leaf_refused_only_while_recording(device: Device) -> Observation:
    return _in_place_refusals(device, leaf=True)


def control_non_leaf_in_place(device: Device) -> Observation:
    return _in_place_refusals(device, leaf=False)


def probe_sharing_different_ids(device: Device) -> Observation:
    return _different_ids_rule(device, copies=False)


def control_copies_have_different_ids(device: Device) -> Observation:
    return _different_ids_rule(device, copies=True)


def _different_ids_rule(device: Device, copies: bool) -> Observation:
    import torch

    a = torch.tensor([1.0, 2.0], device=device, requires_grad=True)
    b = a.detach().clone() if copies else a.detach()
    v = a.view(2, 1).clone() if copies else a.view(2, 1)
    return Observation(
        holds=id(a) != id(b) and id(a) != id(v) and shares_storage(a, b) and shares_storage(a, v),
        rule="holds if a.detach() and a.view(2, 1)"
        + (", cloned," if copies else "")
        + " share a's storage while their id() differs from a's",
        measurements=(
            Measurement("vi-detach-same-id", id(a) == id(b), "bool"),
            Measurement("vi-view-same-id", id(a) == id(v), "bool"),
            Measurement("vi-detach-and-view-share", shares_storage(a, b), "bool"),
        ),
    )


def probe_temporary_ids(device: Device) -> Observation:
    return _temporary_ids_rule(device, kept_alive=False)


def control_ids_of_living_tensors(device: Device) -> Observation:
    return _temporary_ids_rule(device, kept_alive=True)


def _temporary_ids_rule(device: Device, kept_alive: bool) -> Observation:
    import torch

    y = torch.ones(3, device=device)
    tries = 100
    alive: list[Any] = []

    def detached() -> Any:
        d = y.detach()
        if kept_alive:
            alive.append(d)
        return d

    equal = sum(id(detached()) == id(detached()) for _ in range(tries))
    same_object = y.detach() is y.detach()
    return Observation(
        holds=equal > 0 and not same_object,
        rule="holds if id(y.detach()) == id(y.detach()) is True at least once in 100 tries"
        + (" (every result kept alive)" if kept_alive else "")
        + ", while y.detach() is y.detach() is False",
        measurements=(
            Measurement("vi-temporary-ids-tries", tries, "count"),
            Measurement("vi-temporary-ids-equal", equal, "count"),
            Measurement("vi-temporaries-same-object", same_object, "bool"),
        ),
    )


# -- detach and clone ------------------------------------------------------------------------


def probe_detach(device: Device) -> Observation:
    return _detach_rule(device, clone=False)


def control_clone_in_place_of_detach(device: Device) -> Observation:
    return _detach_rule(device, clone=True)


def _detach_rule(device: Device, clone: bool) -> Observation:
    import torch

    x = _square(device).requires_grad_()
    d, allocated = _allocated(x.clone if clone else x.detach, device)
    shared = shares_storage(d, x)
    # d/dv of sum(v * v.detach()) is v's values if no gradient flows through detach(), 2 v if
    # it did
    v: Any = torch.tensor([1.0, 2.0], device=device, requires_grad=True)
    (v * (v.clone() if clone else v.detach())).sum().backward()
    branch = v.grad.tolist()
    return Observation(
        holds=shared
        and d.grad_fn is None
        and not d.requires_grad
        and allocated == 0
        and branch == [1.0, 2.0],
        rule=f"holds if x.{'clone' if clone else 'detach'}() of a tensor that requires grad "
        "shares its storage, has no "
        "grad_fn, does not require grad and allocates no bytes, and if for v = [1, 2] the "
        "gradient of sum(v * v.detach()) is [1, 2] (nothing flows through the detached factor)",
        measurements=(
            Measurement("vi-detach-storage-shared", shared, "bool"),
            Measurement("vi-detach-grad-fn", str(d.grad_fn), "text"),
            Measurement("vi-detach-requires-grad", d.requires_grad, "bool"),
            Measurement("vi-detach-allocated", allocated, "bytes"),
            Measurement("vi-detach-branch-grad", str(branch), "text"),
        ),
    )


def probe_detach_sees_updates(device: Device) -> Observation:
    return _sees_updates_rule(device, in_place=True)


def control_update_replacing_data(device: Device) -> Observation:
    return _sees_updates_rule(device, in_place=False)


def _sees_updates_rule(device: Device, in_place: bool) -> Observation:
    import torch

    w: Any = torch.nn.Parameter(torch.tensor([1.0, 2.0], device=device))
    detached, cloned = w.detach(), w.detach().clone()
    optimizer = torch.optim.SGD([w], lr=1.0)
    (w * w).sum().mul(0.5).backward()  # gradient w: one step of lr 1 brings w to 0
    if in_place:
        optimizer.step()
    else:  # the same step, but into new memory: w.data is replaced, not updated
        w.data = w.data - w.grad
    return Observation(
        holds=torch.equal(detached, w.detach()) and not torch.equal(cloned, w.detach()),
        rule="holds if, after "
        + ("an SGD step changes w in place" if in_place else "w.data is replaced by w - grad")
        + ", w.detach() taken before the step shows the new values and w.detach().clone() "
        "keeps the old ones",
        measurements=(
            Measurement("vi-parameter-after-step", _values(w), "text"),
            Measurement("vi-detached-after-step", _values(detached), "text"),
            Measurement("vi-cloned-after-step", _values(cloned), "text"),
        ),
    )


def probe_clone(device: Device) -> Observation:
    return _clone_rule(device, "clone")


def control_view_as_is_no_clone(device: Device) -> Observation:
    return _clone_rule(device, "view_as")


def _clone_rule(device: Device, method: str) -> Observation:
    x = _square(device).requires_grad_()
    c, allocated = _allocated(
        x.clone if method == "clone" else functools.partial(x.view_as, x), device
    )
    shared = shares_storage(c, x)
    node = type(c.grad_fn).__name__
    return Observation(
        holds=not shared and node == "CloneBackward0" and c.requires_grad and allocated >= x.nbytes,
        rule=f"holds if x.{method}() of a tensor that requires grad allocates at least x's "
        "bytes, shares no storage with x, requires grad and has grad_fn CloneBackward0",
        measurements=(
            Measurement("vi-clone-storage-shared", shared, "bool"),
            Measurement("vi-clone-grad-fn", node, "text"),
            Measurement("vi-clone-requires-grad", c.requires_grad, "bool"),
            Measurement("vi-clone-allocated", allocated, "bytes"),
            Measurement("vi-clone-source-nbytes", x.nbytes, "bytes"),
        ),
    )


def probe_clone_detach(device: Device) -> Observation:
    return _plain_copy_rule(device, copy_first=True)


def control_detach_without_clone(device: Device) -> Observation:
    return _plain_copy_rule(device, copy_first=False)


def _plain_copy_rule(device: Device, copy_first: bool) -> Observation:
    x = _square(device).requires_grad_()
    c, allocated = _allocated((lambda: x.clone().detach()) if copy_first else x.detach, device)
    shared = shares_storage(c, x)
    return Observation(
        holds=not shared and not c.requires_grad and c.is_leaf and allocated >= x.nbytes,
        rule=f"holds if x.{'clone().' if copy_first else ''}detach() allocates at least x's "
        "bytes, shares no storage with x, does not require grad and is a leaf",
        measurements=(
            Measurement("vi-clone-detach-storage-shared", shared, "bool"),
            Measurement("vi-clone-detach-requires-grad", c.requires_grad, "bool"),
            Measurement("vi-clone-detach-is-leaf", c.is_leaf, "bool"),
            Measurement("vi-clone-detach-allocated", allocated, "bytes"),
        ),
    )


def probe_gradient_through_clone(device: Device) -> Observation:
    return _through_clone_rule(device, detach=False)


def control_gradient_through_detached_clone(device: Device) -> Observation:
    return _through_clone_rule(device, detach=True)


def _through_clone_rule(device: Device, detach: bool) -> Observation:
    import torch

    a: Any = torch.tensor(1.0, device=device, requires_grad=True)
    a_copy = a.clone().detach() if detach else a.clone()
    (a**2).backward()
    first = float(a.grad)
    (a**2 + 3 * a_copy).backward()
    second = float(a.grad)
    return Observation(
        holds=first == 2.0 and second == 2.0 + 2.0 + 3.0,
        rule="holds if, for a = 1, backward of a**2 gives a.grad 2, and backward of "
        f"a**2 + 3 * a.clone(){'.detach()' if detach else ''} then accumulates 2 + 3 into it (7)",
        measurements=(
            Measurement("vi-clone-grad-first", str(first), "text"),
            Measurement("vi-clone-grad-accumulated", str(second), "text"),
        ),
    )


def probe_clone_grad_none(device: Device) -> Observation:
    return _clone_grad_rule(device, leaf_copy=False)


def control_leaf_copy_gets_grad(device: Device) -> Observation:
    return _clone_grad_rule(device, leaf_copy=True)


def _clone_grad_rule(device: Device, leaf_copy: bool) -> Observation:
    import torch

    a: Any = torch.tensor(1.0, device=device, requires_grad=True)
    b = a.clone().detach().requires_grad_() if leaf_copy else a.clone()
    (3 * b).backward()
    box: list[Any] = []
    warning = _warning(lambda: box.append(b.grad))
    b2 = a.clone()
    b2.retain_grad()
    (3 * b2).backward()
    return Observation(
        holds=box[0] is None
        and warning.startswith("UserWarning")
        and "not a leaf" in warning
        and b2.grad is not None,
        rule="holds if, after backward, b = a.clone()"
        + (".detach().requires_grad_()" if leaf_copy else "")
        + " has .grad None and reading it emits a "
        "UserWarning about a non-leaf tensor, while a clone that called retain_grad() gets "
        "its gradient",
        measurements=(
            Measurement("vi-clone-grad-after-backward", str(box[0]), "text"),
            Measurement("vi-non-leaf-grad-warning", warning.split(". ")[0], "text"),
            Measurement("vi-clone-retained-grad", str(float(b2.grad)), "text"),
        ),
    )


def probe_constant_clone_leaf(device: Device) -> Observation:
    return _constant_clone_rule(device, source_requires_grad=False)


def control_clone_of_trainable_tensor(device: Device) -> Observation:
    return _constant_clone_rule(device, source_requires_grad=True)


def _constant_clone_rule(device: Device, source_requires_grad: bool) -> Observation:
    import torch

    a: Any = torch.tensor(1.0, device=device, requires_grad=source_requires_grad)
    a_copy = a.clone()
    leaf_before = a_copy.is_leaf
    if not source_requires_grad:
        a_copy.requires_grad_()
    else:
        a_copy.retain_grad()
    (a_copy**2).backward()
    grad = None if a_copy.grad is None else float(a_copy.grad)
    return Observation(
        holds=leaf_before and a.grad is None and grad == 2.0,
        rule="holds if the clone of a tensor that "
        + ("requires" if source_requires_grad else "does not require")
        + " grad is a leaf; after "
        "requires_grad_() and backward of its square (at 1), it has .grad 2 and the source "
        ".grad None",
        measurements=(
            Measurement("vi-constant-clone-is-leaf", leaf_before, "bool"),
            Measurement("vi-constant-source-grad", str(a.grad), "text"),
            Measurement("vi-constant-clone-grad", str(grad), "text"),
        ),
    )


def probe_linear_input_grad(device: Device) -> Observation:
    return _linear_grad_rule(device, squared=False)


def control_squared_output(device: Device) -> Observation:
    return _linear_grad_rule(device, squared=True)


def _linear_grad_rule(device: Device, squared: bool) -> Observation:
    import torch

    torch.manual_seed(0)
    layer = torch.nn.Linear(2, 1).to(device)
    x: Any = torch.tensor([1.0, 2.0], device=device, requires_grad=True)
    out = layer(x)
    (out.square() if squared else out).sum().backward()
    equal = bool(torch.equal(x.grad, layer.weight[0].detach()))
    return Observation(
        holds=equal,
        rule="holds if, for y = Linear(2, 1)(x) with a 1-D x, x.grad after "
        + ("y.square().backward()" if squared else "y.backward()")
        + " equals the layer's weight row exactly",
        measurements=(
            Measurement("vi-linear-input-grad-equals-weight", equal, "bool"),
            Measurement("vi-linear-input-grad-seed-0", _values(x.grad), "text"),
        ),
    )


def _metadata_changes(device: Device) -> dict[str, Callable[[Any], Any]]:
    """In-place changes of shape or storage, each applied to a 2x3 tensor."""
    import torch

    return {
        "resize": lambda t: t.resize_(4, 3),
        "resize-as": lambda t: t.resize_as_(torch.zeros(4, 3, device=device)),
        "set": lambda t: t.set_(torch.zeros(2, 3, device=device)),
        "transpose": lambda t: t.transpose_(0, 1),
    }


def _metadata_change_errors(device: Device, on_detached: bool) -> Observation:
    import torch

    def strict(call: Callable[[], Any]) -> str:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return _error(call)

    errors = {}
    shape = ""
    for name, change in _metadata_changes(device).items():
        q: Any = torch.ones(2, 3, device=device, requires_grad=True)
        target = q.detach() if on_detached else q
        errors[name] = strict(functools.partial(change, target))
        shape = shape or str(tuple(q.shape))
    prefix = "vi-detach" if on_detached else "vi-original"
    return Observation(
        holds=any(e != "no error" for e in errors.values()),
        rule="holds if resize_, resize_as_, set_ or transpose_ raises an error or a warning "
        "(warnings turned into errors) when applied to "
        + ("the detach() of a tensor that requires grad" if on_detached else "such a tensor"),
        measurements=(
            *(Measurement(f"{prefix}-{k}-error", e, "text") for k, e in errors.items()),
            Measurement(f"{prefix}-shape-after-resize", shape, "text"),
        ),
    )


def probe_detach_metadata_myth(device: Device) -> Observation:
    return _metadata_change_errors(device, on_detached=True)


def control_metadata_change_on_original(device: Device) -> Observation:
    return _metadata_change_errors(device, on_detached=False)


def _saved_original_after_change(device: Device, change_detached: bool) -> Observation:
    import torch

    bumped = failed = 0
    message = "no error"
    changes = _metadata_changes(device)
    for change in changes.values():
        q: Any = torch.ones(2, 3, device=device, requires_grad=True)
        loss = q.sin().sum()  # sin saves q for backward
        before = q._version
        if change_detached:
            change(q.detach())
        bumped += q._version != before
        error = _error(loss.backward)
        if error != "no error":
            failed += 1
            message = error.splitlines()[0][:160]
    total = len(changes)
    prefix = "vi-saved-detach" if change_detached else "vi-saved-unchanged"
    return Observation(
        holds=bumped == failed == total,
        rule="holds if, for each of resize_, resize_as_, set_ and transpose_, the version "
        "counter of a tensor saved by sin() went up and backward raised"
        + (" after the change was applied to its detach()" if change_detached else ""),
        measurements=(
            Measurement(f"{prefix}-version-bumps", bumped, "count"),
            Measurement(f"{prefix}-backward-errors", failed, "count"),
            Measurement(f"{prefix}-backward-error", message, "exception"),
        ),
    )


def probe_detach_change_breaks_saved_backward(device: Device) -> Observation:
    return _saved_original_after_change(device, change_detached=True)


def control_saved_original_unchanged(device: Device) -> Observation:
    return _saved_original_after_change(device, change_detached=False)


def probe_resize_requires_grad(device: Device) -> Observation:
    return _resize_rule(device, requires_grad=True)


def control_resize_without_grad(device: Device) -> Observation:
    return _resize_rule(device, requires_grad=False)


def _resize_rule(device: Device, requires_grad: bool) -> Observation:
    import torch

    w = torch.ones(2, device=device, requires_grad=requires_grad)
    leaf = _error(lambda: w.resize_(4))
    w = torch.ones(2, device=device, requires_grad=requires_grad)
    clone = _error(lambda: w.clone().resize_(4))
    clone_transpose = _error(
        lambda: (
            torch.ones(2, 3, device=device, requires_grad=requires_grad).clone().transpose_(0, 1)
        )
    )
    detached = _error(lambda: w.detach().resize_(4))
    holds = (
        leaf.startswith("RuntimeError")
        and clone.startswith("RuntimeError")
        and clone_transpose == "no error"
        and detached == "no error"
    )
    return Observation(
        holds=holds,
        rule=f"holds if resize_ raises RuntimeError on a leaf (requires grad: {requires_grad}) "
        "and on its "
        "clone, while transpose_ on such a clone and resize_ on its detach() raise nothing",
        measurements=(
            Measurement("vi-resize-leaf-error", leaf, "exception"),
            Measurement("vi-resize-clone-error", clone, "exception"),
            Measurement("vi-transpose-clone-error", clone_transpose, "text"),
            Measurement("vi-resize-detached-error", detached, "text"),
        ),
    )


# -- what in-place operations are ------------------------------------------------------------


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


# -- what in-place operations allocate -------------------------------------------------------


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
            _, memory = step_memory(lambda: box.__setitem__(0, update(box[0])), device)
            return memory.peak, memory.end
        # the CPU profiler misses frees of older blocks: create y inside, subtract its bytes
        _, memory = step_memory(lambda: update(torch.randn(SIDE, SIDE)), device)
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


def probe_out_refuses_autograd(device: Device) -> Observation:
    return _out_autograd_rule(device, requires_grad=True)


def control_out_without_grad(device: Device) -> Observation:
    return _out_autograd_rule(device, requires_grad=False)


def _out_autograd_rule(device: Device, requires_grad: bool) -> Observation:
    import torch

    a = torch.ones(3, device=device, requires_grad=requires_grad)
    b = torch.ones(3, device=device)
    c = torch.empty(3, device=device)
    error = _error(lambda: torch.add(a, b, out=c))
    return Observation(
        holds=error.startswith("RuntimeError") and "out=" in error,
        rule=f"holds if torch.add(a, b, out=c) with a (requires grad: {requires_grad}) raises "
        "a RuntimeError about out= arguments",
        measurements=(Measurement("vi-out-requires-grad-error", error, "exception"),),
    )


# -- the CUDA caching allocator ----------------------------------------------------------------


def _alloc_conf() -> str:
    import os

    return os.environ.get("PYTORCH_CUDA_ALLOC_CONF", "") or "(unset)"


def probe_cuda_large_rounding(device: Device) -> Observation:
    return _large_rounding_rule(device, (10000, 3000))


def control_cuda_small_pool(device: Device) -> Observation:
    return _large_rounding_rule(device, (100, 300))


def _large_rounding_rule(device: Device, sides: tuple[int, int]) -> Observation:
    import torch

    torch.cuda.empty_cache()

    def grow(rows: int, cols: int) -> tuple[Any, int, int, int]:
        torch.cuda.synchronize()
        stats = torch.cuda.memory_stats()
        a0 = stats.get("allocated_bytes.all.current", 0)
        r0 = stats.get("reserved_bytes.all.current", 0)
        q0 = stats.get("requested_bytes.all.current", 0)
        t = torch.empty(rows, cols, device=device)
        torch.cuda.synchronize()
        stats = torch.cuda.memory_stats()
        return (
            t,
            stats["allocated_bytes.all.current"] - a0,
            stats["reserved_bytes.all.current"] - r0,
            stats["requested_bytes.all.current"] - q0,
        )

    large, large_alloc, large_reserved, large_requested = grow(sides[0], sides[0])
    mid, mid_alloc, mid_reserved, _ = grow(sides[1], sides[1])

    def segment(n: int) -> int:
        return -(-n // _ROUND_LARGE) * _ROUND_LARGE

    def block(n: int) -> int:
        return -(-n // _MIN_BLOCK) * _MIN_BLOCK

    large_rest = segment(large.nbytes) - block(large.nbytes)
    mid_rest = segment(mid.nbytes) - block(mid.nbytes)
    holds = (
        large_reserved == segment(large.nbytes)
        and mid_reserved == segment(mid.nbytes)
        and large_requested == large.nbytes
        and large_rest <= _SMALL_SIZE < mid_rest
        and large_alloc == segment(large.nbytes)
        and mid_alloc == block(mid.nbytes)
    )
    return Observation(
        holds=holds,
        rule=f"holds if, for {sides[0]} × {sides[0]} and {sides[1]} × {sides[1]} float32 "
        "tensors, memory_reserved() "
        "grows by the tensor's bytes rounded up to a multiple of 2 MiB, and "
        "memory_allocated() grows by that whole segment when at most 1 MiB of it is left "
        "over (10000 × 10000) but only by the bytes rounded up to 512 when more is left and "
        "split off (3000 × 3000); the rule is that of the default allocator settings, and "
        "PYTORCH_CUDA_ALLOC_CONF is recorded",
        measurements=(
            Measurement("vi-cuda-large-nbytes", large.nbytes, "bytes"),
            Measurement("vi-cuda-large-requested", large_requested, "bytes"),
            Measurement("vi-cuda-large-allocated", large_alloc, "bytes"),
            Measurement("vi-cuda-large-reserved", large_reserved, "bytes"),
            Measurement("vi-cuda-mid-nbytes", mid.nbytes, "bytes"),
            Measurement("vi-cuda-mid-allocated", mid_alloc, "bytes"),
            Measurement("vi-cuda-mid-reserved", mid_reserved, "bytes"),
            Measurement("vi-cuda-alloc-conf", _alloc_conf(), "text"),
        ),
    )


def probe_cuda_relu_382(device: Device) -> Observation:
    return _relu_382_rule(device, 10000)


def control_cuda_relu_smaller_tensor(device: Device) -> Observation:
    return _relu_382_rule(device, 1000)


def _relu_382_rule(device: Device, side: int) -> Observation:
    import torch
    from torch.nn import functional

    torch.cuda.empty_cache()
    t = torch.randn(side, side, device=device)
    out, relu = cuda_memory(lambda: functional.relu(t))
    _, relu_ = cuda_memory(lambda: functional.relu_(t))
    mib = {
        "output": out.nbytes / _MIB,
        "allocated": relu.allocated / _MIB,
        "peak": relu.peak / _MIB,
        "inplace": relu_.peak / _MIB,
    }
    return Observation(
        holds=mib["allocated"] == mib["peak"] == 382.0 and mib["inplace"] == 0.0,
        rule=f"holds if F.relu of a {side} × {side} float32 tensor raises memory_allocated() and "
        "its peak by 382.0 MiB, and F.relu_ by 0 (default allocator settings; "
        "PYTORCH_CUDA_ALLOC_CONF is recorded)",
        measurements=(
            Measurement("vi-cuda-relu-output-mib", mib["output"], "ratio"),
            Measurement("vi-cuda-relu-allocated-mib", mib["allocated"], "ratio"),
            Measurement("vi-cuda-relu-peak-mib", mib["peak"], "ratio"),
            Measurement("vi-cuda-relu-inplace-mib", mib["inplace"], "ratio"),
            Measurement("vi-cuda-relu-alloc-conf", _alloc_conf(), "text"),
        ),
    )


def probe_cuda_peak_high_water(device: Device) -> Observation:
    return _high_water_rule(device, earlier_peak=True)


def control_cuda_no_earlier_peak(device: Device) -> Observation:
    return _high_water_rule(device, earlier_peak=False)


def _high_water_rule(device: Device, earlier_peak: bool) -> Observation:
    import torch

    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    if earlier_peak:
        big = torch.empty(8 * _MIB, device=device)  # 32 MiB
        del big
    torch.cuda.synchronize()
    start = torch.cuda.max_memory_allocated()
    small = torch.empty(2 * _MIB, device=device)  # 8 MiB
    torch.cuda.synchronize()
    without_reset = torch.cuda.max_memory_allocated() - start
    del small
    torch.cuda.reset_peak_memory_stats()
    start = torch.cuda.max_memory_allocated()
    small = torch.empty(2 * _MIB, device=device)
    torch.cuda.synchronize()
    with_reset = torch.cuda.max_memory_allocated() - start
    return Observation(
        holds=without_reset == 0 and with_reset == small.nbytes,
        rule="holds if, after "
        + (
            "a 32 MiB tensor was allocated and freed"
            if earlier_peak
            else "a reset, with no larger allocation before"
        )
        + ", the growth of "
        "max_memory_allocated() over an 8 MiB allocation is 0, and is 8 MiB once "
        "reset_peak_memory_stats() was called first",
        measurements=(
            Measurement("vi-cuda-max-delta-without-reset", without_reset, "bytes"),
            Measurement("vi-cuda-max-delta-with-reset", with_reset, "bytes"),
        ),
    )


# -- in-place operations and autograd --------------------------------------------------------


def probe_leaf_inplace(device: Device) -> Observation:
    return _leaf_rule(device, leaf=True)


def control_non_leaf_add_inplace(device: Device) -> Observation:
    return _leaf_rule(device, leaf=False)


def _leaf_rule(device: Device, leaf: bool) -> Observation:
    import torch

    source = torch.ones(2, device=device, requires_grad=True)
    w = source if leaf else source * 1
    error = _error(lambda: w.add_(1.0))
    with torch.no_grad():
        w.add_(1.0)
    allowed = float(w.detach().sum()) == 4.0 and w.requires_grad
    return Observation(
        holds=error.startswith("RuntimeError") and "leaf Variable" in error and allowed,
        rule="holds if add_ on a "
        + ("leaf" if leaf else "non-leaf")
        + " that requires grad raises a RuntimeError naming the leaf variable, while the same "
        "add_ inside torch.no_grad() succeeds",
        measurements=(
            Measurement("vi-leaf-inplace-error", error, "exception"),
            Measurement("vi-leaf-inplace-under-no-grad", allowed, "bool"),
        ),
    )


def probe_saved_tensor_modified(device: Device) -> Observation:
    return _modified_rule(device, saved=True)


def control_unsaved_output_modified(device: Device) -> Observation:
    return _modified_rule(device, saved=False)


def _modified_rule(device: Device, saved: bool) -> Observation:
    import torch

    a: Any = torch.tensor([0.0, 1.0, 2.0], device=device, requires_grad=True)
    e = a.exp() if saved else a.sin()  # exp saves its output for backward, sin its input
    version_before = e._version
    e.add_(1.0)
    version_after = e._version
    error = _error(lambda: e.sum().backward())
    return Observation(
        holds=version_after == version_before + 1
        and error.startswith(
            "RuntimeError: one of the variables needed for gradient computation has been "
            "modified by an inplace operation"
        ),
        rule="holds if add_ on the output of "
        + ("exp (which exp saved)" if saved else "sin (which sin did not save)")
        + " raises its version counter "
        "by one and backward then raises the version-counter RuntimeError",
        measurements=(
            Measurement("vi-saved-version-before", version_before, "count"),
            Measurement("vi-saved-version-after", version_after, "count"),
            Measurement("vi-saved-modified-error", error, "exception"),
        ),
    )


def probe_inplace_rewrites_graph(device: Device) -> Observation:
    return _rewrites_rule(device, in_place=True)


def control_out_of_place_relu(device: Device) -> Observation:
    return _rewrites_rule(device, in_place=False)


def _rewrites_rule(device: Device, in_place: bool) -> Observation:
    import torch

    x: Any = torch.tensor([-1.0, 1.0], device=device, requires_grad=True)
    y = x * 2
    before = type(y.grad_fn).__name__
    if in_place:
        y.relu_()
    else:
        y = y.relu()
    after = type(y.grad_fn).__name__
    version = y._version
    y.sum().backward()
    grad_ok = x.grad is not None and x.grad.tolist() == [0.0, 2.0]
    a = torch.tensor(1.0, device=device, requires_grad=True)
    b = a.clone()
    if in_place:
        b += 1
    else:
        b = b + 1
    clone_after = type(b.grad_fn).__name__
    return Observation(
        holds=(before, after, clone_after) == ("MulBackward0", "ReluBackward0", "AddBackward0")
        and version == 1
        and grad_ok,
        rule="holds if y = x * 2 has grad_fn MulBackward0, "
        + ("y.relu_()" if in_place else "y = y.relu()")
        + " makes it ReluBackward0 "
        "with _version 1 and backward gives the correct gradient, and b = a.clone(); "
        "b += 1 makes b's grad_fn AddBackward0",
        measurements=(
            Measurement("vi-grad-fn-before-relu-inplace", before, "text"),
            Measurement("vi-grad-fn-after-relu-inplace", after, "text"),
            Measurement("vi-version-after-relu-inplace", version, "count"),
            Measurement("vi-relu-inplace-grad-correct", grad_ok, "bool"),
            Measurement("vi-grad-fn-clone-after-iadd", clone_after, "text"),
        ),
    )


def _sigmoid_case(device: Device, alias: Callable[[Any], Any]) -> tuple[str, Any, int]:
    """Zero the output of sigmoid through ``alias(out)``, then backward.

    Returns the error (or ``"no error"``), the gradient of ``a`` and the output's version.
    """
    import torch

    a: Any = torch.tensor([0.0, 1.0, 2.0], device=device, requires_grad=True)
    out = a.sigmoid()  # sigmoid saves its output for backward
    alias(out).zero_()
    version = out._version
    error = _error(lambda: out.sum().backward())
    return error, a.grad, version


def probe_no_error_correct_myth(device: Device) -> Observation:
    return _no_error_rule(device, through_data=True)


def control_zeroed_through_detach(device: Device) -> Observation:
    return _no_error_rule(device, through_data=False)


def _no_error_rule(device: Device, through_data: bool) -> Observation:
    import torch

    error, grad, version = _sigmoid_case(
        device, (lambda out: out.data) if through_data else (lambda out: out.detach())
    )
    a: Any = torch.tensor([0.0, 1.0, 2.0], device=device, requires_grad=True)
    a.sigmoid().sum().backward()
    correct = a.grad
    right = grad is not None and bool(torch.allclose(grad, correct))
    return Observation(
        holds=error != "no error" or right,
        rule="holds if zeroing sigmoid's output in place through "
        + (".data" if through_data else "detach()")
        + " either raises an "
        "error at backward or leaves the gradient equal to the unmodified one",
        measurements=(
            Measurement("vi-data-zero-error", error, "text"),
            Measurement("vi-data-zero-version", version, "count"),
            Measurement("vi-data-zero-grad", _values(grad) if grad is not None else "None", "text"),
            Measurement("vi-sigmoid-correct-grad", _values(correct), "text"),
        ),
    )


def probe_detach_inplace_caught(device: Device) -> Observation:
    return _caught_rule(device, through_detach=True)


def control_zeroed_through_data(device: Device) -> Observation:
    return _caught_rule(device, through_detach=False)


def _caught_rule(device: Device, through_detach: bool) -> Observation:
    error, _, version = _sigmoid_case(
        device, (lambda out: out.detach()) if through_detach else (lambda out: out.data)
    )
    return Observation(
        holds=version == 1
        and error.startswith(
            "RuntimeError: one of the variables needed for gradient computation has been "
            "modified by an inplace operation"
        ),
        rule="holds if zeroing sigmoid's output in place through "
        + ("detach()" if through_detach else ".data")
        + " raises the output's "
        "version to 1 and backward raises the version-counter RuntimeError",
        measurements=(
            Measurement("vi-detach-zero-version", version, "count"),
            Measurement("vi-detach-zero-error", error, "exception"),
        ),
    )


# -- the article's code --------------------------------------------------------------------


def probe_flattened_if(device: Device) -> Observation:
    # A function whose body kept one space of indentation, with an if statement whose body
    # is no deeper than the if: the shape of the article's first block.
    return _if_block_rule("def half(flag, t):\n if flag:\n t = t / 2\n return t\n")


def control_indented_if(device: Device) -> Observation:
    return _if_block_rule("def half(flag, t):\n if flag:\n  t = t / 2\n return t\n")


def _if_block_rule(source: str) -> Observation:
    error = _error(lambda: compile(source, "<flattened>", "exec"))
    return Observation(
        holds=error.startswith("IndentationError: expected an indented block after 'if'"),
        rule="holds if compiling the function with its if statement raises IndentationError "
        "('expected an indented block')",
        measurements=(Measurement("vi-flattened-if-error", error, "exception"),),
    )


def probe_indented_first_line(device: Device) -> Observation:
    return _first_line_rule("    total = 1\n    total += 1\n")


def control_first_line_at_margin(device: Device) -> Observation:
    return _first_line_rule("total = 1\ntotal += 1\n")


def _first_line_rule(source: str) -> Observation:
    error = _error(lambda: compile(source, "<indented>", "exec"))
    return Observation(
        holds=error.startswith("IndentationError: unexpected indent"),
        rule="holds if compiling the module raises IndentationError ('unexpected indent')",
        measurements=(Measurement("vi-indented-block-error", error, "exception"),),
    )


def probe_cuda_calls_without_gpu(device: Device) -> Observation:
    return _without_gpu_rule("synchronize")


def control_cuda_is_available_without_gpu(device: Device) -> Observation:
    return _without_gpu_rule("is_available")


def _without_gpu_rule(call: str) -> Observation:
    import torch

    if not torch.cuda.is_available():
        error = _error(getattr(torch.cuda, call))
        where = "this process: no CUDA device is available"
    else:  # the GPU is visible here: ask a process that cannot see it
        import os
        import subprocess
        import sys

        code = (
            "import torch\n"
            f"try:\n    torch.cuda.{call}()\nexcept Exception as e:\n"
            "    print(f'{type(e).__name__}: {e}')\nelse:\n    print('no error')\n"
        )
        env = {**os.environ, "CUDA_VISIBLE_DEVICES": ""}
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
        )
        lines = done.stdout.strip().splitlines()
        error = lines[-1] if lines else "no output"
        where = "a child process with CUDA_VISIBLE_DEVICES empty"
    return Observation(
        holds=error not in {"no error", "no output"},
        rule=f"holds if torch.cuda.{call}() raises where no CUDA device is available",
        measurements=(
            Measurement("vi-cuda-sync-without-gpu-error", error, "exception"),
            Measurement("vi-cuda-sync-without-gpu-where", where, "text"),
        ),
    )


# -- vocabularies ----------------------------------------------------------------------------

_SHARE: dict[Lang, tuple[str, ...]] = {
    "en": ("share", "same memory", "shallow copy"),
    "ja": ("共有", "浅いコピー"),
    "ko": ("공유", "얕은 복사"),
}
#: "Returns a view": said of operations that are not views (the gather family's myths).
_VIEW: dict[Lang, tuple[str, ...]] = {
    "en": (*_SHARE["en"], "a view"),
    "ja": (*_SHARE["ja"], "ビュー"),
    "ko": (*_SHARE["ko"], "뷰"),
}
_COPY: dict[Lang, tuple[str, ...]] = {
    "en": ("copy", "copies", "new memory", "separate memory", "its own memory"),
    "ja": ("コピー", "複製", "新しいメモリ", "別のメモリ", "別々のメモリ", "独立したメモリ"),
    "ko": ("복사", "새로운 메모리", "새 메모리", "별도의 메모리", "별도 메모리", "독립된 메모리"),
}
_ALLOCATE: dict[Lang, tuple[str, ...]] = {
    "en": ("allocat", "new memory", "extra memory"),
    "ja": ("割り当て", "確保", "新しいメモリ"),
    "ko": ("할당", "새로운 메모리", "메모리를 열", "새 메모리"),
}
# Subjects name what a claim is about; a concept (not an API) is named in every language.
_IN_PLACE = ("in-place", "In-place", "inplace", "in_place", "インプレース", "인플레이스", "제자리")
#: The generic subject of a myth about in-place operations as a class, not one operation.
_IN_PLACE_OPERATIONS = (
    "in-place operation",
    "In-place operation",
    "インプレース演算",
    "インプレース操作",
    "인플레이스 연산",
    "인플레이스(in-place) 연산",
    "제자리 연산",
    "in-place 연산",
)
_ERROR: dict[Lang, tuple[str, ...]] = {
    "en": ("error", "raise", "warning"),
    "ja": ("エラー", "警告"),
    "ko": ("오류", "에러", "경고"),
}

CLAIMS = (
    # topics/views-and-inplace.md (vi-sharing)
    Claim(
        id="views/sharing-tensors-have-different-ids",
        statement="Tensors that share storage, such as a tensor and its detach() or view(), "
        "are different Python objects with different id() values.",
        expect=Expect.HOLDS,
        probe=probe_sharing_different_ids,
        control=Control(
            "clones, which have their own storage",
            control_copies_have_different_ids,
        ),
        measures=("vi-detach-same-id", "vi-view-same-id", "vi-detach-and-view-share"),
        vocabulary=Vocabulary(
            subjects=("id(", "id"),
            predicates={"en": ("different",), "ja": ("異な", "違"), "ko": ("다르", "같지 않")},
        ),
    ),
    Claim(
        id="views/storage-pointer-test-limits",
        statement="Comparing untyped_storage().data_ptr() misses tensors made with "
        "torch.from_numpy from overlapping slices of one array, and reports any two empty "
        "tensors as sharing; comparing the byte ranges of the storages gets both right.",
        expect=Expect.HOLDS,
        probe=probe_pointer_test_limits,
        devices=("cpu",),
        measures=(
            "vi-numpy-overlap-pointers-equal",
            "vi-numpy-overlap-write-reaches",
            "vi-numpy-overlap-ranges-overlap",
            "vi-numpy-empty-pointers-equal",
            "vi-numpy-empty-ranges-overlap",
        ),
        control=Control(
            "slices of one tensor, which share a storage",
            control_pointer_test_on_views,
            measures=("vi-view-overlap-pointers-equal",),
        ),
    ),
    Claim(
        id="views/id-of-temporaries-can-repeat",
        statement="Two temporary tensors created one after the other can get the same id(), "
        "so equal id() values do not prove that two expressions give the same tensor.",
        expect=Expect.HOLDS,
        probe=probe_temporary_ids,
        control=Control(
            "results kept alive",
            control_ids_of_living_tensors,
        ),
        devices=("cpu",),
        measures=("vi-temporary-ids-tries", "vi-temporary-ids-equal", "vi-temporaries-same-object"),
        vocabulary=Vocabulary(
            subjects=("id(", "id"),
            predicates={"en": ("same address",), "ja": ("同じアドレス",), "ko": ("주소는 같",)},
        ),
    ),
    # topics/views-and-inplace.md (vi-views)
    Claim(
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
    ),
    Claim(
        id="views/reshape-copies-non-contiguous",
        statement="reshape() of a tensor whose layout does not allow a view (such as a "
        "transpose) returns a copy, and view() raises instead.",
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
    ),
    Claim(
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
    ),
    Claim(
        id="views/myth-contiguous-always-copies",
        statement="contiguous() always returns a copy, even of a tensor that is already "
        "contiguous.",
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
    ),
    Claim(
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
    ),
    Claim(
        id="views/transpose-and-expand-are-views",
        statement="t(), transpose() and expand() return views; expand() repeats elements "
        "with a stride of 0 instead of copying them.",
        expect=Expect.HOLDS,
        probe=probe_transpose_expand,
        control=Control(
            "the same results made contiguous and cloned",
            control_materialized_transpose_expand,
        ),
        measures=("vi-transpose-shares", "vi-expand-shares", "vi-expand-stride"),
        vocabulary=Vocabulary(
            subjects=("transpose(", "expand("), predicates=_SHARE, opposites=_COPY
        ),
    ),
    # topics/views-and-inplace.md (vi-copies)
    Claim(
        id="views/myth-index-select-shares-memory",
        statement="index_select() returns a tensor that shares memory with its input.",
        expect=Expect.FAILS,
        probe=probe_index_select_myth,
        control=Control(
            "basic slicing x[:] in place of the selection",
            control_slicing_shares,
        ),
        measures=(
            "vi-index-select-shares",
            "vi-index-select-write-reaches-input",
            "vi-index-select-allocated",
        ),
        vocabulary=Vocabulary(subjects=("index_select",), predicates=_VIEW, opposites=_COPY),
    ),
    Claim(
        id="views/myth-masked-select-shares-memory",
        statement="masked_select() returns a tensor that shares memory with its input.",
        expect=Expect.FAILS,
        probe=probe_masked_select_myth,
        control=Control(
            "basic slicing x[:] in place of the selection",
            control_slicing_shares,
        ),
        measures=(
            "vi-masked-select-shares",
            "vi-masked-select-write-reaches-input",
            "vi-masked-select-allocated",
        ),
        vocabulary=Vocabulary(subjects=("masked_select",), predicates=_VIEW, opposites=_COPY),
    ),
    Claim(
        id="views/myth-gather-shares-memory",
        statement="gather() returns a tensor that shares memory with its input.",
        expect=Expect.FAILS,
        probe=probe_gather_myth,
        control=Control(
            "basic slicing x[:] in place of the selection",
            control_slicing_shares,
        ),
        measures=("vi-gather-shares", "vi-gather-write-reaches-input", "vi-gather-allocated"),
        vocabulary=Vocabulary(subjects=("gather",), predicates=_VIEW, opposites=_COPY),
    ),
    Claim(
        id="views/advanced-indexing-copies",
        statement="Indexing with a list or tensor of integers, or with a boolean mask, returns "
        "a copy.",
        expect=Expect.HOLDS,
        probe=probe_advanced_indexing,
        control=Control(
            "basic slicing (x[0:3:2], x[::2], x[1:]) in place of advanced indexing",
            control_basic_indexing_shares,
        ),
        measures=("vi-list-index-shares", "vi-tensor-index-shares", "vi-mask-index-shares"),
        vocabulary=Vocabulary(
            subjects=(
                "mask",
                "index",
                "indexing",
                "Indexing",
                "マスク",
                "インデックス",
                "마스크",
                "인덱싱",
            ),
            predicates=_COPY,
            opposites={  # "indexing with a list returns a view as well"
                "en": ("returns a view", "is a view", "a view as well", "shares memory"),
                "ja": ("ビューを返", "ビューになる", "メモリを共有"),
                "ko": ("뷰를 반환", "뷰가 된", "메모리를 공유"),
            },
            unless={  # basic indexing (integers, slices) is the other case: it returns views
                "en": ("slice", "basic", "with an integer", "with integers"),
                "ja": ("スライス", "基本的なインデックス", "整数で", "整数インデックス"),
                "ko": ("슬라이스", "슬라이싱", "기본 인덱싱", "정수로", "정수 인덱스"),
            },
        ),
    ),
    Claim(
        id="views/index-assignment-writes-in-place",
        statement="Assigning through advanced indexing (x[idx] = v) writes into x, although "
        "reading x[idx] makes a copy.",
        expect=Expect.HOLDS,
        probe=probe_index_assignment,
        control=Control(
            "an assignment to the indexed copy",
            control_assignment_to_indexed_copy,
        ),
        measures=(
            "vi-index-assign-changes-input",
            "vi-index-assign-same-storage",
            "vi-indexed-fill-changes-input",
        ),
    ),
    Claim(
        id="views/torch-tensor-copies",
        statement="torch.tensor() always copies its data, whether it is given a NumPy array or "
        "a tensor.",
        expect=Expect.HOLDS,
        probe=probe_torch_tensor_copies,
        control=Control(
            "torch.as_tensor in place of torch.tensor",
            control_as_tensor_in_place_of_tensor,
        ),
        measures=(
            "vi-tensor-from-array-shares",
            "vi-tensor-from-array-allocated",
            "vi-tensor-from-tensor-shares",
            "vi-tensor-from-tensor-warning",
        ),
        vocabulary=Vocabulary(subjects=("torch.tensor(",), predicates=_COPY, opposites=_SHARE),
    ),
    Claim(
        id="views/torch-tensor-warning-advises-detach-clone",
        statement="Given a tensor, torch.tensor() warns and recommends "
        "sourceTensor.detach().clone() to copy it.",
        expect=Expect.HOLDS,
        probe=probe_torch_tensor_advice,
        devices=("cpu",),
        measures=(
            "vi-tensor-tensor-warning",
            "vi-tensor-tensor-advice-detach-clone",
            "vi-tensor-tensor-advice-clone-detach",
        ),
        control=Control(
            "torch.tensor of a list, which does not warn", control_torch_tensor_of_list
        ),
        # the advice is code, the same in every language; older releases gave the other order
        vocabulary=Vocabulary(
            subjects=("torch.tensor",),
            predicates={lang: ("detach().clone()",) for lang in ("en", "ja", "ko")},
            opposites={lang: ("clone().detach()",) for lang in ("en", "ja", "ko")},
        ),
    ),
    # topics/views-and-inplace.md (vi-numpy)
    Claim(
        id="views/numpy-and-from-numpy-share-memory",
        statement="Tensor.numpy() and torch.from_numpy() share memory with their source, so "
        "writes show on both sides and no bytes are copied.",
        expect=Expect.HOLDS,
        probe=probe_numpy_shares,
        control=Control(
            "numpy().copy() and torch.tensor",
            control_numpy_copies,
        ),
        devices=("cpu",),
        measures=(
            "vi-numpy-write-reaches-tensor",
            "vi-from-numpy-write-reaches-array",
            "vi-from-numpy-dtype",
            "vi-from-numpy-allocated",
        ),
        vocabulary=Vocabulary(
            subjects=("from_numpy", "numpy()"),
            predicates=_SHARE,
            opposites=_COPY,
            # numpy(force=True) is data/numpy-force-shares-on-cpu's case
            unless={lang: ("force=True", "`force`") for lang in ("en", "ja", "ko")},
        ),
    ),
    Claim(
        id="views/as-tensor-shares-when-dtype-and-device-match",
        statement="torch.as_tensor() shares a NumPy array's memory only when the requested "
        "dtype and device match the array's; otherwise it copies.",
        expect=Expect.HOLDS,
        probe=probe_as_tensor,
        control=Control(
            "torch.tensor in place of torch.as_tensor",
            control_tensor_in_place_of_as_tensor,
        ),
        measures=(
            "vi-as-tensor-same-dtype-shares",
            "vi-as-tensor-other-dtype-shares",
            "vi-as-tensor-on-device-shares",
        ),
        vocabulary=Vocabulary(subjects=("as_tensor",), predicates=_SHARE, opposites=_COPY),
    ),
    # topics/views-and-inplace.md (vi-inplace)
    Claim(
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
    ),
    Claim(
        id="inplace/augmented-assignment-is-in-place",
        statement="y += x and y *= x on a tensor are in-place: y stays the same object with "
        "the same storage.",
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
    ),
    Claim(
        id="inplace/augmented-assignment-keeps-dtype",
        statement="An in-place operation cannot change the tensor's dtype: y += 1.5 on an "
        "integer tensor raises, where y + 1.5 returns a float tensor.",
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
    ),
    Claim(
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
    ),
    Claim(
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
    ),
    Claim(
        id="inplace/slice-assignment-keeps-storage",
        statement="After y[:] = y + x, y is the same object with the same storage, holding "
        "the sum.",
        expect=Expect.HOLDS,
        probe=probe_slice_assignment_keeps,
        control=Control(
            "y = y + x",
            control_rebinding_replaces,
        ),
        measures=("vi-slice-assign-same-object", "vi-slice-assign-same-storage"),
    ),
    Claim(
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
    ),
    Claim(
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
    ),
    Claim(
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
    ),
    Claim(
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
    ),
    Claim(
        id="inplace/cuda-large-blocks-rounded-to-2mib",
        statement="With the default settings, the CUDA caching allocator reserves large "
        "tensors in segments rounded up to 2 MiB, and memory_allocated() counts the whole "
        "segment when at most 1 MiB of it is left over.",
        expect=Expect.HOLDS,
        probe=probe_cuda_large_rounding,
        control=Control(
            "100 × 100 and 300 × 300 tensors, from the small pool",
            control_cuda_small_pool,
        ),
        devices=("cuda",),
        measures=(
            "vi-cuda-large-nbytes",
            "vi-cuda-large-requested",
            "vi-cuda-large-allocated",
            "vi-cuda-large-reserved",
            "vi-cuda-mid-nbytes",
            "vi-cuda-mid-allocated",
            "vi-cuda-mid-reserved",
            "vi-cuda-alloc-conf",
        ),
        vocabulary=Vocabulary(
            subjects=("memory_allocated", "max_memory_allocated"),
            predicates={"en": ("MiB", "MB"), "ja": ("MiB", "MB"), "ko": ("MiB", "MB")},
        ),
    ),
    Claim(
        id="inplace/article-relu-shows-382-mib",
        statement="On CUDA with the default allocator settings, the out-of-place ReLU of a "
        "10000 x 10000 float32 tensor raises memory_allocated() by 382.0 MiB, although the "
        "output takes 381.47 MiB; the in-place ReLU raises it by 0.",
        expect=Expect.HOLDS,
        probe=probe_cuda_relu_382,
        control=Control(
            "a 1000 × 1000 tensor",
            control_cuda_relu_smaller_tensor,
        ),
        devices=("cuda",),
        measures=(
            "vi-cuda-relu-output-mib",
            "vi-cuda-relu-allocated-mib",
            "vi-cuda-relu-peak-mib",
            "vi-cuda-relu-inplace-mib",
            "vi-cuda-relu-alloc-conf",
        ),
    ),
    Claim(
        id="inplace/cuda-peak-is-a-high-water-mark",
        statement="torch.cuda.max_memory_allocated() is the highest value since the start or "
        "the last reset_peak_memory_stats(), so its growth over a call reads 0 when an earlier "
        "peak was higher.",
        expect=Expect.HOLDS,
        probe=probe_cuda_peak_high_water,
        control=Control(
            "no larger allocation before the measured one",
            control_cuda_no_earlier_peak,
        ),
        devices=("cuda",),
        measures=("vi-cuda-max-delta-without-reset", "vi-cuda-max-delta-with-reset"),
    ),
    # topics/views-and-inplace.md (vi-autograd)
    Claim(
        id="inplace/leaf-requiring-grad-refuses-in-place",
        statement="An in-place operation on a leaf tensor that requires grad raises, except "
        "inside torch.no_grad().",
        expect=Expect.HOLDS,
        probe=probe_leaf_inplace,
        control=Control(
            "a non-leaf result",
            control_non_leaf_add_inplace,
        ),
        measures=("vi-leaf-inplace-error", "vi-leaf-inplace-under-no-grad"),
        vocabulary=Vocabulary(
            subjects=("leaf", "リーフ", "葉テンソル", "葉ノード", "리프"),
            predicates={
                "en": ("raises", "refuses", "error"),
                "ja": ("エラー", "使えません", "できません"),
                "ko": ("오류", "에러", "쓸 수 없", "사용할 수 없"),
            },
            opposites={
                "en": ("can be modified in place", "in-place operations work"),
                "ja": ("インプレース演算を使えます", "インプレース演算が使えます"),
                "ko": ("인플레이스 연산을 쓸 수 있", "인플레이스 연산을 사용할 수 있"),
            },
        ),
    ),
    Claim(
        id="inplace/leaf-refused-only-while-recording",
        statement="A leaf that requires grad refuses in-place operations while autograd records "
        "even when nothing has saved it, and accepts them under torch.no_grad(); out= refuses "
        "inputs that require grad only in grad mode.",
        expect=Expect.HOLDS,
        probe=probe_leaf_refused_only_while_recording,
        measures=(
            "vi-leaf-unsaved-in-place-error",
            "vi-leaf-in-place-no-grad",
            "vi-leaf-out-grad-mode-error",
            "vi-leaf-out-no-grad",
        ),
        control=Control(
            "a non-leaf tensor, which autograd rebases",
            control_non_leaf_in_place,
            measures=("vi-non-leaf-unsaved-in-place-error",),
        ),
    ),
    Claim(
        id="inplace/modifying-saved-tensor-breaks-backward",
        statement="Modifying in place a tensor that autograd saved for backward raises its "
        "version counter, and backward then raises a RuntimeError.",
        expect=Expect.HOLDS,
        probe=probe_saved_tensor_modified,
        control=Control(
            "the output of sin, which nobody saved",
            control_unsaved_output_modified,
        ),
        measures=(
            "vi-saved-version-before",
            "vi-saved-version-after",
            "vi-saved-modified-error",
        ),
        vocabulary=Vocabulary(
            subjects=_IN_PLACE,
            predicates={
                "en": ("overwrite", "gradient computation", "saved for backward"),
                "ja": ("上書き", "勾配計算", "保存されたテンソル"),
                "ko": (
                    "덮어쓸",
                    "덮어쓰",
                    "기울기 계산",
                    "변화도 계산",
                    "사다리 계산",
                    "저장된 텐서",
                ),
            },
        ),
    ),
    Claim(
        id="inplace/in-place-rewrites-grad-fn",
        statement="An in-place operation on a tensor in the graph replaces its grad_fn with "
        "the operation's own node and bumps its version counter.",
        expect=Expect.HOLDS,
        probe=probe_inplace_rewrites_graph,
        control=Control(
            "the out-of-place forms",
            control_out_of_place_relu,
        ),
        measures=(
            "vi-grad-fn-before-relu-inplace",
            "vi-grad-fn-after-relu-inplace",
            "vi-version-after-relu-inplace",
            "vi-relu-inplace-grad-correct",
            "vi-grad-fn-clone-after-iadd",
        ),
        vocabulary=Vocabulary(
            subjects=_IN_PLACE,
            predicates={
                "en": ("rewrite", "creator"),
                "ja": ("書き換え",),
                "ko": ("다시 쓰", "창설자"),
            },
        ),
    ),
    Claim(
        id="inplace/out-refuses-autograd",
        statement="Functions called with out= do not support autograd: an input that requires "
        "grad makes them raise.",
        expect=Expect.HOLDS,
        probe=probe_out_refuses_autograd,
        control=Control(
            "inputs that do not require grad",
            control_out_without_grad,
        ),
        measures=("vi-out-requires-grad-error",),
    ),
    Claim(
        id="inplace/myth-no-error-means-correct-gradients",
        statement="If code with in-place operations runs backward without an error, its "
        "gradients are correct.",
        expect=Expect.FAILS,
        probe=probe_no_error_correct_myth,
        control=Control(
            "the same zeroing through detach()",
            control_zeroed_through_detach,
        ),
        measures=(
            "vi-data-zero-error",
            "vi-data-zero-version",
            "vi-data-zero-grad",
            "vi-sigmoid-correct-grad",
        ),
        vocabulary=Vocabulary(
            subjects=_IN_PLACE_OPERATIONS,
            predicates={
                "en": ("if you see no error", "if there is no error", "correct", "no error"),
                "ja": ("正しい", "正確", "エラーが出な"),
                "ko": ("정확", "오류를 보고하지 않"),
            },
        ),
    ),
    Claim(
        id="inplace/detach-in-place-is-caught",
        statement="An in-place change made through detach() bumps the shared version counter, "
        "so backward reports it.",
        expect=Expect.HOLDS,
        probe=probe_detach_inplace_caught,
        control=Control(
            "the same zeroing through .data",
            control_zeroed_through_data,
        ),
        measures=("vi-detach-zero-version", "vi-detach-zero-error"),
        vocabulary=Vocabulary(
            subjects=("detach",),
            predicates={
                "en": ("detect", "caught", "notice"),
                "ja": ("検出", "検知"),
                "ko": ("감지", "검출", "알아차"),
            },
        ),
    ),
    # topics/views-and-inplace.md (vi-clone-detach)
    Claim(
        id="views/detach-shares-storage-outside-graph",
        statement="detach() returns a tensor that shares the original's storage, has no "
        "grad_fn and does not require grad: no gradient flows through it, and it allocates "
        "nothing.",
        expect=Expect.HOLDS,
        probe=probe_detach,
        control=Control(
            "clone() in place of detach()",
            control_clone_in_place_of_detach,
        ),
        measures=(
            "vi-detach-storage-shared",
            "vi-detach-grad-fn",
            "vi-detach-requires-grad",
            "vi-detach-allocated",
            "vi-detach-branch-grad",
        ),
        vocabulary=Vocabulary(subjects=("detach",), predicates=_SHARE, opposites=_COPY),
    ),
    Claim(
        id="views/detach-sees-in-place-updates",
        statement="A detached tensor sees later in-place updates of the original, such as an "
        "optimizer step; a clone keeps the old values.",
        expect=Expect.HOLDS,
        probe=probe_detach_sees_updates,
        control=Control(
            "an update that replaces w.data",
            control_update_replacing_data,
        ),
        measures=("vi-parameter-after-step", "vi-detached-after-step", "vi-cloned-after-step"),
        vocabulary=Vocabulary(
            subjects=("detach",),
            predicates={
                "en": ("update", "change"),
                "ja": ("更新", "変わ"),
                "ko": ("업데이트", "변경"),
            },
        ),
    ),
    Claim(
        id="views/myth-detach-metadata-change-raises",
        statement="Changing the shape or storage of a detach() result in place (resize_, "
        "resize_as_, set_, transpose_) raises an error or a warning.",
        expect=Expect.FAILS,
        probe=probe_detach_metadata_myth,
        measures=(
            "vi-detach-resize-error",
            "vi-detach-resize-as-error",
            "vi-detach-set-error",
            "vi-detach-transpose-error",
            "vi-detach-shape-after-resize",
        ),
        vocabulary=Vocabulary(subjects=("resize_", "set_", "transpose_"), predicates=_ERROR),
        control=Control(
            "the same changes on the tensor itself",
            control_metadata_change_on_original,
            measures=("vi-original-transpose-error",),
        ),
    ),
    Claim(
        id="views/detach-metadata-change-breaks-saved-backward",
        statement="Changing the shape or storage of a detach() result in place bumps the "
        "version counter it shares with the original, so a backward that saved the "
        "original then raises.",
        expect=Expect.HOLDS,
        probe=probe_detach_change_breaks_saved_backward,
        measures=(
            "vi-saved-detach-version-bumps",
            "vi-saved-detach-backward-errors",
            "vi-saved-detach-backward-error",
        ),
        control=Control(
            "the same graph without the change",
            control_saved_original_unchanged,
            measures=("vi-saved-unchanged-backward-errors",),
        ),
    ),
    Claim(
        id="views/resize-refuses-tensors-that-require-grad",
        statement="resize_() raises on any tensor that requires grad, a clone included; "
        "other in-place metadata changes such as transpose_() are allowed.",
        expect=Expect.HOLDS,
        probe=probe_resize_requires_grad,
        control=Control(
            "tensors that do not require grad",
            control_resize_without_grad,
        ),
        measures=(
            "vi-resize-leaf-error",
            "vi-resize-clone-error",
            "vi-transpose-clone-error",
            "vi-resize-detached-error",
        ),
    ),
    Claim(
        id="views/clone-copies-and-stays-in-graph",
        statement="clone() allocates a copy that shares no storage with the original, and it "
        "stays in the autograd graph (grad_fn CloneBackward0, requires_grad kept).",
        expect=Expect.HOLDS,
        probe=probe_clone,
        control=Control(
            "view_as in place of clone",
            control_view_as_is_no_clone,
        ),
        measures=(
            "vi-clone-storage-shared",
            "vi-clone-grad-fn",
            "vi-clone-requires-grad",
            "vi-clone-allocated",
            "vi-clone-source-nbytes",
        ),
        vocabulary=Vocabulary(subjects=("clone",), predicates=_COPY, opposites=_SHARE),
    ),
    Claim(
        id="views/gradient-flows-through-clone",
        statement="Gradients flow through clone() to the original unchanged, and accumulate "
        "in the original's .grad.",
        expect=Expect.HOLDS,
        probe=probe_gradient_through_clone,
        control=Control(
            "clone().detach() in place of clone()",
            control_gradient_through_detached_clone,
        ),
        measures=("vi-clone-grad-first", "vi-clone-grad-accumulated"),
        vocabulary=Vocabulary(
            subjects=("clone",),
            predicates={
                "en": ("gradients flow", "gradient flows", "flow back", "flows back", "accumulate"),
                "ja": ("勾配が流れ", "勾配は流れ", "流れ戻", "へ流れ", "蓄積", "累積"),
                "ko": ("변화도가 흐", "변화도는 흐", "기울기가 흐", "흘러", "되돌아", "누적"),
            },
        ),
    ),
    Claim(
        id="views/clone-grad-is-none-with-warning",
        statement="A clone of a tensor that requires grad is not a leaf: its .grad stays None "
        "after backward, and reading it emits a UserWarning, unless retain_grad() was called.",
        expect=Expect.HOLDS,
        probe=probe_clone_grad_none,
        control=Control(
            "a copy made a leaf with detach().requires_grad_()",
            control_leaf_copy_gets_grad,
        ),
        measures=(
            "vi-clone-grad-after-backward",
            "vi-non-leaf-grad-warning",
            "vi-clone-retained-grad",
        ),
        vocabulary=Vocabulary(
            subjects=("clone",),
            predicates={"en": ("None",), "ja": ("None",), "ko": ("None",)},
        ),
    ),
    Claim(
        id="views/clone-of-constant-becomes-trainable-leaf",
        statement="The clone of a tensor that does not require grad is a leaf: after "
        "requires_grad_() it receives its own .grad, and nothing flows back to the source.",
        expect=Expect.HOLDS,
        probe=probe_constant_clone_leaf,
        control=Control(
            "the clone of a tensor that requires grad",
            control_clone_of_trainable_tensor,
        ),
        measures=(
            "vi-constant-clone-is-leaf",
            "vi-constant-source-grad",
            "vi-constant-clone-grad",
        ),
    ),
    Claim(
        id="views/clone-detach-is-a-plain-copy",
        statement="clone().detach() is a copy outside the graph: its own storage, a leaf that "
        "does not require grad.",
        expect=Expect.HOLDS,
        probe=probe_clone_detach,
        control=Control(
            "detach() without clone()",
            control_detach_without_clone,
        ),
        measures=(
            "vi-clone-detach-storage-shared",
            "vi-clone-detach-requires-grad",
            "vi-clone-detach-is-leaf",
            "vi-clone-detach-allocated",
        ),
    ),
    # reviews/copies-and-inplace-article.md (vi-review-claims)
    Claim(
        id="inplace/flattened-if-does-not-compile",
        statement="An if statement whose body lost its extra indentation does not compile: "
        "Python raises IndentationError.",
        expect=Expect.HOLDS,
        probe=probe_flattened_if,
        control=Control(
            "the if body indented deeper",
            control_indented_if,
        ),
        devices=("cpu",),
        measures=("vi-flattened-if-error",),
    ),
    Claim(
        id="inplace/indented-first-line-does-not-compile",
        statement="Code whose first line is indented does not compile: Python raises "
        "IndentationError.",
        expect=Expect.HOLDS,
        probe=probe_indented_first_line,
        control=Control(
            "the module starting at the margin",
            control_first_line_at_margin,
        ),
        devices=("cpu",),
        measures=("vi-indented-block-error",),
    ),
    Claim(
        id="inplace/cuda-statistics-need-a-gpu",
        statement="torch.cuda.synchronize() raises where no CUDA device is available, so code "
        "that measures memory with torch.cuda functions cannot run on a CPU-only machine.",
        expect=Expect.HOLDS,
        probe=probe_cuda_calls_without_gpu,
        control=Control(
            "torch.cuda.is_available(), which works without a GPU",
            control_cuda_is_available_without_gpu,
        ),
        devices=("cpu",),
        measures=("vi-cuda-sync-without-gpu-error", "vi-cuda-sync-without-gpu-where"),
    ),
    Claim(
        id="views/linear-input-grad-equals-weight",
        statement="For y = Linear(2, 1)(x) with a 1-D input, x.grad after y.backward() is the "
        "layer's weight row, so its values depend only on the initialization.",
        expect=Expect.HOLDS,
        probe=probe_linear_input_grad,
        control=Control(
            "the square of the output",
            control_squared_output,
        ),
        devices=("cpu",),
        measures=("vi-linear-input-grad-equals-weight", "vi-linear-input-grad-seed-0"),
    ),
)
