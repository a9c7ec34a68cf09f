"""Claims of "In-place operations" (docs/topics/views-and-inplace.md, ``(vi-inplace)=``), one
module per subsection."""

#: The subsections, in the order the page shows them.
SECTIONS = (
    "kinds",
    "memory",
    "cuda_allocator",
)
