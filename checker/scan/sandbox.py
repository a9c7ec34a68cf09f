"""The parent side of the sandbox: one fork server for every snippet of a scan.

:class:`Sandbox` starts a :class:`checker.pool.Pool` whose zygote preloads
:mod:`checker.scan.sandbox_child` (and with it torch), and runs each snippet as a job with an
address-space limit and a deadline. Each job gets a throw-away folder, removed afterwards
whatever the snippet did.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checker.pool import Job, Pool

HANDLER = "checker.scan.sandbox_child:run_snippet"


@dataclass(frozen=True)
class Limits:
    """Bounds on one snippet."""

    timeout_s: float = 20.0
    #: Address space the snippet may add to what the fork server maps (torch included).
    memory_bytes: int = 4 * 1024**3
    #: Output read back and compared.
    output_bytes: int = 256 * 1024
    #: Largest file (its standard output included) the snippet may write.
    file_bytes: int = 8 * 1024**2
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


@dataclass(frozen=True)
class Outcome:
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


@dataclass
class Sandbox:
    """Runs snippets; reuse one for a whole scan (starting it imports torch once)."""

    limits: Limits = field(default_factory=Limits)
    _pool: Pool | None = field(default=None, init=False, repr=False)

    def run(
        self, source: str, mode: str = "exec", prelude: tuple[str, ...] = (), gpu: bool = False
    ) -> Outcome:
        """Run ``source`` confined. ``gpu``: it may use CUDA (see ``run_snippet``)."""
        root = Path(tempfile.mkdtemp(prefix="checker-scan-"))
        (root / "work").mkdir()
        started = time.monotonic()
        try:
            job = Job(
                handler=HANDLER,
                args={
                    "source": source,
                    "mode": mode,
                    "prelude": list(prelude),
                    "root": str(root),
                    "timeout_s": self.limits.timeout_s,
                    "output_bytes": self.limits.output_bytes,
                    "file_bytes": self.limits.file_bytes,
                    "processes": self.limits.processes,
                    "open_files": self.limits.open_files,
                    "gpu": gpu,
                },
                timeout_s=self.limits.timeout_s + 15.0,
                # RLIMIT_DATA, not RLIMIT_AS: the CUDA driver reserves far more address
                # space than it uses, and a snippet may use the GPU.
                data_limit=self.limits.memory_bytes,
            )
            result = self._worker_pool().run([job])[0]
        finally:
            shutil.rmtree(root, ignore_errors=True)
        duration = time.monotonic() - started
        if result.failure is not None:
            return Outcome(failure=result.failure, timed_out=result.timed_out, duration_s=duration)
        return _outcome(result.result, duration)

    def _worker_pool(self) -> Pool:
        if self._pool is None:
            self._pool = Pool(preload=["checker.scan.sandbox_child"], size=1)
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None


def _outcome(report: dict[str, Any], duration: float) -> Outcome:
    error = report.get("error")
    return Outcome(
        outputs=tuple(report.get("outputs", [])),
        error=Error(error["type"], error["message"], int(error["line"]), error.get("cause", ""))
        if error
        else None,
        signal=report.get("signal"),
        timed_out=bool(report.get("timed_out")),
        measures=dict(report.get("measures", {})),
        duration_s=duration,
    )
