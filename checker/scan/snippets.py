"""Verdicts on code: compile as published, repair the indentation, run, compare the output.

* ``broken``: does not compile, raises (type, message and article line), or crashes;
* ``contradicted``: prints other than the output the article shows (see ``compare``);
* ``supported``: prints what the article shows;
* ``needs-cuda``: uses CUDA, which is absent, and fails or prints other than shown because of it;
* ``unverified``: runs but the article shows no output to compare (or the sandbox itself
  failed).

A snippet the sandbox stops (time, CPU, memory, output, processes, a refused file or network
access) is ``broken``, its evidence starting with ``stopped by the sandbox:`` and the limit:
it did not run to the end, and a reader needs to know what it tried.

A snippet that does not compile because of its indentation gets two findings: ``broken`` as
published, then the verdict of the repaired code, marked repaired.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import signal
from collections.abc import Callable
from dataclasses import dataclass

from checker.scan import compare
from checker.scan.document import Block
from checker.scan.findings import Finding, Verdict
from checker.scan.indent import needs_repair, repair
from checker.scan.program import Program, expectations, from_block
from checker.scan.readers.notebook import NOTEBOOK
from checker.scan.sandbox import Outcome

_CUDA = re.compile(r"\bcuda\b|\.cuda\(")
_CUDA_ERROR = re.compile(r"cuda|nvidia|gpu", re.IGNORECASE)
#: The evidence's opening for a snippet the sandbox stopped, by cause.
STOPPED = "stopped by the sandbox: "
_STOPPED = {
    "memory": "memory limit",
    "output": "output limit",
    "processes": "process limit",
    "network": "network access refused",
    "denied": "file access outside its throw-away folder refused",
}

Runner = Callable[[str, str, tuple[str, ...]], Outcome]


@dataclass(frozen=True)
class Context:
    path: str
    lang: str
    run: Runner
    cuda_present: bool
    timeout_s: float
    #: Imports made by the article's earlier snippets, run before this one.
    prelude: tuple[str, ...] = ()


def judge(code: Block, shown: Block | None, context: Context) -> list[Finding]:
    program, doctest_outputs = from_block(code.text, code.lines)
    if code.info == NOTEBOOK and not program.doctest:
        program = dataclasses.replace(program, mode="last")
    quote = _quote(code.text)

    def finding(verdict: Verdict, line: int, evidence: str, repaired: bool = False) -> Finding:
        return Finding(
            context.path, line, context.lang, "snippet", verdict, quote, evidence, repaired=repaired
        )

    found: list[Finding] = []
    repaired = False
    if needs_repair(program.source):
        error = _compile_error(program.source)
        assert error is not None
        first = program.article_line(error.lineno or 1)
        found.append(finding(Verdict.BROKEN, first, f"as published: {_describe(error)}"))
        fixed = repair(program.source)
        if fixed is None:
            return found
        program = Program(fixed, program.lines, program.mode, program.doctest)
        repaired = True
    error = _compile_error(program.source)
    if error is not None:
        line = program.article_line(error.lineno or 1)
        prefix = "with its indentation repaired: " if repaired else "as published: "
        found.append(finding(Verdict.BROKEN, line, prefix + _describe(error), repaired))
        return found
    outcome = context.run(program.source, program.mode, context.prelude)
    verdict, where, evidence = _verdict(program, outcome, doctest_outputs, shown, context)
    if repaired:
        evidence = "with its indentation repaired: " + evidence
    found.append(finding(verdict, where or code.line, evidence, repaired))
    return found


def _verdict(  # noqa: PLR0911  one verdict per return
    program: Program,
    outcome: Outcome,
    doctest_outputs: list[tuple[int, str]],
    shown: Block | None,
    context: Context,
) -> tuple[Verdict, int | None, str]:
    uses_cuda = bool(_CUDA.search(program.source)) and not context.cuda_present
    if outcome.timed_out:
        return Verdict.BROKEN, None, f"{STOPPED}time limit ({context.timeout_s:g} s)"
    if outcome.failure is not None:
        return Verdict.UNVERIFIED, None, f"the sandbox failed: {outcome.failure}"
    if outcome.signal in ("SIGKILL", "SIGXCPU"):
        return Verdict.BROKEN, None, f"{STOPPED}CPU time limit ({outcome.signal})"
    if outcome.signal:
        return Verdict.BROKEN, None, f"the process crashed with {_signal_name(outcome.signal)}"
    if outcome.error is not None:
        error = outcome.error
        line = program.article_line(error.line)
        text = f"{error.type}: {error.message}".strip().rstrip(":")
        if error.cause:
            return Verdict.BROKEN, line, f"{STOPPED}{_STOPPED[error.cause]} ({text}, line {line})"
        if uses_cuda and _CUDA_ERROR.search(text):
            return Verdict.NEEDS_CUDA, line, f"{text} (line {line}): it needs a CUDA device"
        return Verdict.BROKEN, line, f"raises {text} (line {line})"
    tree = ast.parse(program.source)
    expected = expectations(
        program,
        tree,
        doctest_outputs,
        shown.text if shown else None,
        shown.line if shown else 0,
    )
    if not expected:
        note = "; it uses CUDA, absent here" if uses_cuda else ""
        return Verdict.UNVERIFIED, None, f"runs; the article shows no output to compare{note}"
    for expectation in expected:
        got = "".join(outcome.outputs[expectation.first : expectation.last + 1])
        if not compare.matches(expectation.text, got):
            verdict = Verdict.NEEDS_CUDA if uses_cuda else Verdict.CONTRADICTED
            return (
                verdict,
                expectation.line,
                (
                    f"line {expectation.line}: the article shows {_one_line(expectation.text)!r}, "
                    f"the run printed {_one_line(got)!r}"
                ),
            )
    count = len(expected)
    return Verdict.SUPPORTED, None, f"prints what the article shows ({count} output(s) compared)"


def _signal_name(name: str) -> str:
    """``SIGSEGV (Segmentation fault)``."""
    try:
        described = signal.strsignal(signal.Signals[name])
    except (KeyError, ValueError):
        return name
    return f"{name} ({described})" if described else name


def _compile_error(source: str) -> SyntaxError | None:
    try:
        compile(source, "<snippet>", "exec", dont_inherit=True)
    except SyntaxError as exc:
        return exc
    except ValueError as exc:  # NUL bytes
        return SyntaxError(str(exc))
    return None


def _describe(error: SyntaxError) -> str:
    return f"{type(error).__name__}: {error.msg}"


def _quote(text: str) -> str:
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    return " / ".join(lines[:3]) + (" / ..." if len(lines) > 3 else "")


def _one_line(text: str, limit: int = 160) -> str:
    flat = " | ".join(line.strip() for line in text.strip().split("\n") if line.strip())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


_IMPORT = re.compile(
    r"^\s*(?:import\s+[\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*"
    r"|from\s+[\w.]+\s+import\s+[\w*, ()]+?)\s*(?:#.*)?$"
)


def imports_of(code: Block) -> tuple[str, ...]:
    """The import statements of a snippet, for the snippets after it."""
    found = []
    for line in code.text.split("\n"):
        statement = line.strip().removeprefix(">>>").strip()
        if _IMPORT.match(statement):
            found.append(statement.split("#", 1)[0].strip())
    return tuple(found)
