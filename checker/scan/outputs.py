"""What a snippet's run shows, against what the article says it shows: each expected output
(``checker.scan.program``) compared with the run's (``checker.scan.sandbox``).

* a shown output block or doctest output: :func:`checker.scan.compare.matches`;
* a value comment: :func:`checker.scan.values.same_value`;
* a comment saying a line raises: the line raised (the sandbox printed the exception as its
  output and went on), the exception the comment names if it names one;
* a comment saying a line runs without error: that line did not raise (:func:`said_to_run`
  finds the comment on the line that raised).

Where the run went on in repaired code whose dtypes the repair changed
(:attr:`~checker.scan.repairs.RuntimeRepair.values_only`), values are compared, not their
kinds. Only the statements that ran are compared, and of them only those that read nothing an
earlier failure left undone (:func:`independent`, ``checker.scan.taint``).
"""

from __future__ import annotations

import dataclasses

from checker.scan import compare, snippet_said
from checker.scan.program import Expectation, Program
from checker.scan.raising import RAISES, RUNS
from checker.scan.sandbox import SnippetOutcome
from checker.scan.values import same_value
from checker.text.said import Said

#: Errors that say the session lacks something, not that the line fails: a name an earlier
#: snippet left undefined, a package not installed.
_MISSING = frozenset({"NameError", "ImportError", "ModuleNotFoundError"})
#: How the sandbox prints an exception the article says a statement raises.
_CAUGHT = "Traceback (most recent call last):\n  ...\n"


def differences(
    expected: tuple[Expectation, ...], outcome: SnippetOutcome, *, kinds: bool = True
) -> list[tuple[int, Said]]:
    """``(article line, what differs)`` for each expected output of a statement that ran to
    its end (all of them, when the run did not stop on an error). ``kinds=False``: a repair
    changed dtypes, values are compared, not their kinds."""
    found: list[tuple[int, Said]] = []
    ran = len(outcome.outputs) - (1 if outcome.error is not None else 0)
    for stated in expected:
        expectation = stated
        if expectation.last >= ran:
            continue
        if expectation.source in (RAISES, RUNS):
            difference = _outcome_difference(expectation, outcome)
            if difference is not None:
                found.append((expectation.line, difference))
            continue
        if expectation.value:
            got = outcome.values.get(expectation.first)
            if got is None:
                continue
            same = same_value(expectation.text, got, kinds=kinds)
        else:
            got = "".join(outcome.outputs[expectation.first : expectation.last + 1])
            same = (
                same_value(expectation.text, got, kinds=kinds)
                if expectation.source == "comment"
                else compare.matches(expectation.text, got, kinds=kinds)
            )
        if same:
            continue
        if expectation.parts:
            line, want, got = _first_difference(expectation, got, kinds)
            expectation = dataclasses.replace(expectation, line=line, text=want)
        found.append(
            (
                expectation.line,
                snippet_said.difference(
                    expectation.line,
                    repr(one_line(compare.brief(expectation.text))),
                    repr(one_line(compare.brief(got))),
                    comment=expectation.source == "comment",
                    value=bool(expectation.value),
                ),
            )
        )
    return found


def independent(
    expected: tuple[Expectation, ...], outcome: SnippetOutcome
) -> tuple[tuple[Expectation, ...], dict[str, int]]:
    """The outputs to compare: those of statements that read nothing an earlier failure left
    undone; and the names the others read that it left undone (``taint``)."""
    kept: list[Expectation] = []
    depends: dict[str, int] = {}
    for expectation in expected:
        touched = [outcome.tainted.get(i) for i in range(expectation.first, expectation.last + 1)]
        for names_of in touched:
            depends.update(names_of or {})
        if not any(touched):
            kept.append(expectation)
    return tuple(kept), depends


def said_to_run(
    expected: tuple[Expectation, ...], program: Program | None, outcome: SnippetOutcome
) -> Expectation | None:
    """The comment saying that the line that raised runs without error, if any (not for an
    error that says the session lacks a name or a package, or a limit of the sandbox)."""
    error = outcome.error
    if error is None or error.type in _MISSING or error.cause or program is None:
        return None
    line = program.article_line(error.line)
    return next((e for e in expected if e.source == RUNS and e.line == line), None)


def _outcome_difference(expectation: Expectation, outcome: SnippetOutcome) -> Said | None:
    """How a statement's run differs from a comment saying it raises, or ``None``. (One said
    to run that raised ended the run: :func:`said_to_run`.)"""
    if expectation.source == RUNS:
        return None
    output = outcome.outputs[expectation.first]
    if _CAUGHT not in output:
        return snippet_said.ran_without_error(expectation.line, repr(expectation.said))
    raised = output.rsplit(_CAUGHT, 1)[1].strip()
    if expectation.text and raised.split(":", 1)[0] != expectation.text:
        return snippet_said.comment_raised(
            expectation.line, repr(expectation.said), repr(one_line(raised))
        )
    return None


def _first_difference(expectation: Expectation, got: str, kinds: bool) -> tuple[int, str, str]:
    """Where the prints of a block first differ from their comments: ``(line, stated,
    printed)``; the whole output when it cannot be split one line per print."""
    printed = [line for line in got.split("\n") if line.strip()]
    if len(printed) == len(expectation.parts):
        for (line, want), have in zip(expectation.parts, printed, strict=True):
            if not same_value(want, have, kinds=kinds):
                return line, want, have
    return expectation.line, expectation.text, got


def one_line(text: str, limit: int = 160) -> str:
    flat = " | ".join(line.strip() for line in text.strip().split("\n") if line.strip())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."
