"""The worker side of the queue (:mod:`checker.service.queue`): what a worker process does
with a job, how it says it is there, and how it ends with the process that started it.

- A job is run for one attempt at most once: the worker first takes the attempt's claim
  (``claim:<job>:<attempt>``, an atomic ``put_if_empty``); a message for an attempt already
  claimed, or for a job whose result is written, is skipped. Progress and the outcome are
  written under the attempt's keys (``progress:<job>:<attempt>``, ``result:<job>:<attempt>``);
  the web process takes only the attempt it sent last (a worker it gave up on cannot
  overwrite a retry).
- Each worker process writes ``seen:<worker>`` every heartbeat: the lease on the jobs it
  claimed. One that falls silent (or, on the web process's host, whose process is gone) has
  died, and its job is sent again once or failed with the reason.
- A worker ends with the process that started it: on Linux the kernel sends it a signal when
  its parent dies (``PR_SET_PDEATHSIG``), and a watch thread checks the parent's id as well
  (the signal is lost when the parent died before it was asked for). ``serve`` starts its
  consumer with ``CHECKER_SERVICE_SUPERVISOR`` set to its own id; the consumer's worker
  processes watch the consumer.
- Every job started and finished is a line of ``runs.log`` in the worker's data folder
  (worker, job, attempt, event): what the tests and the load test count runs with.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import socket
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Any

from huey import Huey
from huey.consumer import Consumer as HueyConsumer
from huey.consumer import Scheduler, Worker

from checker.service import checks
from checker.service.config import ServiceConfig
from checker.service.store import DONE, FAILED, ServiceJob

#: Workers describe themselves in these slots (``worker:0``, ``worker:1``...), taken atomically.
WORKER_SLOTS = 64
#: The variable ``serve`` sets to its process id for the consumer it starts.
SUPERVISOR = "CHECKER_SERVICE_SUPERVISOR"
#: Seconds between two looks at the parent's id.
WATCH_S = 0.25
_PR_SET_PDEATHSIG = 1


def key(kind: str, job_id: str, attempt: int | None = None) -> str:
    return f"{kind}:{job_id}" if attempt is None else f"{kind}:{job_id}:{attempt}"


def worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def run_job(huey: Huey, config: ServiceConfig, payload: dict[str, Any], queue: str = "cpu") -> None:
    """Run one attempt of a job unless it was claimed already; the outcome goes to the
    attempt's ``result:`` key (nothing is kept as huey's own result)."""
    job = ServiceJob(**payload)
    attempt = job.attempt
    worker = worker_id()
    if not huey.put_if_empty(key("claim", job.id, attempt), worker):
        return  # another worker has it, or had it and finished
    log_run(config, job.id, attempt, "started")

    def progress(stage: str, done: int, total: int) -> None:
        huey.put(key("progress", job.id, attempt), {"stage": stage, "done": done, "total": total})

    progress("started", 0, 0)
    try:
        result = checks.run(job, config, progress)
    except checks.CheckFailed as exc:
        outcome: dict[str, Any] = {"status": FAILED, "error": str(exc)}
    except Exception as exc:  # a bug must fail this job, not the worker
        traceback.print_exc()
        outcome = {"status": FAILED, "error": f"internal error: {type(exc).__name__}: {exc}"}
    else:
        ran_on = {"worker": worker, "queue": queue, "attempt": attempt}
        outcome = {"status": DONE, "result": {**result, "ran_on": ran_on}}
    huey.put(key("result", job.id, attempt), outcome)
    log_run(config, job.id, attempt, str(outcome["status"]))


def runs_log(config: ServiceConfig) -> Path:
    return config.data_dir / "runs.log"


def log_run(config: ServiceConfig, job_id: str, attempt: int, event: str) -> None:
    """One line of ``runs.log`` (appended in one write: lines of processes never mix)."""
    line = json.dumps(
        {
            "time": time.time(),
            "worker": worker_id(),
            "job": job_id,
            "attempt": attempt,
            "event": event,
        }
    )
    config.data_dir.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(runs_log(config), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(descriptor, (line + "\n").encode())
    finally:
        os.close(descriptor)


def read_runs(config: ServiceConfig) -> list[dict[str, Any]]:
    path = runs_log(config)
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


# -- ending with the parent -------------------------------------------------------------------


def die_with_parent(parent: int, signum: int) -> None:
    """Receive ``signum`` when the process ``parent`` (this one's parent) ends: the kernel's
    parent-death signal on Linux, and a thread that checks the parent's id everywhere."""
    if sys.platform == "linux":
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0)
        except (OSError, AttributeError):  # no prctl: the watch thread still ends it
            pass
    if os.getppid() != parent:  # it died before the signal was asked for
        os.kill(os.getpid(), signum)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_S)
        os.kill(os.getpid(), signum)

    threading.Thread(target=watch, name="checker-parent-watch", daemon=True).start()


def watch_supervisor() -> None:
    """In ``serve --worker`` started by ``serve``: stop (huey's immediate stop, SIGTERM) when
    ``serve`` ends, however it ended."""
    supervisor = os.environ.get(SUPERVISOR, "")
    if supervisor.isdigit():
        die_with_parent(int(supervisor), signal.SIGTERM)


# -- saying it is there -----------------------------------------------------------------------


def report_worker(huey: Huey, queue: str = "cpu", heartbeat_s: float = 5.0) -> None:
    """In each worker process, as it starts: say which queue it takes
    and which torch and devices it has (``/api/workers``), and then, every ``heartbeat_s``,
    that it is still there."""
    from checker import devices
    from checker.typing import DEVICES

    found: dict[str, str] = {}
    for device in DEVICES:
        presence = devices.presence(device)
        found[device] = "present" if presence.present else f"absent: {presence.reason}"
    info = {
        "id": worker_id(),
        "queue": queue,
        "torch": devices.torch_version(),
        "devices": found,
    }
    seen = key("seen", worker_id())
    huey.put(seen, time.time())  # before the description: it is never listed as silent
    for slot in range(WORKER_SLOTS):
        if huey.put_if_empty(f"worker:{slot}", info):
            _reported.append(slot)
            break
    _beating.clear()

    def beat() -> None:
        while not _beating.wait(heartbeat_s):
            try:
                huey.put(seen, time.time())
            except Exception:  # the storage is away for a moment: the next beat tries again
                traceback.print_exc()

    thread = threading.Thread(target=beat, name="checker-heartbeat", daemon=True)
    thread.start()
    _heart.append(thread)


#: The slot this worker process described itself in, its heartbeat thread, and the event
#: that stops it.
_reported: list[int] = []
_heart: list[threading.Thread] = []
_beating = threading.Event()


def forget_worker(huey: Huey) -> None:
    """A worker that stops takes its description away: no check is routed to a queue whose
    workers have all stopped. One that crashed falls silent and the web process drops it."""
    _beating.set()
    while _heart:
        _heart.pop().join(timeout=5)
    huey.delete(key("seen", worker_id()))
    while _reported:
        huey.delete(f"worker:{_reported.pop()}")


def process_gone(worker: str) -> bool:
    """Whether ``worker`` (``host:pid``) is a process of this host that has ended (or is a
    zombie not yet reaped); False for another host's (only its heartbeat tells)."""
    host, _, pid = worker.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    if Path("/proc/self/stat").exists():
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except FileNotFoundError:
            return True
        return stat.rpartition(")")[2].split()[:1] == ["Z"]
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


class _Worker(Worker):  # type: ignore[misc]
    def initialize(self) -> None:
        die_with_parent(os.getppid(), signal.SIGKILL)
        super().initialize()


class _Scheduler(Scheduler):  # type: ignore[misc]
    def initialize(self) -> None:
        die_with_parent(os.getppid(), signal.SIGKILL)
        super().initialize()


class Consumer(HueyConsumer):  # type: ignore[misc]
    """Huey's consumer whose worker and scheduler processes end with it (killed by the
    kernel when it dies, however it died)."""

    worker_class = _Worker
    scheduler_class = _Scheduler
