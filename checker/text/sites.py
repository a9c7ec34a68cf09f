"""Where the docs show each claim: the page and line of its ``claim`` directive.

Read straight from the Markdown sources, so the CLI and the scanner can point at the docs
(GitHub annotations, links in the reader's language) without building them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from checker.text.markdown import PageToken, is_markdown_directive, option_lines, walk

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
    #: The directive's body, the statement as the page writes it (MyST).
    statement: str = ""

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
        for site in _sites_in(path, path.read_text(encoding="utf-8")):
            found.setdefault(site.claim_id, []).append(site)
    return found


def _sites_in(path: Path, text: str) -> list[Site]:
    sites = []
    for node in walk(text, into=_holds_claims):
        if node.directive == "claim":
            content = node.token.content
            statement = "\n".join(content.split("\n")[option_lines(content) :]).strip()
            for option in content.splitlines():
                match = _ID_OPTION.match(option)
                if match:
                    sites.append(Site(match[1], path, node.line, node.end, statement))
    return sites


def _holds_claims(node: PageToken) -> bool:
    """A directive whose body may hold claims: Markdown, not a claim's own statement."""
    return is_markdown_directive(node) and node.directive != "claim"
