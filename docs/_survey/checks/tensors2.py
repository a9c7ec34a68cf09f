"""Execution checks of the second survey round's statements on views, NumPy interop and
type promotion (CPU).

Run: python docs/_survey/checks/tensors2.py; each line prints a statement id of
docs/_survey/statements.json, the verdict the run gives it (supported or refuted) and what
it measured.
"""

import warnings

import numpy as np
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
x = torch.randn(2, 3, 2)
verdict(
    "contiguous-stride-row-major", x.stride() == (6, 2, 1), f"strides of (2, 3, 2): {x.stride()}"
)
verdict(
    "view-minus-one-infers-dim",
    torch.arange(6).view(-1, 2).shape == (3, 2),
    f"view(-1, 2) of 6 elements: {tuple(torch.arange(6).view(-1, 2).shape)}",
)
verdict(
    "view-dtype-same-element-size",
    error(lambda: torch.zeros(4).view(torch.float16)) != "no error",
    f"float32 (4,) viewed as float16: {error(lambda: torch.zeros(4).view(torch.float16))}, shape "
    f"{tuple(torch.zeros(4).view(torch.float16).shape)}",
)
verdict(
    "view-numel-must-match",
    error(lambda: torch.ones(6).view(4)) == "RuntimeError",
    f"view(4) of 6 elements: {error(lambda: torch.ones(6).view(4))}",
)
base = torch.ones(3)
verdict(
    "unsqueeze-squeeze-are-views",
    base.unsqueeze(0).data_ptr() == base.data_ptr()
    and base.unsqueeze(0).squeeze(0).data_ptr() == base.data_ptr(),
    "unsqueeze(0) and squeeze(0) keep the data pointer",
)
grid = torch.arange(6.0).view(2, 3)
verdict(
    "column-slice-not-contiguous",
    not grid[:, :2].is_contiguous() and grid[:1].is_contiguous(),
    f"t[:, :2] contiguous: {grid[:, :2].is_contiguous()}; "
    f"control t[:1]: {grid[:1].is_contiguous()}",
)
row = grid[1]
verdict(
    "tensor-storage-offset-stride",
    row.storage_offset() == 3
    and row.untyped_storage().data_ptr() == grid.untyped_storage().data_ptr(),
    f"t[1] of a (2, 3) tensor: offset {row.storage_offset()}, stride {row.stride()}, same storage",
)
expanded = torch.tensor([[1], [2], [3]]).expand(3, 4)
verdict(
    "expand-inplace-write-refused",
    error(lambda: expanded.add_(1)) == "RuntimeError",
    f"expanded.add_(1): {error(lambda: expanded.add_(1))}; control on a clone: "
    f"{error(lambda: expanded.clone().add_(1))}",
)
small = torch.ones(1, 3)
verdict(
    "repeat-copies",
    small.repeat(2, 1).data_ptr() != small.data_ptr()
    and small.repeat(2, 1).untyped_storage().nbytes() == 24,
    f"repeat(2, 1) storage {small.repeat(2, 1).untyped_storage().nbytes()} bytes; expand(2, 3) "
    f"storage {small.expand(2, 3).untyped_storage().nbytes()} bytes",
)
verdict(
    "expand-only-size-one-dims",
    error(lambda: torch.ones(2, 3).expand(4, 3)) == "RuntimeError",
    f"expand (2, 3) to (4, 3): {error(lambda: torch.ones(2, 3).expand(4, 3))}",
)

# NumPy and constructors.
verdict(
    "from-numpy-int8-refused",
    error(lambda: torch.from_numpy(np.array([1], np.int8))) != "no error",
    f"from_numpy(int8 array): {error(lambda: torch.from_numpy(np.array([1], np.int8)))}",
)
verdict(
    "from-numpy-int32-keeps-int32",
    torch.from_numpy(np.array([1], np.int32)).dtype == torch.int32,
    f"{torch.from_numpy(np.array([1], np.int32)).dtype}",
)
array = np.zeros(3, np.float32)
cloned = torch.from_numpy(array).clone()
array[0] = 5
verdict(
    "from-numpy-clone-independent",
    cloned[0].item() == 0.0 and torch.from_numpy(array)[0].item() == 5.0,
    f"after a[0] = 5: clone {cloned[0].item()}, from_numpy {torch.from_numpy(array)[0].item()}",
)
verdict(
    "as-tensor-int-array-gives-float32",
    torch.as_tensor(np.array([1, 2, 3])).dtype == torch.float32,
    f"as_tensor(int array).dtype {torch.as_tensor(np.array([1, 2, 3])).dtype}",
)
same = torch.ones(3)
verdict(
    "to-same-dtype-returns-self",
    same.to(torch.float32) is same and same.to(torch.float64) is not same,
    "to(float32) of a float32 tensor is the same object; to(float64) is not",
)

# Type promotion.
verdict(
    "bool-plus-uint8-uint8",
    (ones(torch.bool) + ones(torch.uint8)).dtype == torch.uint8,
    f"{(ones(torch.bool) + ones(torch.uint8)).dtype}",
)
verdict(
    "float-to-uint8-negative-wraps",
    torch.tensor([-2.0]).to(torch.uint8).item() == 254,
    f"-2.0 -> uint8 {torch.tensor([-2.0]).to(torch.uint8).item()} (on this machine's CPU)",
)

# Repeating and strides (second batch of the round).
square = torch.tensor([[1, 2], [3, 4]])
verdict(
    "tile-prepends-ones-to-dims",
    torch.tile(square, (3,)).shape == (2, 6),
    f"tile of a (2, 2) tensor with dims (3,): {tuple(torch.tile(square, (3,)).shape)}",
)
verdict(
    "repeat-needs-all-dims",
    error(lambda: square.repeat(2)) == "RuntimeError",
    f"repeat(2) of a 2-D tensor: {error(lambda: square.repeat(2))}",
)
verdict(
    "repeat-interleave-flattens-by-default",
    torch.repeat_interleave(square, 2).shape == (8,)
    and torch.repeat_interleave(square, 2, dim=0).shape == (4, 2),
    f"repeat_interleave(x, 2): {tuple(torch.repeat_interleave(square, 2).shape)}, with dim=0: "
    f"{tuple(torch.repeat_interleave(square, 2, dim=0).shape)}",
)
matrix = torch.zeros(2, 3, dtype=torch.float32)
verdict(
    "numpy-strides-bytes-torch-elements",
    matrix.stride() == (3, 1) and matrix.numpy().strides == (12, 4),
    f"torch strides {matrix.stride()}, NumPy strides of the same memory {matrix.numpy().strides}",
)
