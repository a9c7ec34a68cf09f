"""Claims of "NumPy arrays" (docs/topics/views-and-inplace.md, ``(vi-numpy)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.views._tensors import _COPY, _SHARE, _allocated, _error, _reaches
from checker.evidence import Measurement, Observation
from checker.typing import Device


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


NUMPY_AND_FROM_NUMPY_SHARE_MEMORY = Claim(
    id="views/numpy-and-from-numpy-share-memory",
    statement="Tensor.numpy() and torch.from_numpy() share memory with their source: writes "
    "show on both sides, and no bytes are copied.",
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
)


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


AS_TENSOR_SHARES_WHEN_DTYPE_AND_DEVICE_MATCH = Claim(
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
)


def probe_from_numpy_object_array(device: Device) -> Observation:
    return _object_rule("object")


def control_from_numpy_float_array(device: Device) -> Observation:
    return _object_rule("float64")


def _object_rule(dtype: str) -> Observation:
    import numpy as np
    import torch

    a = np.array([1.0, 2.0], dtype=dtype)
    error = _error(lambda: torch.from_numpy(a)).splitlines()[0]
    return Observation(
        holds=error.startswith("TypeError"),
        rule=f"holds if torch.from_numpy() of an array of dtype {dtype} raises TypeError",
        measurements=(Measurement(f"vi-from-numpy-{dtype}-error", error, "exception"),),
    )


FROM_NUMPY_REFUSES_OBJECT_ARRAYS = Claim(
    id="views/from-numpy-refuses-object-arrays",
    statement="torch.from_numpy() raises an error for a NumPy array of dtype object.",
    expect=Expect.HOLDS,
    probe=probe_from_numpy_object_array,
    control=Control(
        "an array of dtype float64",
        control_from_numpy_float_array,
        measures=("vi-from-numpy-float64-error",),
    ),
    devices=("cpu",),
    measures=("vi-from-numpy-object-error",),
    vocabulary=Vocabulary(
        subjects=("from_numpy",),
        predicates={
            "en": (
                "error … object",
                "raise … object",
                "object … error",
                "object … raise",
                "object … TypeError",
                "object … not supported",
            ),
            "ja": (
                "object … エラー",
                "object … 例外",
                "object … TypeError",
                "オブジェクト … エラー",
            ),
            "ko": ("object … 오류", "object … 에러", "object … TypeError", "객체 … 오류"),
        },
    ),
)


CLAIMS = (
    NUMPY_AND_FROM_NUMPY_SHARE_MEMORY,
    AS_TENSOR_SHARES_WHEN_DTYPE_AND_DEVICE_MATCH,
    FROM_NUMPY_REFUSES_OBJECT_ARRAYS,
)
