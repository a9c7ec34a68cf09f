"""Gettext catalogs, read with polib: each translated message is a piece of Markdown.

The project's strict lexer (:mod:`checker.i18n.lexer`) checks the syntax first: polib accepts
some broken lines without a word, and a broken catalog is reported with its first bad line.

The language is the header's ``Language``. Messages whose source is the statement of a
``{claim}`` directive in the docs (by the ``#:`` occurrence and :func:`checker.sites.claim_sites`)
are skipped, like claim directives in Markdown: they translate a statement under test.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import polib

from checker.i18n.lexer import lex
from checker.scan.document import Block, Document, ReadError
from checker.scan.readers.markdown import blocks_of
from checker.sites import claim_sites

_LINE = re.compile(r"\(line (\d+)\)")


def read(path: Path, text: str) -> Document:
    _, problems = lex(text)  # polib reads some broken lines silently (a string never closed)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ReadError(path, problems[0].line, f"broken catalog: {problems[0].message}{more}")
    try:
        catalog = polib.pofile(text, wrapwidth=0)
    except (OSError, ValueError) as exc:
        match = _LINE.search(str(exc))
        raise ReadError(path, int(match[1]) if match else 1, f"broken catalog: {exc}") from exc
    statements = _claim_statement_lines(path)
    sources = _source_lines(path)
    blocks: list[Block] = []
    errors: list[tuple[int, str]] = []
    for entry in catalog:
        if entry.obsolete or not entry.msgstr or "fuzzy" in entry.flags:
            continue
        if any(_in_claim(occurrence, statements) for occurrence in entry.occurrences):
            continue
        context = " ".join(_line_text(sources, occurrence) for occurrence in entry.occurrences)
        blocks.extend(
            dataclasses.replace(b, context=context, source=entry.msgid)
            for b in blocks_of(entry.msgstr, (entry.linenum or 1) - 1, errors)
        )
    return Document(path, f"po:{catalog.metadata.get('Language', '')}", tuple(blocks), ())


def _claim_statement_lines(path: Path) -> dict[str, list[tuple[int, int]]]:
    """``{docs-relative page: [(first, end) lines of each claim directive]}``."""
    for parent in path.resolve().parents:
        docs = parent / "docs"
        if docs.is_dir() and (parent / "conf.py").exists():
            found: dict[str, list[tuple[int, int]]] = {}
            for sites in claim_sites(docs).values():
                for site in sites:
                    page = site.path.relative_to(docs).as_posix()
                    found.setdefault(page, []).append((site.line, site.end))
            return found
    return {}


def _source_lines(path: Path) -> dict[str, list[str]]:
    """The English pages' lines, by docs-relative page (to read a message's table row)."""
    for parent in path.resolve().parents:
        docs = parent / "docs"
        if docs.is_dir() and (parent / "conf.py").exists():
            return {
                p.relative_to(docs).as_posix(): p.read_text(encoding="utf-8").split("\n")
                for p in docs.rglob("*.md")
            }
    return {}


def _line_text(sources: dict[str, list[str]], occurrence: tuple[str, str]) -> str:
    source, line = occurrence
    if "docs/" not in source or not line.isdigit():
        return ""
    lines = sources.get(source.rsplit("docs/", 1)[1], [])
    index = int(line) - 1
    if not 0 <= index < len(lines):
        return ""
    # The whole paragraph or table from that line: gettext gives a table cell the line of
    # its table, and the row's {verdict} role may be anywhere in it.
    end = index
    while end < len(lines) and lines[end].strip():
        end += 1
    return " ".join(lines[index : max(end, index + 1)])


def _in_claim(occurrence: tuple[str, str], statements: dict[str, list[tuple[int, int]]]) -> bool:
    source, line = occurrence
    if "docs/" not in source or not line.isdigit():
        return False
    page = source.rsplit("docs/", 1)[1]
    return any(first <= int(line) <= end for first, end in statements.get(page, ()))
