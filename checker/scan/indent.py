"""Rebuilding the indentation of Python code that lost it (copied from a web page).

Logical lines are found with :mod:`tokenize` on the flattened text (every line stripped), so
strings and bracketed continuations spanning several lines stay whole. Then, line by line:

* the first statement after a compound header (a line ending in ``:``) is indented one level
  deeper than the header;
* where the article kept the indentation of a block (its body is deeper than its header in the
  text), a line at or left of the header's column ends the block;
* where it lost it, the block ends at: ``elif``/``else``/``except``/``finally`` (back to their
  ``if``/``try``/loop); after ``return`` or ``raise`` (the function ends), ``break`` or
  ``continue`` (the loop ends); at ``def``, ``class`` or a decorator (any block but a class
  ends); at any other statement after a method (the class ends); at ``import`` and
  ``if __name__ == ...`` (back to the top); and, for blocks other than functions and classes, at
  a blank line;
* comments take the indentation of the next statement; lines inside multi-line strings are
  kept as they are.

This is a heuristic: flat code is ambiguous (where does a loop end?). It is right for the usual
shape of examples, and the scanner always says when a result comes from repaired code.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass

STEP = 4
_CLAUSES = {
    "elif": ("if", "elif"),
    "else": ("if", "elif", "for", "while", "try", "except"),
    "except": ("try", "except"),
    "finally": ("try", "except", "else"),
}
_TOP_LEVEL = re.compile(r"^(?:import\s|from\s+\S+\s+import\s|if\s+__name__\s*==)")


@dataclass
class _Frame:
    kind: str
    indent: int
    orig: int
    body_orig: int | None = None

    @property
    def lost(self) -> bool:
        return self.body_orig is None or self.body_orig <= self.orig


@dataclass(frozen=True)
class _Logical:
    first: int  # 0-based row
    last: int
    keyword: str
    header: bool


def needs_repair(source: str) -> bool:
    """True when ``source`` does not compile because of its indentation."""
    try:
        compile(source, "<snippet>", "exec", dont_inherit=True)
    except IndentationError:
        return True
    except (SyntaxError, ValueError):
        return False
    return False


def repair(source: str) -> str | None:
    """``source`` with rebuilt indentation (same lines, same count), or ``None`` if it cannot
    be tokenized."""
    rows = source.split("\n")
    flat = [row.strip() for row in rows]
    parsed = _logical_lines("\n".join(flat))
    if parsed is None:
        return None
    logical, string_rows = parsed
    base = min((_orig(rows[line.first]) for line in logical), default=0)
    indents = _indents(rows, logical, base)
    out = list(flat)
    starts = {line.first: line for line in logical}
    pending_comments: list[int] = []
    for row, text in enumerate(flat):
        if row in string_rows:
            out[row] = rows[row]
        elif row in starts:
            line = starts[row]
            level = indents[row]
            for comment in pending_comments:
                out[comment] = " " * level + flat[comment]
            pending_comments = []
            out[row] = " " * level + text
            for continued in range(line.first + 1, line.last + 1):
                if continued not in string_rows and flat[continued]:
                    out[continued] = " " * (level + STEP) + flat[continued]
        elif text.startswith("#"):
            pending_comments.append(row)
    for comment in pending_comments:
        out[comment] = flat[comment]
    return "\n".join(out)


def _orig(row: str) -> int:
    return len(row.expandtabs(STEP)) - len(row.expandtabs(STEP).lstrip())


def _indents(rows: list[str], logical: list[_Logical], base: int) -> dict[int, int]:
    stack: list[_Frame] = []
    indents: dict[int, int] = {}
    expecting_body = False
    terminator = ""
    previous_last = -1
    for line in logical:
        orig = _orig(rows[line.first]) - base
        blank_before = any(not rows[r].strip() for r in range(previous_last + 1, line.first))
        if expecting_body and stack:
            stack[-1].body_orig = orig
        else:
            _close(stack, line, orig, blank_before, terminator)
        level = stack[-1].indent + STEP if stack else 0
        if line.keyword in _CLAUSES and stack and stack[-1].kind in _CLAUSES[line.keyword]:
            level = stack.pop().indent
        indents[line.first] = level
        expecting_body = line.header
        if line.header:
            stack.append(_Frame(line.keyword, level, orig))
        terminator = (
            line.keyword if line.keyword in ("return", "raise", "break", "continue") else ""
        )
        previous_last = line.last
    return indents


def _close(stack: list[_Frame], line: _Logical, orig: int, blank: bool, terminator: str) -> None:
    """Pop the blocks that ``line`` ends."""
    while stack and not stack[-1].lost and orig <= stack[-1].orig:
        stack.pop()
    if terminator in ("return", "raise"):
        _pop_through(stack, ("def",))
    elif terminator in ("break", "continue"):
        _pop_through(stack, ("for", "while"))
    if line.keyword in _CLAUSES:
        while stack and stack[-1].lost and stack[-1].kind not in _CLAUSES[line.keyword]:
            stack.pop()
        return
    if blank:
        while stack and stack[-1].lost and stack[-1].kind not in ("def", "class"):
            stack.pop()
    if line.keyword in ("def", "class", "@"):
        while stack and stack[-1].lost and stack[-1].kind != "class":
            stack.pop()
    elif line.keyword == "top":
        while stack and stack[-1].lost:
            stack.pop()
    elif stack and stack[-1].kind == "class" and stack[-1].lost and terminator:
        stack.pop()


def _pop_through(stack: list[_Frame], kinds: tuple[str, ...]) -> None:
    while stack and stack[-1].lost:
        if stack.pop().kind in kinds:
            return


def _logical_lines(text: str) -> tuple[list[_Logical], set[int]] | None:
    logical: list[_Logical] = []
    string_rows: set[int] = set()
    tokens: list[tokenize.TokenInfo] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text + "\n").readline):
            if token.type == tokenize.STRING and token.end[0] > token.start[0]:
                string_rows.update(range(token.start[0], token.end[0]))  # 0-based rows after
            if token.type in (tokenize.COMMENT, tokenize.NL) and not tokens:
                continue
            if token.type == tokenize.NEWLINE:
                if tokens:
                    logical.append(_make(tokens))
                tokens = []
            elif token.type not in (tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
                tokens.append(token)
    except (tokenize.TokenError, SyntaxError):
        return None
    return logical, string_rows


def _make(tokens: list[tokenize.TokenInfo]) -> _Logical:
    significant = [t for t in tokens if t.type not in (tokenize.COMMENT, tokenize.NL)]
    first = significant[0]
    text = first.line.strip()
    keyword = first.string
    if first.string == "@":
        keyword = "@"
    elif first.string == "async" and len(significant) > 1:
        keyword = significant[1].string
    elif _TOP_LEVEL.match(text):
        keyword = "top"
    header = significant[-1].string == ":" and keyword in (
        "if",
        "elif",
        "else",
        "for",
        "while",
        "with",
        "def",
        "class",
        "try",
        "except",
        "finally",
        "match",
        "case",
        "top",
    )
    if keyword == "top" and not header:
        keyword = "top"
    return _Logical(first.start[0] - 1, significant[-1].end[0] - 1, keyword, header)
