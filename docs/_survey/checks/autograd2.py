"""Execution checks of the second survey round's statements on checkpointing, autocast, batch
normalization and the CUDA memory API names (CPU); those on grad mode, in-place operations,
losses and optimizer state went once claims of docs/topics/autograd-facts.md covered them.

Run: python docs/_survey/checks/autograd2.py; each line prints a statement id of
docs/_survey/statements.json, the verdict the run gives it (supported or refuted) and what
it measured.
"""

import warnings

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


# Checkpointing.
def block(t, shift=None):
    return (t * 2).sin() + (0 if shift is None else shift)


x = leaf()


def with_keyword(reentrant):
    return error(lambda: checkpoint(block, x, use_reentrant=reentrant, shift=torch.ones(3)))


keyword = {reentrant: with_keyword(reentrant) for reentrant in (False, True)}
verdict(
    "ckpt-nonreentrant-accepts-kwargs",
    keyword[False] == "no error" and keyword[True] == "ValueError",
    f"keyword argument: non-reentrant {keyword[False]}, reentrant {keyword[True]}",
)
nested_in = leaf()
checkpoint(
    lambda t: checkpoint(torch.sin, t, use_reentrant=False).cos(), nested_in, use_reentrant=False
).sum().backward()
expected = -torch.sin(torch.sin(nested_in.detach())) * torch.cos(nested_in.detach())
verdict(
    "ckpt-nonreentrant-nests",
    torch.allclose(nested_in.grad, expected),
    "nested non-reentrant checkpoints give the analytic gradient of cos(sin(x))",
)


def dropout_grad_matches_mask(preserve):
    torch.manual_seed(0)
    a = torch.ones(1000, requires_grad=True)
    out = checkpoint(
        torch.nn.functional.dropout, a, 0.5, True, use_reentrant=False, preserve_rng_state=preserve
    )
    out.sum().backward()
    return torch.equal(a.grad, (out.detach() != 0).float() * 2)


verdict(
    "ckpt-preserve-rng-false-skips-restore",
    not dropout_grad_matches_mask(False) and dropout_grad_matches_mask(True),
    f"gradient follows the forward dropout mask: preserve_rng_state=False "
    f"{dropout_grad_matches_mask(False)}, True {dropout_grad_matches_mask(True)}",
)
messages = warned(lambda: checkpoint(block, leaf()))
verdict(
    "ckpt-omitted-use-reentrant-errors",
    error(lambda: warned(lambda: checkpoint(block, leaf()))) != "no error",
    f"checkpoint without use_reentrant: no error, {len(messages)} warning(s) asking for it",
)
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

# Autocast and normalisation dtypes.
a, b, out = torch.randn(4, 4), torch.randn(4, 4), torch.zeros(4, 4)
with torch.autocast("cpu", dtype=torch.bfloat16):
    plain_mm = torch.mm(a, b).dtype
    out_mm = torch.mm(a, b, out=out).dtype
    in_place = out.clone().addmm_(a, b).dtype
verdict(
    "autocast-skips-inplace-and-out",
    plain_mm == torch.bfloat16 and out_mm == in_place == torch.float32,
    f"under CPU autocast: mm {plain_mm}, mm(out=float32) {out_mm}, addmm_ {in_place}",
)
half_input = torch.randn(2, 3, dtype=torch.float16)
mixed_norm = error(lambda: torch.nn.BatchNorm1d(3).eval()(half_input))
verdict(
    "bn-half-input-float-params-raises",
    mixed_norm != "no error",
    f"float32 BatchNorm1d on float16 input (CPU): {mixed_norm}",
)
verdict(
    "bn-half-input-float-params-computes-fp32",
    torch.nn.BatchNorm1d(3).eval()(half_input).dtype == torch.float16,
    f"output dtype {torch.nn.BatchNorm1d(3).eval()(half_input).dtype}",
)

# CUDA memory API names (no device needed for the warning).
messages = warned(torch.cuda.memory_cached)
verdict(
    "memory-cached-is-reserved",
    any("renamed to `torch.cuda.memory_reserved`" in m for m in messages),
    f"torch.cuda.memory_cached() warns: {messages[:1]}",
)
