"""The parent side of the fork server: start zygotes, submit jobs, enforce time limits.

Every job runs ``handler(args)`` in a fresh child forked from a zygote that preloaded torch
and the given modules. :meth:`Pool.run` returns one :class:`JobResult` per job, in order,
whatever the jobs do: raise, crash, hang (killed at their deadline) or exhaust memory.

A job's time limit is its ``timeout_s`` times the machine's slowdown when the pool is given
a way to measure it (:func:`checker.speed.slowdown`): measured when the first job starts, and
again when a job reaches its limit, which is then stretched if the machine became slower.
"""

from __future__ import annotations

import dataclasses
import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, Protocol


class JailCommand(Protocol):
    """What a pool needs of a jail a fork server runs in (:class:`checker.scan.jail.Jail`):
    the command that starts it, the descriptors and environment it gets, and clean-up."""

    argv: list[str]
    pass_fds: tuple[int, ...]
    env: dict[str, str]

    def started(self) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class WorkerJob:
    """One unit of work for a child process."""

    #: ``module:function`` taking ``args`` and returning JSON-able data.
    handler: str
    args: dict[str, Any]
    #: Seconds the job may run on the reference machine, idle (see :mod:`checker.speed`).
    timeout_s: float
    #: Extra address space (bytes) the child may map; ``None`` for no limit.
    address_space: int | None = None
    #: Extra private writable memory (``RLIMIT_DATA``), for code that may use CUDA.
    data_limit: int | None = None
    #: Called in the parent with each progress message the handler sends
    #: (:func:`checker.zygote.progress`).
    progress: Callable[[dict[str, Any]], None] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class JobResult:
    """What became of a job. Exactly one of ``result`` and ``failure`` is meaningful."""

    result: Any = None
    #: Why the job produced no result: its exception, a crash, or a timeout.
    failure: str | None = None
    #: Last lines the child wrote to stderr.
    stderr: str = ""
    timed_out: bool = False
    #: Signal that ended the child (``"SIGSEGV"``, ``"SIGKILL"``), if any.
    signal: str | None = None
    duration_s: float = 0.0
    #: The job's time limit in seconds, its ``timeout_s`` times :attr:`slowdown`.
    limit_s: float = 0.0
    #: The machine's slowdown the limit was stretched by (1 when the pool measures none).
    slowdown: float = 1.0


@dataclass
class _Zygote:
    process: subprocess.Popen[bytes]
    stdin: IO[bytes]
    stdout: IO[bytes]
    #: Bytes read from ``stdout`` that do not yet form a whole line. Reading is unbuffered,
    #: with this buffer of our own: a buffered reader could hold a job's result after its
    #: "pid" line, where ``select`` never sees it, and the job would look busy forever.
    pending: bytes = b""
    job: WorkerJob | None = None
    index: int = -1
    pid: int | None = None
    started: float = 0.0
    killed: bool = False
    #: The jail it runs in (``None``: a plain child of this process).
    jail: JailCommand | None = None
    #: The slowdown the running job's limit is stretched by.
    slowdown: float = 1.0

    @property
    def limit_s(self) -> float:
        return self.job.timeout_s * self.slowdown if self.job else 0.0


@dataclass
class Pool:
    """A set of zygotes sharing one preload list. Reuse it: starting one imports torch."""

    preload: Sequence[str]
    size: int = 1
    #: Makes a fresh jail for each fork server (:mod:`checker.scan.jail`); ``None`` for a
    #: plain child, for code of ours (probes).
    jail: Callable[[], JailCommand] | None = None
    #: What the last fork server started reported of itself (:func:`checker.zygote.facts`).
    facts: dict[str, Any] = field(default_factory=dict, init=False)
    #: Measures the machine's slowdown (:func:`checker.speed.slowdown`); ``None``: limits
    #: are the jobs' own ``timeout_s``.
    slowdown: Callable[[], float] | None = None
    _zygotes: list[_Zygote] = field(default_factory=list, init=False)
    _factor: float | None = field(default=None, init=False)

    def run(self, jobs: Sequence[WorkerJob]) -> list[JobResult]:
        results: list[JobResult | None] = [None] * len(jobs)
        queue = list(enumerate(jobs))
        while queue or any(z.job for z in self._zygotes):
            for zygote in self._idle(min(self.size, max(1, len(queue)))):
                if not queue:
                    break
                index, job = queue.pop(0)
                self._submit(zygote, index, job)
            for zygote, result in self._wait():
                results[zygote.index] = result
        return [r if r is not None else JobResult(failure="job lost") for r in results]

    def close(self) -> None:
        for zygote in self._zygotes:
            zygote.stdin.close()
            try:
                zygote.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                zygote.process.kill()
                zygote.process.wait()
            zygote.stdout.close()
            if zygote.jail is not None:
                zygote.jail.close()
        self._zygotes.clear()

    def _idle(self, wanted: int) -> Iterable[_Zygote]:
        while len(self._zygotes) < wanted:
            self._zygotes.append(self._start())
        return [z for z in self._zygotes if z.job is None]

    def _start(self) -> _Zygote:
        jail = self.jail() if self.jail is not None else None
        errors = tempfile.TemporaryFile()  # noqa: SIM115  the jail's stderr, read on failure
        try:
            process = subprocess.Popen(
                jail.argv if jail else [sys.executable, "-m", "checker.zygote"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=errors if jail else None,
                bufsize=0,
                cwd=os.getcwd() if jail is None else "/",
                env=jail.env if jail else _child_env(),
                pass_fds=jail.pass_fds if jail else (),
            )
        except BaseException:
            if jail is not None:
                jail.close()
            raise
        if jail is not None:
            jail.started()
        assert process.stdin is not None and process.stdout is not None
        zygote = _Zygote(process, process.stdin, process.stdout, jail=jail)
        hello = {"preload": list(self.preload), "sys_path": [] if jail else _importable_paths()}
        _write(zygote, {**hello, "facts": jail is not None})
        while b"\n" not in zygote.pending:
            chunk = os.read(zygote.stdout.fileno(), 1 << 16)
            if not chunk:
                status = process.wait()
                errors.seek(0)
                told = errors.read().decode("utf-8", "replace").strip().splitlines()[-3:]
                if jail is not None:
                    jail.close()
                raise RuntimeError(
                    f"the fork server failed to start (exit {status})"
                    + (f": {' '.join(told)}" if told else "")
                )
            zygote.pending += chunk
        errors.close()
        line, zygote.pending = zygote.pending.split(b"\n", 1)  # the hello line
        self.facts = json.loads(line).get("facts") or {}
        return zygote

    def _submit(self, zygote: _Zygote, index: int, job: WorkerJob) -> None:
        zygote.job, zygote.index, zygote.pid, zygote.killed = job, index, None, False
        zygote.slowdown = self._current_factor()
        zygote.started = time.monotonic()
        _write(
            zygote,
            {
                "handler": job.handler,
                "args": job.args,
                "address_space": job.address_space,
                "data_limit": job.data_limit,
            },
        )

    def _wait(self) -> list[tuple[_Zygote, JobResult]]:
        """Block until some job finishes or a deadline passes; return finished jobs."""
        busy = [z for z in self._zygotes if z.job is not None]
        if not busy:
            return []
        now = time.monotonic()
        deadline = min(z.started + z.limit_s for z in busy if z.job)
        with selectors.DefaultSelector() as sel:
            for zygote in busy:
                sel.register(zygote.stdout, selectors.EVENT_READ, zygote)
            ready = sel.select(timeout=max(0.0, deadline - now))
        finished = []
        for key, _ in ready:
            zygote = key.data
            result = self._read(zygote)
            if result is not None:
                finished.append((zygote, result))
        for zygote in busy:
            job = zygote.job
            if (
                job
                and not zygote.killed
                and zygote.pid
                and time.monotonic() >= zygote.started + zygote.limit_s
                and not self._stretched(zygote)
            ):
                zygote.killed = True
                if zygote.jail is not None:  # its pid is the jail's own: end the jail
                    zygote.process.kill()
                else:
                    os.kill(zygote.pid, signal.SIGKILL)
        return finished

    def _current_factor(self) -> float:
        """The slowdown new jobs' limits are stretched by, measured on first use."""
        if self.slowdown is None:
            return 1.0
        if self._factor is None:
            self._factor = self.slowdown()
        return self._factor

    def _stretched(self, zygote: _Zygote) -> bool:
        """Measure the slowdown again for a job at its limit; when the machine became slower,
        stretch the job's limit (and later jobs'), and say whether it now runs on."""
        if self.slowdown is None:
            return False
        now = self.slowdown()
        if now <= zygote.slowdown:
            return False
        self._factor = max(now, self._factor or 1.0)
        zygote.slowdown = now
        return time.monotonic() < zygote.started + zygote.limit_s

    def _read(self, zygote: _Zygote) -> JobResult | None:
        chunk = os.read(zygote.stdout.fileno(), 1 << 20)
        if not chunk:
            job_timeout = zygote.limit_s
            zygote.job = None
            self._zygotes.remove(zygote)
            status = zygote.process.wait()
            zygote.stdout.close()
            zygote.stdin.close()
            if zygote.jail is not None:
                zygote.jail.close()
            if zygote.killed:
                return JobResult(
                    failure=f"timed out after {job_timeout:g} s",
                    timed_out=True,
                    duration_s=time.monotonic() - zygote.started,
                )
            return JobResult(
                failure=f"the fork server died (exit {status})",
                duration_s=job_timeout,
            )
        zygote.pending += chunk
        while b"\n" in zygote.pending:
            line, zygote.pending = zygote.pending.split(b"\n", 1)
            message = json.loads(line)
            if "pid" in message:
                zygote.pid = int(message["pid"])
                continue
            if "progress" in message:
                if zygote.job is not None and zygote.job.progress is not None:
                    zygote.job.progress(message["progress"])
                continue
            duration = time.monotonic() - zygote.started
            result = _result(message, zygote.killed, zygote.limit_s, duration)
            result = dataclasses.replace(result, limit_s=zygote.limit_s, slowdown=zygote.slowdown)
            zygote.job = None
            return result
        return None


def _result(report: dict[str, Any], killed: bool, limit: float, duration: float) -> JobResult:
    stderr = str(report.get("stderr") or "")
    sig = report.get("signal")
    if killed:
        return JobResult(
            failure=f"timed out after {limit:.3g} s",
            stderr=stderr,
            timed_out=True,
            signal=sig,
            duration_s=duration,
        )
    message = report.get("message")
    if isinstance(message, dict) and "result" in message:
        return JobResult(result=message["result"], stderr=stderr, duration_s=duration)
    if isinstance(message, dict) and "error" in message:
        return JobResult(failure=str(message["error"]), stderr=stderr, duration_s=duration)
    if sig:
        return JobResult(
            failure=f"worker process crashed ({sig})",
            stderr=stderr,
            signal=sig,
            duration_s=duration,
        )
    return JobResult(
        failure=f"worker process exited with status {report.get('exit')} before reporting",
        stderr=stderr,
        duration_s=duration,
    )


def _write(zygote: _Zygote, message: dict[str, Any]) -> None:
    zygote.stdin.write((json.dumps(message) + "\n").encode("utf-8"))
    zygote.stdin.flush()


def _importable_paths() -> list[str]:
    return [p for p in sys.path if p and os.path.isdir(p)]


#: The only variables of the parent's environment a fork server (and so every probe and
#: every scanned snippet) starts with: where programs are, the locale, where temporary files
#: go, which GPUs it may use, and the settings of Python, PyTorch and its math libraries that
#: change what a probe measures. Everything else (tokens, keys, the CI's secrets) stays out
#: of the environment block the server is started with, which ``/proc/self/environ`` shows.
ENVIRONMENT_KEPT = (
    "PATH",
    "HOME",
    "LANG",
    "LANGUAGE",
    "TZ",
    "TMPDIR",
    "CUDA_VISIBLE_DEVICES",
    "CHECKER_HIDE_CUDA",
    "PYTHONHASHSEED",
    "PYTHONDONTWRITEBYTECODE",
    "PYTHONUTF8",
    "PYTHONIOENCODING",
    "PYTHONWARNINGS",
)
#: Prefixes of further variables kept (locale categories, CUDA, PyTorch, OpenMP, MKL).
ENVIRONMENT_KEPT_PREFIXES = ("LC_", "CUDA_", "PYTORCH_", "TORCH_", "OMP_", "MKL_")


def kept_environment() -> dict[str, str]:
    """The part of this process's environment a fork server may see (:data:`ENVIRONMENT_KEPT`,
    :data:`ENVIRONMENT_KEPT_PREFIXES`), in a jail or not."""
    return {
        name: value
        for name, value in os.environ.items()
        if name in ENVIRONMENT_KEPT or name.startswith(ENVIRONMENT_KEPT_PREFIXES)
    }


def _child_env() -> dict[str, str]:
    """The fork server's environment: the kept part of the parent's
    (:func:`kept_environment`), with this package importable by ``python -m``."""
    env = kept_environment()
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    paths = (package_root, os.environ.get("PYTHONPATH"))
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    return env
