"""Verdicts on code: prepare each snippet (compile, repair, expected outputs), run an
article's snippets in one session, then judge each one from its outcome.

* ``broken``: does not compile, raises (type, message and article line), or crashes; a
  ``NameError`` only when the article defines the name nowhere before the snippet;
* ``contradicted``: prints (or evaluates to) other than the article shows (see ``compare``
  and ``values``);
* ``supported``: prints what the article shows, or raises the error the article quotes right
  after it (``announced``);
* ``needs-cuda``: uses CUDA, which is absent, and fails or prints other than shown because of it;
* ``unverified``: runs but the article shows no output to compare; stopped by a time or memory
  limit, or refused the network (the evidence says which limit and how to raise it); a
  placeholder or fragment (``tensor.add_(value)``, a training step using ``model``) that the
  article never defines; a ``NameError`` for a name an earlier snippet defines but that did
  not run to the end; an error, or an output, of a statement that reads what an earlier
  snippet's failure left undone (``taint``); an error the article quotes elsewhere; or the
  sandbox itself failed.

After a snippet raises, its statements that do not depend on the failure still run, silently
(:mod:`checker.scan.taint`): a later snippet that uses what they define is judged, and its
evidence says where the value came from.

A snippet the sandbox stops for its output, its processes or a refused file access is
``broken``, its evidence starting with ``stopped by the sandbox:``.

Customary imports the article leaves out (``import torch``, ``import numpy as np``...) are
supplied, and the evidence says so; they are never the verdict.

A block indented as a whole is dedented first: that is the page's layout, not the code's. A
snippet that still does not compile because of what publishing did to it (it lost its
indentation, its quotes became typographic, its line numbers were copied with it:
``indent``, ``typography``) is ``broken`` as published, at the line of the error; it is
repaired and run repaired (so the snippets after it see what it defines), and its one finding
gives both facts.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import signal
from collections.abc import Mapping
from dataclasses import dataclass, field

from checker.scan import compare, names, outputs, repairs, sessions
from checker.scan import snippet_said as words
from checker.scan.announced import Announcements, catches, quoted_at
from checker.scan.document import Block
from checker.scan.findings import FindingVerdict, ScanFinding
from checker.scan.indent import repair
from checker.scan.program import Expectation, Program, expectations, from_block
from checker.scan.raising import RAISES, RUNS
from checker.scan.readers.notebook import NOTEBOOK
from checker.scan.sandbox import SandboxProgram, SnippetOutcome
from checker.scan.typography import restore
from checker.text.said import Said, SaidValue, said

#: Code that uses a CUDA device (``torch.cuda.amp`` names a module, not a device).
_CUDA = re.compile(
    r"\.cuda\(|['\"]cuda(?::\d+)?['\"]|\btorch\.cuda\.(?!amp\b)\w+|\bdevice\s*=\s*['\"]?cuda"
)
_CUDA_ERROR = re.compile(r"cuda|nvidia|gpu", re.IGNORECASE)


def uses_cuda(source: str) -> bool:
    """Whether a snippet's code asks for CUDA (``.cuda()``, ``"cuda"``, ``torch.cuda.*``)."""
    return bool(_CUDA.search(source))


_NAME_ERROR = re.compile(r"name '(\w+)' is not defined")


@dataclass(frozen=True)
class Context:
    path: str
    lang: str
    cuda_present: bool
    timeout_s: float
    memory_bytes: int = 0


@dataclass(frozen=True)
class Prepared:
    """A snippet ready to run: what runs, what it should print, what it defines."""

    block: Block
    quote: str
    #: What runs (repaired where the published code does not compile), or ``None`` when
    #: nothing can run (see :attr:`compile_error`).
    program: Program | None
    expected: tuple[Expectation, ...] = ()
    #: The published code's error, when the code that runs was repaired.
    published: str = ""
    published_line: int = 0
    #: ``(article line, description)`` when even the code that would run does not compile.
    compile_error: tuple[int, str] | None = None
    #: Names the snippet binds.
    binds: frozenset[str] = frozenset()
    customary: tuple[tuple[str, str], ...] = ()
    #: Only expressions (a list of method calls, as reference pages have), no statements.
    expressions_only: bool = False
    #: How the code that runs was repaired: "its indentation repaired", "its line numbers
    #: removed", "its typographic characters replaced" (``typography``).
    repair: str = "its indentation repaired"
    #: The repair of a known, trivial fault the code raises for (``checker.scan.repairs``).
    runtime: repairs.RuntimeRepair | None = None

    @property
    def repaired(self) -> bool:
        return bool(self.published)

    def to_run(self, cuda_present: bool) -> SandboxProgram:
        assert self.program is not None
        watch = {e.first: e.value for e in self.expected if e.source == "comment" and e.value}
        raises = frozenset(
            e.last
            for e in self.expected
            if (e.source == "doctest" and compare.shown_exception(e.text) is not None)
            or e.source == RAISES
        )
        runtime = self.runtime
        return SandboxProgram(
            self.program.source,
            self.program.mode,
            watch,
            self.customary,
            gpu=cuda_present and "cuda" in self.program.source,
            raises=raises,
            resume=None if runtime is None else (runtime.statement, runtime.source, runtime.error),
        )


def prepare(code: Block, shown: Block | None) -> Prepared:
    program, doctest_outputs = from_block(code.text, code.lines)
    if code.info == NOTEBOOK and not program.doctest:
        program = dataclasses.replace(program, mode="last")
    quote = _quote(code.text)
    # What publishing did to code that does not compile is undone, then lost indentation
    # rebuilt; each step compiles the code once, and the first error is what was published.
    how: list[str] = []
    error = published_error = _compile_error(program.source)
    if error is not None and (restored := restore(program.source)) is not None:
        program = dataclasses.replace(program, source=restored[0])
        how.append(restored[1])
        error = _compile_error(program.source)
    if isinstance(error, IndentationError):
        fixed = repair(program.source)
        if fixed is None:
            assert published_error is not None
            published_at = program.article_line(published_error.lineno or 1)
            return Prepared(
                code, quote, None, compile_error=(published_at, _describe(published_error))
            )
        program = dataclasses.replace(program, source=fixed)
        how.append("its indentation repaired")
        error = _compile_error(program.source)
    published, published_line = "", 0
    if how and published_error is not None:
        published = _describe(published_error)
        published_line = program.article_line(published_error.lineno or 1)
    repaired_how = " and ".join(how) or "its indentation repaired"
    if error is not None:
        line = program.article_line(error.lineno or 1)
        return Prepared(
            code,
            quote,
            None,
            (),
            published,
            published_line,
            (line, _describe(error)),
            repair=repaired_how,
        )
    tree = ast.parse(program.source)
    expected = expectations(
        program, tree, doctest_outputs, shown.text if shown else None, shown.line if shown else 0
    )
    return Prepared(
        code,
        quote,
        program,
        tuple(expected),
        published,
        published_line,
        None,
        frozenset(names.bound(tree)),
        names.customary_for(tree),
        bool(tree.body) and all(isinstance(n, ast.Expr) for n in tree.body),
        repaired_how,
        repairs.plan(program.source, tree),
    )


@dataclass(frozen=True)
class Session:
    """What the rest of the article says about a snippet's names."""

    #: Names bound by the snippets before this one, with the first line binding each.
    earlier: dict[str, int]
    #: Names bound anywhere in the article.
    anywhere: frozenset[str]
    #: The article's words after the snippet and everywhere: errors it quotes.
    words: Announcements = field(default_factory=Announcements)
    #: The programs of the session, by index (for what a failure left undone or what ran
    #: after it: :attr:`SnippetOutcome.tainted`, :attr:`Error.salvaged`).
    programs: tuple[Prepared, ...] = ()
    #: The calls the snippets before make as statements of their own, by what they call
    #: (``checker.scan.sessions``).
    calls: Mapping[str, tuple[int, str]] = dataclasses.field(default_factory=dict)

    def undone(self, touched: dict[str, int]) -> Said:
        """ "`x` and `y`, which the snippet at line 12 left undone when it raised"."""
        return words.undone(list(touched), self._snippet(min(touched.values())))

    def salvaged(self, used: Mapping[str, tuple[int, int]]) -> Said:
        """ "`x` comes from line 18 of the snippet at line 13, run after that snippet raised
        (it does not depend on what raised)"."""
        origin, source_line = min(used.values())
        line = None
        if 0 <= origin < len(self.programs) and (program := self.programs[origin].program):
            line = program.article_line(source_line)
        return words.salvaged(list(used), self._snippet(origin), line)

    def _snippet(self, index: int) -> int | None:
        """The article line of the snippet ``index``; ``None`` for one not known."""
        return self.programs[index].block.line if 0 <= index < len(self.programs) else None


def judge(
    prepared: Prepared, outcome: SnippetOutcome | None, context: Context, session: Session
) -> list[ScanFinding]:
    """The findings of a prepared snippet, from how it ran (``None``: it did not run): one,
    and for code that ran repaired, a second where what the repaired run shows contradicts
    the article (the published code is ``broken`` either way)."""
    code = prepared.block

    def finding(verdict: FindingVerdict, line: int, evidence: SaidValue) -> ScanFinding:
        return ScanFinding(
            context.path,
            line,
            context.lang,
            "snippet",
            verdict,
            prepared.quote,
            evidence if isinstance(evidence, str) else evidence.english,
            repaired=prepared.repaired or bool(outcome and outcome.repaired_error),
            said=None if isinstance(evidence, str) else evidence,
        )

    if prepared.compile_error is not None:
        line, description = prepared.compile_error
        if prepared.repaired:
            return [
                finding(
                    FindingVerdict.BROKEN,
                    line,
                    said(
                        "as published: {published}; with {how} it still does not compile: {error}",
                        published=prepared.published,
                        how=words.repair(prepared.repair),
                        error=description,
                    ),
                )
            ]
        return [
            finding(FindingVerdict.BROKEN, line, said("as published: {error}", error=description))
        ]
    assert prepared.program is not None and outcome is not None
    verdict, where, evidence = _verdict(prepared, outcome, context, session)
    if outcome.supplied:
        evidence = said(
            "{evidence} (supplied the customary {imports}, which the article leaves out)",
            evidence=evidence,
            imports=", ".join(f"`{s}`" for s in outcome.supplied),
        )
    contradiction: tuple[int, SaidValue] | None = None
    if verdict is FindingVerdict.CONTRADICTED and where is not None:
        contradiction = (where, evidence)
    if verdict is FindingVerdict.BROKEN and outcome.error is not None:
        # what the statements before the one that raised show is compared all the same
        early = _early(prepared, outcome)
        if early:
            contradiction = (
                early[0][0],
                said(
                    "{differences}, before line {line} raised",
                    differences=words.joined([text for _, text in early]),
                    line=str(where),
                ),
            )
    published = _published(prepared, outcome)
    if published is None:
        found = [finding(verdict, where or code.line, evidence)]
        if contradiction is not None and verdict is FindingVerdict.BROKEN:
            found.append(finding(FindingVerdict.CONTRADICTED, *contradiction))
        return found
    line, fault, how = published
    found = [
        finding(
            FindingVerdict.BROKEN,
            line,
            said(
                "as published: {error}; with {how}: {verdict}, {evidence}",
                error=fault,
                how=how,
                verdict=words.VERDICTS[verdict.value],
                evidence=evidence,
            ),
        )
    ]
    if contradiction is not None and contradiction[0] != line:
        found.append(
            finding(
                FindingVerdict.CONTRADICTED,
                contradiction[0],
                said(
                    "in the code run with {how} (as published: {error}): {contradiction}",
                    how=how,
                    error=fault,
                    contradiction=contradiction[1],
                ),
            )
        )
    return found


def _published(
    prepared: Prepared, outcome: SnippetOutcome
) -> tuple[int, SaidValue, SaidValue] | None:
    """``(line, description, how)`` of the published code's fault when the code that ran was
    repaired: it does not compile as published, or it raised where a repair took over."""
    program, error = prepared.program, outcome.repaired_error
    hows = [prepared.repair] if prepared.repaired else []
    if error is not None and prepared.runtime is not None and program is not None:
        hows.append(prepared.runtime.how)
    if not hows:
        return None
    how = words.repair(" and ".join(hows))
    if prepared.repaired:
        return prepared.published_line, prepared.published, how
    assert error is not None and program is not None
    line = program.article_line(error.line)
    return line, words.raises(f"{error.type}: {error.message}", line), how


def _shown_traceback(
    prepared: Prepared, text: str, line: int, *, bare: bool = False
) -> tuple[FindingVerdict, int | None, SaidValue] | None:
    """The verdict on a snippet that raised ``text`` at ``line`` when the output shown under
    it is a traceback (``bare``: or ends in an exception's line, as pasted output does):
    supported when it is this error, else contradicted."""
    shown = next(
        (
            e
            for e in prepared.expected
            if e.source == "block" and compare.shown_exception(e.text, bare=bare)
        ),
        None,
    )
    if shown is None:
        return None
    raised = f"Traceback (most recent call last):\n{text}"
    if compare.matches(shown.text, raised, bare=bare):
        return (
            FindingVerdict.SUPPORTED,
            None,
            said("{raises}, as the article shows", raises=words.raises(text, line)),
        )
    return (
        FindingVerdict.CONTRADICTED,
        shown.line,
        said(
            "line {line}: the article shows {shown}, the run raised {raised} (line {at})",
            line=shown.line,
            shown=repr(compare.brief(shown.text, bare=bare)),
            raised=repr(text),
            at=line,
        ),
    )


def _verdict(  # noqa: PLR0911, PLR0912  one verdict per return
    prepared: Prepared, outcome: SnippetOutcome, context: Context, session: Session
) -> tuple[FindingVerdict, int | None, SaidValue]:
    program = prepared.program
    assert program is not None
    uses_cuda = bool(_CUDA.search(program.source)) and not context.cuda_present
    stopped = _stopped(outcome, context)
    if stopped is not None:
        return stopped
    if outcome.error is not None:
        error = outcome.error
        line = program.article_line(error.line)
        text = f"{error.type}: {error.message}".strip().rstrip(":")
        if error.cause == "memory":
            return FindingVerdict.UNVERIFIED, line, words.memory(context.memory_bytes, text, line)
        if error.cause in words.NEEDS:  # what the code needs and the sandbox does not give
            return FindingVerdict.UNVERIFIED, line, words.NEEDS[error.cause](text, line)
        if error.cause:
            return FindingVerdict.BROKEN, line, words.STOPPED[error.cause](text, line)
        if uses_cuda and _CUDA_ERROR.search(text):
            cuda = said("{error} (line {line}): it needs a CUDA device", error=text, line=line)
            return FindingVerdict.NEEDS_CUDA, line, cuda
        judged = _not_its_fault(prepared, outcome, session, text, line)
        if judged is not None:
            return judged
        comment = outputs.said_to_run(prepared.expected, prepared.program, outcome)
        if comment is not None:  # with what the statements before it show
            found = _early(prepared, outcome)
            stated = repr(comment.said)
            found.append(
                (comment.line, words.comment_raised(comment.line, stated, repr(text), line))
            )
            return FindingVerdict.CONTRADICTED, found[0][0], words.joined([t for _, t in found])
        shown = _shown_traceback(prepared, text, line)
        if shown is not None:  # the output shown under the code is a traceback (a notebook's)
            return shown
        quoted = _announced(prepared, error.type, error.message, session, text, line)
        if quoted is not None:
            return quoted
        shown = _shown_traceback(prepared, text, line, bare=True)
        if shown is not None:  # pasted under the code: another error than the one it raised
            return shown
        variant = sessions.variant(program, text, line, session.calls)
        if variant is not None:
            return variant
        raised: SaidValue = words.raises(text, line)
        if error.salvaged:
            raised = words.joined([raised, session.salvaged(error.salvaged)])
        return FindingVerdict.BROKEN, line, raised
    kept, depends = outputs.independent(prepared.expected, outcome)
    if depends and not kept:
        return (
            FindingVerdict.UNVERIFIED,
            None,
            said("runs; what it shows depends on {undone}", undone=session.undone(depends)),
        )
    prepared = dataclasses.replace(prepared, expected=kept)
    if not prepared.expected:
        return FindingVerdict.UNVERIFIED, None, words.nothing_to_compare(uses_cuda=uses_cuda)
    differences = outputs.differences(prepared.expected, outcome, kinds=_kinds(prepared, outcome))
    count = len(prepared.expected)
    if differences:  # one finding for the snippet, every difference in its evidence
        verdict = FindingVerdict.NEEDS_CUDA if uses_cuda else FindingVerdict.CONTRADICTED
        return verdict, differences[0][0], words.differ([t for _, t in differences], count)
    outcomes = sum(e.source in (RAISES, RUNS) for e in prepared.expected)
    return FindingVerdict.SUPPORTED, None, words.as_shown(count - outcomes, outcomes)


def _stopped(
    outcome: SnippetOutcome, context: Context
) -> tuple[FindingVerdict, int | None, SaidValue] | None:
    """The verdict of a snippet stopped before an error or its end: a limit, a refusal, a
    failure of the sandbox, a crash; ``None`` for one that was not."""
    if outcome.timed_out:
        return UNVERIFIED, None, words.time_limit(f"{context.timeout_s:g}")
    if outcome.refused is not None:
        return UNVERIFIED, None, words.refused(outcome.refused)
    if outcome.failure is not None:
        return UNVERIFIED, None, said("the sandbox failed: {failure}", failure=outcome.failure)
    if outcome.signal in ("SIGKILL", "SIGXCPU"):
        return UNVERIFIED, None, words.cpu_limit(outcome.signal)
    if outcome.signal:
        crashed = said("the process crashed with {signal}", signal=_signal_name(outcome.signal))
        return FindingVerdict.BROKEN, None, crashed
    return None


def _early(prepared: Prepared, outcome: SnippetOutcome) -> list[tuple[int, Said]]:
    """How what the statements before the one that raised show differs from the article
    (those that read nothing an earlier failure left undone)."""
    kept, _ = outputs.independent(prepared.expected, outcome)
    return outputs.differences(kept, outcome, kinds=_kinds(prepared, outcome))


def _kinds(prepared: Prepared, outcome: SnippetOutcome) -> bool:
    """Whether what ran is compared on kinds and dtypes too: not when a repair changed them."""
    runtime = prepared.runtime
    return not (outcome.repaired_error and runtime is not None and runtime.values_only)


def _not_its_fault(
    prepared: Prepared, outcome: SnippetOutcome, session: Session, text: str, line: int
) -> tuple[FindingVerdict, int | None, SaidValue] | None:
    """The verdict of an error that is not the snippet's fault (a name an earlier snippet
    defines, a placeholder, a value an earlier failure left undone), or ``None``."""
    error = outcome.error
    assert error is not None
    missing = _NAME_ERROR.search(error.message) if error.type == "NameError" else None
    if missing is not None:
        judged = _name_error(missing.group(1), prepared, outcome, session, text, line)
        if judged is not None:
            return judged
    touched = error.tainted
    if touched:
        return (
            FindingVerdict.UNVERIFIED,
            line,
            said(
                "{raises} where it uses {undone}",
                raises=words.raises(text, line),
                undone=session.undone(dict(touched)),
            ),
        )
    return None


def _name_error(  # noqa: PLR0917
    name: str, prepared: Prepared, outcome: SnippetOutcome, session: Session, text: str, line: int
) -> tuple[FindingVerdict, int | None, SaidValue] | None:
    """The verdict of a ``NameError`` that is not the snippet's fault, or ``None``."""
    if name in session.earlier:
        return (
            UNVERIFIED,
            line,
            words.defined_earlier(text, line, session.earlier[name], outcome.fresh),
        )
    if name not in session.anywhere and (name in names.PLACEHOLDERS or prepared.expressions_only):
        return UNVERIFIED, line, words.placeholder(name, line)
    return None


def _announced(  # noqa: PLR0917
    prepared: Prepared, error_type: str, message: str, session: Session, text: str, line: int
) -> tuple[FindingVerdict, int | None, SaidValue] | None:
    """The verdict of an error the article quotes (see :mod:`checker.scan.announced`), or
    ``None`` where it quotes none, or the snippet catches the error and lets it escape."""
    assert prepared.program is not None
    if catches(prepared.program.source, error_type):
        return None
    shown = quoted_at(session.words.after, error_type, message)
    if shown is not None:
        return FindingVerdict.SUPPORTED, None, words.announced(text, line, shown)
    shown = quoted_at(session.words.article, error_type, message)
    if shown is not None:
        return UNVERIFIED, line, words.quoted_elsewhere(text, line, shown)
    return None


UNVERIFIED = FindingVerdict.UNVERIFIED


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
