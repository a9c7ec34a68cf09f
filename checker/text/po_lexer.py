"""A strict lexer for the gettext PO grammar: every line and every error has its line number.

gettext's own tools, polib and Babel either stop at the first problem or skip it silently;
translators need every problem, with a line to open. :func:`lex` never raises: it returns
:class:`PoLine` objects and :class:`LexError` objects, and resynchronises at the next line.

The grammar (GNU gettext manual, "The Format of PO Files")::

    #  translator comment      #. extracted comment      #: reference     #, flags
    #| previous (msgctxt|msgid|msgid_plural) "..."
    msgctxt "..."  msgid "..."  msgid_plural "..."  msgstr "..."  msgstr[N] "..."
    "continuation of the previous string"
    #~ an obsolete entry's lines, with the same grammar

Strings are C strings: ``\\n \\t \\r \\" \\\\ \\a \\b \\f \\v \\? \\'``, octal ``\\ooo`` and
hexadecimal ``\\xhh`` escapes; anything else after a backslash is an error.

Two lines the grammar allows are refused, since Babel (which Sphinx reads catalogs with)
refuses them: a keyword followed by anything but a space (``msgid\\t"a"``), and the previous
text of an obsolete entry (``#~| msgid "..."``).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

_KEYWORD = re.compile(
    r"(?P<keyword>msgctxt|msgid_plural|msgid|msgstr(?:\[(?P<index>\d+)\])?)(?=[\s\"]|$)"
)
_SIMPLE_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    '"': '"',
    "\\": "\\",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "?": "?",
    "'": "'",
}
_OCTAL = re.compile(r"[0-7]{1,3}")
_HEX = re.compile(r"[0-9a-fA-F]{1,2}")


class LineKind(enum.Enum):
    """What a line of a PO file is."""

    BLANK = "blank"
    COMMENT = "comment"
    KEYWORD = "keyword"
    STRING = "string"
    #: A line that breaks the grammar; its entry is not trusted (see :class:`LexError`).
    ERROR = "error"


@dataclass(frozen=True)
class PoLine:
    """One line of a catalog, as the grammar reads it."""

    kind: LineKind
    #: 1-based line number.
    line: int
    #: For comments, the marker (``"#"``, ``"#."``, ``"#:"``, ``"#,"``, ``"#|"``, or ``"#~"``
    #: for a bare ``#~``); for keywords, the keyword without its index (``msgstr``).
    name: str = ""
    #: Comment text, or the unescaped string.
    value: str = ""
    #: ``msgstr[N]``'s N; -1 otherwise.
    index: int = -1
    #: The line is part of an obsolete entry (``#~``).
    obsolete: bool = False


@dataclass(frozen=True)
class LexError:
    """A line that does not follow the grammar."""

    line: int
    message: str


def lex(text: str) -> tuple[list[PoLine], list[LexError]]:
    """The lines of a PO file's text, and the errors found, in line order.

    Each error also stands in the lines as a :attr:`LineKind.ERROR` line, so that the entry it
    breaks is known to be broken.
    """
    tokens: list[PoLine] = []
    errors: list[LexError] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        result = _lex_line(line, number)
        if isinstance(result, LexError):
            errors.append(result)
            tokens.append(PoLine(LineKind.ERROR, number, value=result.message))
        else:
            tokens.append(result)
    return tokens, errors


def _lex_line(line: str, number: int) -> PoLine | LexError:
    stripped = line.strip()
    obsolete = stripped.startswith("#~")
    if obsolete:
        stripped = stripped[2:].strip()
        if stripped.startswith("|") or not stripped:
            return _obsolete_comment(stripped, number)
    if not stripped:
        return PoLine(LineKind.BLANK, number)
    if stripped.startswith("#") and not obsolete:
        marker = stripped[:2] if stripped[1:2] in (".", ":", ",", "|") else "#"
        return PoLine(LineKind.COMMENT, number, marker, stripped[len(marker) :].strip())
    if stripped.startswith('"'):
        value = _string(stripped, number)
        if isinstance(value, LexError):
            return value
        return PoLine(LineKind.STRING, number, value=value, obsolete=obsolete)
    return _keyword_line(stripped, number, obsolete)


def _obsolete_comment(text: str, number: int) -> PoLine | LexError:
    if text:  # "#~|": Babel stops at it
        return LexError(
            number,
            "'#~|' (the previous text of an obsolete entry) is refused by Babel, which "
            "Sphinx reads catalogs with: delete the line",
        )
    return PoLine(LineKind.COMMENT, number, "#~", obsolete=True)  # a bare "#~": nothing


def _keyword_line(text: str, number: int, obsolete: bool) -> PoLine | LexError:
    match = _KEYWORD.match(text)
    if match is None:
        word = text.split(maxsplit=1)[0]
        return LexError(number, f"unknown keyword {word[:40]!r}")
    if text[match.end() : match.end() + 1] not in ("", " "):  # Babel splits at the first space
        keyword = match["keyword"]
        return LexError(number, f"{keyword} must be followed by a space, then a quoted string")
    rest = text[match.end() :].strip()
    if not rest.startswith('"'):
        return LexError(number, f"{match['keyword']} must be followed by a quoted string")
    value = _string(rest, number)
    if isinstance(value, LexError):
        return value
    index = int(match["index"]) if match["index"] is not None else -1
    name = "msgstr" if index >= 0 else match["keyword"]
    return PoLine(LineKind.KEYWORD, number, name, value, index, obsolete)


def _string(text: str, number: int) -> str | LexError:
    """Unescape the C string that ``text`` starts with; nothing but blanks may follow it."""
    out: list[str] = []
    i = 1
    while i < len(text):
        char = text[i]
        if char == '"':
            if text[i + 1 :].strip():
                return LexError(number, f"text after the closing quote: {text[i + 1 :][:40]!r}")
            return "".join(out)
        if char != "\\":
            out.append(char)
            i += 1
            continue
        escaped = text[i + 1 : i + 2]
        if escaped in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[escaped])
            i += 2
        elif (octal := _OCTAL.match(text, i + 1)) is not None:
            out.append(chr(int(octal[0], 8)))
            i = octal.end()
        elif escaped == "x" and (hexa := _HEX.match(text, i + 2)) is not None:
            out.append(chr(int(hexa[0], 16)))
            i = hexa.end()
        elif not escaped:
            break
        else:
            return LexError(number, f"bad escape sequence '\\{escaped}' in a string")
    return LexError(number, "unterminated string (no closing quote on this line)")
