"""Claims of "Operations that return views" (docs/topics/views-and-inplace.md,
``(vi-views)=``), one module per subsection."""

#: The subsections, in the order the page shows them.
SECTIONS = (
    "view_reshape",
    "shapes",
    "indexing",
    "transpose_expand",
    "contiguity",
    "layout",
)
