"""Claims of "What ``disable_saved_tensors_hooks`` does" (docs/topics/saved-tensors.md,
``(st-disable)=``), one module per subsection."""

#: The subsections, in the order the page shows them.
SECTIONS = (
    "signature",
    "raises",
    "active",
    "scope",
    "purpose",
    "myths",
)
