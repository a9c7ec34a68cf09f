"""Claims of "Where an autocast region reaches" (docs/topics/amp.md, ``(amp-scope)=``), one
module per subsection."""

#: The subsections, in the order the page shows them.
SECTIONS = (
    "threads",
    "mixed_dtypes",
    "disabled_regions",
)
