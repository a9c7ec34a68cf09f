"""Execution checks of the survey's remaining statements that the CPU can decide.

Run: python docs/_survey/checks/misc.py; each line prints a statement id of
docs/_survey/statements.json and what running it found.
"""

import copy
import warnings

import numpy as np
import torch
from torch.utils.checkpoint import checkpoint

warnings.simplefilter("ignore")


def error(call):
    try:
        call()
    except Exception as exc:
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:60]}"
    return "no error"


print("torch", torch.__version__)
x = torch.zeros(1, requires_grad=True)
with torch.autograd.detect_anomaly():
    print("anomaly-detect-nan-not-inf (inf grad)", error(lambda: x.sqrt().sum().backward()))
    y = torch.full((1,), -1.0, requires_grad=True)
    print("  (nan grad)", error(lambda: y.sqrt().sum().backward()))
print("isfinite-catches-both", torch.isfinite(torch.tensor([1.0, float("inf"), float("nan")])))
print("from-numpy-object-dtype-raises", error(lambda: torch.from_numpy(np.array([1, "a"], object))))
print("scaler-init-scale-65536", torch.amp.GradScaler("cpu").get_scale())
print("scaler-growth-interval default", torch.amp.GradScaler("cpu").get_growth_interval())
print(
    "int-plus-long-long",
    (torch.ones(2, dtype=torch.int64) + torch.ones(2, dtype=torch.int32)).dtype,
)
print(
    "bool-plus-int-int", (torch.ones(2, dtype=torch.bool) + torch.ones(2, dtype=torch.int64)).dtype
)
with torch.inference_mode():
    it = torch.ones(2) * 2
w = torch.ones(2, requires_grad=True)
print("inference-tensor-no-backward", error(lambda: (it * w).sum().backward()))
a = torch.randn(3, requires_grad=True)
e = torch.exp(a)
print(
    "saved-result-not-same-object",
    e.grad_fn._saved_result.equal(e),
    e.grad_fn._saved_result is e,
)
b = torch.ones(3, requires_grad=True)
m = a * b
print(
    "mul-saves-operands",
    m.grad_fn._saved_self.equal(a),
    m.grad_fn._saved_other.equal(b),
)
p = torch.tensor([1.0, 2.0], requires_grad=True)
(p * 3).sum().backward()
(p * p).sum().backward()
separate = p.grad.clone()
p.grad = None
((p * 3).sum() + (p * p).sum()).backward()
print("sum-losses-backward-once", separate.tolist(), p.grad.tolist())
q = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (q * q).sum()
loss.backward()
opt = torch.optim.SGD([q], lr=0.1)
opt.zero_grad()
print("zero-grad-allows-second-backward", error(loss.backward))
t = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
d = t.detach()
d.add_(1)
print("detach-copy-independent (x after detach().add_)", t.tolist())
u = torch.tensor([1.0, 2.0, 3.0])
c = u.clone()
c.add_(1)
print("clone-shares-with-original (x after clone().add_)", u.tolist())
print("floordiv-truncates", (torch.tensor([-7]) // 2).tolist())
ints = torch.arange(-256, 257, dtype=torch.float32)
print(
    "bf16-exact-integers-256",
    bool((ints.to(torch.bfloat16).float() == ints).all()),
    torch.tensor(257.0).to(torch.bfloat16).item(),
)
print("permute-needs-all-dims", error(lambda: torch.zeros(2, 3, 4).permute(1, 0)))
print("tensor-class-copies int64", torch.Tensor(np.array([1, 2])).dtype)
print(
    "ckpt-reentrant-ignores-nested",
    error(
        lambda: (
            checkpoint(
                lambda d: d["a"] * 2, {"a": torch.ones(2, requires_grad=True)}, use_reentrant=True
            )
            .sum()
            .backward()
        )
    ),
)
print("deepcopy", copy.deepcopy(torch.ones(1)).item())
