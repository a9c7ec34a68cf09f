"""Claims of the page "Automatic mixed precision" (docs/topics/amp.md) and of the review of an
article about ``torch.cuda.amp.custom_bwd`` (docs/reviews/amp-custom-bwd-article.md).

The page runs every device-aware experiment with an explicit lower-precision dtype, float16
or bfloat16, on CPU and on CUDA, so that a claim that holds on both devices is measured on
both. Where autocast's operator lists differ between the two devices (softmax, sums,
``binary_cross_entropy``), the claims are per device.

Each section of the pages is a module (or, where its subsections show claims, a package of
them) listed in :data:`SECTIONS`; ``_precision.py`` holds what several sections use.
"""

#: The sections, in the order the pages show them.
SECTIONS = (
    "autocast",
    "op_categories",
    "scope",
    "why_scaling",
    "gradscaler",
    "training_loop",
    "custom_function",
    "deprecated",
    "nonexistent_calls",
    "review_failures",
)
