"""The order in which a sentence says two things happen.

Some claims are about order: ``unscale_`` comes before clipping, ``scaler.update()`` after
the optimizer steps. A sentence that names both and puts them the other way round ("clip
before ``unscale_``", "勾配クリッピングは ``unscale_`` の前に行う") denies such a claim,
whatever words it uses for the rest. :func:`stated_order` reads the order from markers next
to the named terms (each language's
:attr:`~checker.text.languages.base.Language.order_before` and ``order_after``):

- English puts the marker before the term it relates to: "before T" and "then T" say that
  the other term comes first; "after T" that T does.
- Japanese and Korean put it after the term: "T の前に" / "T 전에" say that the other term
  comes first; "T の後に", "T してから", "T 후에", "T 다음에" that T does.

A sentence with no marker beside either term states no order (``None``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from checker.text import languages
from checker.typing import Lang


@dataclass(frozen=True)
class Order:
    """Two groups of terms of a claim, named in the order the claim says they happen."""

    first: tuple[str, ...]
    then: tuple[str, ...]


def stated_order(sentence: str, lang: Lang, order: Order) -> bool | None:
    """``True`` when the sentence puts ``order.first`` before ``order.then``, ``False`` when
    it says the reverse, ``None`` when it says neither (or names only one of them)."""
    text = re.sub(r"`([^`]*)`", r"\1", sentence)
    lowered = text.lower()
    first = _positions(lowered, order.first)
    then = _positions(lowered, order.then)
    if not first or not then:
        return None
    bounds = sorted(first + then)
    votes: set[bool] = set()
    for span in first:
        marked = _marker(lowered, span, bounds, lang)
        if marked is not None:
            votes.add(marked)  # "after unscale_": unscale_ first; "before unscale_": not
    for span in then:
        marked = _marker(lowered, span, bounds, lang)
        if marked is not None:
            votes.add(not marked)  # "before clipping": the other (first) term comes first
    return votes.pop() if len(votes) == 1 else None


def _positions(text: str, terms: tuple[str, ...]) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for t in terms for m in re.finditer(re.escape(t.lower()), text)]


def _marker(
    text: str, span: tuple[int, int], bounds: list[tuple[int, int]], lang: Lang
) -> bool | None:
    """Whether a marker beside the term at ``span`` puts that term first (``True``), the
    other term first (``False``), or neither is there (``None``). A marker is looked for up
    to the next named term only (``bounds``: every term's span), so that one beside the other
    term is not read twice."""
    start, end = span
    language = languages.language(lang)
    if not language.postpositions:  # "before T": the marker precedes its term
        previous = max((e for s, e in bounds if e <= start), default=0)
        before = text[previous:start]
        if language.order_after.search(before):
            return True
        if language.order_before.search(before):
            return False
        return None
    following = min((s for s, e in bounds if s >= end), default=len(text))
    after = text[end:following]
    if language.order_after.match(after):
        return True
    if language.order_before.match(after):
        return False
    return None
