"""Execution checks of the second survey round's statements on checkpointing that no claim
covers yet (CPU); those on grad mode, in-place operations, losses, optimizer state,
checkpointing's arguments, autocast and the CUDA memory API names went once claims covered them.

Run: python docs/_survey/checks/autograd2.py; each line prints a statement id of
docs/_survey/statements.json, the verdict the run gives it (supported or refuted) and what
it measured.
"""

import torch
from torch.utils.checkpoint import checkpoint


def verdict(statement, holds, measured):
    print(statement, "supported" if holds else "refuted", measured, sep=" | ")


print("torch", torch.__version__)


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
