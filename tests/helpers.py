"""Helpers that keep tests short: sample paths, page parsing with exact counts."""

from __future__ import annotations

from pathlib import Path

from checker.doctest.page import Page, parse_page

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = Path(__file__).resolve().parent / "samples"


def sample(*parts: str) -> Path:
    return SAMPLES.joinpath(*parts)


def parse(name: str, *, examples: int, snippets: int) -> Page:
    """Parse ``samples/pages/<name>`` and assert how many snippets and examples it holds."""
    page = parse_page(sample("pages", name))
    assert len(page.snippets) == snippets, [s.lineno for s in page.snippets]
    assert page.example_count == examples
    return page
