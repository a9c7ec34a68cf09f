"""Text from outside (a snippet's output, an exception, a catalog) made safe to print.

Every report format passes such text through :func:`plain` (text, JUnit, JSON) or
:func:`plain_document` (JSON documents), and every GitHub annotation through
:func:`checker.report.github.annotation`, so that nothing a scanned article, a probe or a
translation contains can drive a terminal (escape sequences: colours, cursor moves, window
titles, hyperlinks, a carriage return that overwrites a line) or the CI (a line starting with
``::error``, ``::add-mask::``, ``::stop-commands::`` or ``##[`` is a GitHub workflow command).
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
#: Control characters but the tab and the newline: C0, DEL, C1, and the bidirectional
#: overrides and isolates that reorder what a reader sees.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
#: A workflow command at a line start (the runner ignores leading spaces).
_COMMAND = re.compile(r"^([ \t]*)(::|##\[)", re.MULTILINE)


def plain(text: str) -> str:
    """``text`` without escape sequences or control characters (tab and newline stay), and
    with every line that would start a workflow command broken (``::error`` becomes
    ``: :error``, ``##[`` becomes ``# #[``)."""
    text = _CONTROL.sub("", _ESCAPE.sub("", text.replace("\r\n", "\n")))
    return _COMMAND.sub(lambda m: f"{m[1]}{m[2][0]} {m[2][1:]}", text)


def plain_document(value: Any) -> Any:
    """A JSON-able value with :func:`plain` applied to every string in it, keys included."""
    if isinstance(value, str):
        return plain(value)
    if isinstance(value, dict):
        return {plain_document(k): plain_document(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain_document(v) for v in value]
    return value
