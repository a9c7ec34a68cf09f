"""Text from outside (a snippet's output, an exception, a catalog) made safe to print.

Every report format passes such text through :func:`plain` (text, JUnit, JSON) or
:func:`plain_document` (JSON documents), and every GitHub annotation through
:func:`checker.report.github.annotation`, so that nothing a scanned article, a probe or a
translation contains can drive a terminal (escape sequences: colours, cursor moves, window
titles, hyperlinks, a carriage return that overwrites a line) or the CI (a line starting with
``::error``, ``::add-mask::``, ``::stop-commands::`` or ``##[`` is a GitHub workflow command,
after any leading whitespace, which the runner trims: spaces, tabs, no-break and ideographic
spaces alike). Characters that reorder or hide text (bidirectional marks, overrides and
isolates, zero-width characters, tag characters) are removed, and line and paragraph separators
become newlines, so what a reader sees is what the text says. A report that shows a field on
one line of its own uses :func:`plain_line`, so that a multi-line message cannot add lines
that look like the report's own (a fake finding, a fake summary).
"""

from __future__ import annotations

import re
from typing import Any

#: ESC-introduced sequences: CSI (``ESC [ … final``), OSC/DCS/SOS/PM/APC strings up to their
#: terminator, and two-character escapes; and the 8-bit CSI.
_ESCAPE = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]?|[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?|[ -/]*[0-~]?)"
    r"|\x9b[0-?]*[ -/]*[@-~]?"
)
#: Control characters but the tab and the newline: C0, DEL, C1; the bidirectional marks,
#: overrides and isolates that reorder what a reader sees (U+061C, U+200E/F, U+202A–E,
#: U+2066–9); zero-width and invisible characters (U+200B–D, U+2060–4, U+FEFF); interlinear
#: annotations (U+FFF9–B); tag characters (U+E0000–U+E007F).
_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064"
    "\u2066-\u2069\ufeff\ufff9-\ufffb\U000e0000-\U000e007f]"
)
#: Line breaks other than the newline, which a terminal or the runner may break a line at.
_BREAKS = re.compile("\r\n|[\x85\u2028\u2029]")
#: A workflow command at a line start, after any whitespace (the runner trims it).
_COMMAND = re.compile(r"^([^\S\n]*)(::|##\[)", re.MULTILINE)


def plain(text: str) -> str:
    """``text`` without escape sequences or control characters (tab and newline stay), and
    with every line that would start a workflow command broken (``::error`` becomes
    ``: :error``, ``##[`` becomes ``# #[``)."""
    text = _CONTROL.sub("", _ESCAPE.sub("", _BREAKS.sub("\n", text)))
    return _COMMAND.sub(lambda m: f"{m[1]}{m[2][0]} {m[2][1:]}", text)


#: What a line break inside a one-line field is shown as.
LINE_BREAK = " ⏎ "


def plain_line(text: str) -> str:
    """:func:`plain` on one line: every line break shown as :data:`LINE_BREAK`."""
    return plain(text).replace("\n", LINE_BREAK)


def plain_document(value: Any) -> Any:
    """A JSON-able value with :func:`plain` applied to every string in it, keys included."""
    if isinstance(value, str):
        return plain(value)
    if isinstance(value, dict):
        return {plain_document(k): plain_document(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain_document(v) for v in value]
    return value
