"""Execution checks of the second survey round's statements on float formats (CPU).

Run: python docs/_survey/checks/numerics2.py; each line prints a statement id of
docs/_survey/statements.json, the verdict the run gives it (supported or refuted) and what
it measured. A statement whose verdict here does not match the file is a finding.
"""

import torch
from torch.nn.functional import layer_norm

f16, bf16, f32 = torch.float16, torch.bfloat16, torch.float32
fi16, fib, fi32 = torch.finfo(f16), torch.finfo(bf16), torch.finfo(f32)


def stored(value, dtype):
    return torch.tensor(value, dtype=dtype).item()


def verdict(statement, holds, measured):
    print(statement, "supported" if holds else "refuted", measured, sep=" | ")


def error(call):
    try:
        call()
    except Exception as exc:
        return type(exc).__name__
    return "no error"


print("torch", torch.__version__)
verdict(
    "bf16-smallest-normal-1e-38",
    fib.smallest_normal == fi32.smallest_normal and 1.17e-38 < fib.smallest_normal < 1.18e-38,
    f"bfloat16 {fib.smallest_normal:.4g}, float32 {fi32.smallest_normal:.4g}",
)
verdict(
    "fp16-smallest-subnormal-6e-8",
    stored(2.0**-24, f16) == 2.0**-24 and stored(2.0**-26, f16) == 0.0,
    f"2**-24 ({2.0**-24:.3g}) stays {stored(2.0**-24, f16):.3g}, 2**-26 becomes "
    f"{stored(2.0**-26, f16)}",
)
verdict(
    "fp32-bit-layout",
    fi32.bits == 32 and fi32.eps == 2.0**-23 and fi32.max > 2.0**127,
    f"bits {fi32.bits}, eps 2**-23: {fi32.eps == 2.0**-23}, max {fi32.max:.4g}",
)
verdict(
    "bf16-3-significant-digits",
    fib.resolution <= 0.001,
    f"finfo(bfloat16).resolution {fib.resolution} (float16 {fi16.resolution}); "
    f"1.001 -> {stored(1.001, bf16)}, 1.01 -> {stored(1.01, bf16)}",
)
verdict(
    "bf16-256-plus-1-is-256",
    (torch.tensor(256.0, dtype=bf16) + 1).item() == 256.0
    and (torch.tensor(128.0, dtype=bf16) + 1).item() == 129.0,
    f"256 + 1 = {(torch.tensor(256.0, dtype=bf16) + 1).item()}, control 128 + 1 = "
    f"{(torch.tensor(128.0, dtype=bf16) + 1).item()}",
)
ones = torch.ones(10000, dtype=bf16)
running = torch.tensor(0.0, dtype=bf16)
for value in ones[:600]:
    running = running + value
verdict(
    "cpu-half-sum-accumulates-fp32",
    ones.sum().item() == stored(10000.0, bf16) and running.item() == 256.0,
    f"sum of 10000 bfloat16 ones {ones.sum().item()} (nearest bfloat16 of 10000 is "
    f"{stored(10000.0, bf16)}); a running bfloat16 total of 600 ones stalls at {running.item()}",
)
third = 1 / 3
verdict(
    "bf16-less-precise-than-fp16",
    abs(stored(third, bf16) - third) > abs(stored(third, f16) - third),
    f"1/3 as bfloat16 {stored(third, bf16)}, as float16 {stored(third, f16)}",
)
verdict("bf16-eps-2-pow-minus-7", fib.eps == 2.0**-7, f"finfo(bfloat16).eps {fib.eps}")
verdict(
    "fp16-eps-2-pow-minus-10",
    stored(1 + 2.0**-10, f16) > 1.0 and stored(1 + 2.0**-12, f16) == 1.0,
    f"1 + 2**-10 -> {stored(1 + 2.0**-10, f16)}, 1 + 2**-12 -> {stored(1 + 2.0**-12, f16)}",
)
verdict(
    "bf16-holds-every-fp32-value",
    stored(257.0, bf16) == 257.0 and stored(1.001, bf16) == stored(1.001, f32),
    f"float32 257.0 -> bfloat16 {stored(257.0, bf16)}, 1.001 -> {stored(1.001, bf16)}",
)
verdict(
    "bool-one-byte",
    torch.ones(1, dtype=torch.bool).element_size() == 1,
    f"element_size {torch.ones(1, dtype=torch.bool).element_size()}",
)
verdict(
    "float32-about-7-digits",
    stored(1 + 1e-7, f32) != 1.0 and stored(1 + 1e-8, f32) == 1.0,
    f"1 + 1e-7 -> {stored(1 + 1e-7, f32)!r}, 1 + 1e-8 -> {stored(1 + 1e-8, f32)!r}",
)
verdict(
    "finfo-tiny-smallest-positive",
    stored(fi16.tiny / 2, f16) == 0.0,
    f"finfo(float16).tiny {fi16.tiny:.4g}, yet tiny / 2 is stored as "
    f"{stored(fi16.tiny / 2, f16):.4g}",
)
verdict(
    "finfo-eps-next-after-one",
    all(
        stored(1 + torch.finfo(d).eps, d) > 1.0 and stored(1 + torch.finfo(d).eps / 4, d) == 1.0
        for d in (f16, bf16, f32)
    ),
    "1 + eps > 1 and 1 + eps / 4 == 1 for float16, bfloat16 and float32",
)
verdict(
    "finfo-tiny-is-smallest-normal",
    all(torch.finfo(d).tiny == torch.finfo(d).smallest_normal for d in (f16, bf16, f32)),
    f"float16 tiny {fi16.tiny:.4g}, smallest_normal {fi16.smallest_normal:.4g}",
)
print(
    "fp16-layernorm-zeros-nan (CPU only; the report is CUDA)",
    layer_norm(torch.zeros(1, 10, dtype=f16), (10,)).tolist()[0][:3],
    sep=" | ",
)
verdict(
    "cpu-half-layernorm-unsupported",
    error(lambda: layer_norm(torch.randn(2, 8, dtype=f16), (8,))) != "no error",
    f"layer_norm of a float16 CPU tensor: "
    f"{error(lambda: layer_norm(torch.randn(2, 8, dtype=f16), (8,)))}",
)
