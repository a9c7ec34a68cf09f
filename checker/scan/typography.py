"""What publishing does to code that then does not compile: a blog engine's typographic
quotes (“ ” ‘ ’), full-width spaces and punctuation typed with a Japanese or Korean input
method, and line numbers copied along with the code.

:func:`restore` undoes them, only for code that does not compile as published; the scanner
then runs the restored code and says so, as it does for lost indentation (``indent``).
"""

from __future__ import annotations

import itertools
import re
import textwrap

#: Characters a publishing tool or an input method puts where Python wants ASCII.
_ASCII = str.maketrans(
    {
        "“": '"',
        "”": '"',
        "„": '"',
        "‘": "'",
        "’": "'",
        "\u3000": " ",
        "（": "(",
        "）": ")",
        "：": ":",
        "，": ",",
        "＝": "=",
        "［": "[",
        "］": "]",
    }
)
_NUMBERED = re.compile(r"^\s*(\d+)(?:[:.|]\s?|\s|$)")


def restore(source: str) -> tuple[str, str] | None:
    """``source`` with its publishing artifacts undone, and what was undone ("its typographic
    quotes replaced", "its line numbers removed"), or ``None`` when there is nothing to undo.
    Lines keep their count and order."""
    undone = []
    restored = source
    numbered = _without_line_numbers(restored)
    if numbered is not None:
        restored = numbered
        undone.append("its line numbers removed")
    ascii_only = restored.translate(_ASCII)
    if ascii_only != restored:
        restored = ascii_only
        undone.append("its typographic characters replaced")
    return (restored, " and ".join(undone)) if undone else None


def _without_line_numbers(source: str) -> str | None:
    """``source`` without the line numbers that start every non-blank line, counting up by
    one ("1  import torch", "2  x = ..."); ``None`` when its lines are not numbered so."""
    rows = source.split("\n")
    numbers = [_NUMBERED.match(row) for row in rows if row.strip()]
    if len(numbers) < 2 or not all(numbers):
        return None
    values = [int(m.group(1)) for m in numbers if m]
    if any(b != a + 1 for a, b in itertools.pairwise(values)):
        return None
    stripped = [row[m.end() :] if (m := _NUMBERED.match(row)) else row for row in rows]
    return textwrap.dedent("\n".join(stripped))
