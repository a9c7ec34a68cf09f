"""Claims of "``clone()``, ``detach()`` and ``clone().detach()``"
(docs/topics/views-and-inplace.md, ``(vi-clone-detach)=``), one module per subsection."""

#: The subsections, in the order the page shows them.
SECTIONS = (
    "detach",
    "clone",
    "both",
)
