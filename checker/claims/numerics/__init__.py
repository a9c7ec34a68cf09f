"""Claims of the page "Facts and myths: float16, bfloat16 and dtypes"
(docs/topics/numerics-facts.md).

The page answers the statements about the two 16-bit floating formats and about mixing dtypes
that a survey of posts found most often and that no other page covered (``docs/_survey/``).
Claim ids are ``numerics/...`` (what float16 and bfloat16 hold and take) and ``promotion/...``
(what happens when dtypes meet in one operation). Every measurement key starts with ``nm-``.

Every claim is decided on the CPU: the formats and the promotion rules are the same on every
device; the claims about CPU kernels (float16 matrix products) say "on the CPU" in their
statements. Each section of the page is a module listed in :data:`SECTIONS`; ``_words.py`` holds
the words their vocabularies share.
"""

#: The sections, in the order the page shows them.
SECTIONS = (
    "formats",
    "limits",
    "finfo",
    "layouts",
    "mixing",
    "promotion",
    "inference",
    "kinds",
    "widths",
    "casting",
    "operations",
    "cpu_kernels",
)
