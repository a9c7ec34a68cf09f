"""The project's claim packages: one per page, one module per section of the page, claims in
page order. Every list here is read from the registry and the pages, so a new topic, section
or claim needs no edit of this file."""

from __future__ import annotations

import importlib
import inspect
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from checker import registry
from checker.claim import Claim
from checker.text.markdown import tokens as markdown_tokens
from checker.text.sites import Site, claim_sites
from tests.helpers import ROOT

TOPICS = registry.topics()
CLAIMS = registry.load()


@dataclass(frozen=True)
class Heading:
    level: int
    #: 0-based line of the heading.
    line: int
    title: str
    #: The ``(label)=`` just above it, if any.
    label: str | None


@cache
def _headings(path: Path) -> tuple[Heading, ...]:
    tokens = markdown_tokens(path.read_text(encoding="utf-8"))
    found = []
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and token.map:
            before = tokens[index - 1] if index else None
            label = before.content if before and before.type == "myst_target" else None
            found.append(
                Heading(int(token.tag[1:]), token.map[0], tokens[index + 1].content, label)
            )
    return tuple(found)


@cache
def _sites() -> dict[str, list[Site]]:
    return claim_sites(ROOT / "docs")


def _site(claim: Claim) -> Site:
    (site,) = _sites()[claim.id]
    return site


def _enclosing(site: Site) -> tuple[Heading, Heading | None]:
    """The section (level 2) and, if any, the subsection (level 3) that show a claim."""
    above = [h for h in _headings(site.path) if h.line < site.line - 1]
    section = [h for h in above if h.level == 2][-1]
    sub = [h for h in above if h.level == 3 and h.line > section.line]
    return section, (sub[-1] if sub else None)


def _names(heading: Heading) -> str:
    return f"({heading.label})=" if heading.label else heading.title


def _topic(claim: Claim) -> str:
    return next(t for t in TOPICS if claim.probe.__module__.startswith(t + "."))


def test_a_page_s_claims_are_in_one_topic_package_and_a_topic_shows_on_one_page() -> None:
    packages: dict[str, set[str]] = {}
    pages: dict[str, set[str]] = {}
    for claim in CLAIMS:
        page = _site(claim).docname
        packages.setdefault(page, set()).add(_topic(claim))
        if not page.startswith("reviews/"):  # a review's claims go with its topic's
            pages.setdefault(_topic(claim), set()).add(page)
    assert all(len(found) == 1 for found in packages.values()), packages
    assert all(len(found) == 1 for found in pages.values()), pages
    assert set(pages) == set(TOPICS)
    assert all(hasattr(importlib.import_module(topic), "__path__") for topic in TOPICS)


@pytest.mark.parametrize("topic", TOPICS)
def test_a_topic_s_modules_do_not_import_torch(topic: str) -> None:
    code = (
        "import importlib, sys\n"
        "from checker import registry\n"
        f"for name in registry.claim_modules({topic!r}):\n"
        "    importlib.import_module(name)\n"
        "sys.exit('torch' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False)
    assert result.returncode == 0


@pytest.mark.parametrize("claim", CLAIMS.claims, ids=lambda claim: claim.id)
def test_a_claim_is_declared_in_the_module_of_the_section_that_shows_it(claim: Claim) -> None:
    module = importlib.import_module(claim.probe.__module__)
    site = _site(claim)
    section, sub = _enclosing(site)
    doc = module.__doc__ or ""
    assert site.path.relative_to(ROOT).as_posix() in doc, module.__name__
    assert any(_names(h) in doc.replace("``", "`") for h in (section, sub) if h), module.__name__
    source = inspect.getsource(module)
    assert f'id="{claim.id}"' in source
    assert claim.control is None or claim.control.probe.__module__ == module.__name__


@pytest.mark.parametrize("topic", TOPICS)
def test_the_registry_lists_a_topic_s_claims_in_page_order(topic: str) -> None:
    claims = CLAIMS.in_package(topic)

    def page_order(claim: Claim) -> tuple[bool, int]:
        site = _site(claim)
        return (site.docname.startswith("reviews/"), site.line)

    assert [c.id for c in claims] == [c.id for c in sorted(claims, key=page_order)]


def test_a_claim_id_s_topic_belongs_to_one_package() -> None:
    packages: dict[str, set[str]] = {}
    for claim in CLAIMS:
        assert claim.statement.strip().endswith("."), claim.id
        packages.setdefault(claim.topic, set()).add(_topic(claim))
    assert all(len(owners) == 1 for owners in packages.values()), packages


def test_no_claim_module_is_over_600_lines() -> None:
    modules = sorted((ROOT / "checker" / "claims").rglob("*.py"))
    lengths = {m.relative_to(ROOT).as_posix(): len(m.read_text().splitlines()) for m in modules}
    assert {path: n for path, n in lengths.items() if n > 600} == {}
