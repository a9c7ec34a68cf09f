"""Claims of "Dtypes kept, and copies on request" (docs/topics/tensors-from-data.md,
``(td-dtypes-copies)=``): the dtype ``torch.from_numpy`` and ``torch.as_tensor`` give an
integer array, ``clone()`` of a shared tensor, and ``.to()`` with what a tensor already
has."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.data._text import _COPY, _RAISE, _error
from checker.evidence import Measurement, Observation
from checker.measure import shares_storage


def probe_from_numpy_keeps_int32(device: str) -> Observation:
    return _int32_rule(through_list=False)


def control_int32_values_through_a_list(device: str) -> Observation:
    return _int32_rule(through_list=True)


def _int32_rule(through_list: bool) -> Observation:
    import numpy as np
    import torch

    a = np.arange(3, dtype=np.int32)
    t = torch.tensor(a.tolist()) if through_list else torch.from_numpy(a)
    kind = "list" if through_list else "from-numpy"
    return Observation(
        holds=t.dtype == torch.int32,
        rule="holds if "
        + ("torch.tensor(a.tolist())" if through_list else "torch.from_numpy(a)")
        + " of an int32 array a has dtype torch.int32",
        measurements=(Measurement(f"data-int32-{kind}-dtype", str(t.dtype), "dtype"),),
    )


FROM_NUMPY_KEEPS_INT32 = Claim(
    id="data/from-numpy-keeps-int32",
    statement="torch.from_numpy() of an int32 array gives an int32 tensor; the same values "
    "passed as a Python list give int64.",
    expect=Expect.HOLDS,
    probe=probe_from_numpy_keeps_int32,
    control=Control(
        "torch.tensor(a.tolist()), the same values as a Python list",
        control_int32_values_through_a_list,
        measures=("data-int32-list-dtype",),
    ),
    devices=("cpu",),
    measures=("data-int32-from-numpy-dtype",),
    vocabulary=Vocabulary(
        subjects=("from_numpy",),
        predicates={
            "en": ("int32",),
            "ja": ("int32",),
            "ko": ("int32",),
        },
        requires={
            "en": ("keep", "same dtype", "gives", "becomes", "stays"),
            "ja": ("保", "維持", "そのまま", "になる", "同じ"),
            "ko": ("유지", "그대로", "된다", "같은"),
        },
        unless={
            "en": ("int64", "float32"),
            "ja": ("int64", "float32"),
            "ko": ("int64", "float32"),
        },
    ),
)


def probe_from_numpy_refuses_int8(device: str) -> Observation:
    return _refuses_rule(kind="int8")


def control_from_numpy_of_strings(device: str) -> Observation:
    return _refuses_rule(kind="str")


def _refuses_rule(kind: str) -> Observation:
    import numpy as np
    import torch

    a = np.array([1, 2, 3], dtype=np.int8) if kind == "int8" else np.array(["a", "b", "c"])
    error = _error(lambda: torch.from_numpy(a)).split(". ")[0]  # its first sentence
    dtype = "int8" if kind == "int8" else "numpy.str_"
    return Observation(
        holds=error != "no error",
        rule=f"holds if torch.from_numpy raises an error for an array of dtype {dtype}",
        measurements=(Measurement(f"data-from-numpy-{kind}-error", error, "exception"),),
    )


MYTH_FROM_NUMPY_REFUSES_INT8 = Claim(
    id="data/myth-from-numpy-refuses-int8",
    statement="torch.from_numpy() refuses int8 arrays.",
    expect=Expect.FAILS,
    probe=probe_from_numpy_refuses_int8,
    control=Control(
        "an array of strings",
        control_from_numpy_of_strings,
        measures=("data-from-numpy-str-error",),
    ),
    devices=("cpu",),
    measures=("data-from-numpy-int8-error",),
    vocabulary=Vocabulary(
        subjects=("from_numpy",),
        predicates={
            "en": (*_RAISE["en"], "reject", "not supported", "unsupported"),
            "ja": (*_RAISE["ja"], "拒否", "非対応"),
            "ko": (*_RAISE["ko"], "거부", "지원하지 않"),
        },
        requires={
            "en": ("int8",),
            "ja": ("int8",),
            "ko": ("int8",),
        },
        opposites={
            "en": ("accept", "supports", "works"),
            "ja": ("受け付け", "対応", "使え", "動作する"),
            "ko": ("받아들", "지원", "동작한", "사용할 수 있"),
        },
    ),
)


def probe_as_tensor_int_array_dtype(device: str) -> Observation:
    return _float32_rule(legacy=False)


def control_legacy_constructor_of_int_array(device: str) -> Observation:
    return _float32_rule(legacy=True)


def _float32_rule(legacy: bool) -> Observation:
    import numpy as np
    import torch

    a = np.arange(3, dtype=np.int64)
    t = torch.Tensor(a) if legacy else torch.as_tensor(a)
    kind = "tensor-class" if legacy else "as-tensor"
    return Observation(
        holds=t.dtype == torch.float32,
        rule="holds if "
        + ("torch.Tensor(a)" if legacy else "torch.as_tensor(a)")
        + " of an int64 array a has dtype torch.float32",
        measurements=(Measurement(f"data-{kind}-int64-array-dtype", str(t.dtype), "dtype"),),
    )


MYTH_AS_TENSOR_GIVES_FLOAT32 = Claim(
    id="data/myth-as-tensor-int-array-gives-float32",
    statement="torch.as_tensor() of an integer NumPy array gives a float32 tensor.",
    expect=Expect.FAILS,
    probe=probe_as_tensor_int_array_dtype,
    control=Control(
        "the legacy constructor torch.Tensor(a)",
        control_legacy_constructor_of_int_array,
        measures=("data-tensor-class-int64-array-dtype",),
    ),
    devices=("cpu",),
    measures=("data-as-tensor-int64-array-dtype",),
    vocabulary=Vocabulary(
        subjects=("as_tensor",),
        predicates={
            "en": ("float32", "float tensor"),
            "ja": ("float32",),
            "ko": ("float32",),
        },
        requires={
            "en": ("integer", "int64", "int32", "int array"),
            "ja": ("整数", "int64", "int32"),
            "ko": ("정수", "int64", "int32"),
        },
        unless={
            "en": ("dtype=", "torch.Tensor("),
            "ja": ("dtype=", "torch.Tensor("),
            "ko": ("dtype=", "torch.Tensor("),
        },
    ),
)


def probe_from_numpy_clone_independent(device: str) -> Observation:
    return _clone_rule(cloned=True)


def control_from_numpy_without_clone(device: str) -> Observation:
    return _clone_rule(cloned=False)


def _clone_rule(cloned: bool) -> Observation:
    import numpy as np
    import torch

    a = np.zeros(3, dtype=np.float32)
    t = torch.from_numpy(a).clone() if cloned else torch.from_numpy(a)
    a[0] = 5.0
    sees = float(t[0]) == 5.0
    kind = "cloned" if cloned else "shared"
    return Observation(
        holds=not sees,
        rule="holds if a write to the array a after "
        + ("t = torch.from_numpy(a).clone()" if cloned else "t = torch.from_numpy(a)")
        + " does not show in t",
        measurements=(Measurement(f"data-{kind}-sees-array-write", sees, "bool"),),
    )


FROM_NUMPY_CLONE_INDEPENDENT = Claim(
    id="data/from-numpy-clone-does-not-share",
    statement="torch.from_numpy(a).clone() no longer shares memory with the array: a write to "
    "the array does not show in it.",
    expect=Expect.HOLDS,
    probe=probe_from_numpy_clone_independent,
    control=Control(
        "torch.from_numpy(a) without clone()",
        control_from_numpy_without_clone,
        measures=("data-shared-sees-array-write",),
    ),
    devices=("cpu",),
    measures=("data-cloned-sees-array-write",),
    vocabulary=Vocabulary(
        subjects=(".clone()",),
        predicates={
            "en": ("independent", "no longer share", "not share", "separate memory"),
            "ja": (
                "独立",
                "共有しな",
                "共有されな",
                "共有しません",
                "共有されません",
                "別のメモリ",
            ),
            "ko": ("독립", "공유하지 않", "공유되지 않", "별도의 메모리"),
        },
        requires={
            "en": ("from_numpy",),
            "ja": ("from_numpy",),
            "ko": ("from_numpy",),
        },
        denies=False,
    ),
)


def probe_to_same_dtype_returns_self(device: str) -> Observation:
    return _to_rule(device, copy=False)


def control_to_with_copy(device: str) -> Observation:
    return _to_rule(device, copy=True)


def _to_rule(device: str, copy: bool) -> Observation:
    import torch

    t = torch.ones(3, device=device)
    u = t.to(device=t.device, dtype=torch.float32, copy=copy)
    same = u is t
    shares = shares_storage(u, t)
    kind = "copy" if copy else "same"
    return Observation(
        holds=same,
        rule="holds if t.to(t.device, torch.float32"
        + (", copy=True" if copy else "")
        + ") of a float32 tensor t returns t itself",
        measurements=(
            Measurement(f"data-to-{kind}-is-self", same, "bool"),
            Measurement(f"data-to-{kind}-shares", shares, "bool"),
        ),
    )


TO_SAME_DTYPE_RETURNS_SELF = Claim(
    id="data/to-same-dtype-returns-self",
    statement=".to() with the dtype and device the tensor already has returns the tensor "
    "itself, not a copy; copy=True forces one.",
    expect=Expect.HOLDS,
    probe=probe_to_same_dtype_returns_self,
    control=Control(
        "copy=True",
        control_to_with_copy,
        measures=("data-to-copy-is-self", "data-to-copy-shares"),
    ),
    measures=("data-to-same-is-self", "data-to-same-shares"),
    vocabulary=Vocabulary(
        subjects=(".to(",),
        predicates={
            "en": ("same tensor", "itself", "same object", "returns self"),
            "ja": ("同じテンソル", "自身", "同じオブジェクト"),
            "ko": ("같은 텐서", "자신", "동일한 텐서", "같은 객체"),
        },
        opposites=_COPY,
        requires={
            "en": ("already", "same dtype"),
            "ja": ("すでに", "既に", "同じ dtype", "同じdtype"),
            "ko": ("이미", "같은 dtype", "동일한 dtype"),
        },
        unless={
            "en": ("copy=True",),
            "ja": ("copy=True",),
            "ko": ("copy=True",),
        },
    ),
)


CLAIMS = (
    FROM_NUMPY_KEEPS_INT32,
    MYTH_FROM_NUMPY_REFUSES_INT8,
    MYTH_AS_TENSOR_GIVES_FLOAT32,
    FROM_NUMPY_CLONE_INDEPENDENT,
    TO_SAME_DTYPE_RETURNS_SELF,
)
