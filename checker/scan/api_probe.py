"""The job that resolves PyTorch names against the installed torch (runs in a forked child).

For each dotted name (``torch.cuda.amp.autocast``, ``torch.Tensor.ones_``) it reports whether
it exists, what PyTorch itself says when it is deprecated, and for each call whether its
arguments bind to the signature (only where Python can read the signature; most ATen
functions such as ``torch.add`` have none, and are not checked).

Deprecation is what torch measures, not a list of ours: a ``__deprecated__`` message (PEP 702,
on the object or its ``__init__``), which torch sets on ``torch.cuda.amp.*`` and
``torch.cpu.amp.*``; and for ``torch.autograd.Variable``, which warns about nothing, the fact
that ``Variable(t)`` returns a plain ``torch.Tensor``.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from checker.text.said import said

#: What ``torch.autograd.Variable`` is deprecated for: it returns a plain tensor.
VARIABLE = said(
    "`torch.autograd.Variable(t)` returns a plain `torch.Tensor`: Variables and Tensors are "
    "one type; use tensors with `requires_grad=True`"
)


def resolve(args: dict[str, Any]) -> dict[str, Any]:
    """``args``: ``names`` (dotted names) and ``calls`` (``[name, positional count,
    keyword names]``). Returns ``names``: name -> ``{"exists", "missing", "deprecated"}`` and
    ``calls``: one error message or ``None`` per call, in order."""
    import torch

    resolved: dict[str, Any] = {}
    objects: dict[str, Any] = {}
    for name in args.get("names", []):
        found, missing = _lookup(name)
        if missing is None:
            objects[name] = found
        resolved[name] = {
            "exists": missing is None,
            "missing": missing,
            "deprecated": _deprecation(name, found, torch) if missing is None else None,
        }
    calls = []
    for name, positional, keywords in args.get("calls", []):
        calls.append(_binds(objects.get(name), int(positional), list(keywords)))
    return {"names": resolved, "calls": calls, "torch": torch.__version__}


def _lookup(name: str) -> tuple[Any, str | None]:
    """The object a dotted name denotes, or the first part that does not exist."""
    parts = name.split(".")
    obj: Any = importlib.import_module(parts[0])
    for index, part in enumerate(parts[1:], start=1):
        try:
            obj = getattr(obj, part)
            continue
        except AttributeError:
            pass
        prefix = ".".join(parts[: index + 1])
        try:
            obj = importlib.import_module(prefix)
        except ImportError:
            return None, f"`{'.'.join(parts[:index])}` has no attribute `{part}`"
    return obj, None


def _deprecation(name: str, obj: Any, torch: Any) -> str | None:
    for holder in (obj, getattr(obj, "__init__", None)):
        message = getattr(holder, "__deprecated__", None)
        if isinstance(message, str) and message:
            return message
    if name == "torch.autograd.Variable":
        made = obj(torch.ones(1))
        if type(made) is torch.Tensor:
            return VARIABLE.english
    return None


def _binds(obj: Any, positional: int, keywords: list[str]) -> str | None:
    if obj is None or not callable(obj):
        return None
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return None  # a builtin without a signature Python can read
    try:
        signature.bind(*([None] * positional), **dict.fromkeys(keywords))
    except TypeError as exc:
        return str(exc)
    return None
