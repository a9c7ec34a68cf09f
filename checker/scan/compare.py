"""Comparing what a snippet printed with what the article says it prints.

A shown traceback (doctest's, or IPython's) matches when the run raised the same exception
with the same message, ``...`` standing for anything in it. Otherwise: strict on values,
tolerant of formatting: whitespace runs are one space, an object's address is any address; a
number matches when it differs by at most one unit in the last digit the article prints, or
by a relative 1e-6 (``0.3793`` accepts ``0.37926``; ``2.`` and ``2.0`` are equal), but a
number shown as a float (``2.``, ``2.0``, ``1e-3``) is not an integer the run printed, nor an
integer shown in a ``tensor(...)`` a float there (the dtype differs); everything else must be
identical. Lines the article adds that hold no value (a lone ``:``, a stray comment, a note
without digits after the last printed line) and ``# comments`` after a value are ignored.
"""

from __future__ import annotations

import math
import re

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
_SPACE = re.compile(r"\s+")
_FLOAT = re.compile(r"[.eE]")
_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{6,}\b")
_PUNCTUATION_ONLY = re.compile(r"^[\W_]*$")


#: The first line of a shown traceback: doctest's, or IPython's rule and header.
_TRACEBACK = re.compile(r"^\s*(?:Traceback \(most recent call last\)|-{10,}\s*$)", re.MULTILINE)
#: The line that names the exception: ``RuntimeError: message`` (a dotted name allowed).
_EXCEPTION = re.compile(
    r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning))(?::\s*(.*))?$"
)


def shown_exception(text: str, *, bare: bool = False) -> tuple[str, str] | None:
    """The exception (type without its module, message) that a shown output is the
    traceback of, or ``None`` when it is no traceback. ``bare``: an output whose last line
    names an exception with its message counts too, without the traceback's header (for code
    that did raise: what an article pasted under code without the traceback)."""
    if not _TRACEBACK.match(text.lstrip("\n")):
        if not bare or not text.strip():
            return None
        found = _EXCEPTION.match(text.strip().split("\n")[-1].strip())
        if found is None or not found.group(2):
            return None
        return found.group(1).rsplit(".", 1)[-1], found.group(2).strip()
    for line in reversed(text.strip().split("\n")):
        found = _EXCEPTION.match(line.strip())
        if found:
            return found.group(1).rsplit(".", 1)[-1], (found.group(2) or "").strip()
    return None


def brief(text: str, *, bare: bool = False) -> str:
    """What a shown output says, in a line: the exception of a traceback (``bare``: see
    :func:`shown_exception`), else the text."""
    exception = shown_exception(text, bare=bare)
    return f"{exception[0]}: {exception[1]}".rstrip(": ") if exception else text


def matches(expected: str, got: str, *, kinds: bool = True, bare: bool = False) -> bool:
    """Whether ``got`` (what ran) prints what ``expected`` (what the article shows) shows;
    ``kinds=False``: a float where the article shows an integer, or the reverse, is the same
    number (a repair changed the dtype); ``bare``: see :func:`shown_exception`."""
    want_exception = shown_exception(expected, bare=bare)
    if want_exception is not None:  # the article shows an exception: the same one, raised
        got_exception = shown_exception(got)
        return got_exception is not None and _same_exception(want_exception, got_exception)
    want_lines = _clean_expected(expected, got)
    got_lines = [_normal(line) for line in got.strip("\n").split("\n") if line.strip()]
    if len(want_lines) != len(got_lines):
        return False
    return all(_same(w, g, kinds) for w, g in zip(want_lines, got_lines, strict=True))


def _clean_expected(expected: str, got: str) -> list[str]:
    lines = []
    for raw in expected.strip("\n").split("\n"):
        line = raw.strip()
        if "#" in line and "#" not in got:
            line = line.split("#", 1)[0].strip()
        if not line or _PUNCTUATION_ONLY.match(line):
            continue
        lines.append(_normal(line))
    got_count = len([x for x in got.split("\n") if x.strip()])
    while len(lines) > got_count and not re.search(r"\d|True|False|None", lines[-1]):
        lines.pop()  # a note after the output (a comment that lost its '#')
    return lines


def _normal(line: str) -> str:
    """Whitespace runs as one space; an object's address (``at 0x7f3a...``), which differs
    from run to run, as ``0x...``."""
    return _ADDRESS.sub("0x...", _SPACE.sub(" ", line.strip()))


def _same(want: str, got: str, kinds: bool = True) -> bool:
    want_numbers, got_numbers = _NUMBER.findall(want), _NUMBER.findall(got)
    if _NUMBER.sub("0", want).replace(" ", "") != _NUMBER.sub("0", got).replace(" ", ""):
        return False
    if len(want_numbers) != len(got_numbers):
        return False
    tensor = "tensor(" in want
    return all(
        close(w, g) and (not kinds or _same_kind(w, g, tensor))
        for w, g in zip(want_numbers, got_numbers, strict=True)
    )


def _same_kind(want: str, got: str, tensor: bool) -> bool:
    """A float shown is no integer printed; in a tensor's repr, nor the reverse."""
    want_float, got_float = _FLOAT.search(want) is not None, _FLOAT.search(got) is not None
    if want_float and not got_float:
        return False
    return not (tensor and got_float and not want_float)


def close(want: str, got: str) -> bool:
    """Whether the number ``got`` is the number ``want`` as the article prints it."""
    a, b = float(want), float(got)
    if a == b or (math.isnan(a) and math.isnan(b)):  # infinities included
        return True
    if "." not in want and "e" not in want.lower():
        return a == b
    decimals = (
        len(want.split(".", 1)[1].split("e", maxsplit=1)[0].split("E", maxsplit=1)[0])
        if "." in want
        else 0
    )
    unit = 10.0**-decimals if decimals else 0.0
    return abs(a - b) <= max(unit, 1e-6 * abs(a)) * (1 + 1e-9)


def _same_exception(want: tuple[str, str], got: tuple[str, str]) -> bool:
    """Same type; the message as doctest's ELLIPSIS reads it ("..." stands for anything),
    whitespace runs as one space. A shown message that is cut short matches its start."""
    if want[0] != got[0]:
        return False
    pattern = ".*".join(re.escape(_normal(part)) for part in want[1].split("..."))
    return re.match(pattern, _normal(got[1]), re.DOTALL) is not None
