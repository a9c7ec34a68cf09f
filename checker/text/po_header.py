"""The header entry of a catalog: charset, language and plural forms, each with its line; and
what Babel, which Sphinx reads catalogs with, refuses in a header.

The expected ``Plural-Forms`` of a language come from Babel's CLDR data (Japanese and Korean:
``nplurals=1; plural=0;``). Babel reads every entry whose ``msgid`` is empty as a header, as
MIME headers (:mod:`email`), and fails on a ``Language`` that is no locale identifier, an
``nplurals`` that is no number and a date it cannot parse: :func:`babel_header_problems` finds
those, so that nothing this reader passes breaks the build.
"""

from __future__ import annotations

import codecs
import datetime
import email
import email.message
import re

from babel.core import Locale, UnknownLocaleError
from babel.messages.plurals import get_plural

from checker.text.po_entries import Entry, Problem, ProblemKind

_PLURAL_FORMS = re.compile(r"nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*(.+?)\s*;?\s*$")
_DATE = re.compile(r"^(?P<datetime>.*?)(?P<offset>[+-]\d{4})?$")


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


def mime_fields(entry: Entry) -> dict[str, str]:
    """The header's fields as Babel reads them (MIME headers), lower-case names."""
    fields = email.message_from_string(entry.msgstr).items()
    return {str(name).lower(): str(value) for name, value in fields}


def header_problems(
    entry: Entry | None, header: dict[str, tuple[str, int]], lang: str | None
) -> list[Problem]:
    if entry is None:
        return [
            Problem(
                1, ProblemKind.HEADER, 'no header entry (msgid "") with Content-Type and Language'
            )
        ]
    problems = []
    content_type, line = header.get("content-type", ("", entry.msgstr_line))
    # the charset Babel decodes with (MIME parameters); the field as written where Babel
    # finds no header fields
    mime = mime_fields(entry)
    charset = _charset(mime.get("content-type", content_type))
    if not _is_utf8(charset):
        problems.append(
            Problem(
                line,
                ProblemKind.ENCODING,
                f"the header declares charset {charset or 'none'}; use charset=UTF-8",
            )
        )
    if lang is None:
        return problems
    language, line = header.get("language", ("", entry.msgstr_line))
    if not names_language(language, lang):
        problems.append(
            Problem(
                line, ProblemKind.HEADER, f"Language is {language or 'missing'!r}; expected {lang}"
            )
        )
    expected = get_plural(lang)
    plural_forms, line = header.get("plural-forms", ("", entry.msgstr_line))
    match = _PLURAL_FORMS.match(plural_forms)
    wanted = (str(expected.num_plurals), _compact(expected.plural_expr))
    if match is None or (match[1], _compact(match[2])) != wanted:
        problems.append(
            Problem(
                line,
                ProblemKind.HEADER,
                f"Plural-Forms is {plural_forms or 'missing'!r}; {lang} needs '{expected}'",
            )
        )
    return problems


def names_language(written: str, lang: str) -> bool:
    """Whether a header's ``Language`` names ``lang``: the code itself, in any case and with
    ``-`` or ``_`` (``zh-CN`` for ``zh_CN``), or a region of it (``ja_JP`` for ``ja``); not
    another region of the same language (``zh_TW`` for ``zh_CN``)."""
    written, lang = (code.replace("-", "_").lower() for code in (written.strip(), lang))
    return written == lang or written.startswith(lang + "_")


def _compact(expr: str) -> str:
    return re.sub(r"\s+", "", expr).strip(";").removeprefix("(").removesuffix(")")


def _parameters(value: str) -> dict[str, str]:
    """``name=value`` parameters of a MIME header value, read as Babel reads them."""
    message = email.message.Message()
    message["content-type"] = value
    return {str(k): str(v) for k, v in message.get_params() or []}


def _charset(content_type: str) -> str:
    return _parameters(content_type).get("charset", "")


def _is_utf8(charset: str) -> bool:
    try:
        return codecs.lookup(charset).name == "utf-8"
    except LookupError:
        return False


def babel_header_problems(entry: Entry, *, charset: bool) -> list[Problem]:
    """What Babel fails on in a header entry (any non-obsolete entry with an empty ``msgid``);
    its ``charset`` too when asked (:func:`header_problems` checks the main header's)."""
    fields = mime_fields(entry)
    found: list[tuple[ProblemKind, str]] = []
    declared = _charset(fields.get("content-type", ""))
    if charset and "content-type" in fields and not _is_utf8(declared):
        found.append((ProblemKind.ENCODING, f"charset {declared or 'none'} is not UTF-8"))
    language = fields.get("language", "").replace("-", "_")
    if language and locale_problem(language):
        found.append((ProblemKind.SYNTAX, f"Language {language!r} is not a locale identifier"))
    if "plural-forms" in fields and declared_plurals(fields["plural-forms"]) is None:
        text = f"Plural-Forms {fields['plural-forms']!r} has no whole nplurals"
        found.append((ProblemKind.SYNTAX, text))
    for name in ("pot-creation-date", "po-revision-date"):
        value = fields.get(name)
        if value is None or (name == "po-revision-date" and "YEAR" in value):
            continue  # Babel leaves a template's placeholder date alone
        if not _date_readable(value):
            found.append((ProblemKind.SYNTAX, f"{name} {value!r} is not YYYY-MM-DD HH:MM+ZZZZ"))
    return [
        Problem(entry.msgstr_line, kind, f"{text}: Babel, which Sphinx reads catalogs with, fails")
        for kind, text in found
    ]


def locale_problem(identifier: str) -> bool:
    """Whether Babel fails on ``identifier`` (an unknown locale is no failure: it has none)."""
    return _babel_locale(identifier) == "invalid"


def _babel_locale(identifier: str) -> str:
    """``known``; ``unknown`` (Babel has no data for it, and goes on without); ``invalid``
    (Babel fails on it)."""
    try:
        Locale.parse(identifier)
    except UnknownLocaleError:
        return "unknown"
    except Exception:  # whatever Babel raises, it raises reading the header
        return "invalid"
    return "known"


def declared_plurals(plural_forms: str) -> int | None:
    """The ``nplurals`` of a ``Plural-Forms`` value as Babel reads it (2 when absent); ``None``
    where Babel fails on it."""
    try:
        return int(_parameters(f" ;{plural_forms}").get("nplurals", 2))
    except ValueError:
        return None


def language_plurals(language: str | None) -> int:
    """The number of plural forms Babel gives a catalog whose header declares no
    ``Plural-Forms``: the language's, from CLDR, or 2."""
    if not language or _babel_locale(language) != "known":
        return 2
    return int(get_plural(language).num_plurals)


def _date_readable(value: str) -> bool:
    match = _DATE.match(value)
    try:
        datetime.datetime.strptime(match["datetime"] if match else value, "%Y-%m-%d %H:%M")
    except ValueError:
        return False
    return True


def compiled_header(entry: Entry | None) -> str:
    """The header a compiled catalog carries, as Babel writes it for gettext: the language,
    its plural forms (the header's ``nplurals`` and ``plural``, Babel's defaults 2 and
    ``(n != 1)`` for a missing one, or the language's from CLDR when the header declares none;
    no plural forms where the language is not one Babel knows, so that gettext's default
    applies), and UTF-8."""
    fields = mime_fields(entry) if entry is not None else {}
    language = fields.get("language", "").replace("-", "_")
    lines = [f"Language: {language}"] if language else []
    if language and _babel_locale(language) == "known":
        if "plural-forms" in fields:
            parameters = _parameters(f" ;{fields['plural-forms']}")
            count, expr = parameters.get("nplurals", "2"), parameters.get("plural", "(n != 1)")
        else:
            rule = get_plural(language)
            count, expr = str(rule.num_plurals), rule.plural_expr
        lines.append(f"Plural-Forms: nplurals={count}; plural={expr};")
    lines += ["MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8"]
    return "\n".join([*lines, "Content-Transfer-Encoding: 8bit", ""])
