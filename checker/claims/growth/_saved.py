"""What several sections of docs/topics/memory-growth.md share: counting the tensors that
autograd saved and that are still alive."""

from __future__ import annotations

from typing import Any


class _Held:
    """One saved tensor, held for autograd by the pack hook: while the graph keeps the
    tensor, it keeps this object, and a weak reference to the object says so."""

    def __init__(self, tensor: Any) -> None:
        self.tensor = tensor


class SavedTensors:
    """A context in which every tensor autograd saves is counted; :meth:`alive` says how many
    of them something (a graph) still holds.

    The pack hook keeps a detached alias of the saved tensor (same storage, no ``grad_fn``),
    so that holding it creates no reference cycle and reference counting alone frees it: no
    garbage collection is needed, and the counts are the same on every machine.
    """

    def __init__(self) -> None:
        self._refs: list[tuple[Any, int]] = []
        self._hooks: Any = None

    def __enter__(self) -> SavedTensors:
        import weakref

        import torch

        def pack(tensor: Any) -> _Held:
            held = _Held(tensor.detach())
            self._refs.append((weakref.ref(held), tensor.nbytes))
            return held

        def unpack(held: _Held) -> Any:
            return held.tensor

        self._hooks = torch.autograd.graph.saved_tensors_hooks(pack, unpack)
        self._hooks.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._hooks.__exit__(*exc)

    @property
    def packed(self) -> int:
        """How many tensors autograd saved in the context."""
        return len(self._refs)

    def alive(self) -> int:
        """How many of them are still held."""
        return sum(ref() is not None for ref, _ in self._refs)

    def alive_bytes(self) -> int:
        """The bytes of those still held."""
        return sum(nbytes for ref, nbytes in self._refs if ref() is not None)


#: Training steps the probes run.
STEPS = 5


def step_loss(device: str, weight: Any) -> Any:
    """The loss of one step of a small model: ``tanh(x @ w).sum()``. Autograd saves two
    tensors for it: the batch ``x`` (for the gradient of ``w``) and the output of ``tanh``."""
    import torch

    batch = torch.randn(32, 64, device=device)
    return torch.tanh(batch @ weight).sum()


def new_weight(device: str) -> Any:
    import torch

    torch.manual_seed(0)
    return torch.randn(64, 64, device=device, requires_grad=True)
