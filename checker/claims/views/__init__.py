"""Claims of the page "Views, copies and in-place operations" (docs/topics/views-and-inplace.md)
and of the review of an article on copies and in-place operations
(docs/reviews/copies-and-inplace-article.md).

Claim ids are ``views/...`` (which operations share storage, ``clone`` and ``detach``) and
``inplace/...`` (what in-place operations allocate, and how autograd treats them). Every
measurement key starts with ``vi-``.

Sharing is decided by comparing ``untyped_storage().data_ptr()`` (or, between NumPy and
PyTorch, by writing through one side and reading the other). Allocations are measured with the
profiler on CPU and with the caching allocator's statistics on CUDA, on tensors of
:data:`~._tensors.SIDE` × :data:`~._tensors.SIDE` ``float32`` values (4 MiB, a size both
allocators report exactly).

Each section of the pages is a module (or, where its subsections show claims, a package of
them) listed in :data:`SECTIONS`; ``_tensors.py`` holds what several sections use: the
tensors the probes make, reading them, and the words of their vocabularies.
"""

#: The sections, in the order the pages show them.
SECTIONS = (
    "sharing",
    "views",
    "copies",
    "repeating",
    "numpy_arrays",
    "inplace",
    "autograd",
    "in_place_backward",
    "allow_mutation",
    "clone_detach",
    "review_claims",
)
