"""Claims of "What autograd saves" (docs/topics/saved-tensors.md, ``(st-what-is-saved)=``), one
module per subsection."""

#: The subsections, in the order the page shows them.
SECTIONS = (
    "requires_grad",
    "per_op",
    "by_reference",
    "not_every_intermediate",
    "backward_frees",
)
