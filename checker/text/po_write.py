"""Writing translations into a catalog's text: every other line kept as it is.

The checking service previews a submitted translation in the page's current catalog
(:mod:`checker.service.preview`): each entry the submission translates takes the submitted
``msgstr`` and its ``fuzzy`` flag; the rest of the file (comments, references, other entries,
the header) is not touched. Strings are written with the escapes Babel reads (``\\\\ \\" \\n
\\t \\r``), one line per line of the message.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from checker.text.po import Catalog, Entry

#: ``(msgctxt, msgid)`` of a message.
MessageKey = tuple[str | None, str]


def replace_translations(
    text: str, catalog: Catalog, translations: Mapping[MessageKey, Entry]
) -> str:
    """``text`` (the catalog ``catalog`` was read from) with the ``msgstr`` and fuzzy flag of
    each active singular entry that ``translations`` holds a singular entry for."""
    lines = text.split("\n")
    edits: list[tuple[int, int, list[str]]] = []  # (first index, end index, new lines)
    for entry in catalog.active:
        new = translations.get((entry.msgctxt, entry.msgid))
        if new is None or new.msgid_plural is not None or entry.msgid_plural is not None:
            continue
        last = entry.msgstr_lines[-1][0] if entry.msgstr_lines else entry.msgstr_line
        edits.append((entry.msgstr_line - 1, last, _string_lines("msgstr", new.msgstr)))
        flags = (entry.flags - {"fuzzy"}) | (new.flags & {"fuzzy"})
        if flags != entry.flags:
            edits += _flag_edits(lines, entry, flags)
    for first, end, new_lines in sorted(edits, reverse=True):
        lines[first:end] = new_lines
    return "\n".join(lines)


def _flag_edits(
    lines: list[str], entry: Entry, flags: frozenset[str]
) -> list[tuple[int, int, list[str]]]:
    """Remove the entry's ``#,`` lines; write its flags just before its first keyword."""
    comments = range(entry.line - 1, entry.msgid_line - 1)
    keyword = next((i for i in comments if not lines[i].lstrip().startswith("#")), None)
    at = entry.msgid_line - 1 if keyword is None else keyword
    edits: list[tuple[int, int, list[str]]] = [
        (i, i + 1, []) for i in comments if lines[i].lstrip().startswith("#,")
    ]
    if flags:
        ordered = sorted(flags, key=lambda f: (f != "fuzzy", f))
        edits.append((at, at, [f"#, {', '.join(ordered)}"]))
    return edits


def _string_lines(keyword: str, value: str) -> list[str]:
    pieces = [piece for piece in re.split(r"(?<=\n)", value) if piece]
    if len(pieces) <= 1:
        return [f'{keyword} "{_escaped(value)}"']
    return [f'{keyword} ""', *(f'"{_escaped(piece)}"' for piece in pieces)]


def _escaped(text: str) -> str:
    return (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("\n", "\\n")
        .replace("\t", "\\t")
        .replace("\r", "\\r")
    )
