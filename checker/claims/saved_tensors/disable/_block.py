"""What the subsections of "What ``disable_saved_tensors_hooks`` does" share: the block a probe
opens (the context manager, or one that does nothing) and the name their vocabularies use for it."""

from __future__ import annotations

from typing import Any


def _block(message: str, real: bool) -> Any:
    """``disable_saved_tensors_hooks(message)``, or (``real`` False) a block that does nothing:
    the controls of the claims about the block run the same code without it."""
    import contextlib

    from torch.autograd.graph import disable_saved_tensors_hooks

    return disable_saved_tensors_hooks(message) if real else contextlib.nullcontext()


_DISABLE = ("disable_saved_tensors_hooks",)
