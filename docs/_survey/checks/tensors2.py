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
