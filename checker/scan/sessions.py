"""What an article's earlier snippets say about the one that raised.

An article's snippets run in order in one session, as a reader runs them; but an article is
not always a program. When a snippet raises, what came before it may say the error is not
this snippet's own fault, or that the article shows it:

* **a variant of an earlier line**: the snippet is one call that an earlier snippet makes with
  other arguments (``y.backward()`` there, ``y.backward(retain_graph=True)`` here): it is
  meant to take that line's place, not to run after it -> ``unverified``;
* **the same code again**: the snippet repeats, up to the line that raised, code that raised
  the same error where the article showed it -> ``supported``.

(A ``NameError`` for a name an earlier snippet defines, and a value an earlier failure left
undone (``checker.scan.taint``), are ``checker.scan.snippets``' business.)
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass, field

from checker.scan.findings import FindingVerdict
from checker.scan.program import Program
from checker.scan.sandbox import SnippetOutcome


@dataclass
class SnippetLog:
    """The snippets judged so far in an article, in order: what they leave for the next."""

    #: Code (:func:`same_code`, up to the line that raised) of snippets that raised as the
    #: article shows: the line of that snippet and the error (``Type: message``).
    shown_raising: dict[str, tuple[int, str]] = field(default_factory=dict)
    #: The calls snippets make as statements of their own, by what they call
    #: (``y.backward``): the article line of the last, and the call as written.
    calls: dict[str, tuple[int, str]] = field(default_factory=dict)

    def record(
        self,
        line: int,
        program: Program | None,
        outcome: SnippetOutcome | None,
        verdict: FindingVerdict,
    ) -> None:
        """What the snippet at article ``line`` leaves: its calls, and its code if it raised
        as the article shows (``verdict`` supported)."""
        if program is None:
            return
        for callee, call in _calls(program):
            self.calls[callee] = call
        error = outcome.error if outcome is not None else None
        if error is not None and verdict is FindingVerdict.SUPPORTED:
            raised = f"{error.type}: {error.message}".strip().rstrip(":")
            self.shown_raising[same_code(program.source, error.line)] = (line, raised)


def earlier_verdict(  # noqa: PLR0917
    program: Program,
    raised: str,
    at: int,
    line: int,
    shown_raising: Mapping[str, tuple[int, str]],
    calls: Mapping[str, tuple[int, str]],
) -> tuple[FindingVerdict, int | None, str] | None:
    """The verdict that the snippets before (:class:`SnippetLog`) give a snippet that raised
    ``raised`` (``Type: message``) at its line ``at``, article ``line``, or ``None``."""
    own = _calls(program)
    if len(own) == 1 and _statements(program) == 1:
        callee, (_, call) = own[0]
        before = calls.get(callee)
        if before is not None and before[1] != call:
            return (
                FindingVerdict.UNVERIFIED,
                line,
                f"raises {raised} (line {line}): `{call}` is the call of line {before[0]} "
                f"(`{before[1]}`) with other arguments, meant to take its place rather than "
                "to run after it",
            )
    shown = shown_raising.get(same_code(program.source, at))
    if shown is not None and shown[1] == raised:
        return (
            FindingVerdict.SUPPORTED,
            None,
            f"raises {raised} (line {line}), as the article shows for the same code at line "
            f"{shown[0]}",
        )
    return None


def same_code(source: str, upto: int) -> str:
    """A snippet's code up to line ``upto`` (where it raised), as compared with another's:
    its lines stripped, blank lines out."""
    return "\n".join(line.strip() for line in source.split("\n")[:upto] if line.strip())


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
