"""Claims of "Which operations change precision" (docs/topics/amp.md, ``(amp-op-categories)=``), one
module per subsection."""

#: The subsections, in the order the page shows them.
SECTIONS = (
    "lower_precision_ops",
    "float32_ops",
    "following_ops",
    "widest_type_ops",
    "cpu_cuda_differences",
    "parameters_stay_float32",
    "inplace_and_out",
    "batchnorm_inputs",
)
