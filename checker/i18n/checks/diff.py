"""Comparing what the English and the translation hold: missing, added, changed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Change(Generic[T]):
    """One difference: ``before`` only (missing), ``after`` only (added), or both (changed)."""

    before: T | None
    after: T | None


def changes(
    source: Counter[T], target: Counter[T], pair: Callable[[T], object] | None = None
) -> Iterator[Change[T]]:
    """The differences between two multisets; a missing and an added item with the same
    ``pair`` key (a role's name, a link's host) are reported together as a change."""
    missing = list((source - target).elements())
    added = list((target - source).elements())
    for before in missing:
        key = pair(before) if pair is not None else None
        match = next((a for a in added if pair is not None and pair(a) == key), None)
        if match is not None:
            added.remove(match)
        yield Change(before, match)
    for after in added:
        yield Change(None, after)
