"""Claims of the page "What autograd saves for backward" (docs/topics/saved-tensors.md) and of
the review of an article about ``disable_saved_tensors_hooks``
(docs/reviews/disable-saved-tensors-hooks-article.md).

Most memory claims measure the same small model
(:func:`~checker.claims.saved_tensors._model.ffn_model`, four feed-forward blocks) under one
variant each: default autograd, ``disable_saved_tensors_hooks``, ``no_grad``,
``inference_mode``, ``save_on_cpu``, non-reentrant checkpointing, and keeping or deleting
Python references. A variant's probe measures the default too, and reports its own values and
their ratio to the default, so that every rule can be checked against the numbers shown.

Each section of the pages is a module (or, where its subsections show claims, a package of
them) listed in :data:`SECTIONS`; ``_model.py`` holds the model, its variants and what several
sections use to measure them.
"""

#: The sections, in the order the pages show them.
SECTIONS = (
    "what_is_saved",
    "measuring",
    "hooks",
    "disable",
    "tools",
    "offload",
    "review_claims",
)
