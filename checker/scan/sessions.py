"""What an article's earlier snippets say about one that raised: a variant of an earlier line.

An article's snippets run in order in one session, as a reader runs them; but an article is
not always a program. A snippet that is one call an earlier snippet makes with other
arguments (``y.backward()`` there, ``y.backward(retain_graph=True)`` here) is meant to take
that line's place, not to run after it: when it raises, it is ``unverified``. (An error the
article quotes is ``checker.scan.announced``'s business, a name an earlier snippet defines
or a value an earlier failure left undone ``checker.scan.snippets``' and ``taint``'s.)
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from checker.scan.findings import FindingVerdict
from checker.scan.program import Program
from checker.text.said import Said, said


def record(calls: dict[str, tuple[int, str]], program: Program | None) -> None:
    """Add the calls ``program`` makes as statements of its own to ``calls``: by what they
    call (``y.backward``), the article line of the last and the call as written."""
    if program is not None:
        calls.update(_calls(program))


def variant(
    program: Program, raised: str, line: int, calls: Mapping[str, tuple[int, str]]
) -> tuple[FindingVerdict, int | None, Said] | None:
    """``unverified`` for a snippet that raised ``raised`` (``Type: message``) at article
    ``line`` and is one call an earlier snippet makes (``calls``) with other arguments; else
    ``None``."""
    own = _calls(program)
    if len(own) != 1 or _statements(program) != 1:
        return None
    callee, (_, call) = own[0]
    before = calls.get(callee)
    if before is None or before[1] == call:
        return None
    return (
        FindingVerdict.UNVERIFIED,
        line,
        said(
            "raises {error} (line {line}): {call} is the call of line {at} ({before}) with "
            "other arguments, meant to take its place rather than to run after it",
            error=raised,
            line=line,
            call=f"`{call}`",
            at=before[0],
            before=f"`{before[1]}`",
        ),
    )


def _statements(program: Program) -> int:
    try:
        return len(ast.parse(program.source).body)
    except SyntaxError:
        return 0


def _calls(program: Program) -> list[tuple[str, tuple[int, str]]]:
    """The top-level statements of ``program`` that are one call of a method (``y.backward()``,
    not ``print(y)``): ``(what it calls, (article line, the call as written))``."""
    try:
        tree = ast.parse(program.source)
    except SyntaxError:
        return []
    return [
        (ast.unparse(node.value.func), (program.article_line(node.lineno), ast.unparse(node.value)))
        for node in tree.body
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
    ]
