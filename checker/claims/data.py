"""Claims of the page "Tensors made from data" (docs/topics/tensors-from-data.md).

Claim ids are ``data/...``; every measurement key starts with ``data-``. The page builds on
the NumPy claims of :mod:`checker.claims.views` (``torch.tensor`` copies, ``from_numpy`` and
``numpy()`` share, ``as_tensor`` shares when dtype and device match, the limits of the
storage-pointer test) and the ``.data``/``detach()`` claims there, and adds what those do not
cover: the legacy ``torch.Tensor`` constructor, ``torch.asarray``, ``numpy(force=True)``,
negative strides, resizing, ``copy.deepcopy`` and the cost of each constructor.

Sharing between NumPy and PyTorch is decided by writing through one side and reading the
other; sharing between tensors by comparing storages.
"""

from __future__ import annotations

import copy
import functools
import timeit
from collections.abc import Callable
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.measure import shares_storage
from checker.typing import Lang

#: Elements of the float32 array whose conversion is timed: 16 MiB.
LARGE = 4 * 1024 * 1024
#: Elements of the array of the cost claim's control: a copy of it costs next to nothing.
TINY = 16
#: A constructor that copies must take at least this many times as long as torch.from_numpy.
COST_FACTOR = 100


# -- shared pieces ---------------------------------------------------------------------------


def _error(call: Callable[[], Any]) -> str:
    """``"Type: message"`` of what ``call()`` raises (first line), or ``"no error"``."""
    try:
        call()
    except Exception as exc:
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}"
    return "no error"


def _reaches(source: Any, t: Any) -> bool:
    """Whether a write to ``source`` (a NumPy array or a list) shows up in the tensor ``t``."""
    import numpy as np

    old = float(t.reshape(-1)[0])
    if isinstance(source, np.ndarray):
        source.reshape(-1)[0] += 100
    else:
        source[0] += 100
    reached = float(t.reshape(-1)[0]) != old
    if isinstance(source, np.ndarray):
        source.reshape(-1)[0] -= 100
    else:
        source[0] -= 100
    return reached


# -- the legacy constructor torch.Tensor ------------------------------------------------------


def _tensor_class_rule(convert: Any, name: str) -> Observation:
    import numpy as np
    import torch

    shares = {}
    for dt in ("float32", "int64", "float64"):
        a = np.ones(4, dtype=dt)
        shares[dt] = _reaches(a, convert(a))
    dtype = str(convert(np.ones(4, dtype=np.int64)).dtype)
    return Observation(
        holds=shares["float32"]
        and not shares["int64"]
        and not shares["float64"]
        and dtype == str(torch.float32),
        rule=f"holds if {name} of a float32 NumPy array sees later writes to the array, and "
        "of an int64 or float64 array does not and gives float32",
        measurements=(
            Measurement(f"data-{_slug(name)}-float32-shares", shares["float32"], "bool"),
            Measurement(f"data-{_slug(name)}-int64-shares", shares["int64"], "bool"),
            Measurement(f"data-{_slug(name)}-float64-shares", shares["float64"], "bool"),
            Measurement(f"data-{_slug(name)}-int64-dtype", dtype, "dtype"),
        ),
    )


def _slug(name: str) -> str:
    return {"torch.Tensor(a)": "tensor-class", "torch.tensor(a)": "tensor-function"}[name]


def probe_tensor_class(device: str) -> Observation:
    import torch

    return _tensor_class_rule(torch.Tensor, "torch.Tensor(a)")


def control_tensor_function(device: str) -> Observation:
    import torch

    return _tensor_class_rule(torch.tensor, "torch.tensor(a)")


def _always_copies_rule(dtype: str) -> Observation:
    import numpy as np
    import torch

    a = np.ones(4, dtype=dtype)
    copied = not _reaches(a, torch.Tensor(a))
    return Observation(
        holds=copied,
        rule=f"holds if torch.Tensor(a) of a {dtype} NumPy array does not see later writes to "
        "the array",
        measurements=(Measurement(f"data-tensor-class-{dtype}-copies", copied, "bool"),),
    )


def probe_tensor_class_always_copies_myth(device: str) -> Observation:
    return _always_copies_rule("float32")


def control_tensor_class_of_int64(device: str) -> Observation:
    return _always_copies_rule("int64")


# -- torch.asarray ---------------------------------------------------------------------------


def _asarray_rule(from_list: bool) -> Observation:
    import numpy as np
    import torch

    def source() -> Any:
        return [1.0, 2.0, 3.0] if from_list else np.ones(3, dtype=np.float32)

    s = source()
    default = _reaches(s, torch.asarray(s))
    s = source()
    with_copy = _reaches(s, torch.asarray(s, copy=True))
    refused = _error(lambda: torch.asarray(source(), dtype=torch.float64, copy=False))
    return Observation(
        holds=default and not with_copy and refused.startswith("ValueError"),
        rule="holds if torch.asarray("
        + ("a list" if from_list else "a float32 array")
        + ") sees later writes to it, the same with copy=True does not, and copy=False with "
        "dtype=torch.float64 raises ValueError",
        measurements=(
            Measurement(
                f"data-asarray-{'list' if from_list else 'array'}-default-shares", default, "bool"
            ),
            Measurement(
                f"data-asarray-{'list' if from_list else 'array'}-copy-shares", with_copy, "bool"
            ),
            Measurement(
                f"data-asarray-{'list' if from_list else 'array'}-no-copy-error",
                refused,
                "exception",
            ),
        ),
    )


def probe_asarray(device: str) -> Observation:
    return _asarray_rule(from_list=False)


def control_asarray_of_list(device: str) -> Observation:
    return _asarray_rule(from_list=True)


# -- Tensor.numpy(force=True) ---------------------------------------------------------------------


def _force_rule(conjugated: bool) -> Observation:
    import torch

    if conjugated:
        t = torch.ones(3, dtype=torch.complex64).conj()
    else:
        t = torch.ones(3, requires_grad=True)
    n = t.numpy(force=True)
    n[0] = 5
    shares = float(t.detach()[0].real) == 5.0
    return Observation(
        holds=shares,
        rule="holds if a write to t.numpy(force=True) changes t, for "
        + ("a conjugated complex CPU tensor" if conjugated else "a CPU tensor that requires grad"),
        measurements=(
            Measurement(f"data-force-{'conj' if conjugated else 'grad'}-shares", shares, "bool"),
        ),
    )


def probe_numpy_force(device: str) -> Observation:
    return _force_rule(conjugated=False)


def control_numpy_force_conjugated(device: str) -> Observation:
    return _force_rule(conjugated=True)


# -- .data ------------------------------------------------------------------------------------


def _dot_data_rule(device: str, detach: bool) -> Observation:
    import torch

    x = torch.ones(3, device=device, requires_grad=True)
    other = x.detach() if detach else x.data
    shares = other.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    outside = not other.requires_grad and other.grad_fn is None
    version = x._version
    other.add_(1.0)
    reaches = bool(x.detach()[0].item() == 2.0)
    bumped = x._version != version
    name = "detach" if detach else "dot-data"
    through = "x.detach()" if detach else "x.data"
    return Observation(
        holds=shares and outside and reaches and not bumped,
        rule=f"holds if {through} shares x's storage, is outside the graph, and an in-place "
        "add through it changes x's values without bumping x's version counter",
        measurements=(
            Measurement(f"data-{name}-shares", shares, "bool"),
            Measurement(f"data-{name}-outside-graph", outside, "bool"),
            Measurement(f"data-{name}-write-reaches", reaches, "bool"),
            Measurement(f"data-{name}-version-bumped", bumped, "bool"),
        ),
    )


def probe_dot_data(device: str) -> Observation:
    return _dot_data_rule(device, detach=False)


def control_dot_data_detach(device: str) -> Observation:
    return _dot_data_rule(device, detach=True)


# -- negative strides and resizing -------------------------------------------------------------


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


def probe_negative_strides(device: str) -> Observation:
    return _strides_rule(reversed_=True)


def control_positive_strides(device: str) -> Observation:
    return _strides_rule(reversed_=False)


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


def probe_from_numpy_not_resizable(device: str) -> Observation:
    return _resize_rule(from_numpy=True)


def control_tensor_resizable(device: str) -> Observation:
    return _resize_rule(from_numpy=False)


# -- copy.deepcopy -----------------------------------------------------------------------------


def _deepcopy_leaf_rule(device: str, detach: bool) -> Observation:
    import torch

    w: Any = torch.ones(3, device=device, requires_grad=True)
    w.mul(2).sum().backward()
    c = w.detach() if detach else copy.deepcopy(w)
    own = not shares_storage(c, w)
    grad = c.grad is not None and w.grad is not None and c.grad is not w.grad
    grad = grad and torch.equal(c.grad, w.grad)
    kind = "detach" if detach else "deepcopy"
    return Observation(
        holds=own and c.is_leaf and c.requires_grad and grad,
        rule="holds if "
        + ("w.detach()" if detach else "copy.deepcopy(w)")
        + " of a leaf w that requires grad and has a .grad is a leaf that requires grad, "
        "has a storage of its own and a copy of w.grad",
        measurements=(
            Measurement(f"data-{kind}-own-storage", own, "bool"),
            Measurement(f"data-{kind}-requires-grad", bool(c.requires_grad), "bool"),
            Measurement(f"data-{kind}-grad-copied", grad, "bool"),
        ),
    )


def probe_deepcopy_leaf(device: str) -> Observation:
    return _deepcopy_leaf_rule(device, detach=False)


def control_detach_leaf(device: str) -> Observation:
    return _deepcopy_leaf_rule(device, detach=True)


def _deepcopy_non_leaf_rule(device: str, detached: bool) -> Observation:
    import torch

    w = torch.ones(3, device=device, requires_grad=True)
    y = (w * 2).detach() if detached else w * 2
    error = _error(lambda: copy.deepcopy(y))
    kind = "leaf" if detached else "non-leaf"
    return Observation(
        holds=error.startswith("RuntimeError"),
        rule="holds if copy.deepcopy(y) raises RuntimeError, for y = "
        + ("(w * 2).detach(), a leaf" if detached else "w * 2, a tensor in the graph"),
        measurements=(Measurement(f"data-deepcopy-{kind}-error", error, "exception"),),
    )


def probe_deepcopy_non_leaf(device: str) -> Observation:
    return _deepcopy_non_leaf_rule(device, detached=False)


def control_deepcopy_detached(device: str) -> Observation:
    return _deepcopy_non_leaf_rule(device, detached=True)


def _keeps_graph_rule(device: str, clone: bool) -> Observation:
    import torch

    w = torch.ones(3, device=device, requires_grad=True)
    y = w * 2
    try:
        c = y.clone() if clone else copy.deepcopy(y)
        grad_fn = type(c.grad_fn).__name__ if c.grad_fn is not None else "None"
    except RuntimeError:
        grad_fn = "error"
    kind = "clone" if clone else "deepcopy"
    return Observation(
        holds=grad_fn not in ("None", "error"),
        rule="holds if "
        + ("y.clone()" if clone else "copy.deepcopy(y)")
        + " of y = w * 2 returns a tensor with a grad_fn",
        measurements=(Measurement(f"data-{kind}-non-leaf-grad-fn", grad_fn, "text"),),
    )


def probe_deepcopy_keeps_graph_myth(device: str) -> Observation:
    return _keeps_graph_rule(device, clone=False)


def control_clone_keeps_graph(device: str) -> Observation:
    return _keeps_graph_rule(device, clone=True)


def _deepcopy_sharing_rule(device: str, together: bool) -> Observation:
    import torch

    base = torch.arange(6.0, device=device)
    view = base[2:]
    if together:
        base_copy, view_copy = copy.deepcopy([base, view])
    else:
        base_copy, view_copy = copy.deepcopy(base), copy.deepcopy(view)
    shared = shares_storage(base_copy, view_copy)
    fresh = not shares_storage(base_copy, base)
    base_copy[3] = -1.0
    reaches = float(view_copy[1]) == -1.0
    kind = "together" if together else "apart"
    return Observation(
        holds=shared and fresh and reaches,
        rule="holds if the copies of a tensor and its view made by "
        + ("one copy.deepcopy of a list holding both" if together else "two copy.deepcopy calls")
        + " share one new storage, and a write to one copy shows in the other",
        measurements=(
            Measurement(f"data-deepcopy-{kind}-share", shared, "bool"),
            Measurement(f"data-deepcopy-{kind}-write-reaches", reaches, "bool"),
        ),
    )


def probe_deepcopy_keeps_sharing(device: str) -> Observation:
    return _deepcopy_sharing_rule(device, together=True)


def control_deepcopy_separately(device: str) -> Observation:
    return _deepcopy_sharing_rule(device, together=False)


def _view_copy_rule(device: str, clone: bool) -> Observation:
    import torch

    base = torch.zeros(1024 * 1024, device=device)
    view = base[:10]
    c = view.clone() if clone else copy.deepcopy(view)
    copied = c.untyped_storage().nbytes()
    kind = "clone" if clone else "deepcopy"
    return Observation(
        holds=copied == base.untyped_storage().nbytes(),
        rule="holds if "
        + ("view.clone()" if clone else "copy.deepcopy(view)")
        + " of a 10-element view of a 1024 × 1024-element tensor has a storage as large as "
        "the whole tensor's",
        measurements=(
            Measurement(f"data-{kind}-view-storage-bytes", copied, "bytes"),
            *(
                ()
                if clone
                else (
                    Measurement("data-view-bytes", view.nbytes, "bytes"),
                    Measurement("data-view-base-bytes", base.untyped_storage().nbytes(), "bytes"),
                )
            ),
        ),
    )


def probe_deepcopy_view(device: str) -> Observation:
    return _view_copy_rule(device, clone=False)


def control_clone_view(device: str) -> Observation:
    return _view_copy_rule(device, clone=True)


# -- testing for sharing ---------------------------------------------------------------------


def _np_test_rule(with_numpy: bool) -> Observation:
    import numpy as np
    import torch

    def test(a: Any, b: Any) -> bool:
        if with_numpy:
            return bool(np.shares_memory(a.numpy(), b.numpy()))
        return shares_storage(a, b)

    array = np.zeros(9, dtype=np.float32)
    overlap = test(torch.from_numpy(array[0:6]), torch.from_numpy(array[3:9]))
    empty = test(torch.empty(0), torch.empty(0))
    kind = "np" if with_numpy else "pointer"
    return Observation(
        holds=overlap and not empty,
        rule="holds if "
        + ("np.shares_memory(a.numpy(), b.numpy())" if with_numpy else "comparing storage pointers")
        + " reports sharing for tensors over overlapping slices of one array and no sharing "
        "for two empty tensors",
        measurements=(
            Measurement(f"data-{kind}-test-overlap", overlap, "bool"),
            Measurement(f"data-{kind}-test-empty", empty, "bool"),
        ),
    )


def probe_np_shares_memory(device: str) -> Observation:
    return _np_test_rule(with_numpy=True)


def control_pointer_test(device: str) -> Observation:
    return _np_test_rule(with_numpy=False)


# -- what each constructor costs -------------------------------------------------------------

#: Constructors that copy a float32 array, with the measurement key of their ratio.
_COPYING: dict[str, Callable[[Any, Any, Any], Any]] = {
    "tensor": lambda torch, a, i: torch.tensor(a),
    "asarray-copy": lambda torch, a, i: torch.asarray(a, copy=True),
    "tensor-class-int64": lambda torch, a, i: torch.Tensor(i),
}
#: Constructors that share a float32 array.
_SHARING: dict[str, Callable[[Any, Any, Any], Any]] = {
    "as-tensor": lambda torch, a, i: torch.as_tensor(a),
    "asarray": lambda torch, a, i: torch.asarray(a),
    "tensor-class": lambda torch, a, i: torch.Tensor(a),
}


def _seconds(call: Callable[[], Any], copies_large: bool) -> float:
    """The best time of one call, over 5 repeats of 1000 calls (3 for a copy of the large
    array)."""
    number = 3 if copies_large else 1000
    return min(timeit.Timer(call).repeat(repeat=5, number=number)) / number


def _cost_rule(large: bool) -> Observation:
    import numpy as np
    import torch

    n = LARGE if large else TINY
    a, i = np.ones(n, dtype=np.float32), np.ones(n, dtype=np.int64)
    base = _seconds(lambda: torch.from_numpy(a), copies_large=False)
    ratios = {
        key: _seconds(functools.partial(f, torch, a, i), copies_large=large and key in _COPYING)
        / base
        for key, f in {**_COPYING, **_SHARING}.items()
    }
    slow = all(ratios[k] >= COST_FACTOR for k in _COPYING)
    fast = all(ratios[k] < COST_FACTOR for k in _SHARING)
    size = "large" if large else "tiny"
    return Observation(
        holds=slow and fast,
        rule=f"holds if, for a float32 array of {a.nbytes} bytes, torch.tensor, "
        f"torch.asarray(copy=True) and torch.Tensor of an int64 array each take at least "
        f"{COST_FACTOR} times as long as torch.from_numpy, and torch.as_tensor, torch.asarray and "
        f"torch.Tensor of the float32 array less (best of 5 repeats)",
        measurements=(
            Measurement(f"data-cost-{size}-bytes", int(a.nbytes), "bytes"),
            Measurement(f"data-cost-{size}-from-numpy", base, "seconds"),
            *(
                Measurement(f"data-cost-{size}-{k}", round(r, 1), "ratio")
                for k, r in ratios.items()
            ),
        ),
    )


def probe_constructor_cost(device: str) -> Observation:
    return _cost_rule(large=True)


def control_constructor_cost_tiny(device: str) -> Observation:
    return _cost_rule(large=False)


# -- vocabularies ----------------------------------------------------------------------------

_SHARE: dict[Lang, tuple[str, ...]] = {
    "en": ("share", "same memory", "no copy", "without copying"),
    "ja": ("共有", "コピーしない", "コピーせず"),
    "ko": ("공유", "복사하지 않", "복사 없이"),
}
_COPY: dict[Lang, tuple[str, ...]] = {
    "en": ("copy", "copies", "new memory"),
    "ja": ("コピー", "複製"),
    "ko": ("복사",),
}
_RAISE: dict[Lang, tuple[str, ...]] = {
    "en": ("raise", "error", "fail", "refuse"),
    "ja": ("エラー", "例外", "失敗"),
    "ko": ("에러", "오류", "예외", "실패"),
}
_DEEPCOPY = ("deepcopy",)
_NON_LEAF: dict[Lang, tuple[str, ...]] = {
    "en": ("non-leaf", "not a leaf", "in the graph", "intermediate"),
    "ja": ("非リーフ", "リーフでない", "リーフではない", "中間"),
    "ko": ("비리프", "리프가 아닌", "중간"),
}


CLAIMS = (
    # topics/tensors-from-data.md (td-which-copy)
    Claim(
        id="data/asarray-copy-argument",
        statement="torch.asarray() shares a NumPy array's memory by default, copies it with "
        "copy=True, and raises an error with copy=False when it cannot share.",
        expect=Expect.HOLDS,
        probe=probe_asarray,
        control=Control(
            "a Python list, which no tensor can share",
            control_asarray_of_list,
            measures=(
                "data-asarray-list-default-shares",
                "data-asarray-list-copy-shares",
                "data-asarray-list-no-copy-error",
            ),
        ),
        devices=("cpu",),
        measures=(
            "data-asarray-array-default-shares",
            "data-asarray-array-copy-shares",
            "data-asarray-array-no-copy-error",
        ),
        vocabulary=Vocabulary(
            subjects=("asarray",),
            predicates=_SHARE,
            opposites=_COPY,
            unless={
                "en": ("copy=True", "list"),
                "ja": ("copy=True", "リスト"),
                "ko": ("copy=True", "리스트"),
            },
        ),
    ),
    Claim(
        id="data/tensor-class-shares-float32-arrays",
        statement="torch.Tensor(a) shares the memory of a float32 NumPy array, and copies an "
        "array of any other dtype into a new float32 tensor.",
        expect=Expect.HOLDS,
        probe=probe_tensor_class,
        control=Control(
            "torch.tensor in place of torch.Tensor",
            control_tensor_function,
            measures=(
                "data-tensor-function-float32-shares",
                "data-tensor-function-int64-shares",
                "data-tensor-function-float64-shares",
                "data-tensor-function-int64-dtype",
            ),
        ),
        devices=("cpu",),
        measures=(
            "data-tensor-class-float32-shares",
            "data-tensor-class-int64-shares",
            "data-tensor-class-float64-shares",
            "data-tensor-class-int64-dtype",
        ),
        vocabulary=Vocabulary(
            # the constructor, called or named as code ("`torch.Tensor` (a float32 array)")
            subjects=("torch.Tensor(", "`torch.Tensor`"),
            predicates={"en": ("float32",), "ja": ("float32",), "ko": ("float32",)},
            unless={
                "en": ("int64", "float64"),
                "ja": ("int64", "float64"),
                "ko": ("int64", "float64"),
            },
        ),
    ),
    Claim(
        id="data/myth-tensor-class-always-copies",
        statement="torch.Tensor(a) always copies a NumPy array, like torch.tensor(a).",
        expect=Expect.FAILS,
        probe=probe_tensor_class_always_copies_myth,
        control=Control(
            "an int64 array",
            control_tensor_class_of_int64,
            measures=("data-tensor-class-int64-copies",),
        ),
        devices=("cpu",),
        measures=("data-tensor-class-float32-copies",),
        vocabulary=Vocabulary(
            subjects=("torch.Tensor(", "torch.Tensor()"),
            predicates=_COPY,
            opposites=_SHARE,
            # a conditional copy ("copies when the dtype differs") is the true statement
            unless={
                "en": ("int64", "float64", "dtype", " if ", " when ", "unless"),
                "ja": ("int64", "float64", "dtype", "場合", "れば", "たら"),
                "ko": ("int64", "float64", "dtype", "경우", "다르면", "바뀌면"),
            },
        ),
    ),
    Claim(
        id="data/numpy-force-shares-on-cpu",
        statement="Tensor.numpy(force=True) of a CPU tensor that requires grad still shares "
        "the tensor's memory.",
        expect=Expect.HOLDS,
        probe=probe_numpy_force,
        control=Control(
            "a conjugated complex tensor",
            control_numpy_force_conjugated,
            measures=("data-force-conj-shares",),
        ),
        devices=("cpu",),
        measures=("data-force-grad-shares",),
        vocabulary=Vocabulary(
            subjects=("force=True", "`force`"),
            predicates=_SHARE,
            opposites=_COPY,
            unless={
                "en": ("cuda", "GPU", "conj"),
                "ja": ("cuda", "GPU", "共役"),
                "ko": ("cuda", "GPU", "켤레"),
            },
        ),
    ),
    # topics/tensors-from-data.md (td-strides)
    Claim(
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
    ),
    Claim(
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
    ),
    # topics/tensors-from-data.md (td-data-detach)
    Claim(
        id="data/dot-data-shares-without-version",
        statement=".data returns a tensor over the original's memory, outside the autograd "
        "graph, as detach() does; but an in-place change through .data does not bump the "
        "version counter, so autograd cannot notice it.",
        expect=Expect.HOLDS,
        probe=probe_dot_data,
        control=Control(
            "x.detach() in place of x.data, whose change bumps the version counter",
            control_dot_data_detach,
            measures=(
                "data-detach-shares",
                "data-detach-outside-graph",
                "data-detach-write-reaches",
                "data-detach-version-bumped",
            ),
        ),
        measures=(
            "data-dot-data-shares",
            "data-dot-data-outside-graph",
            "data-dot-data-write-reaches",
            "data-dot-data-version-bumped",
        ),
        vocabulary=Vocabulary(subjects=(".data",), predicates=_SHARE, opposites=_COPY),
    ),
    # topics/tensors-from-data.md (td-deepcopy)
    Claim(
        id="data/deepcopy-leaf-copies-memory-and-grad",
        statement="copy.deepcopy() of a leaf tensor that requires grad returns a leaf that "
        "requires grad, with memory of its own and a copy of the original's .grad.",
        expect=Expect.HOLDS,
        probe=probe_deepcopy_leaf,
        control=Control(
            "detach() in place of copy.deepcopy",
            control_detach_leaf,
            measures=(
                "data-detach-own-storage",
                "data-detach-requires-grad",
                "data-detach-grad-copied",
            ),
        ),
        measures=(
            "data-deepcopy-own-storage",
            "data-deepcopy-requires-grad",
            "data-deepcopy-grad-copied",
        ),
        vocabulary=Vocabulary(
            subjects=_DEEPCOPY,
            predicates={"en": (".grad",), "ja": (".grad",), "ko": (".grad",)},
            unless=_NON_LEAF,
        ),
    ),
    Claim(
        id="data/deepcopy-non-leaf-raises",
        statement="copy.deepcopy() of a tensor that is not a leaf of the autograd graph raises "
        "a RuntimeError.",
        expect=Expect.HOLDS,
        probe=probe_deepcopy_non_leaf,
        control=Control(
            "the same tensor detached, which is a leaf",
            control_deepcopy_detached,
            measures=("data-deepcopy-leaf-error",),
        ),
        measures=("data-deepcopy-non-leaf-error",),
        vocabulary=Vocabulary(
            subjects=_DEEPCOPY,
            predicates=_RAISE,
            denies=False,
            # "deepcopy copies intermediate tensors too, no problem": it works on non-leaves
            opposites={
                "en": ("intermediate tensors too", "non-leaf tensors too", "non-leaf tensors as"),
                "ja": ("中間テンソルも問題なく", "中間テンソルもそのまま", "非リーフテンソルも"),
                "ko": ("중간 텐서도 문제없이", "중간 텐서도 그대로", "비리프 텐서도"),
            },
        ),
    ),
    Claim(
        id="data/myth-deepcopy-keeps-graph",
        statement="copy.deepcopy() of a tensor in the autograd graph returns a copy that keeps "
        "its grad_fn.",
        expect=Expect.FAILS,
        probe=probe_deepcopy_keeps_graph_myth,
        control=Control(
            "clone() in place of copy.deepcopy",
            control_clone_keeps_graph,
            measures=("data-clone-non-leaf-grad-fn",),
        ),
        measures=("data-deepcopy-non-leaf-grad-fn",),
        vocabulary=Vocabulary(
            subjects=_DEEPCOPY,
            predicates={
                "en": (
                    "grad_fn",
                    "copy that keeps",
                    "keeps the graph",
                    "keeps the history",
                    "computation graph",
                ),
                "ja": ("grad_fn", "計算グラフ"),
                "ko": ("grad_fn", "계산 그래프"),
            },
        ),
    ),
    Claim(
        id="data/deepcopy-keeps-shared-storage",
        statement="Tensors that share a storage and are deep-copied in one copy.deepcopy() "
        "call give copies that share one new storage.",
        expect=Expect.HOLDS,
        probe=probe_deepcopy_keeps_sharing,
        control=Control(
            "one copy.deepcopy call per tensor",
            control_deepcopy_separately,
            measures=("data-deepcopy-apart-share", "data-deepcopy-apart-write-reaches"),
        ),
        measures=("data-deepcopy-together-share", "data-deepcopy-together-write-reaches"),
        vocabulary=Vocabulary(
            subjects=_DEEPCOPY,
            # sharing among the copies, not with the originals
            predicates={
                "en": ("still share", "share one storage", "keeps the sharing", "each other"),
                "ja": ("共有したまま", "互いに", "共有関係"),
                "ko": ("공유한 채", "서로 ", "공유 관계"),  # "서로 ", not "텐서로부터"
            },
            unless={"en": (".grad",), "ja": (".grad",), "ko": (".grad",)},
        ),
    ),
    Claim(
        id="data/deepcopy-of-view-copies-whole-storage",
        statement="copy.deepcopy() of a view copies the whole storage of the tensor it views, "
        "not only the view's elements.",
        expect=Expect.HOLDS,
        probe=probe_deepcopy_view,
        control=Control(
            "clone() in place of copy.deepcopy",
            control_clone_view,
            measures=("data-clone-view-storage-bytes",),
        ),
        measures=("data-deepcopy-view-storage-bytes", "data-view-bytes", "data-view-base-bytes"),
        vocabulary=Vocabulary(
            subjects=_DEEPCOPY,
            predicates={
                "en": ("whole storage", "entire storage"),
                "ja": ("ストレージ全体",),
                "ko": ("스토리지 전체",),
            },
            denies=False,
        ),
    ),
    # topics/tensors-from-data.md (td-sharing)
    Claim(
        id="data/np-shares-memory-gets-both-cases",
        statement="np.shares_memory() on the arrays of two CPU tensors reports tensors over "
        "overlapping slices of one array as sharing, and two empty tensors as not sharing.",
        expect=Expect.HOLDS,
        probe=probe_np_shares_memory,
        control=Control(
            "comparing storage pointers in place of np.shares_memory",
            control_pointer_test,
            measures=("data-pointer-test-overlap", "data-pointer-test-empty"),
        ),
        devices=("cpu",),
        measures=("data-np-test-overlap", "data-np-test-empty"),
        vocabulary=Vocabulary(
            subjects=("shares_memory",),
            predicates={
                "en": ("overlap", "empty", "reliabl"),
                "ja": ("重な", "空の", "確実", "信頼"),
                "ko": ("겹치", "빈 텐서", "확실", "신뢰"),
            },
            denies=False,
        ),
    ),
    # topics/tensors-from-data.md (td-cost)
    Claim(
        id="data/copying-constructors-cost-grows-with-size",
        statement="For a 16 MiB array, the constructors that copy (torch.tensor, "
        "torch.asarray with copy=True, torch.Tensor of an int64 array) take at least 100 "
        "times as long as torch.from_numpy; those that share do not.",
        expect=Expect.HOLDS,
        probe=probe_constructor_cost,
        control=Control(
            "the same constructors on a 16-element array",
            control_constructor_cost_tiny,
            measures=(
                "data-cost-tiny-bytes",
                "data-cost-tiny-from-numpy",
                *(f"data-cost-tiny-{k}" for k in (*_COPYING, *_SHARING)),
            ),
        ),
        devices=("cpu",),
        timeout_s=120.0,
        measures=(
            "data-cost-large-bytes",
            "data-cost-large-from-numpy",
            *(f"data-cost-large-{k}" for k in (*_COPYING, *_SHARING)),
        ),
        vocabulary=Vocabulary(
            subjects=("from_numpy",),
            predicates={
                "en": ("faster", "cheaper"),
                "ja": ("速い", "高速"),
                "ko": ("빠르", "빠른"),
            },
            denies=False,
        ),
    ),
)
