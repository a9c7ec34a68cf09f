"""Where the docs show each claim: the page and line of its ``claim`` directive.

Read straight from the Markdown sources, so the CLI and the scanner can point at the docs
(GitHub annotations, links in the reader's language) without building them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from checker.doctest.page import markdown

_ID_OPTION = re.compile(r"^:id:\s*(\S+)\s*$")


@dataclass(frozen=True)
class Site:
    """A claim directive in a page."""

    claim_id: str
    path: Path
    #: 1-based line of the directive's opening fence.
    line: int
    #: 1-based line just after its closing fence (0 when unknown): the statement lies between.
    end: int = 0

    @property
    def docname(self) -> str:
        """The page's name relative to ``docs/``, without suffix (``topics/amp``)."""
        parts = self.path.with_suffix("").parts
        if "docs" in parts:
            parts = parts[len(parts) - parts[::-1].index("docs") :]
        return "/".join(parts)


def claim_sites(docs_dir: Path) -> dict[str, list[Site]]:
    """Every claim directive under ``docs_dir``, by claim id."""
    found: dict[str, list[Site]] = {}
    for path in sorted(docs_dir.rglob("*.md")):
        if any(part.startswith(("_", ".")) for part in path.relative_to(docs_dir).parts):
            continue
        for site in _sites_in(path, path.read_text(encoding="utf-8"), 0):
            found.setdefault(site.claim_id, []).append(site)
    return found


def _sites_in(path: Path, text: str, offset: int) -> list[Site]:
    sites = []
    for token in markdown().parse(text):
        if token.type not in ("fence", "colon_fence") or not token.map:
            continue
        line = offset + token.map[0] + 1
        info = token.info.strip()
        if info.startswith("{claim}"):
            for option in token.content.splitlines():
                match = _ID_OPTION.match(option)
                if match:
                    sites.append(Site(match[1], path, line, offset + token.map[1] + 1))
        elif info.startswith("{"):
            sites.extend(_sites_in(path, token.content, line))
    return sites
