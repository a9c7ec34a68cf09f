"""Execution checks of the survey's statements on float16, bfloat16 and dtypes (CPU).

Run: python docs/_survey/checks/numerics.py; each line prints a statement id of
docs/_survey/statements.json and what running it found.
"""

import numpy as np
import torch


def f(value, dtype):
    return float(torch.tensor(value).to(dtype).item())


def error(call):
    try:
        call()
    except Exception as exc:
        return type(exc).__name__
    return "no error"


fi16, fib = torch.finfo(torch.float16), torch.finfo(torch.bfloat16)
print("torch", torch.__version__)
print("fp16-max-65504", fi16.max, f(65504.0, torch.float16), f(65520.0, torch.float16))
print("fp16-65500-rounds-65504", f(65500.0, torch.float16))
print("fp16-smallest-normal", fi16.smallest_normal)
print("fp16-3-decimal-digits", fi16.resolution, fib.resolution)
print("fp16-bit-layout eps", fi16.eps == 2**-10, fib.eps == 2**-7, fi16.bits, fib.bits)
print("bf16-max-3e38", fib.max, torch.finfo(torch.float32).max)
print(
    "fp16-half-memory",
    torch.empty(1, dtype=torch.float16).element_size(),
    torch.empty(1, dtype=torch.bfloat16).element_size(),
    torch.empty(1, dtype=torch.float32).element_size(),
)
print(
    "fp16-sum-overflows",
    torch.ones(262144, dtype=torch.float16).sum().item(),
    torch.ones(262144, dtype=torch.bfloat16).sum().item(),
)
x = 1.0 + 0.75 * 2**-7
print("bf16-is-truncated-fp32", f(x, torch.bfloat16), "truncation would give 1.0")
print("bf16-flush-denormals", f(1e-40, torch.bfloat16))
a32, a16 = torch.ones(2, 2), torch.ones(2, 2, dtype=torch.float16)
ab = torch.ones(2, 2, dtype=torch.bfloat16)
print(
    "mixed-dtype-matmul-raises",
    error(lambda: a32 @ a16),
    error(lambda: a32 @ ab),
    (a32 + a16).dtype,
    error(lambda: torch.nn.functional.linear(ab, a32)),
)
with torch.autocast("cpu", dtype=torch.bfloat16):
    print("  under cpu autocast", error(lambda: a32 @ ab))
print(
    "zero-dim-tensor-no-promotion",
    (torch.ones(2, dtype=torch.float16) + torch.tensor(1.0, dtype=torch.float64)).dtype,
    (torch.ones(2, dtype=torch.int32) + torch.tensor(1)).dtype,
    (torch.ones(2, dtype=torch.float16) + torch.ones(1, dtype=torch.float64)).dtype,
)
print(
    "int-true-division-float",
    torch.tensor([7]) / 2,
    torch.tensor([7]) // 2,
    torch.tensor([-7]) // 2,
)
print("int-plus-python-float-default-dtype", (torch.tensor([1]) + 5.5).dtype)
print("python-float-default-float32", torch.tensor([1.2]).dtype)
print("numpy-default-float64", torch.from_numpy(np.zeros(2)).dtype, torch.tensor(np.zeros(2)).dtype)
print("bf16-numpy-unsupported", error(lambda: torch.ones(2, dtype=torch.bfloat16).numpy()))
print("fp16-eps-1e-8-zero", f(1e-8, torch.float16))
print(
    "bool-plus-int-int", (torch.ones(2, dtype=torch.bool) + torch.ones(2, dtype=torch.int64)).dtype
)
