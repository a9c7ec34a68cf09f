"""The one reader of ``.po`` catalogs: entries with their lines, and every problem with its own.

:func:`read_catalog` never raises. Bytes that are not UTF-8 text and lines that break the
grammar (see :mod:`checker.text.po_lexer`) are *fatal*: the entries cannot be trusted and are
not checked further. Duplicate messages and header problems are reported and the entries are
still read. The reader is at least as strict as Babel, which Sphinx compiles catalogs with
(``read_po(abort_invalid=True)``): what Babel refuses, it reports with a line, so that nothing
it passes can break the build (``tests/test_text_po.py`` holds Babel to that, as an oracle).

The pipeline::

    bytes ─▶ encoding ─▶ po_lexer.lex (lines) ─▶ po_entries.EntryBuilder (entries)
          ─▶ oversized messages, duplicates, po_header (header fields, what Babel refuses)
          ─▶ Catalog ─▶ mo.compile_mo / mo.translations (what gettext reads)
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field, replace
from pathlib import Path

from checker.text.po_entries import Entry, EntryBuilder, Problem, ProblemKind
from checker.text.po_header import (
    babel_header_problems,
    declared_plurals,
    header_fields,
    header_problems,
    language_plurals,
    mime_fields,
)
from checker.text.po_lexer import lex

__all__ = [
    "MAX_MESSAGE_CHARS",
    "Catalog",
    "Entry",
    "Problem",
    "ProblemKind",
    "merged_messages",
    "parse_catalog",
    "read_catalog",
]


@dataclass(frozen=True)
class Catalog:
    """A catalog as read: its entries (header excluded) and the problems of the file."""

    path: Path
    entries: tuple[Entry, ...] = ()
    header: dict[str, str] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()
    #: The header entry (``msgid ""``), when the file could be read.
    header_entry: Entry | None = None

    @property
    def fatal(self) -> bool:
        """The file is unreadable or ungrammatical: its entries are not to be trusted."""
        return any(p.fatal for p in self.problems)

    @property
    def active(self) -> tuple[Entry, ...]:
        """Entries that are not obsolete."""
        return tuple(e for e in self.entries if not e.obsolete)


def read_catalog(path: Path, lang: str | None = None) -> Catalog:
    """Read ``path``; check its header against ``lang`` when given. Never raises. A catalog
    is a regular file: a symbolic link (it could name any file of the machine, whose lines the
    findings would quote) is refused unread."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        if path.is_symlink():
            reason = "a symbolic link, not followed: a catalog must be a regular file"
            return Catalog(path, problems=(Problem(1, ProblemKind.ENCODING, reason),))
        return Catalog(path, problems=(Problem(1, ProblemKind.ENCODING, f"cannot read: {exc}"),))
    with os.fdopen(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            reason = "not a regular file: a catalog must be one"
            return Catalog(path, problems=(Problem(1, ProblemKind.ENCODING, reason),))
        raw = handle.read()
    return parse_catalog(raw, path, lang)


def parse_catalog(raw: bytes, path: Path, lang: str | None = None) -> Catalog:
    """Parse the bytes of a catalog (see :func:`read_catalog`)."""
    problem = _encoding_problem(raw)
    if problem is not None:
        return Catalog(path, problems=(problem,))
    lines, errors = lex(raw.decode("utf-8"))
    builder = EntryBuilder()
    for line in lines:
        builder.feed(line)
    builder.finish()
    header_entry = next((e for e in builder.entries if e.is_header and not e.obsolete), None)
    entries = tuple(e for e in builder.entries if e is not header_entry)
    problems = [Problem(e.line, ProblemKind.SYNTAX, e.message) for e in errors]
    problems += builder.problems
    problems += _oversized(builder.entries)
    problems.sort(key=lambda p: p.line)
    if problems:
        return Catalog(path, entries, problems=tuple(problems), header_entry=header_entry)
    header = header_fields(header_entry)
    problems += _duplicates(entries)
    problems += header_problems(header_entry, header, lang)
    if not any(p.kind is ProblemKind.ENCODING for p in problems):
        # a wrong charset is reported once, on its line
        problems += _babel_problems(builder.entries, header_entry)
    problems.sort(key=lambda p: p.line)
    fields = {k: v for k, (v, _) in header.items()}
    return Catalog(path, entries, fields, tuple(problems), header_entry)


#: The longest message (English or translation) a catalog may hold, in characters. The
#: longest of the project's is under a thousand; parsing a message as MyST takes time that
#: grows faster than its length (800,000 ``[`` take minutes), so a longer one is refused
#: before anything parses it.
MAX_MESSAGE_CHARS = 10_000


def _oversized(entries: list[Entry]) -> list[Problem]:
    problems = []
    for entry in entries:
        for line, text, what in (
            (entry.msgid_line, entry.msgid, "msgid"),
            *((entry.msgstr_line, form, "msgstr") for form in entry.translations),
        ):
            if len(text) > MAX_MESSAGE_CHARS:
                problems.append(
                    Problem(
                        line,
                        ProblemKind.SYNTAX,
                        f"{what} of {len(text)} characters; a message may hold at most "
                        f"{MAX_MESSAGE_CHARS}: split it, it is not one sentence of the docs",
                    )
                )
                break
    return problems


def _encoding_problem(raw: bytes) -> Problem | None:
    if raw.startswith(b"\xef\xbb\xbf"):
        return Problem(
            1,
            ProblemKind.ENCODING,
            "a byte order mark (BOM) starts the file; Babel, which Sphinx reads catalogs "
            "with, misreads it: save the file as UTF-8 without BOM",
        )
    nul = raw.find(b"\0")
    if nul >= 0:
        line = raw[:nul].count(b"\n") + 1
        return Problem(
            line, ProblemKind.ENCODING, "binary data (a NUL byte): this is not a .po catalog"
        )
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        byte = raw[exc.start : exc.start + 1].hex()
        return Problem(
            line,
            ProblemKind.ENCODING,
            f"not valid UTF-8 (byte 0x{byte}: {exc.reason}); save the file as UTF-8",
        )
    return None


def _duplicates(entries: tuple[Entry, ...]) -> list[Problem]:
    seen: dict[tuple[str | None, str], Entry] = {}
    problems = []
    for entry in entries:
        if entry.obsolete:
            continue
        key = (entry.msgctxt, entry.msgid)
        first = seen.setdefault(key, entry)
        if first is not entry:
            context = f" in msgctxt {entry.msgctxt!r}" if entry.msgctxt is not None else ""
            problems.append(
                Problem(
                    entry.msgid_line,
                    ProblemKind.DUPLICATE,
                    f"duplicate msgid{context}, first at line {first.msgid_line}: "
                    f"{_short(entry.msgid)!r}",
                )
            )
    return problems


def _short(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def merged_messages(catalog: Catalog) -> tuple[Entry, ...]:
    """The messages of a catalog as Babel and gettext hold them, in the order of the file:
    active entries but headers, a message written twice once (its first translation and the
    flags of both; a later plural form of it replaces a singular one)."""
    merged: dict[tuple[str | None, str], Entry] = {}
    for entry in catalog.active:
        if is_mime_header(entry):
            continue
        key = (entry.msgctxt, entry.msgid)
        first = merged.get(key)
        if first is None:
            merged[key] = entry
            continue
        kept = entry if entry.msgid_plural is not None and first.msgid_plural is None else first
        merged[key] = replace(kept, flags=first.flags | entry.flags)
    return tuple(merged.values())


def is_mime_header(entry: Entry) -> bool:
    """Whether Babel reads ``entry`` as a header: not obsolete, an empty singular ``msgid``
    (whatever its ``msgctxt``)."""
    return not entry.obsolete and entry.msgid == "" and entry.msgid_plural is None


def _babel_problems(entries: list[Entry], header_entry: Entry | None) -> list[Problem]:
    """What Babel refuses in a grammatical catalog: a header it cannot read, and a plural
    entry with more forms than the catalog's ``nplurals`` (from the ``Plural-Forms`` of a
    header before it, else its ``Language``'s, else 2), as Babel counts them, in file order."""
    problems: list[Problem] = []
    plurals: int | None = None
    language: str | None = None
    for entry in entries:
        if is_mime_header(entry):
            problems += babel_header_problems(entry, charset=entry is not header_entry)
            fields = mime_fields(entry)
            if "language" in fields:
                language = fields["language"].replace("-", "_") or None
            declared = declared_plurals(fields.get("plural-forms", ""))
            if "plural-forms" in fields and declared is not None:  # None: reported above
                plurals = declared
        elif entry.msgid_plural is not None:
            if plurals is None:
                plurals = language_plurals(language)
            if len(entry.msgstr_plural) > plurals:
                problems.append(
                    Problem(
                        entry.msgid_line,
                        ProblemKind.SYNTAX,
                        f"{len(entry.msgstr_plural)} plural forms, and the catalog has "
                        f"nplurals={plurals}: Babel, which Sphinx reads catalogs with, fails",
                    )
                )
    return problems
