"""How much slower than the reference machine this machine runs right now.

Each claim's time limit (``Claim.timeout_s``) was chosen on the project's 2-core build machine
with nothing else running. A laptop busy with another job, or simply slower, runs the same
probe in more wall-clock time; the fork server's parent multiplies every limit by the
*slowdown* measured here, so that no probe depends on the machine being idle. The slowdown is
the time a fixed reference workload (pure Python on one thread, as probes run) takes now,
over :data:`REFERENCE_S`, the time it took on the reference machine, idle; never below 1 (a
faster machine keeps the limits as they are) and never above :data:`MAX_SLOWDOWN` (a probe that
hangs still ends).

The pool measures once, when its first job starts, and again when a job reaches its limit:
a machine that became busier since gets the longer limit (:class:`checker.pool.Pool`). A
probe that still does not finish on a machine measured as busy (:data:`BUSY`) is *not run*,
with that reason (:mod:`checker.runner`); on a machine that is not busy it is a probe error.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

#: Seconds the reference workload takes on the project's 2-core build machine, idle
#: (the fastest of repeated runs, 2026-11-27).
REFERENCE_S = 0.035
#: The longest a limit is stretched: a probe that hangs is still stopped.
MAX_SLOWDOWN = 20.0
#: A machine at least this much slower than the reference counts as busy: a probe that does
#: not finish in time there is not run, rather than broken.
BUSY = 1.5
#: A fixed slowdown, skipping the measurement: tests, or a machine known to be slow.
ENV_VAR = "CHECKER_SLOWDOWN"
#: Runs of the reference workload per measurement; their median is taken.
REPEATS = 5


def reference_workload() -> int:
    """A fixed amount of single-threaded work (about 35 ms on the reference machine)."""
    total = 0
    for i in range(300_000):
        total += i * i % 7
    return total


def slowdown(
    workload: Callable[[], object] = reference_workload,
    clock: Callable[[], float] = time.perf_counter,
    repeats: int = REPEATS,
) -> float:
    """The slowdown of this machine now: the median time of ``repeats`` runs of the reference
    workload over :data:`REFERENCE_S`, kept between 1 and :data:`MAX_SLOWDOWN`; the value of
    ``CHECKER_SLOWDOWN`` instead, when it is set."""
    fixed = os.environ.get(ENV_VAR)
    if fixed:
        return clamp(float(fixed))
    times = []
    for _ in range(repeats):
        start = clock()
        workload()
        times.append(clock() - start)
    return clamp(statistics.median(times) / REFERENCE_S)


def clamp(factor: float) -> float:
    """``factor`` kept between 1 and :data:`MAX_SLOWDOWN`."""
    return min(MAX_SLOWDOWN, max(1.0, factor))


def is_busy(factor: float) -> bool:
    """Whether a machine with this slowdown counts as busy."""
    return factor >= BUSY
