"""Claims of the page "Facts and myths: backward, gradients and the graph"
(docs/topics/autograd-facts.md).

The page answers the statements about ``backward()``, ``retain_graph``, gradient accumulation
and leaving the graph that a survey of posts found most often and that no other page covered
(``docs/_survey/``). Claim ids are ``autograd/...``; every measurement key starts with
``ag-``.

Every claim is decided on the CPU: what autograd records and frees does not depend on the
device. Each section of the page is a module listed in :data:`SECTIONS`; ``_graph.py`` holds
what several sections use: a small graph that saves tensors, and the error a call raises.
"""

#: The sections, in the order the page shows them.
SECTIONS = (
    "backward",
    "checking",
    "leaves",
    "leaving",
    "grad_mode",
    "in_place",
    "training",
    "memory",
)
