"""How a snippet finding's evidence is worded: each sentence a template and its values
(:func:`checker.text.said.said`), so that a findings page in another language translates
the template and keeps the values as the run gave them (the quoted outputs, the error's
text, lines, names). The English is the template filled: what the command line and the scan
JSON's ``evidence`` give. The verdicts themselves are decided in
:mod:`checker.scan.snippets`; here only their words."""

from __future__ import annotations

import re
from collections.abc import Sequence

from checker.scan.jail import unavailable_said
from checker.text.said import Said, SaidValue, said

#: How the sandbox's opening for a snippet it stopped reads, by cause: the cause's name, the
#: error and the line follow.
STOPPED = {
    "output": lambda error, line: said(
        "stopped by the sandbox: output limit ({error}, line {line})", error=error, line=line
    ),
    "disk": lambda error, line: said(
        "stopped by the sandbox: disk limit ({error}, line {line})", error=error, line=line
    ),
    "processes": lambda error, line: said(
        "stopped by the sandbox: process limit ({error}, line {line})", error=error, line=line
    ),
    "denied": lambda error, line: said(
        "stopped by the sandbox: file access outside its throw-away folder refused "
        "({error}, line {line})",
        error=error,
        line=line,
    ),
}
#: A snippet that needs what the sandbox does not give, by cause: it is not judged (the
#: code may well run on its author's machine).
NEEDS = {
    "network": lambda error, line: said(
        "needs the network, which the sandbox refuses ({error}, line {line})",
        error=error,
        line=line,
    ),
    "file": lambda error, line: said(
        "needs a file the article does not provide ({error}, line {line})", error=error, line=line
    ),
    "refused": lambda error, line: said(
        "needs a system call the sandbox refuses ({error}, line {line})", error=error, line=line
    ),
}
#: A verdict's word inside another finding's evidence ("with its indentation repaired:
#: contradicted, ...").
VERDICTS = {
    "contradicted": said("contradicted"),
    "supported": said("supported"),
    "broken": said("broken"),
    "needs-cuda": said("needs-cuda"),
    "outdated": said("outdated"),
    "unverified": said("unverified"),
}
#: How publishing's faults were undone (:mod:`checker.scan.typography`,
#: :func:`checker.scan.indent.repair`).
_REPAIRS = {
    "its indentation repaired": said("its indentation repaired"),
    "its line numbers removed": said("its line numbers removed"),
    "its typographic characters replaced": said("its typographic characters replaced"),
}
#: A known fault's repair (:mod:`checker.scan.repairs`).
_INTEGER_DATA = re.compile(
    r"its integer data written as floating point \((?P<shown>.*)\), as requires_grad=True needs"
)

#: The sandbox's reason for not judging a snippet that wrote into its report channel.
_CHANNEL = re.compile(
    r"not judged: the snippet wrote into the sandbox's report channel \((.*)\)", re.DOTALL
)


def joined(parts: Sequence[SaidValue]) -> SaidValue:
    """``parts`` one after the other, separated as the English does ("a; b; c")."""
    assert parts
    first, *rest = parts
    if not rest:
        return first
    return said("{first}; {rest}", first=first, rest=joined(rest))


def both(parts: Sequence[SaidValue]) -> SaidValue:
    """``parts`` joined by "and" ("`x` and `y`")."""
    assert parts
    first, *rest = parts
    if not rest:
        return first
    return said("{first} and {rest}", first=first, rest=both(rest))


def repair(how: str) -> SaidValue:
    """How code was repaired ("its indentation repaired and its line numbers removed")."""
    parts: list[SaidValue] = []
    for part in how.split(" and "):
        integer = _INTEGER_DATA.fullmatch(part)
        if integer is not None:
            parts.append(
                said(
                    "its integer data written as floating point ({shown}), as "
                    "requires_grad=True needs",
                    shown=integer.group("shown"),
                )
            )
        else:
            parts.append(_REPAIRS.get(part, part))
    return both(parts)


def raises(error: str, line: int) -> Said:
    return said("raises {error} (line {line})", error=error, line=line)


def refused(reason: str) -> SaidValue:
    """The sandbox's reason for not running a snippet (``SnippetOutcome.refused``)."""
    start = "not run: the sandbox could not start: "
    if reason.startswith(start):
        return said("not run: the sandbox could not start: {error}", error=reason[len(start) :])
    channel = _CHANNEL.fullmatch(reason)
    if channel is not None:
        return said(
            "not judged: the snippet wrote into the sandbox's report channel ({what})",
            what=channel.group(1),
        )
    if reason.startswith("not run: "):
        why = reason[len("not run: ") :]
        jail = unavailable_said()  # no jail here: its reason is a template too
        return said("not run: {reason}", reason=jail if jail and jail.english == why else why)
    return reason


def snippet_at(line: int | None) -> Said:
    if line is None:
        return said("an earlier snippet")
    return said("the snippet at line {line}", line=line)


def undone(names: Sequence[str], line: int | None) -> Said:
    """ "`x` and `y`, which the snippet at line 12 left undone when it raised"."""
    return said(
        "{names}, which {snippet} left undone when it raised",
        names=both([f"`{name}`" for name in sorted(names)]),
        snippet=snippet_at(line),
    )


def salvaged(names: Sequence[str], snippet: int | None, line: int | None) -> Said:
    """ "`x` comes from line 18 of the snippet at line 13, run after that snippet raised (it
    does not depend on what raised)"."""
    named = both([f"`{name}`" for name in sorted(names)])
    source: SaidValue = snippet_at(snippet)
    if line is not None:
        source = said("line {line} of {snippet}", line=line, snippet=source)
    if len(names) == 1:
        return said(
            "{names} comes from {source}, run after that snippet raised (it does not depend "
            "on what raised)",
            names=named,
            source=source,
        )
    return said(
        "{names} come from {source}, run after that snippet raised (it does not depend on "
        "what raised)",
        names=named,
        source=source,
    )


def difference(line: int, shown: str, got: str, *, comment: bool, value: bool) -> Said:
    """One output that differs: ``shown`` and ``got`` as quoted (``repr``)."""
    if comment and value:
        return said(
            "line {line}: the article states {shown}, the run gave {got}",
            line=line,
            shown=shown,
            got=got,
        )
    if comment:
        return said(
            "line {line}: the article states {shown}, the run printed {got}",
            line=line,
            shown=shown,
            got=got,
        )
    if value:
        return said(
            "line {line}: the article shows {shown}, the run gave {got}",
            line=line,
            shown=shown,
            got=got,
        )
    return said(
        "line {line}: the article shows {shown}, the run printed {got}",
        line=line,
        shown=shown,
        got=got,
    )


def comment_raised(line: int, comment: str, raised: str, at: int | None = None) -> Said:
    """A line the article's comment says something of raised ``raised`` (quoted)."""
    if at is None:
        return said(
            "line {line}: the article's comment says {comment}, the line raised {raised}",
            line=line,
            comment=comment,
            raised=raised,
        )
    return said(
        "line {line}: the article's comment says {comment}, the line raised {raised} (line {at})",
        line=line,
        comment=comment,
        raised=raised,
        at=at,
    )


def ran_without_error(line: int, comment: str) -> Said:
    """A line the article's comment (quoted) says raises ran without error."""
    return said(
        "line {line}: the article's comment says {comment}, the line ran without error",
        line=line,
        comment=comment,
    )


def memory(limit_bytes: int, error: str, line: int) -> Said:
    """A snippet the memory limit stopped (``limit_bytes``: 0 where none is known)."""
    if limit_bytes:
        return said(
            "exceeded the memory limit ({limit}, {error}, line {line}; raise it with "
            "--memory-limit)",
            limit=f"{limit_bytes / 1024**3:g} GiB",
            error=error,
            line=line,
        )
    return said(
        "exceeded the memory limit ({error}, line {line}; raise it with --memory-limit)",
        error=error,
        line=line,
    )


def defined_earlier(error: str, line: int, defined: int, lost: bool) -> Said:
    """A ``NameError`` for a name the snippet at line ``defined`` defines (``lost``: its
    session was lost when a snippet was stopped; else it did not run to the end)."""
    if lost:
        return said(
            "{raises}: the snippet at line {defined} defines it, but its session was lost "
            "when a snippet was stopped",
            raises=raises(error, line),
            defined=defined,
        )
    return said(
        "{raises}: the snippet at line {defined} defines it, but it did not run to the end",
        raises=raises(error, line),
        defined=defined,
    )


def placeholder(name: str, line: int) -> Said:
    return said(
        "a placeholder: {name} (line {line}) stands for a value the article never defines; "
        "the snippet is documentation, not a program",
        name=f"`{name}`",
        line=line,
    )


def announced(error: str, line: int, shown: int) -> Said:
    """An error the article quotes after the snippet, at line ``shown``."""
    return said(
        "{raises}, as the article says at line {shown}", raises=raises(error, line), shown=shown
    )


def quoted_elsewhere(error: str, line: int, shown: int) -> Said:
    """An error the article quotes elsewhere, at line ``shown``."""
    return said(
        "{raises}, the error the article quotes at line {shown}: whether this snippet is "
        "meant to raise it is not decided",
        raises=raises(error, line),
        shown=shown,
    )


def time_limit(seconds: str) -> Said:
    return said(
        "exceeded the time limit ({seconds} s per snippet; raise it with --timeout)",
        seconds=seconds,
    )


def cpu_limit(signal: str) -> Said:
    return said("exceeded the CPU time limit ({signal}; raise it with --timeout)", signal=signal)


def nothing_to_compare(*, uses_cuda: bool) -> Said:
    """A snippet that ran and shows no output (``uses_cuda``: and CUDA is absent)."""
    if uses_cuda:
        return said("runs; the article shows no output to compare; it uses CUDA, absent here")
    return said("runs; the article shows no output to compare")


def differ(differences: Sequence[SaidValue], total: int) -> SaidValue:
    """Every output that differs, of the ``total`` compared."""
    found = joined(differences)
    if len(differences) == 1:
        return found
    return said(
        "{differences} ({count} of {total} outputs differ)",
        differences=found,
        count=len(differences),
        total=total,
    )


def as_shown(outputs: int, outcomes: int) -> SaidValue:
    """A snippet that printed the ``outputs`` the article shows and raised or ran as its
    comments say on ``outcomes`` lines."""
    shows: list[SaidValue] = []
    if outputs == 1:
        shows.append(said("prints what the article shows ({count} output compared)", count=1))
    elif outputs:
        shows.append(
            said("prints what the article shows ({count} outputs compared)", count=outputs)
        )
    if outcomes == 1:
        shows.append(said("raises and runs as its comments say ({count} line)", count=1))
    elif outcomes:
        shows.append(said("raises and runs as its comments say ({count} lines)", count=outcomes))
    return joined(shows)
