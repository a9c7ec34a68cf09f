"""Execution checks of the second survey round's statements on float formats (CPU).

Run: python docs/_survey/checks/numerics2.py; each line prints a statement id of
docs/_survey/statements.json, the verdict the run gives it (supported or refuted) and what
it measured. A statement whose verdict here does not match the file is a finding.
"""

import torch
from torch.nn.functional import layer_norm

f16, bf16 = torch.float16, torch.bfloat16


def verdict(statement, holds, measured):
    print(statement, "supported" if holds else "refuted", measured, sep=" | ")


print("torch", torch.__version__)
verdict(
    "bf16-256-plus-1-is-256",
    (torch.tensor(256.0, dtype=bf16) + 1).item() == 256.0
    and (torch.tensor(128.0, dtype=bf16) + 1).item() == 129.0,
    f"256 + 1 = {(torch.tensor(256.0, dtype=bf16) + 1).item()}, control 128 + 1 = "
    f"{(torch.tensor(128.0, dtype=bf16) + 1).item()}",
)
print(
    "fp16-layernorm-zeros-nan (CPU only; the report is CUDA)",
    layer_norm(torch.zeros(1, 10, dtype=f16), (10,)).tolist()[0][:3],
    sep=" | ",
)
