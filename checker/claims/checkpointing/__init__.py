"""Claims of the page "Activation checkpointing" (docs/topics/checkpointing.md).

The memory and recompute claims measure the comparison model of the saved-tensors page
(:func:`~checker.claims.saved_tensors._model.ffn_model`: four feed-forward blocks of Linear, GELU,
Linear) under one checkpointing variant each: nothing checkpointed, ``checkpoint_sequential``
with two segments, every block in its own checkpoint, the whole model in one checkpoint, and
every block with selective checkpointing that saves the matrix products. Recomputation is
counted, not estimated: a ``TorchDispatchMode`` counts the ``addmm`` (Linear) and ``gelu``
operators a training step really runs, and a variant's recomputed operators are what its step
runs beyond the step without checkpointing.

Each section of the page is a module, listed in :data:`SECTIONS`; ``_variants.py`` holds what
several sections use: the variants, and what a training step under each runs and holds.
"""

#: The sections, in the order the pages show them.
SECTIONS = (
    "arguments",
    "reentrant",
    "reentrant_grad",
    "call_arguments",
    "nested",
    "recompute",
    "rng",
    "sequential",
    "selective",
    "trade",
    "batchnorm",
    "mismatch",
    "func",
)
