"""Gettext catalogs, read with the one reader (:mod:`checker.text.po`): each translated message
is a piece of Markdown.

A broken catalog is reported with its first bad line: a line that breaks the grammar first
(with how many more there are), else an entry that does (or a header Babel cannot read, or a
message too long to parse). The text is UTF-8 already: a header's charset is not read.

The language is the header's ``Language``. Messages whose source is the statement of a
``{claim}`` directive in the docs (by the ``#:`` occurrence and
:func:`checker.text.sites.claim_sites`) are skipped, like claim directives in Markdown: they
translate a statement under test.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from checker.scan.document import Block, Document, ReadError
from checker.scan.readers.markdown import blocks_of
from checker.text.po import ProblemKind, parse_catalog
from checker.text.po_lexer import lex
from checker.text.sites import claim_sites


def read(path: Path, text: str) -> Document:
    _, problems = lex(text)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ReadError(path, problems[0].line, f"broken catalog: {problems[0].message}{more}")
    catalog = parse_catalog(text.encode("utf-8"), path)
    broken = [p for p in catalog.problems if p.kind is ProblemKind.SYNTAX]
    if broken:
        more = f" (and {len(broken) - 1} more)" if len(broken) > 1 else ""
        raise ReadError(path, broken[0].line, f"broken catalog: {broken[0].message}{more}")
    statements = _claim_statement_lines(path)
    sources = _source_lines(path)
    blocks: list[Block] = []
    errors: list[tuple[int, str]] = []
    for entry in catalog.entries:
        if entry.obsolete or entry.fuzzy or entry.msgid_plural is not None or not entry.msgstr:
            continue  # a plural message is left out, as before
        occurrences = [_occurrence(reference) for reference in entry.references]
        if any(_in_claim(occurrence, statements) for occurrence in occurrences):
            continue
        context = " ".join(_line_text(sources, occurrence) for occurrence in occurrences)
        blocks.extend(
            dataclasses.replace(b, context=context, source=entry.msgid)
            for b in blocks_of(entry.msgstr, entry.line - 1, errors)
        )
    return Document(path, f"po:{catalog.header.get('language', '')}", tuple(blocks), ())


def _occurrence(reference: str) -> tuple[str, str]:
    """``(path, line)`` of a ``#:`` reference; the line is empty where it has none."""
    source, colon, line = reference.rpartition(":")
    return (source, line) if colon and line.isdigit() else (reference, "")


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
