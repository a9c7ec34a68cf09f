"""A snippet as the sandbox runs it: its statements, and the outputs the article says they print.

Expected output comes from, in order of precedence:

1. doctest examples (``>>>`` prompts): each example's output, compared with what it echoes;
2. output blocks: a bare string literal after code that prints (``'''\\nFalse\\n'''``), or the
   output the article shows after the code (a ``text`` fence, a notebook output). Such a block
   covers everything printed since the previous one;
3. when there is no output block: value comments, ``print(x)  # True`` or a ``# True`` line
   right after the statement, whose text is a value (``True``, ``None``, a number, a
   ``tensor(...)`` or a list). A comment covers the one statement it annotates.

Statements whose output varies from run to run (they print an ``id()`` or an address) are
never compared.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass

_PROMPT = re.compile(r"^(\s*)(>>>|\.\.\.)( |$)")
_VALUE = re.compile(
    r"^(?:True|False|None|[-+]?\d[\d_]*(?:\.\d*)?(?:e[-+]?\d+)?|tensor\(.*\)?|\[.*\]?|\(.*\))$"
)
_VARYING = re.compile(r"\bid\(|0x[0-9a-f]{6,}")
_COMPARED = re.compile(r"==|!=|\bis\b")


@dataclass(frozen=True)
class Expectation:
    #: Index of the first and last statement (of :attr:`Program.statements`) it covers.
    first: int
    last: int
    text: str
    #: Article line where the expected output is shown.
    line: int
    source: str  # "doctest" | "block" | "comment"


@dataclass(frozen=True)
class Statement:
    #: 1-based first and last source lines.
    start: int
    end: int


@dataclass(frozen=True)
class Program:
    """What the sandbox runs: ``source`` (lines map to ``lines``), in ``mode``."""

    source: str
    lines: tuple[int, ...]
    #: ``exec`` for scripts, ``single`` for doctest sessions (expression values are echoed),
    #: ``last`` for notebook cells (the last statement's value is echoed).
    mode: str
    doctest: bool

    def article_line(self, source_line: int) -> int:
        if not self.lines:
            return 1
        return self.lines[max(0, min(source_line, len(self.lines)) - 1)]


def from_block(text: str, lines: tuple[int, ...]) -> tuple[Program, list[tuple[int, str]]]:
    """The program of a code block, and for doctest sessions the examples' outputs as
    ``(source line after which it is shown, text)``."""
    raw = text.split("\n")
    if not any(_PROMPT.match(line) and line.lstrip().startswith(">>>") for line in raw):
        return Program(text, lines, "exec", False), []
    source: list[str] = []
    source_lines: list[int] = []
    outputs: list[tuple[int, str]] = []
    pending: list[str] = []
    for line, number in zip(raw, lines, strict=True):
        match = _PROMPT.match(line)
        if match:
            if pending and source:
                outputs.append((len(source), "\n".join(pending)))
            pending = []
            source.append(line[match.end() :])
            source_lines.append(number)
        elif line.strip():
            pending.append(line.strip())
    if pending and source:
        outputs.append((len(source), "\n".join(pending)))
    return Program("\n".join(source), tuple(source_lines), "single", True), outputs


def statements(tree: ast.Module) -> list[Statement]:
    return [Statement(node.lineno, node.end_lineno or node.lineno) for node in tree.body]


def expectations(
    program: Program,
    tree: ast.Module,
    doctest_outputs: list[tuple[int, str]],
    shown_after: str | None,
    shown_line: int,
) -> list[Expectation]:
    """Expected outputs of a parsed program (see the module docstring for the rules)."""
    stmts = statements(tree)
    if not stmts:
        return []
    source_lines = program.source.split("\n")
    if program.doctest:
        return _ranged(program, stmts, [(line, text, "doctest") for line, text in doctest_outputs])
    marks: list[tuple[int, str, str]] = []
    for node in tree.body:
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
            and node.lineno > stmts[0].start
        ):
            marks.append((node.lineno - 1, node.value.value, "block"))
    if shown_after is not None:
        marks.append((len(source_lines), shown_after, "block"))
    if marks:
        return _ranged(program, stmts, marks)
    return _comments(program, stmts, source_lines)


def _ranged(
    program: Program,
    stmts: list[Statement],
    marks: list[tuple[int, str, str]],
) -> list[Expectation]:
    """Each mark covers the statements that end before it and after the previous mark."""
    found: list[Expectation] = []
    first = 0
    for after_line, text, kind in sorted(marks):
        covered = [i for i, s in enumerate(stmts) if first <= i and s.end <= after_line]
        if not covered:
            continue
        last = covered[-1]
        if not _varies(program, stmts, covered[0], last):
            found.append(
                Expectation(covered[0], last, text, program.article_line(after_line + 1), kind)
            )
        first = last + 1
    return found


def _comments(program: Program, stmts: list[Statement], source: list[str]) -> list[Expectation]:
    comments = _comment_tokens(program.source)
    found = []
    for index, stmt in enumerate(stmts):
        for line in (stmt.end, stmt.end + 1):
            text = comments.get(line)
            if text is None or (line == stmt.end + 1 and source[line - 1].strip()[:1] != "#"):
                continue
            if line == stmt.end + 1 and index + 1 < len(stmts) and stmts[index + 1].start <= line:
                continue
            if _VALUE.match(text) and not _varies(program, stmts, index, index):
                found.append(Expectation(index, index, text, program.article_line(line), "comment"))
            break
    return found


def _comment_tokens(source: str) -> dict[int, str]:
    found: dict[int, str] = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                found[token.start[0]] = token.string.lstrip("#").strip()
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return found


def _varies(program: Program, stmts: list[Statement], first: int, last: int) -> bool:
    lines = program.source.split("\n")[stmts[first].start - 1 : stmts[last].end]
    return any(_VARYING.search(line) and not _COMPARED.search(line) for line in lines)
