"""Claims of the page "Tensors made from data" (docs/topics/tensors-from-data.md).

Claim ids are ``data/...``; every measurement key starts with ``data-``. The page builds on
the NumPy claims of :mod:`checker.claims.views` (``torch.tensor`` copies, ``from_numpy`` and
``numpy()`` share, ``as_tensor`` shares when dtype and device match, the limits of the
storage-pointer test) and the ``.data``/``detach()`` claims there, and adds what those do not
cover: the legacy ``torch.Tensor`` constructor, ``torch.asarray``, ``numpy(force=True)``,
the dtypes ``from_numpy`` and ``as_tensor`` keep, ``clone()`` and ``.to()``, strides (negative,
and NumPy's in bytes), resizing, ``copy.deepcopy`` and the cost of each constructor.

Sharing between NumPy and PyTorch is decided by writing through one side and reading the
other; sharing between tensors by comparing storages.

Each section of the page is a module, listed in :data:`SECTIONS`; ``_text.py`` holds what
several sections use: an error as text, and the words of their vocabularies.
"""

#: The sections, in the order the pages show them.
SECTIONS = (
    "which_copy",
    "dtypes_copies",
    "strides",
    "data_detach",
    "deepcopy",
    "sharing",
    "cost",
)
