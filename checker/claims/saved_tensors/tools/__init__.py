"""Claims of "Tools that do reduce autograd memory" (docs/topics/saved-tensors.md,
``(st-tools)=``), one module per subsection."""

#: The subsections, in the order the page shows them.
SECTIONS = (
    "no_grad",
    "save_on_cpu",
    "checkpoint",
    "deleting",
)
