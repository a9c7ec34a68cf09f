"""Execution checks of the second survey round's statements on autograd, in-place operations,
checkpointing, autocast and optimizer memory (CPU).

Run: python docs/_survey/checks/autograd2.py; each line prints a statement id of
docs/_survey/statements.json, the verdict the run gives it (supported or refuted) and what
it measured.
"""

import threading
import warnings
import weakref

import torch
from torch.utils.checkpoint import checkpoint


def verdict(statement, holds, measured):
    print(statement, "supported" if holds else "refuted", measured, sep=" | ")


def error(call):
    try:
        call()
    except Exception as exc:
        return type(exc).__name__
    return "no error"


def warned(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [str(w.message) for w in caught]


def leaf(n=3):
    return torch.randn(n, requires_grad=True)


print("torch", torch.__version__)

# Grad mode.
lin = torch.nn.Linear(2, 1)
messages = warned(lambda: lin(torch.ones(2)).sum().backward(create_graph=True))
verdict(
    "create-graph-warns-cycle",
    any("reference cycle" in m for m in messages),
    f"{len(messages)} warning(s) naming a reference cycle",
)
seen = {}
with torch.no_grad():
    worker = threading.Thread(target=lambda: seen.setdefault("grad", torch.is_grad_enabled()))
    worker.start()
    worker.join()
    here = torch.is_grad_enabled()
verdict(
    "no-grad-thread-local",
    seen["grad"] and not here,
    f"grad enabled in the thread: {seen['grad']}, in the no_grad block: {here}",
)


@torch.no_grad()
def doubled(t):
    return t * 2


verdict(
    "no-grad-decorator",
    not doubled(leaf()).requires_grad and (leaf() * 2).requires_grad,
    "decorated result requires grad: False; undecorated: True",
)
with torch.no_grad():
    parameter = torch.nn.Parameter(torch.ones(2))
verdict("no-grad-parameter-still-requires-grad", parameter.requires_grad, "")
frozen = torch.nn.Linear(2, 1)
frozen.weight.requires_grad_(False)
frozen(torch.ones(2)).sum().backward()
verdict(
    "frozen-param-no-grad",
    frozen.weight.grad is None and frozen.bias.grad is not None,
    f"weight.grad {frozen.weight.grad}, bias.grad set: {frozen.bias.grad is not None}",
)


class Held:
    def __init__(self, tensor):
        self.tensor = tensor


holders = []


def pack(t):
    holder = Held(t.detach())
    holders.append(weakref.ref(holder))
    return holder


with torch.autograd.graph.saved_tensors_hooks(pack, lambda h: h.tensor):
    loss = leaf(1000).exp().sum()
alive_with_loss = all(r() is not None for r in holders)
del loss
verdict(
    "graph-freed-with-last-loss-reference",
    alive_with_loss and all(r() is None for r in holders),
    f"saved tensors alive while the loss is: {alive_with_loss}; after del loss: "
    f"{sum(r() is not None for r in holders)} left",
)
first = torch.ones(1, requires_grad=True)
reused = error(((first + 1) + (first + 2)).backward)
verdict(
    "leaf-reuse-raises",
    reused != "no error",
    f"two graphs from one leaf, then backward: {reused}; grad {first.grad.tolist()}",
)
counted = []
with torch.autograd.graph.saved_tensors_hooks(lambda t: counted.append(1) or t, lambda t: t):
    leaf() * 10
scalar_saved = len(counted)
with torch.autograd.graph.saved_tensors_hooks(lambda t: counted.append(1) or t, lambda t: t):
    leaf().exp()
verdict(
    "scalar-mul-saves-nothing",
    scalar_saved == 0 and len(counted) == 1,
    f"x * 10 saves {scalar_saved} tensor(s); control x.exp() saves {len(counted) - scalar_saved}",
)
verdict(
    "loss-default-reduction-mean",
    torch.nn.CrossEntropyLoss().reduction == "mean" and torch.nn.MSELoss().reduction == "mean",
    "",
)

# In-place operations.
scaled = leaf() * 2
scaled.add_(1)
squashed = leaf().sigmoid()
squashed.add_(1)
after_mul, after_sigmoid = error(scaled.sum().backward), error(squashed.sum().backward)
verdict(
    "inplace-on-any-intermediate-raises",
    after_mul != "no error",
    f"(x * 2).add_(1) then backward: {after_mul}; control sigmoid(x).add_(1): {after_sigmoid}",
)
viewed = leaf()
verdict(
    "view-of-leaf-inplace-raises",
    error(lambda: viewed[0:1].mul_(2)) == "RuntimeError",
    f"x[0:1].mul_(2) on a leaf that requires grad: {error(lambda: viewed[0:1].mul_(2))}",
)


# Checkpointing.
norm = torch.nn.BatchNorm1d(3)
checkpoint(norm, torch.randn(4, 3, requires_grad=True), use_reentrant=False).sum().backward()
plain = torch.nn.BatchNorm1d(3)
plain(torch.randn(4, 3, requires_grad=True)).sum().backward()
verdict(
    "ckpt-batchnorm-stats-updated-twice",
    norm.num_batches_tracked.item() == 2 and plain.num_batches_tracked.item() == 1,
    f"num_batches_tracked after one step: checkpointed {norm.num_batches_tracked.item()}, "
    f"plain {plain.num_batches_tracked.item()}",
)

# Optimizer state.
weight = torch.nn.Parameter(torch.randn(5))
adam = torch.optim.Adam([weight])
weight.grad = torch.ones(5)
adam.step()
state = adam.state[weight]
verdict(
    "adam-states-two-buffers-per-param",
    state["exp_avg"].shape == state["exp_avg_sq"].shape == weight.shape,
    f"state keys {sorted(state)}; exp_avg and exp_avg_sq have the parameter's shape",
)

# Inference tensors, dropout and optimizer steps (second batch of the round).
with torch.inference_mode():
    made_inside = torch.ones(3)
verdict(
    "inference-tensor-immutable-outside",
    error(lambda: made_inside.add_(1)) == "RuntimeError"
    and error(lambda: made_inside.clone().add_(1)) == "no error",
    f"in-place add outside inference_mode: {error(lambda: made_inside.add_(1))}; on a clone: "
    f"{error(lambda: made_inside.clone().add_(1))}",
)
torch.manual_seed(0)
dropout = torch.nn.Dropout(0.8)
kept = dropout(torch.ones(10000))
verdict(
    "dropout-scales-by-inverse-keep",
    set(kept.unique().tolist()) == {0.0, 5.0}
    and torch.equal(dropout.eval()(torch.ones(3)), torch.ones(3)),
    f"train values {sorted(set(kept.unique().tolist()))} (1 / (1 - 0.8) = 5); eval is the identity",
)


def moved(grad):
    param = torch.nn.Parameter(torch.ones(2))
    step = torch.optim.SGD([param], lr=0.1, momentum=0.9)
    param.grad = torch.ones(2)
    step.step()
    before = param.detach().clone()
    param.grad = grad
    step.step()
    return not torch.equal(param.detach(), before)


verdict(
    "none-grad-skipped-zero-grad-steps",
    not moved(None) and moved(torch.zeros(2)),
    f"second SGD-momentum step moves the parameter: grad None {moved(None)}, grad zeros "
    f"{moved(torch.zeros(2))}",
)
