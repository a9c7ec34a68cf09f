"""Claims of "Which constructors copy and which share" (docs/topics/tensors-from-data.md,
``(td-which-copy)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.data._text import _COPY, _SHARE, _error
from checker.evidence import Measurement, Observation


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


def probe_asarray(device: str) -> Observation:
    return _asarray_rule(from_list=False)


def control_asarray_of_list(device: str) -> Observation:
    return _asarray_rule(from_list=True)


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


ASARRAY_COPY_ARGUMENT = Claim(
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
)


def probe_tensor_class(device: str) -> Observation:
    import torch

    return _tensor_class_rule(torch.Tensor, "torch.Tensor(a)")


def control_tensor_function(device: str) -> Observation:
    import torch

    return _tensor_class_rule(torch.tensor, "torch.tensor(a)")


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


TENSOR_CLASS_SHARES_FLOAT32_ARRAYS = Claim(
    id="data/tensor-class-shares-float32-arrays",
    statement="With the default dtype left at float32, torch.Tensor(a) shares the memory of a "
    "float32 NumPy array, and copies an array of any other dtype into a new float32 tensor.",
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
)


def probe_tensor_class_follows_default_dtype(device: str) -> Observation:
    import torch

    return _default_dtype_rule(torch.float64)


def control_tensor_class_default_float32(device: str) -> Observation:
    import torch

    return _default_dtype_rule(torch.float32)


def _default_dtype_rule(default: Any) -> Observation:
    """torch.Tensor(a) of a float64 and of a float32 array, with ``default`` as the default
    dtype: which one it shares, and the dtype it gives."""
    import numpy as np
    import torch

    before = torch.get_default_dtype()
    torch.set_default_dtype(default)
    try:
        shares = {}
        for dt in ("float64", "float32"):
            a = np.ones(4, dtype=dt)
            shares[dt] = _reaches(a, torch.Tensor(a))
        dtype = str(torch.Tensor(np.ones(4, dtype=np.float32)).dtype).removeprefix("torch.")
    finally:
        torch.set_default_dtype(before)
    name = str(default).removeprefix("torch.")
    return Observation(
        holds=shares["float64"] and not shares["float32"] and dtype == "float64",
        rule=f"holds if, with the default dtype set to {name}, torch.Tensor(a) of a float64 "
        "NumPy array sees later writes to the array, and of a float32 array does not and "
        "gives float64",
        measurements=(
            Measurement(
                f"data-tensor-class-default-{name}-float64-shares", shares["float64"], "bool"
            ),
            Measurement(
                f"data-tensor-class-default-{name}-float32-shares", shares["float32"], "bool"
            ),
            Measurement(f"data-tensor-class-default-{name}-dtype", dtype, "dtype"),
        ),
    )


TENSOR_CLASS_FOLLOWS_DEFAULT_DTYPE = Claim(
    id="data/tensor-class-follows-default-dtype",
    statement="torch.Tensor(a) follows the default dtype: after "
    "torch.set_default_dtype(torch.float64), it shares a float64 NumPy array and copies a "
    "float32 one into a new float64 tensor.",
    expect=Expect.HOLDS,
    probe=probe_tensor_class_follows_default_dtype,
    control=Control(
        "the default dtype left at float32",
        control_tensor_class_default_float32,
        measures=(
            "data-tensor-class-default-float32-float64-shares",
            "data-tensor-class-default-float32-float32-shares",
            "data-tensor-class-default-float32-dtype",
        ),
    ),
    devices=("cpu",),
    measures=(
        "data-tensor-class-default-float64-float64-shares",
        "data-tensor-class-default-float64-float32-shares",
        "data-tensor-class-default-float64-dtype",
    ),
    vocabulary=Vocabulary(
        subjects=("torch.Tensor(", "`torch.Tensor`"),
        predicates={
            "en": ("default dtype", "set_default_dtype"),
            "ja": ("デフォルトの dtype", "デフォルトのdtype", "set_default_dtype"),
            "ko": ("기본 dtype", "set_default_dtype"),
        },
    ),
)


def probe_tensor_class_always_copies_myth(device: str) -> Observation:
    return _always_copies_rule("float32")


def control_tensor_class_of_int64(device: str) -> Observation:
    return _always_copies_rule("int64")


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


MYTH_TENSOR_CLASS_ALWAYS_COPIES = Claim(
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
)


def probe_numpy_force(device: str) -> Observation:
    return _force_rule(conjugated=False)


def control_numpy_force_conjugated(device: str) -> Observation:
    return _force_rule(conjugated=True)


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


NUMPY_FORCE_SHARES_ON_CPU = Claim(
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
)


CLAIMS = (
    ASARRAY_COPY_ARGUMENT,
    TENSOR_CLASS_SHARES_FLOAT32_ARRAYS,
    MYTH_TENSOR_CLASS_ALWAYS_COPIES,
    TENSOR_CLASS_FOLLOWS_DEFAULT_DTYPE,
    NUMPY_FORCE_SHARES_ON_CPU,
)
