"""A probe's source hash: its own code plus every helper of ours that it calls.

The hash keys the result cache and is stored with recorded evidence, so a change to a probe,
or to a measuring helper it relies on, makes earlier results stale. Helpers outside the
``checker`` package (torch itself) are covered by the torch version instead.

The hash covers what the code says, not where it lives: moving a probe or a helper to another
module, unchanged, keeps its hash, so evidence recorded on a GPU machine stays current
through a reorganisation of the package.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import types
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from checker.claim import Claim

#: Bump when the harness changes what evidence means (for example the evidence schema).
HARNESS_VERSION = "1"


def claim_hash(claim: Claim) -> str:
    """The hash of a claim's experiment: its probe and, when it has one, its control.

    A claim without a control hashes as its probe alone, so evidence recorded before controls
    existed stays current for it; a claim with one hashes both, so a changed control makes
    cached results miss and recorded evidence stale.
    """
    if claim.control is None:
        return probe_hash(claim.probe)
    both = probe_hash(claim.probe, claim.control.probe) + "\0" + claim.control.label
    return hashlib.sha256(both.encode()).hexdigest()[:16]


def probe_hash(*probes: Callable[..., Any]) -> str:
    """A short hex digest over the sources of ``probes`` and our helpers they reach."""
    digest = hashlib.sha256(HARNESS_VERSION.encode())
    found: set[str] = set()
    for probe in probes:
        found.update(source for _, source in _sources(probe))
    for source in sorted(found):
        digest.update(source.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def reached_modules(*probes: Callable[..., Any]) -> set[str]:
    """The modules of ``probes`` and of every helper of ours they reach: the modules whose
    code a probe's hash covers."""
    return {name.partition(":")[0] for probe in probes for name, _ in _sources(probe)}


def _sources(root: Callable[..., Any]) -> Iterator[tuple[str, str]]:
    seen: set[str] = set()
    stack: list[Any] = [root]
    while stack:
        obj = stack.pop()
        name = f"{getattr(obj, '__module__', '?')}:{getattr(obj, '__qualname__', '?')}"
        if name in seen:
            continue
        seen.add(name)
        yield name, _source(obj)
        if isinstance(obj, types.FunctionType):
            stack.extend(_referenced_cached(obj))


@functools.cache
def _source(obj: Any) -> str:
    """The source of a function or class (memoised: classes cost a parse of their module)."""
    return inspect.getsource(obj)


@functools.cache
def _referenced_cached(func: types.FunctionType) -> tuple[Any, ...]:
    return tuple(_referenced(func))


def _referenced(func: types.FunctionType) -> Iterator[Any]:
    """Functions and classes of the ``checker`` package named by ``func``'s code.

    Names are looked up in the function's globals and, for helpers reached as attributes of
    one of our modules (``measure.saved_bytes``), in that module too.
    """
    names = set(_names(func.__code__))
    namespaces = [func.__globals__]
    for name in names:
        obj = func.__globals__.get(name)
        if isinstance(obj, types.ModuleType) and _our_module(obj.__name__):
            namespaces.append(vars(obj))
    for namespace in namespaces:
        for name in names:
            obj = namespace.get(name)
            if _ours(obj):
                yield obj


def _names(code: types.CodeType) -> Iterator[str]:
    yield from code.co_names
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _names(const)


def _ours(obj: object) -> bool:
    return (inspect.isfunction(obj) or inspect.isclass(obj)) and _our_module(
        getattr(obj, "__module__", None) or ""
    )


def _our_module(name: str) -> bool:
    return name == "checker" or name.startswith("checker.")
