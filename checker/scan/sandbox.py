"""The parent side of the sandbox: one jail, and one fork server in it, for a scan.

:class:`Sandbox` starts a :class:`checker.pool.Pool` whose fork server runs in a jail made for
this sandbox (:mod:`checker.scan.jail`) and preloads :mod:`checker.scan.sandbox_child` (and
with it torch), and runs an article's snippets as one job (one namespace, in order, as a
notebook runs) with a memory limit and a deadline per snippet. When a snippet is stopped (a
deadline, a crash), the namespace is lost: the snippets after it run in a new job, and their
outcomes say so (:attr:`SnippetOutcome.fresh`). Use one sandbox per scan job: a job never
shares a jail with another. Where no jail can be made, no code runs, and every outcome says
why (:attr:`SnippetOutcome.refused`).
"""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from checker.pool import Pool, WorkerJob
from checker.scan.jail import Jail, JailLimits, JailUnavailable, facts_measures, unavailable
from checker.scan.taint import SALVAGE_SHARE

HANDLER = "checker.scan.sandbox_child:run_session"


@dataclass(frozen=True)
class SnippetLimits:
    """Bounds on one snippet."""

    timeout_s: float = 20.0
    #: Address space the snippet may add to what the fork server maps (torch included).
    memory_bytes: int = 4 * 1024**3
    #: Output read back and compared.
    output_bytes: int = 256 * 1024
    #: Largest file (its standard output included) the snippet may write.
    file_bytes: int = 8 * 1024**2
    #: Everything a session may write (files, its output, ``/dev/shm``): the size of the
    #: tmpfs that is its only writable place. It is memory, beside ``memory_bytes``.
    disk_bytes: int = 256 * 1024**2
    processes: int = 64
    open_files: int = 256


@dataclass(frozen=True)
class Error:
    type: str
    message: str
    #: 1-based line of the program that raised.
    line: int
    #: ``memory``, ``output``, ``processes``, ``network`` or ``denied`` when a limit or a
    #: refusal of the sandbox stopped the snippet, else empty.
    cause: str = ""
    #: Names the statement that raised read which statements salvaged after an earlier
    #: failure bound (``taint``): name -> (index of the program that failed, line in it).
    salvaged: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    #: Names the part of that statement that raised read, which an earlier failure left
    #: undone (``taint``): name -> index of the program that failed.
    tainted: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class SandboxProgram:
    """One snippet as the sandbox runs it."""

    source: str
    #: ``exec``, ``single`` (echo every expression) or ``last`` (echo the last value).
    mode: str = "exec"
    #: Statement index -> ``"expr"`` (report the expression's value) or a name (report the
    #: value the statement gave it), for the values the article states in comments.
    watch: Mapping[int, str] = field(default_factory=dict)
    #: ``(name, import line)``: imported first when the snippet uses ``name`` and nothing in
    #: the session defined it (``np`` -> ``import numpy as np``).
    customary: tuple[tuple[str, str], ...] = ()
    #: It may use CUDA.
    gpu: bool = False
    #: Statement indices whose exception the article shows (a doctest or IPython traceback):
    #: it is printed as the statement's output, and the session goes on.
    raises: frozenset[int] = frozenset()
    #: A repair for a known, trivial fault (``checker.scan.repairs``): ``(statement index,
    #: repaired source, pattern of the error)``. When that statement raises that error, the
    #: repaired program goes on from that statement (what ran before is the same).
    resume: tuple[int, str, str] | None = None


@dataclass(frozen=True)
class SnippetOutcome:
    """How a snippet ran."""

    #: What each top-level statement printed, for the statements that ran.
    outputs: tuple[str, ...] = ()
    error: Error | None = None
    signal: str | None = None
    timed_out: bool = False
    #: The confinement measures that were active, by name.
    measures: Mapping[str, Any] = field(default_factory=dict)
    duration_s: float = 0.0
    #: The sandbox itself failed (the worker died before reporting).
    failure: str | None = None
    #: No code ran: no jail can be made here (why), or a report from the snippet's process
    #: was forged (``interfered``).
    refused: str | None = None
    #: Reported values of watched statements, by statement index.
    values: Mapping[int, str] = field(default_factory=dict)
    #: The customary imports supplied before it ran.
    supplied: tuple[str, ...] = ()
    #: It ran in a new namespace: an earlier snippet was stopped and its session lost.
    fresh: bool = False
    #: Seconds the snippet's own code ran (its statements, not the sandbox around them).
    seconds: float = 0.0
    #: Statement index -> the names it read that an earlier failure left undone (``taint``),
    #: each with the index (in its session) of the program that failed.
    tainted: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    #: The error the published code raised where the repaired program took over
    #: (:attr:`SandboxProgram.resume`); what follows is the repaired program's.
    repaired_error: Error | None = None


@dataclass
class Sandbox:
    """Runs snippets; use one for a whole scan job (starting it makes a jail and imports torch
    in it once)."""

    limits: SnippetLimits = field(default_factory=SnippetLimits)
    _pools: dict[bool, Pool] = field(default_factory=dict, init=False, repr=False)

    def run(self, source: str, mode: str = "exec", gpu: bool = False) -> SnippetOutcome:
        """Run one snippet on its own, confined."""
        return self.run_session([SandboxProgram(source, mode, gpu=gpu)])[0]

    def run_session(
        self, programs: Sequence[SandboxProgram], progress: Callable[[int], None] | None = None
    ) -> list[SnippetOutcome]:
        """Run ``programs`` in order in one namespace; one outcome per program. A program
        that is stopped ends the session; the rest run in a new one, marked ``fresh``.
        ``progress`` is called with the number of programs that ran, as they run."""
        reason = unavailable()
        if reason:
            return [SnippetOutcome(refused=f"not run: {reason}") for _ in programs]
        outcomes: list[SnippetOutcome] = []
        fresh = False
        while len(outcomes) < len(programs):
            rest = programs[len(outcomes) :]
            ran = self._run_job(rest, _offset(progress, len(outcomes)))
            if ran and ran[0].refused:  # the jail could not start: nothing will run
                outcomes += [dataclasses.replace(ran[0], fresh=fresh) for _ in rest]
                break
            if not ran:  # the sandbox failed before the first program reported
                outcomes.append(SnippetOutcome(failure="the sandbox failed", fresh=fresh))
                fresh = True
                continue
            done = len(outcomes)
            outcomes.extend(
                _shifted(dataclasses.replace(o, fresh=fresh and i == 0), done)
                for i, o in enumerate(ran)
            )
            fresh = True
            if progress is not None:
                progress(len(outcomes))
        return outcomes

    def _run_job(
        self, programs: Sequence[SandboxProgram], progress: Callable[[int], None] | None = None
    ) -> list[SnippetOutcome]:
        started = time.monotonic()
        gpu = any(p.gpu for p in programs)
        job = WorkerJob(
            handler=HANDLER,
            args={
                "programs": [_program_args(p) for p in programs],
                "timeout_s": self.limits.timeout_s,
                "output_bytes": self.limits.output_bytes,
                "file_bytes": self.limits.file_bytes,
                "processes": self.limits.processes,
                "open_files": self.limits.open_files,
                "gpu": gpu,
            },
            # each program, and the statements salvaged after a failure (``taint``)
            timeout_s=self.limits.timeout_s * len(programs) * (1 + SALVAGE_SHARE) + 15.0,
            # On the CPU the address space is bounded (RLIMIT_AS): shared mappings count.
            # The CUDA driver reserves far more address space than it uses, so a session
            # that may use the GPU gets RLIMIT_DATA, which shared mappings escape.
            address_space=None if gpu else self.limits.memory_bytes,
            data_limit=self.limits.memory_bytes if gpu else None,
            progress=None if progress is None else lambda m: progress(int(m.get("ran", 0))),
        )
        try:
            pool = self._worker_pool(gpu)
            result = pool.run([job])[0]
        except (JailUnavailable, RuntimeError) as exc:
            return [SnippetOutcome(refused=f"not run: the sandbox could not start: {exc}")]
        duration = time.monotonic() - started
        if result.failure is not None:
            failed = SnippetOutcome(
                failure=result.failure, timed_out=result.timed_out, duration_s=duration
            )
            return [failed]
        report = dict(result.result)
        jail = pool.jail_measures
        report["measures"] = {
            **facts_measures(pool.facts, jail),
            **report.get("measures", {}),
            "memory": f"RLIMIT_DATA {self.limits.memory_bytes} (CUDA: shared mappings not counted)"
            if gpu
            else f"RLIMIT_AS {self.limits.memory_bytes} (address space)",
        }
        return _outcomes(report, duration)[: len(programs)]

    def call(self, handler: str, args: dict[str, Any], timeout_s: float = 60.0) -> Any:
        """Run ``handler(args)`` (``module:function``) in a child of the jail's fork server:
        for code of ours that needs torch, never for an article's code (it is not confined by
        the session's limits). Raises ``RuntimeError`` when it fails."""
        try:
            result = self._worker_pool(False).run(
                [WorkerJob(handler=handler, args=args, timeout_s=timeout_s)]
            )
        except JailUnavailable as exc:
            raise RuntimeError(str(exc)) from exc
        if result[0].failure is not None:
            raise RuntimeError(result[0].failure)
        return result[0].result

    def _worker_pool(self, gpu: bool) -> _JailedPool:
        pool = self._pools.get(gpu)
        if pool is None:
            limits = JailLimits(
                memory_bytes=self.limits.memory_bytes,
                disk_bytes=self.limits.disk_bytes,
                tasks=self.limits.processes,
                gpu=gpu,
            )
            pool = self._pools[gpu] = _JailedPool(["checker.scan.sandbox_child"], limits)
        return pool  # type: ignore[return-value]

    def close(self) -> None:
        for pool in self._pools.values():
            pool.close()
        self._pools.clear()


class _JailedPool(Pool):
    """A pool whose every fork server runs in a jail of its own, made with ``limits``."""

    def __init__(self, preload: list[str], limits: JailLimits) -> None:
        super().__init__(preload, size=1, jail=self._make)
        self.limits = limits
        self.jail_measures: dict[str, Any] = {}

    def _make(self) -> Jail:
        jail = Jail.make(self.limits, [sys.executable, "-m", "checker.zygote"])
        self.jail_measures = dict(jail.measures)
        return jail


def _program_args(p: SandboxProgram) -> dict[str, Any]:
    return {
        "source": p.source,
        "mode": p.mode,
        "watch": {str(k): v for k, v in p.watch.items()},
        "customary": [list(pair) for pair in p.customary],
        "raises": sorted(p.raises),
        "resume": None
        if p.resume is None
        else {"statement": p.resume[0], "source": p.resume[1], "error": p.resume[2]},
    }


def _shifted(outcome: SnippetOutcome, done: int) -> SnippetOutcome:
    """``outcome`` of a job that started after ``done`` programs ran, its references to
    programs counted from the session's first."""
    error = outcome.error
    if error is not None and (error.salvaged or error.tainted):
        error = dataclasses.replace(
            error,
            salvaged={k: (origin + done, line) for k, (origin, line) in error.salvaged.items()},
            tainted={k: origin + done for k, origin in error.tainted.items()},
        )
    return dataclasses.replace(
        outcome,
        error=error,
        tainted={
            k: {name: origin + done for name, origin in v.items()}
            for k, v in outcome.tainted.items()
        },
    )


def _offset(progress: Callable[[int], None] | None, done: int) -> Callable[[int], None] | None:
    """``progress`` for a job that starts after ``done`` programs ran."""
    if progress is None:
        return None
    return lambda count: progress(done + count)


def _error(report: dict[str, Any]) -> Error:
    return Error(
        report["type"],
        report["message"],
        int(report["line"]),
        report.get("cause", ""),
        {k: (int(v[0]), int(v[1])) for k, v in report.get("salvaged", {}).items()},
        {k: int(v) for k, v in report.get("tainted", {}).items()},
    )


def _outcomes(report: dict[str, Any], duration: float) -> list[SnippetOutcome]:
    measures = dict(report.get("measures", {}))
    found = []
    for program in report.get("programs", []):
        error, repaired = program.get("error"), program.get("repaired_error")
        found.append(
            SnippetOutcome(
                outputs=tuple(program.get("outputs", [])),
                error=_error(error) if error else None,
                measures=measures,
                duration_s=duration,
                values={int(k): v for k, v in program.get("values", {}).items()},
                supplied=tuple(program.get("supplied", [])),
                seconds=float(program.get("seconds", 0.0)),
                tainted={int(k): dict(v) for k, v in program.get("tainted", {}).items()},
                repaired_error=_error(repaired) if repaired else None,
            )
        )
    stopped = report.get("stopped")
    if stopped is not None:
        ran = sum(o.seconds for o in found)
        interfered = stopped.get("interfered")
        found.append(
            SnippetOutcome(
                signal=stopped.get("signal"),
                timed_out=bool(stopped.get("timed_out")),
                measures=measures,
                duration_s=duration,
                seconds=max(0.0, duration - ran),
                refused="not judged: the snippet wrote into the sandbox's report channel "
                f"({interfered})"
                if interfered
                else None,
            )
        )
    return found
