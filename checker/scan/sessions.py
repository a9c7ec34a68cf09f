"""What an article's earlier snippets say about the one that raised.

An article's snippets run in order in one session, as a reader runs them; but an article is
not always a program. When a snippet raises, what came before it may say the error is not
this snippet's own fault, or that the article shows it:

* **a state a failure left**: the snippet uses a name that an earlier snippet was still
  working on when it stopped on an error (the name appears again after the line that
  raised): what the name holds is not what the article meant -> ``unverified``;
* **a variant of an earlier line**: the snippet is one call that an earlier snippet makes with
  other arguments (``y.backward()`` there, ``y.backward(retain_graph=True)`` here): it is
  meant to take that line's place, not to run after it -> ``unverified``;
* **the same code again**: the snippet repeats, up to the line that raised, code that raised
  the same error where the article showed it -> ``supported``.

(A ``NameError`` for a name an earlier snippet defines is ``checker.scan.snippets``' business.)
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from checker.scan.findings import FindingVerdict
from checker.scan.program import Program
from checker.scan.sandbox import SnippetOutcome


@dataclass(frozen=True)
class Session:
    """What the snippets before one say about its names and its code."""

    #: Names bound by the snippets before this one, with the first line binding each.
    earlier: dict[str, int]
    #: Names bound anywhere in the article.
    anywhere: frozenset[str]
    #: Names (not modules) an earlier snippet was still working on when it stopped on an
    #: error: ``(line of that snippet, line of its error)``.
    stopped: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: Code (:func:`same_code`, up to the line that raised) of earlier snippets that raised
    #: as the article shows: the line of that snippet and the error (``Type: message``).
    shown_raising: dict[str, tuple[int, str]] = field(default_factory=dict)
    #: The calls earlier snippets make as statements of their own, by what they call
    #: (``y.backward``): the article line of the last, and the call as written.
    calls: dict[str, tuple[int, str]] = field(default_factory=dict)


@dataclass
class SnippetLog:
    """The snippets judged so far in an article, in order: :meth:`session` for the next."""

    anywhere: frozenset[str]
    _earlier: dict[str, int] = field(default_factory=dict)
    _stopped: dict[str, tuple[int, int]] = field(default_factory=dict)
    _shown_raising: dict[str, tuple[int, str]] = field(default_factory=dict)
    _calls: dict[str, tuple[int, str]] = field(default_factory=dict)

    def session(self) -> Session:
        return Session(
            dict(self._earlier),
            self.anywhere,
            dict(self._stopped),
            dict(self._shown_raising),
            dict(self._calls),
        )

    def record(  # noqa: PLR0917  what one judged snippet leaves
        self,
        line: int,
        program: Program | None,
        binds: frozenset[str],
        imports: frozenset[str],
        outcome: SnippetOutcome | None,
        verdict: FindingVerdict,
    ) -> None:
        """What the snippet at article ``line`` leaves for the next ones: the names it
        ``binds`` (of them, those it ``imports``), how it ran and the verdict it got."""
        for name in binds:
            self._earlier.setdefault(name, line)
            self._stopped.pop(name, None)
        if program is None:
            return
        for callee, call in _calls(program):
            self._calls[callee] = call
        error = outcome.error if outcome is not None else None
        if error is None:
            return
        after = "\n".join(program.source.split("\n")[error.line :])
        stop = program.article_line(error.line)
        for name in binds - imports:
            if re.search(rf"(?<![\w.]){re.escape(name)}\b", after):
                self._stopped[name] = (line, stop)
        if verdict is FindingVerdict.SUPPORTED:
            raised = f"{error.type}: {error.message}".strip().rstrip(":")
            self._shown_raising[same_code(program.source, error.line)] = (line, raised)


def earlier_verdict(  # noqa: PLR0917
    program: Program,
    reads: frozenset[str],
    raised: str,
    at: int,
    line: int,
    session: Session,
) -> tuple[FindingVerdict, int | None, str] | None:
    """The verdict that the snippets before give a snippet that raised ``raised`` (``Type:
    message``) at its line ``at``, article ``line`` (``reads``: the names it reads and does
    not bind), or ``None``."""
    inherited = sorted(reads & session.stopped.keys())
    if inherited:
        snippet, stop = session.stopped[inherited[0]]
        return (
            FindingVerdict.UNVERIFIED,
            line,
            f"raises {raised} (line {line}): it uses `{inherited[0]}`, which the snippet at "
            f"line {snippet} was still working on when it stopped on an error at line {stop}",
        )
    own = _calls(program)
    if len(own) == 1 and _statements(program) == 1:
        callee, (_, call) = own[0]
        before = session.calls.get(callee)
        if before is not None and before[1] != call:
            return (
                FindingVerdict.UNVERIFIED,
                line,
                f"raises {raised} (line {line}): `{call}` is the call of line {before[0]} "
                f"(`{before[1]}`) with other arguments, meant to take its place rather than "
                "to run after it",
            )
    shown = session.shown_raising.get(same_code(program.source, at))
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
