"""Reading a ``.po`` catalog strictly: entries with their lines, and every problem with its own.

:func:`read_catalog` never raises. Bytes that are not UTF-8 text and lines that break the
grammar (see :mod:`checker.i18n.lexer`) are *fatal*: the entries cannot be trusted and are
not checked further. Duplicate messages and header problems are reported and the entries are
still checked. A catalog the lexer accepts is also read by Babel, the library Sphinx compiles
catalogs with, so that nothing the checker passes can break the build.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from checker.i18n.entries import Entry, EntryBuilder, Problem
from checker.i18n.findings import Check
from checker.i18n.header import babel_problems, header_fields, header_problems
from checker.i18n.lexer import lex

__all__ = ["Catalog", "Entry", "Problem", "parse_catalog", "read_catalog"]


@dataclass(frozen=True)
class Catalog:
    """A catalog as read: its entries (header excluded) and the problems of the file."""

    path: Path
    entries: tuple[Entry, ...] = ()
    header: dict[str, str] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()

    @property
    def fatal(self) -> bool:
        """The file is unreadable or ungrammatical: its entries are not to be trusted."""
        return any(p.check in (Check.SYNTAX, Check.ENCODING) for p in self.problems)

    @property
    def active(self) -> tuple[Entry, ...]:
        """Entries that are not obsolete."""
        return tuple(e for e in self.entries if not e.obsolete)


def read_catalog(path: Path, lang: str | None = None) -> Catalog:
    """Read ``path``; check its header against ``lang`` when given. Never raises."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return Catalog(path, problems=(Problem(1, Check.ENCODING, f"cannot read: {exc}"),))
    return parse_catalog(raw, path, lang)


def parse_catalog(raw: bytes, path: Path, lang: str | None = None) -> Catalog:
    """Parse the bytes of a catalog (see :func:`read_catalog`)."""
    problem = _encoding_problem(raw)
    if problem is not None:
        return Catalog(path, problems=(problem,))
    tokens, errors = lex(raw.decode("utf-8"))
    builder = EntryBuilder()
    for token in tokens:
        builder.feed(token)
    builder.finish()
    header_entry = next((e for e in builder.entries if e.is_header and not e.obsolete), None)
    entries = tuple(e for e in builder.entries if e is not header_entry)
    problems = [Problem(e.line, Check.SYNTAX, e.message) for e in errors]
    problems += builder.problems
    problems += _oversized(builder.entries)
    problems.sort(key=lambda p: p.line)
    if problems:
        return Catalog(path, entries, problems=tuple(problems))
    header = header_fields(header_entry)
    problems += _duplicates(entries)
    problems += header_problems(header_entry, header, lang)
    if not any(p.check is Check.ENCODING for p in problems):
        # Babel decodes with the declared charset: a wrong one is reported once, on its line
        problems += babel_problems(raw)
    problems.sort(key=lambda p: p.line)
    return Catalog(path, entries, {k: v for k, (v, _) in header.items()}, tuple(problems))


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
                        Check.SYNTAX,
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
            Check.ENCODING,
            "a byte order mark (BOM) starts the file; Babel, which Sphinx reads catalogs "
            "with, misreads it: save the file as UTF-8 without BOM",
        )
    nul = raw.find(b"\0")
    if nul >= 0:
        line = raw[:nul].count(b"\n") + 1
        return Problem(line, Check.ENCODING, "binary data (a NUL byte): this is not a .po catalog")
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        byte = raw[exc.start : exc.start + 1].hex()
        return Problem(
            line,
            Check.ENCODING,
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
                    Check.DUPLICATE,
                    f"duplicate msgid{context}, first at line {first.msgid_line}: "
                    f"{_short(entry.msgid)!r}",
                )
            )
    return problems


def _short(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
