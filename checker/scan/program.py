"""A snippet as the sandbox runs it: its statements, and the outputs the article says they print.

Expected output comes from, in order of precedence:

1. doctest examples (``>>>`` prompts, or an IPython transcript's ``In [n]:``/``Out[n]:``):
   each example's output, compared with what it echoes;
2. output blocks: a bare string literal after code that prints (``'''\\nFalse\\n'''``), or the
   output the article shows after the code (a ``text`` fence, a notebook output). Such a block
   covers everything printed since the previous one;
3. when there is no output block: value comments, ``print(x)  # True``, ``x.is_leaf  # True``,
   ``y = x * 2  # tensor([2., 4.])``, or comment lines right after the statement
   (``# tensor([5., 5.])``, ``# 出力: True``), whose text states a value
   (:func:`checker.scan.values.stated_value`). A comment covers the one top-level statement it
   annotates: what a ``print`` printed, the value of an expression, or the value an assignment
   gave its name (the sandbox reports those values, see :attr:`Expectation.value`).

4. with the value comments: comments saying a top-level statement raises, or runs without
   error (``x.add_(1)  # RuntimeError: ...``, ``y.mul_(2)  # エラーになる``, ``z += 1  # no
   error``; :func:`checker.scan.raising.stated_outcome`). A statement said to raise has the
   sandbox catch its exception and go on, as a doctest does (:attr:`Expectation.source`
   ``raises``); one said to run must not raise (``runs``).

Statements whose output varies from run to run (they print an ``id()`` or an address) are
never compared.
"""

from __future__ import annotations

import ast
import io
import re
import textwrap
import tokenize
from dataclasses import dataclass

from checker.scan.raising import RAISES, stated_outcome
from checker.scan.values import stated_value

_PROMPT = re.compile(r"^(\s*)(>>>|\.\.\.)( |$)")
_IPYTHON_IN = re.compile(r"^\s*In \[\d*\]: ?")
_IPYTHON_MORE = re.compile(r"^\s*\.\.\.+: ?")
_IPYTHON_OUT = re.compile(r"^\s*Out\[\d*\]: ?")
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
    source: str  # "doctest" | "block" | "comment" | "raises" | "runs"
    #: What a comment is compared with: ``""`` what the statement printed; ``"expr"`` the
    #: value of the expression statement; else the name whose value the statement set.
    value: str = ""
    #: For the prints inside a ``with`` block, each with a value comment: ``(article line,
    #: value)`` in order; :attr:`text` is their values, one per line.
    parts: tuple[tuple[int, str], ...] = ()
    #: For ``raises`` and ``runs``: the comment's words (:attr:`text` is the exception it
    #: names, or ``""``).
    said: str = ""


@dataclass(frozen=True)
class ProgramStatement:
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


def from_block(text: str, lines: tuple[int, ...]) -> tuple[Program, list[tuple[int, str, int]]]:
    """The program of a code block, and for doctest sessions the examples' outputs as
    ``(source line after which it is shown, text, article line of its first line)``. A block
    indented as a whole (indented Markdown code, code under a list item) is dedented first."""
    text = textwrap.dedent(text)
    raw = text.split("\n")
    if any(_IPYTHON_IN.match(line) for line in raw):
        raw = _ipython_as_doctest(raw)
    if not any(_PROMPT.match(line) and line.lstrip().startswith(">>>") for line in raw):
        return Program(text, lines, "exec", False), []
    source: list[str] = []
    source_lines: list[int] = []
    outputs: list[tuple[int, str, int]] = []
    pending: list[str] = []
    shown_at = 0
    for line, number in zip(raw, lines, strict=True):
        match = _PROMPT.match(line)
        if match and match.group(2) == "..." and pending:
            match = None  # "..." inside shown output (a traceback's elided frames) is output
        if match:
            if pending and source:
                outputs.append((len(source), "\n".join(pending), shown_at))
            pending = []
            source.append(line[match.end() :])
            source_lines.append(number)
        elif line.strip():
            shown_at = shown_at if pending else number
            pending.append(line.strip())
    if pending and source:
        outputs.append((len(source), "\n".join(pending), shown_at))
    return Program("\n".join(source), tuple(source_lines), "single", True), outputs


def _ipython_as_doctest(raw: list[str]) -> list[str]:
    """An IPython or Jupyter console transcript (``In [3]: y = x.t()``, ``   ...:`` for
    continued lines, ``Out[4]: True``) in doctest form, line for line. A magic or shell line
    (``%timeit``, ``!pip``) runs nothing, and what it printed is not compared."""
    converted: list[str] = []
    magic = False
    for line in raw:
        opened = _IPYTHON_IN.match(line)
        continued = _IPYTHON_MORE.match(line)
        if opened:
            code = line[opened.end() :]
            magic = code.lstrip().startswith(("%", "!"))
            converted.append(">>> pass" if magic else f">>> {code}")
        elif continued and not magic:
            converted.append(f"... {line[continued.end() :]}")
        elif magic:
            converted.append("")
        else:
            shown = _IPYTHON_OUT.match(line)
            converted.append(line[shown.end() :] if shown else line)
    return converted


def statements(tree: ast.Module) -> list[ProgramStatement]:
    return [ProgramStatement(node.lineno, node.end_lineno or node.lineno) for node in tree.body]


def expectations(
    program: Program,
    tree: ast.Module,
    doctest_outputs: list[tuple[int, str, int]],
    shown_after: str | None,
    shown_line: int,
) -> list[Expectation]:
    """Expected outputs of a parsed program (see the module docstring for the rules)."""
    stmts = statements(tree)
    if not stmts:
        return []
    source_lines = program.source.split("\n")
    if program.doctest:
        return _ranged(
            program, stmts, [(line, text, "doctest", at) for line, text, at in doctest_outputs]
        )
    marks: list[tuple[int, str, str, int]] = []
    for node in tree.body:
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
            and node.lineno > stmts[0].start
        ):
            marks.append((node.lineno - 1, node.value.value, "block", 0))
    if shown_after is not None:
        marks.append((len(source_lines), shown_after, "block", shown_line))
    if marks:
        return _ranged(program, stmts, marks)
    found = _comments(program, stmts, source_lines)
    valued = {e.line for e in found}
    return sorted(
        found + [e for e in _outcomes(program, tree, source_lines) if e.line not in valued],
        key=lambda e: (e.first, e.line),
    )


def _outcomes(program: Program, tree: ast.Module, source: list[str]) -> list[Expectation]:
    """What comments say of running a statement: on the line of a top-level simple statement,
    that it raises or runs without error, and on the comment lines under it, the exception it
    prints; on a line of one statement anywhere (a loop's, a function's), that it runs without
    error (whenever it runs, it must not raise there)."""
    comments = _comment_tokens(program.source)
    top = {id(node): index for index, node in enumerate(tree.body)}
    found = []
    for index, outer in enumerate(tree.body):
        for node in ast.walk(outer):
            if not isinstance(node, ast.stmt) or isinstance(node, _COMPOUND):
                continue
            end = node.end_lineno or node.lineno
            rows = [(row, False) for row in dict.fromkeys((end, node.lineno)) if row in comments]
            if id(node) in top:
                rows += _comment_under(tree, index, source, comments)
            for row, own_line in rows:
                stated = stated_outcome(comments[row], own_line=own_line)
                if stated is None or (stated.kind == RAISES and id(node) not in top):
                    continue
                if stated.kind != RAISES and node.lineno != end:
                    continue  # a line that raises is one line
                found.append(
                    Expectation(
                        index,
                        index,
                        stated.exception,
                        program.article_line(row),
                        stated.kind,
                        said=stated.words,
                    )
                )
                break
    return found


def _comment_under(
    tree: ast.Module, index: int, source: list[str], comments: dict[int, str]
) -> list[tuple[int, bool]]:
    """The first comment line right under top-level statement ``index``, if any."""
    node = tree.body[index]
    row = (node.end_lineno or node.lineno) + 1
    following = tree.body[index + 1].lineno if index + 1 < len(tree.body) else len(source) + 1
    while row < following and source[row - 1].strip().startswith("#"):
        if comments.get(row):
            return [(row, True)]
        row += 1
    return []


#: Statements whose lines may run many times, never or in part: a comment on them says
#: nothing of one run.
_COMPOUND = (
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.If,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Match,
)


def _ranged(
    program: Program,
    stmts: list[ProgramStatement],
    marks: list[tuple[int, str, str, int]],
) -> list[Expectation]:
    """Each mark covers the statements that end before it and after the previous mark; it is
    shown at its article line (0: the line after the statements, for a string literal)."""
    found: list[Expectation] = []
    first = 0
    for after_line, text, kind, shown_at in sorted(marks):
        covered = [i for i, s in enumerate(stmts) if first <= i and s.end <= after_line]
        if not covered:
            continue
        last = covered[-1]
        if not _varies(program, stmts, covered[0], last):
            line = shown_at or program.article_line(after_line + 1)
            found.append(Expectation(covered[0], last, text, line, kind))
        first = last + 1
    return found


def _comments(
    program: Program, stmts: list[ProgramStatement], source: list[str]
) -> list[Expectation]:
    comments = _comment_tokens(program.source)
    try:
        body = ast.parse(program.source).body
    except SyntaxError:
        return []
    found = []
    for index, (stmt, node) in enumerate(zip(stmts, body, strict=True)):
        what, names = _compared(node)
        if what is None:
            nested = _nested_prints(node, comments)
            if nested and not _varies(program, stmts, index, index):
                parts = tuple((program.article_line(line), value) for line, value in nested)
                joined = "\n".join(value for _, value in parts)
                found.append(Expectation(index, index, joined, parts[0][0], "comment", "", parts))
            continue
        following = stmts[index + 1].start if index + 1 < len(stmts) else len(source) + 1
        text, line = comments.get(stmt.end), stmt.end
        if text is None:  # comment lines right after the statement, before the next one
            row = stmt.end + 1
            lines = []
            while row < following and source[row - 1].strip().startswith("#"):
                lines.append(comments.get(row, ""))
                row += 1
            if lines and re.fullmatch(r"[^:：]{0,20}[:：]", lines[0].strip()):
                lines[0] = ""  # "# Output:" with the value on the lines below
            text, line = " ".join(x for x in lines if x) or None, stmt.end + 1
        if text is None:
            continue
        value = stated_value(text, names)
        if value is not None and not _varies(program, stmts, index, index):
            line = _first_comment_line(source, line, following)
            found.append(
                Expectation(index, index, value, program.article_line(line), "comment", what)
            )
    return found


def _nested_prints(node: ast.stmt, comments: dict[int, str]) -> list[tuple[int, str]]:
    """The prints of a ``with`` block (run once, in order: no loop, function or branch around
    them) when each has a value comment on its line: ``(source line, value)``; else none."""
    if not isinstance(node, (ast.With, ast.AsyncWith)):
        return []
    prints: list[ast.Call] = []
    pending: list[ast.AST] = list(node.body)
    while pending:
        child = pending.pop(0)
        if isinstance(child, (ast.For, ast.While, ast.If, ast.Try, ast.FunctionDef, ast.Lambda)):
            if any(_is_print(n) for n in ast.walk(child)):
                return []  # a print that may run never, or many times
            continue
        if _is_print(child):
            prints.append(child)  # type: ignore[arg-type]
        pending[:0] = list(ast.iter_child_nodes(child))
    found = []
    for call in prints:
        line = call.end_lineno or call.lineno
        value = stated_value(comments.get(line, ""), tuple(ast.unparse(a) for a in call.args))
        if value is None:
            return []
        found.append((line, value))
    return found


def _is_print(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print"
    )


def _first_comment_line(source: list[str], line: int, following: int) -> int:
    """The line of the first non-empty comment at or after ``line``."""
    for row in range(line, min(following, len(source) + 1)):
        text = source[row - 1].split("#", 1)[1] if "#" in source[row - 1] else ""
        if text.strip() and not re.fullmatch(r"[^:：]{0,20}[:：]", text.strip()):
            return row
    return line


def _compared(node: ast.stmt) -> tuple[str | None, tuple[str, ...]]:
    """What a value comment on ``node`` is compared with (see :attr:`Expectation.value`), and
    the names a comment may repeat before the value."""
    if isinstance(node, ast.Expr):
        call = node.value
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id == "print"
        ):
            return "", tuple(ast.unparse(a) for a in call.args)
        return "expr", (ast.unparse(node.value),)
    if (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
    ):
        name = node.targets[0].id
        return name, (name,)
    return None, ()


def _comment_tokens(source: str) -> dict[int, str]:
    found: dict[int, str] = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                found[token.start[0]] = token.string.lstrip("#").strip()
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return found


def _varies(program: Program, stmts: list[ProgramStatement], first: int, last: int) -> bool:
    lines = program.source.split("\n")[stmts[first].start - 1 : stmts[last].end]
    return any(_VARYING.search(line) and not _COMPARED.search(line) for line in lines)
