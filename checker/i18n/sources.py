"""The English side of the comparison: pages, claim statements, code, and templates.

Read straight from the Markdown sources: which pages exist, which lines hold the statement of
a ``claim`` (between the directive's fences, see :mod:`checker.text.sites`), and which texts are
code blocks (a catalog entry equal to one is code, never translation). The ``.pot`` templates
come from the gettext builder, as ``nox -s i18n`` makes them (see :func:`load_templates`).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from checker.claim import Claim
from checker.text.markdown import FENCES, is_markdown_directive, walk
from checker.text.po import Entry, read_catalog
from checker.text.sites import claim_sites

#: A catalog entry's key: ``(msgctxt, msgid)``.
Key = tuple[str | None, str]


@dataclass(frozen=True)
class StatementSpan:
    """Where a claim's statement lies in its page."""

    claim_id: str
    #: Lines of the directive, fences included: ``start <= line < end``.
    start: int
    end: int


@dataclass(frozen=True)
class Sources:
    """What the English pages under ``docs`` hold, by page name (``topics/amp``)."""

    docs: Path
    pages: tuple[str, ...]
    statements: dict[str, tuple[StatementSpan, ...]] = field(default_factory=dict)
    #: The text of every code block of each page (fences that are not directives).
    code: dict[str, frozenset[str]] = field(default_factory=dict)
    #: Claims by id, for their vocabulary (empty when the claim modules are not loaded).
    claims: dict[str, Claim] = field(default_factory=dict)

    def claim_at(self, page: str, occurrences: tuple[tuple[str, int], ...]) -> str | None:
        """The claim whose statement an entry located at ``occurrences`` translates."""
        for path, line in occurrences:
            if not _same_page(path, page):
                continue
            for statement in self.statements.get(page, ()):
                if statement.start <= line < statement.end:
                    return statement.claim_id
        return None

    def is_code(self, page: str, msgid: str) -> bool:
        """Whether ``msgid`` is a code block or a doctest: not translatable."""
        text = msgid.strip("\n")
        return text.lstrip().startswith(">>> ") or text in self.code.get(page, frozenset())


def _same_page(path: str, page: str) -> bool:
    path = path.replace("\\", "/")
    return path == f"{page}.md" or path.endswith(f"/{page}.md")


def page_names(docs: Path) -> tuple[str, ...]:
    """Every page under ``docs`` (folders starting with ``_`` or ``.`` excluded)."""
    names = []
    for path in sorted(docs.rglob("*.md")):
        relative = path.relative_to(docs)
        if any(part.startswith(("_", ".")) for part in relative.parts):
            continue
        names.append(relative.with_suffix("").as_posix())
    return tuple(names)


def read_sources(docs: Path, claims: dict[str, Claim] | None = None) -> Sources:
    """Read the English pages under ``docs``."""
    pages = page_names(docs)
    statements: dict[str, list[StatementSpan]] = {}
    for claim_id, sites in claim_sites(docs).items():
        for site in sites:
            statements.setdefault(site.docname, []).append(
                StatementSpan(claim_id, site.line, site.end)
            )
    code = {}
    for page in pages:
        try:
            text = (docs / f"{page}.md").read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # the build and the doctests report unreadable pages
        code[page] = frozenset(_code_blocks(text))
    return Sources(
        docs,
        pages,
        {page: tuple(found) for page, found in statements.items()},
        code,
        dict(claims or {}),
    )


def _code_blocks(text: str) -> list[str]:
    """The text of every fence that is not a directive with a Markdown body (those are read
    through)."""
    return [
        node.token.content.strip("\n")
        for node in walk(text)
        if node.type in FENCES and not is_markdown_directive(node)
    ]


# -- templates ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Templates:
    """The English messages of each page, as the gettext builder extracts them."""

    messages: dict[str, dict[Key, Entry]] = field(default_factory=dict)
    #: Why there are no templates (the build failed), or ``None``.
    problem: str | None = None
    #: Where they were read from.
    origin: str = ""


def read_templates(directory: Path) -> Templates:
    """Read every ``.pot`` under ``directory`` (``topics/amp.pot`` is page ``topics/amp``)."""
    messages: dict[str, dict[Key, Entry]] = {}
    for path in sorted(directory.rglob("*.pot")):
        catalog = read_catalog(path)
        page = path.relative_to(directory).with_suffix("").as_posix()
        messages[page] = {(e.msgctxt, e.msgid): e for e in catalog.active}
    return Templates(messages, origin=str(directory))


def load_templates(
    docs: Path,
    conf_dir: Path,
    given: Path | None = None,
    reuse: Path | None = None,
    *,
    build: bool = True,
) -> Templates:
    """The templates in ``given``; else those in ``reuse`` if newer than every source; else
    built from ``docs`` into a temporary folder with ``conf_dir/conf.py`` (unless ``build``
    is false: then no templates)."""
    if given is not None:
        return read_templates(given)
    if reuse is not None and _fresh(reuse, docs, conf_dir):
        return read_templates(reuse)
    if not build:
        return Templates()
    with tempfile.TemporaryDirectory(prefix="checker-pot-") as tmp:
        problem = build_templates(docs, conf_dir, Path(tmp) / "gettext", Path(tmp) / "doctrees")
        if problem is not None:
            return Templates(problem=problem)
        templates = read_templates(Path(tmp) / "gettext")
        return Templates(templates.messages, origin="built from the English sources")


def build_templates(docs: Path, conf_dir: Path, out: Path, doctrees: Path) -> str | None:
    """Run the gettext builder; return why it failed, or ``None``."""
    root = Path(__file__).resolve().parents[2]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])),
    }
    command = [sys.executable, "-m", "sphinx", "-b", "gettext", "-c", str(conf_dir), "-q"]
    command += ["-d", str(doctrees), str(docs), str(out)]
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    except OSError as exc:
        return f"cannot run the gettext builder: {exc}"
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        return f"the gettext builder failed ({done.returncode}): {' / '.join(tail)}"
    return None


def _fresh(templates: Path, docs: Path, conf_dir: Path) -> bool:
    """Whether ``templates`` holds a ``.pot`` per page, each newer than every source."""
    pots = [templates / f"{page}.pot" for page in page_names(docs)]
    if not pots or not all(p.is_file() for p in pots):
        return False
    sources = [*docs.rglob("*.md"), conf_dir / "conf.py"]
    newest = max((p.stat().st_mtime for p in sources if p.is_file()), default=0.0)
    return min(p.stat().st_mtime for p in pots) >= newest
