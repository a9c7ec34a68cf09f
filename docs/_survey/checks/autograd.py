"""Execution checks of the survey's statements on backward, retain_graph, gradients, contiguity
and NumPy conversion (CPU). Run: python docs/_survey/checks/autograd.py."""

import warnings

import torch
from torch.utils.checkpoint import checkpoint

warnings.simplefilter("ignore")


def error(call):
    try:
        call()
    except Exception as exc:
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:70]}"
    return "no error"


print("torch", torch.__version__)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
print("backward-twice-errors", error(y.backward))
x.grad = None
y = (x * x).sum()
y.backward(retain_graph=True)
g1 = x.grad.clone()
print(
    "retain-graph-allows-second-backward",
    error(y.backward),
    "grad-accumulates",
    g1.tolist(),
    x.grad.tolist(),
)
y2 = (x * 3).sum()  # a graph that saves no tensor of x
y2.backward()
print("  second backward of a graph that saved nothing", error(y2.backward))
print("backward-nonscalar-needs-grad", error((x * 2).backward))
m = torch.nn.Linear(2, 1)
m.eval()
out = m(torch.ones(1, 2))
print("eval-does-not-disable-grad", out.requires_grad, out.grad_fn is not None)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
out.sum().backward()
opt.zero_grad()
print("zero-grad-sets-none", m.weight.grad)
print("numpy-requires-grad-raises", error(x.numpy), error(lambda: x.detach().numpy()))
with torch.no_grad():
    print("no-grad-allows-numpy (leaf requiring grad)", error(x.numpy))
    z = x * 2
    print("  result computed under no_grad", error(z.numpy))
t = torch.arange(12.0).view(3, 4).t()
print(
    "transpose-not-contiguous",
    t.is_contiguous(),
    t.permute(1, 0).is_contiguous(),
    torch.arange(24.0).view(2, 3, 4).permute(2, 0, 1).is_contiguous(),
)
c = t.contiguous()
print(
    "contiguous-copies-noncontig",
    c.is_contiguous(),
    c.untyped_storage().data_ptr() != t.untyped_storage().data_ptr(),
)
print(
    "view-needs-contiguous",
    error(lambda: t.view(2, 2, 3)),
    error(lambda: t.view(12)),
    t.view(2, 2, 3).untyped_storage().data_ptr() == t.untyped_storage().data_ptr(),
)
w = torch.randn(3, 3, requires_grad=True)
inp = torch.randn(2, 3, requires_grad=True)
o = checkpoint(lambda a: (a @ w).relu(), inp, use_reentrant=True)
print(
    "ckpt-nonreentrant-supports-autograd-grad reentrant",
    error(lambda: torch.autograd.grad(o.sum(), inp)),
)
o = checkpoint(lambda a: (a @ w).relu(), inp, use_reentrant=False)
print("  non-reentrant", error(lambda: torch.autograd.grad(o.sum(), inp)))
with torch.inference_mode():
    it = torch.ones(2) * 2
print("inference-tensor-no-version", error(lambda: it._version))
