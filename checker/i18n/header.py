"""The header entry of a catalog: charset, language and plural forms, each with its line.

The expected ``Plural-Forms`` of a language come from Babel's CLDR data (Japanese and Korean:
``nplurals=1; plural=0;``). A catalog that passes the strict reader is also read by Babel,
which Sphinx compiles catalogs with, so that nothing the checker passes can break the build.
"""

from __future__ import annotations

import io
import re

from babel.messages.plurals import get_plural
from babel.messages.pofile import PoFileError, read_po

from checker.i18n.entries import Entry, Problem
from checker.i18n.findings import Check

_CHARSET = re.compile(r"charset\s*=\s*([\w.-]+)", re.IGNORECASE)
_PLURAL_FORMS = re.compile(r"nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*(.+?)\s*;?\s*$")


def header_fields(entry: Entry | None) -> dict[str, tuple[str, int]]:
    """``name -> (value, line)`` of the header entry's ``Name: value`` lines."""
    fields: dict[str, tuple[str, int]] = {}
    if entry is None:
        return fields
    for line, piece in entry.msgstr_lines:
        for part in piece.split("\n"):
            name, sep, value = part.partition(":")
            if sep and name.strip():
                fields[name.strip().lower()] = (value.strip(), line)
    return fields


def header_problems(
    entry: Entry | None, header: dict[str, tuple[str, int]], lang: str | None
) -> list[Problem]:
    if entry is None:
        return [
            Problem(1, Check.HEADER, 'no header entry (msgid "") with Content-Type and Language')
        ]
    problems = []
    content_type, line = header.get("content-type", ("", entry.msgstr_line))
    charset = _CHARSET.search(content_type)
    if charset is None or charset[1].lower().replace("_", "-") not in ("utf-8", "utf8"):
        found = charset[1] if charset else "none"
        problems.append(
            Problem(line, Check.ENCODING, f"the header declares charset {found}; use charset=UTF-8")
        )
    if lang is None:
        return problems
    language, line = header.get("language", ("", entry.msgstr_line))
    if language.replace("-", "_").split("_")[0].lower() != lang:
        problems.append(
            Problem(line, Check.HEADER, f"Language is {language or 'missing'!r}; expected {lang}")
        )
    expected = get_plural(lang)
    plural_forms, line = header.get("plural-forms", ("", entry.msgstr_line))
    match = _PLURAL_FORMS.match(plural_forms)
    wanted = (str(expected.num_plurals), _compact(expected.plural_expr))
    if match is None or (match[1], _compact(match[2])) != wanted:
        problems.append(
            Problem(
                line,
                Check.HEADER,
                f"Plural-Forms is {plural_forms or 'missing'!r}; {lang} needs '{expected}'",
            )
        )
    return problems


def _compact(expr: str) -> str:
    return re.sub(r"\s+", "", expr).strip(";").removeprefix("(").removesuffix(")")


def babel_problems(raw: bytes) -> list[Problem]:
    """What Babel (and so Sphinx) refuses in a catalog the lexer accepted."""
    try:
        read_po(io.BytesIO(raw), abort_invalid=True)
    except PoFileError as exc:
        return [Problem(max(int(getattr(exc, "lineno", 1) or 1), 1), Check.SYNTAX, str(exc))]
    except (ValueError, LookupError) as exc:
        return [Problem(1, Check.SYNTAX, f"Babel cannot read the catalog: {exc}")]
    return []
