"""Execution checks of the second survey round's statements on views, NumPy interop and
type promotion (CPU).

Run: python docs/_survey/checks/tensors2.py; each line prints a statement id of
docs/_survey/statements.json, the verdict the run gives it (supported or refuted) and what
it measured.
"""

import warnings

import torch

warnings.simplefilter("ignore")


def verdict(statement, holds, measured):
    print(statement, "supported" if holds else "refuted", measured, sep=" | ")


def error(call):
    try:
        call()
    except Exception as exc:
        return type(exc).__name__
    return "no error"


def ones(dtype, n=2):
    return torch.ones(n, dtype=dtype)


print("torch", torch.__version__)

# Views and layout.
expanded = torch.tensor([[1], [2], [3]]).expand(3, 4)
verdict(
    "expand-inplace-write-refused",
    error(lambda: expanded.add_(1)) == "RuntimeError",
    f"expanded.add_(1): {error(lambda: expanded.add_(1))}; control on a clone: "
    f"{error(lambda: expanded.clone().add_(1))}",
)

# NumPy and constructors.
verdict(
    "int-list-int64",
    torch.tensor([1, 2, 3]).dtype == torch.int64,
    f"{torch.tensor([1, 2, 3]).dtype}",
)
verdict(
    "mixed-int-float-list-float32",
    torch.tensor([1, 2.5]).dtype == torch.float32,
    f"{torch.tensor([1, 2.5]).dtype}",
)
verdict(
    "float-to-int-truncates",
    torch.tensor([1.7, -1.7]).long().tolist() == [1, -1],
    f"[1.7, -1.7].long() -> {torch.tensor([1.7, -1.7]).long().tolist()}",
)
verdict(
    "ceil-keeps-float-dtype",
    torch.ceil(torch.tensor([1.1])).dtype == torch.float32,
    f"{torch.ceil(torch.tensor([1.1])).dtype}",
)

# Type promotion.
torch.set_default_dtype(torch.float64)
as_default64 = (torch.tensor([1.5]).dtype, torch.tensor([1j]).dtype)
torch.set_default_dtype(torch.float32)
verdict(
    "set-default-dtype-float64-python-floats",
    as_default64[0] == torch.float64 and torch.tensor([1.5]).dtype == torch.float32,
    f"with float64 default: {as_default64[0]}; restored: {torch.tensor([1.5]).dtype}",
)
verdict(
    "default-complex-follows-default-float",
    torch.tensor([1j]).dtype == torch.complex64 and as_default64[1] == torch.complex128,
    f"default {torch.tensor([1j]).dtype}, with float64 default {as_default64[1]}",
)
verdict(
    "int-tensor-plus-python-int-keeps-dtype",
    (ones(torch.int32) + 5).dtype == torch.int32,
    f"int32 + 5 -> {(ones(torch.int32) + 5).dtype}",
)
verdict(
    "int-tensor-plus-float-tensor-is-float",
    (ones(torch.int64) + ones(torch.float32)).dtype == torch.float32,
    f"int64 + float32 -> {(ones(torch.int64) + ones(torch.float32)).dtype}",
)
verdict(
    "bool-plus-uint8-uint8",
    (ones(torch.bool) + ones(torch.uint8)).dtype == torch.uint8,
    f"{(ones(torch.bool) + ones(torch.uint8)).dtype}",
)
verdict(
    "float-plus-double-double",
    (ones(torch.float32) + ones(torch.float64)).dtype == torch.float64,
    f"{(ones(torch.float32) + ones(torch.float64)).dtype}",
)
verdict(
    "promote-fp16-fp32-is-fp32",
    torch.promote_types(torch.float16, torch.float32) == torch.float32,
    f"{torch.promote_types(torch.float16, torch.float32)}",
)
verdict(
    "bf16-plus-fp16-gives-fp32",
    (ones(torch.bfloat16) + ones(torch.float16)).dtype == torch.float32,
    f"{(ones(torch.bfloat16) + ones(torch.float16)).dtype}",
)
verdict(
    "bf16-plus-fp32-errors",
    error(lambda: ones(torch.bfloat16) + ones(torch.float32)) != "no error",
    f"bfloat16 + float32: {error(lambda: ones(torch.bfloat16) + ones(torch.float32))}, "
    f"{(ones(torch.bfloat16) + ones(torch.float32)).dtype}",
)
int_bf16 = torch.tensor([257], dtype=torch.int32) + torch.tensor([0.0], dtype=torch.bfloat16)
verdict(
    "int-plus-bf16-is-bf16",
    int_bf16.dtype == torch.bfloat16 and int_bf16.item() == 256.0,
    f"int32 257 + bfloat16 0 -> {int_bf16.item()} ({int_bf16.dtype})",
)
verdict(
    "uint8-compare-negative-scalar",
    torch.tensor([1], dtype=torch.uint8).lt(-1).item() is True,
    f"uint8 1 < -1 -> {torch.tensor([1], dtype=torch.uint8).lt(-1).item()}",
)
verdict(
    "float-to-uint8-negative-wraps",
    torch.tensor([-2.0]).to(torch.uint8).item() == 254,
    f"-2.0 -> uint8 {torch.tensor([-2.0]).to(torch.uint8).item()} (on this machine's CPU)",
)
wrapped = torch.tensor([200], dtype=torch.uint8) + torch.tensor([100], dtype=torch.uint8)
verdict("uint8-arithmetic-wraps", wrapped.item() == 44, f"uint8 200 + 100 -> {wrapped.item()}")
verdict(
    "can-cast-float-to-int-false",
    not torch.can_cast(torch.float64, torch.int32) and torch.can_cast(torch.int32, torch.float64),
    f"float64 -> int32 {torch.can_cast(torch.float64, torch.int32)}, int32 -> float64 "
    f"{torch.can_cast(torch.int32, torch.float64)}",
)
verdict(
    "bce-target-must-be-float",
    error(lambda: torch.nn.BCELoss()(torch.rand(3), torch.tensor([0, 1, 1]))) == "RuntimeError"
    and error(lambda: torch.nn.BCELoss()(torch.rand(3), torch.tensor([0.0, 1.0, 1.0])))
    == "no error",
    "BCELoss with a long target raises; with a float target it runs",
)
