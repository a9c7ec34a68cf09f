"""Claims of the page "Memory that grows" (docs/topics/memory-growth.md).

Claim ids are ``growth/...``; every measurement key starts with ``growth-``. The page answers
why memory grows from one training step to the next: a graph that something still references
keeps every tensor it saved for backward (a running total of the loss, a list of outputs,
``retain_graph=True``), ``del`` frees only a last reference, and on CUDA the caching
allocator keeps freed blocks, which ``torch.cuda.empty_cache()``, expandable segments and
memory snapshots act on or explain.

The CPU probes count the tensors autograd saved that are still alive, through pack hooks
that hold each saved tensor in a small object with a weak reference (``_saved.py``), or watch
a NumPy array through a weak reference to see when the storage that wraps it is released:
counts and booleans, the same on any machine. The CUDA probes read the caching allocator's
statistics and snapshot.

Each section of the page is a module, listed in :data:`SECTIONS`.
"""

#: The sections, in the order the pages show them.
SECTIONS = (
    "accumulating",
    "keeping",
    "deleting",
    "empty_cache",
    "fragmentation",
    "snapshots",
)
