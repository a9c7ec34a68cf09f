"""What several sections of the autograd page use: a leaf and a loss whose graph saves tensors,
and the error a call raises, as text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def leaf_and_loss() -> tuple[Any, Any]:
    """A leaf ``x = [1., 2.]`` that requires grad and ``(x * x).sum()``, whose multiplication
    saves ``x`` twice for backward; the gradient of the loss is ``2 * x = [2., 4.]``."""
    import torch

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    return x, (x * x).sum()


def _error(call: Callable[[], Any]) -> str:
    """``"Type: message"`` of what ``call()`` raises (first line, shortened), or
    ``"no error"``."""
    try:
        call()
    except Exception as exc:
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:120]}"
    return "no error"
