"""Claims of "Custom autograd Functions under autocast" (docs/topics/amp.md,
``(amp-custom-function)=``), one module per subsection."""

#: The subsections, in the order the page shows them.
SECTIONS = (
    "undecorated_function",
    "custom_bwd",
    "cast_inputs",
    "custom_bwd_rules",
)
