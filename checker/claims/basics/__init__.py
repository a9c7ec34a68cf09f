"""Claims of the page "Reading a tensor's memory" (docs/basics.md).

Each section of the page is a module, listed in :data:`SECTIONS`.
"""

#: The sections, in the order the pages show them.
SECTIONS = (
    "storage",
    "cuda_device",
)
