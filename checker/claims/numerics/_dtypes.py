"""What the numerics and promotion sections share: a dtype as text, and a default dtype set
for one measurement and restored after it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


def dtype_name(dtype: object) -> str:
    """``torch.float32`` as ``"float32"``."""
    return str(dtype).removeprefix("torch.")


@contextmanager
def default_dtype(name: str) -> Iterator[None]:
    """Run the block with ``torch.set_default_dtype`` set to the dtype ``name``, and restore
    the default it found, whatever the block raises, so no other probe sees the change."""
    import torch

    before = torch.get_default_dtype()
    torch.set_default_dtype(getattr(torch, name))
    try:
        yield
    finally:
        torch.set_default_dtype(before)
