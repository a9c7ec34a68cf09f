"""Every page of the docs, and exactly how many examples it executes: no snippet can silently
go untested (or silently disappear)."""

from __future__ import annotations

import pytest

from checker.text.pages import parse_page
from tests.helpers import ROOT

DOCS = ROOT / "docs"

#: page -> (snippets, examples, device aware). Update when a page's examples change.
EXPECTED: dict[str, tuple[int, int, bool]] = {
    "index.md": (0, 0, False),
    "404.md": (0, 0, False),
    "topics/index.md": (0, 0, False),
    "reviews/index.md": (0, 0, False),
    "reference/index.md": (0, 0, False),
    "basics.md": (4, 15, True),
    "claims.md": (0, 0, False),
    "reference/command-line.md": (0, 0, False),
    "reference/translating.md": (0, 0, False),
    "reference/scanning.md": (0, 0, False),
    "topics/saved-tensors.md": (36, 132, True),
    "topics/amp.md": (45, 159, True),
    "reviews/amp-custom-bwd-article.md": (8, 17, False),
    "reviews/disable-saved-tensors-hooks-article.md": (3, 12, False),
    "topics/views-and-inplace.md": (47, 181, True),
    "topics/tensors-from-data.md": (13, 43, True),
    "topics/checkpointing.md": (22, 118, True),
    "topics/gradscaler.md": (13, 86, True),
    "topics/memory-growth.md": (9, 60, True),
    "topics/numerics-facts.md": (0, 0, False),
    "topics/autograd-facts.md": (0, 0, False),
    "reviews/copies-and-inplace-article.md": (3, 10, False),
}


def pages() -> list[str]:
    return sorted(
        p.relative_to(DOCS).as_posix()
        for p in DOCS.rglob("*.md")
        if not any(part.startswith(("_", ".")) for part in p.relative_to(DOCS).parts)
    )


def test_every_page_is_listed() -> None:
    assert pages() == sorted(EXPECTED)


@pytest.mark.parametrize("page", sorted(EXPECTED))
def test_example_count(page: str) -> None:
    parsed = parse_page(DOCS / page)
    snippets, examples, device_aware = EXPECTED[page]
    assert (len(parsed.snippets), parsed.example_count, parsed.device_aware) == (
        snippets,
        examples,
        device_aware,
    )
