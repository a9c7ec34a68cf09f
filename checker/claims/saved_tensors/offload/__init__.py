"""Claims of "Offloading in practice" (docs/topics/saved-tensors.md, ``(st-offload)=``), one
module per subsection."""

#: The subsections, in the order the page shows them.
SECTIONS = (
    "amount",
    "pinned",
    "func",
)
