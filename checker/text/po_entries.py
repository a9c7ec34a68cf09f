"""The entries of a catalog, assembled from the lexer's lines in the order the grammar imposes.

:class:`EntryBuilder` never raises: an entry that breaks the grammar (``msgstr`` without
``msgid``, ``msgstr[0]`` without ``msgid_plural``, a comment inside an entry) becomes a
:class:`Problem` with its line, and the builder goes on with the next entry.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from checker.text.po_lexer import LineKind, PoLine

_OCCURRENCE = re.compile(r"(\S+):(\d+)")


class ProblemKind(enum.Enum):
    """What is wrong with a catalog file; the values are the translation gate's names."""

    #: The file breaks the PO grammar; its entries are not to be trusted.
    SYNTAX = "syntax"
    #: The file is not UTF-8 text, or declares another charset.
    ENCODING = "encoding"
    #: The header entry is missing, or says the wrong language or plural forms.
    HEADER = "header"
    #: A message appears twice.
    DUPLICATE = "duplicate"


@dataclass(frozen=True)
class Problem:
    """Something wrong with the catalog file itself."""

    line: int
    kind: ProblemKind
    message: str

    @property
    def fatal(self) -> bool:
        """The file is unreadable or ungrammatical: its entries are not to be trusted."""
        return self.kind in (ProblemKind.SYNTAX, ProblemKind.ENCODING)


@dataclass(frozen=True)
class Entry:
    """One message of a catalog."""

    msgid: str
    #: ``msgstr``, or ``msgstr[0]`` for plural entries.
    msgstr: str
    msgctxt: str | None = None
    msgid_plural: str | None = None
    #: Every ``msgstr[N]`` of a plural entry, in order.
    msgstr_plural: tuple[str, ...] = ()
    flags: frozenset[str] = frozenset()
    #: Each word of the ``#:`` comments, as written (``../../docs/a.md:3``).
    references: tuple[str, ...] = ()
    obsolete: bool = False
    #: First line of the entry, comments included.
    line: int = 0
    msgid_line: int = 0
    msgstr_line: int = 0
    #: Line of the ``#,`` comment holding the flags (0 if none).
    flags_line: int = 0
    #: ``(line, text)`` of each string of the ``msgstr``, for header fields.
    msgstr_lines: tuple[tuple[int, str], ...] = ()

    @property
    def occurrences(self) -> tuple[tuple[str, int], ...]:
        """``(path, line)`` of each ``#:`` reference with a line: where the English says it."""
        return tuple((m[1], int(m[2])) for r in self.references if (m := _OCCURRENCE.fullmatch(r)))

    @property
    def translations(self) -> tuple[str, ...]:
        """Every translated form."""
        return self.msgstr_plural or (self.msgstr,)

    @property
    def translated(self) -> bool:
        return all(form.strip() for form in self.translations)

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def is_header(self) -> bool:
        return self.msgid == "" and self.msgctxt is None


class EntryBuilder:
    """Assembles lines into entries; :meth:`feed` each line, then :meth:`finish`."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.problems: list[Problem] = []
        self._reset()

    def _reset(self) -> None:
        #: ``msgctxt``, ``msgid``, ``msgid_plural``, ``msgstr`` as read so far, and their lines.
        self.strings: dict[str, str] = {}
        self.lines: dict[str, int] = {}
        self.forms: list[str] = []
        self.msgstr_lines: list[tuple[int, str]] = []
        self.flags: set[str] = set()
        self.flags_line = 0
        self.references: list[str] = []
        self.obsolete = False
        #: The keyword whose string continuation lines extend.
        self.current: str | None = None
        self.start = 0
        self.broken = False

    def feed(self, token: PoLine) -> None:
        if token.kind is LineKind.BLANK:
            self.finish()
        elif token.kind is LineKind.COMMENT:
            self._comment(token)
        elif token.kind is LineKind.KEYWORD:
            self._keyword(token)
        elif token.kind is LineKind.ERROR:
            self.broken = True  # reported by the lexer; the entry is not to be trusted
            self.start = self.start or token.line
        else:
            self._continuation(token)

    def _comment(self, token: PoLine) -> None:
        if "msgstr" in self.strings:
            self.finish()
        elif self.strings:
            if token.name == "#~":  # a bare "#~" line: nothing
                return
            # only the previous text of an entry (#|) may follow its msgctxt; Babel ends an
            # entry at any comment, and one without its msgstr is refused
            if "msgid" in self.strings or token.name != "#|":
                self._error(token.line, "a comment inside an entry (before its msgstr)")
            return
        self.start = self.start or token.line
        if token.name == "#,":
            self.flags.update(f.strip() for f in token.value.split(",") if f.strip())
            self.flags_line = token.line
        elif token.name == "#:":
            if not _isolates_balanced(token.value):
                self._error(
                    token.line,
                    "a reference opens a file name with U+2068 and does not close it with "
                    "U+2069, or closes one it did not open",
                )
            self.references += token.value.split()

    def _keyword(self, token: PoLine) -> None:
        name = token.name
        if name in ("msgctxt", "msgid") and "msgstr" in self.strings:
            self.finish()
        if name in self.strings and name != "msgstr":
            self._error(token.line, f"{name} appears twice in one entry")
            return
        if name == "msgctxt" and "msgid" in self.strings:
            self._error(token.line, "msgctxt must come before msgid")
        elif name in ("msgid_plural", "msgstr") and "msgid" not in self.strings:
            self._error(token.line, f"{name} without msgid")
        elif name == "msgid_plural" and "msgstr" in self.strings:
            self._error(token.line, "msgid_plural must come before msgstr")
        elif name == "msgstr":
            self._msgstr(token)
        else:
            self.strings[name] = token.value
            self.lines[name] = token.line
            self.obsolete = self.obsolete or (name == "msgid" and token.obsolete)
        self.start = self.start or token.line
        self.current = name

    def _msgstr(self, token: PoLine) -> None:
        plural = "msgid_plural" in self.strings
        if plural and token.index < 0:
            self._error(token.line, "a plural entry needs msgstr[0], msgstr[1]... not msgstr")
        elif not plural and token.index >= 0:
            self._error(token.line, f"msgstr[{token.index}] without msgid_plural")
        elif plural and token.index != len(self.forms):
            self._error(token.line, f"msgstr[{token.index}] out of order")
        elif "msgstr" in self.strings and not plural:
            self._error(token.line, "msgstr appears twice in one entry")
        else:
            if plural:
                self.forms.append(token.value)
            self.strings.setdefault("msgstr", token.value)
            self.lines.setdefault("msgstr", token.line)
            self.msgstr_lines = [(token.line, token.value)]

    def _continuation(self, token: PoLine) -> None:
        if self.current is None:
            self._error(token.line, "a string without a keyword before it")
        elif self.current != "msgstr":
            self.strings[self.current] += token.value
        else:
            if self.forms:
                self.forms[-1] += token.value
            if len(self.forms) <= 1:
                self.strings["msgstr"] += token.value
            self.msgstr_lines.append((token.line, token.value))

    def _error(self, line: int, message: str) -> None:
        self.problems.append(Problem(line, ProblemKind.SYNTAX, message))
        self.broken = True

    def finish(self) -> None:
        """End the current entry (at a blank line, a new entry, or the end of the file)."""
        if not self.broken:
            if "msgid" in self.strings and "msgstr" not in self.strings:
                self._error(self.lines["msgid"], "msgid without msgstr")
            elif "msgctxt" in self.strings and "msgid" not in self.strings:
                self._error(self.lines["msgctxt"], "msgctxt without msgid")
            elif "msgstr" in self.strings:
                self.entries.append(self._entry())
        self._reset()

    def _entry(self) -> Entry:
        return Entry(
            msgid=self.strings["msgid"],
            msgstr=self.strings["msgstr"],
            msgctxt=self.strings.get("msgctxt"),
            msgid_plural=self.strings.get("msgid_plural"),
            msgstr_plural=tuple(self.forms),
            flags=frozenset(self.flags),
            references=tuple(self.references),
            obsolete=self.obsolete,
            line=self.start,
            msgid_line=self.lines["msgid"],
            msgstr_line=self.lines["msgstr"],
            flags_line=self.flags_line,
            msgstr_lines=tuple(self.msgstr_lines),
        )


def _isolates_balanced(references: str) -> bool:
    """Whether every file name opened with FIRST STRONG ISOLATE (U+2068), as gettext encloses
    names with spaces, is closed with POP DIRECTIONAL ISOLATE (U+2069), and no other; Babel
    refuses the catalog otherwise."""
    inside = False
    for char in references:
        if char in "\u2068\u2069":
            if inside == (char == "\u2068"):
                return False
            inside = not inside
    return not inside
