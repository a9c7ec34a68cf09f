"""The job queue: huey, on SQLite by default (one file beside the store, no server to run),
on Redis with ``CHECKER_SERVICE_REDIS_URL`` for workers on several machines (a GPU machine
among them runs the CUDA snippets of the jobs it takes).

Two queues share one storage: ``cpu`` takes every check, ``cuda`` the checks that run code
asking for CUDA (:func:`checker.service.checks.uses_cuda`), and only while a worker on the
``cuda`` queue has said it is there (``serve --worker --queue cuda``, on a GPU machine);
otherwise such a check goes to ``cpu`` too and its CUDA snippets are ``needs-cuda``. Every
result says which worker, queue and attempt ran it.

Workers never open the store: a task carries the job itself and the worker writes its
progress and its outcome into huey's key-value storage, beside the queue
(:mod:`checker.service.worker`); so a worker needs only the queue's address. The web process
(:meth:`Queue.collect`, from a background thread and whenever a job is asked about) copies
what workers wrote into the store and deletes it, and decides what is sent:

- **Fair order.** A token holder's job is sent at once, with a higher priority than any
  anonymous one; anonymous jobs wait in the store and at most ``limits.anonymous_jobs`` of
  them are sent at once (0: one fewer than the cpu workers there, at least one), so a token
  holder's check finds a worker free however many anonymous previews are waiting.
- **Once, or once more.** A job is sent as attempt 1; a worker claims an attempt before it
  runs it, so an attempt runs at most once. When the worker holding a claim has died (its
  heartbeat stopped, or on this host its process is gone), the job is sent once more as
  attempt 2, or failed with the reason after :data:`ATTEMPTS`; a result counts only for the
  attempt the store holds.
- **Nothing left behind.** A job's keys are deleted when its result is taken or it fails;
  every minute keys of jobs the store no longer has unfinished are swept; huey keeps no
  results of its own (``results=False``).
"""

from __future__ import annotations

import functools
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from huey import Huey, PriorityRedisHuey, SqliteHuey
from huey.api import TaskWrapper

from checker.service import checks, worker
from checker.service.config import ServiceConfig
from checker.service.store import DONE, QUEUED, RUNNING, ServiceJob, Store
from checker.service.worker import WORKER_SLOTS, key

#: The task's name in the queue (the same in every process that enqueues or consumes).
TASK = "checker.service.run_job"
#: The queues, by the name workers and results give them, and huey's name for each.
QUEUES = {"cpu": "checker", "cuda": "checker-cuda"}
#: Heartbeats a worker may miss before it is taken for gone.
SILENT_BEATS = 4
#: Times a job is sent to the workers at most (a second time only when its worker died).
ATTEMPTS = 2
#: Priorities in the queue: token holders' jobs first.
TOKEN_PRIORITY, ANONYMOUS_PRIORITY = 10, 0
#: Seconds between two sweeps of keys left by jobs no longer unfinished.
SWEEP_S = 60.0
_JOB_KEYS = ("claim", "progress", "result")


class Queue:
    """A huey instance for ``config`` with the service's one task registered; the web side
    (:meth:`enqueue`, :meth:`collect`) and the worker side (:meth:`consumer`)."""

    def __init__(self, config: ServiceConfig) -> None:
        self.config = config
        self.hueys = {name: _huey(config, huey_name) for name, huey_name in QUEUES.items()}
        #: Claims, progress, results and workers' descriptions: one key-value storage.
        self.huey = self.hueys["cpu"]
        self.tasks: dict[str, TaskWrapper] = {}
        for name, queue_huey in self.hueys.items():
            run_job = _runner(self.huey, config, name)
            self.tasks[name] = queue_huey.task(name=TASK, retries=0)(run_job)
            queue_huey.on_startup(name="report_worker")(
                _reporter(self.huey, name, config.worker_heartbeat_s)
            )
            queue_huey.on_shutdown(name="forget_worker")(_forgetter(self.huey))
        self._collecting = threading.Lock()
        self._dispatching = threading.Lock()
        self._swept = time.monotonic()
        self._counted = (0.0, 0)

    # -- the web side --------------------------------------------------------------------------

    @functools.cached_property
    def store(self) -> Store:
        """The web process's store (a worker never opens it)."""
        return Store(self.config.database)

    def enqueue(self, job: ServiceJob) -> None:
        """A new job: a token holder's is sent now; an anonymous one when there is room."""
        if job.owner is not None:
            self._send(job, job.attempt + 1)
        else:
            self.dispatch()

    def _send(self, job: ServiceJob, attempt: int, *, again: bool = False) -> str | None:
        """Send attempt ``attempt`` of ``job`` on the queue it belongs on; which (``None``
        when it had finished or moved on meanwhile). ``again``: the same attempt once more
        (its message was lost before any worker claimed it)."""
        if not again and not self.store.send(job.id, attempt):
            return None
        queue = "cpu"
        if checks.uses_cuda(job) and any(w.get("queue") == "cuda" for w in self.workers()):
            queue = "cuda"
        priority = ANONYMOUS_PRIORITY if job.owner is None else TOKEN_PRIORITY
        payload = asdict(job) | {"result": None, "attempt": attempt, "status": QUEUED}
        self.tasks[queue](payload, priority=priority)
        return queue

    def anonymous_room(self) -> int:
        """How many anonymous jobs may be with the workers at once."""
        if self.config.limits.anonymous_jobs > 0:
            return self.config.limits.anonymous_jobs
        now = time.monotonic()
        if now - self._counted[0] > 1.0:  # the workers, looked at once a second at most
            cpu = sum(1 for w in self.workers() if w.get("queue") == "cpu")
            self._counted = (now, cpu)
        return max(1, self._counted[1] - 1)

    def dispatch(self) -> int:
        """Send held anonymous jobs while there is room; how many were sent (its own lock: a
        submission does not wait for a round of collection)."""
        with self._dispatching:
            room = self.anonymous_room() - self.store.sent_anonymous()
            sent = 0
            for job_id in self.store.held()[: max(room, 0)]:
                job = self.store.job(job_id)
                if job is not None and self._send(job, job.attempt + 1) is not None:
                    sent += 1
            return sent

    def recover(self) -> int:
        """When ``serve`` starts: take what workers left, give up on dead workers' claims,
        send again a message the queue lost, and send held jobs; how many jobs were found
        unfinished."""
        self.forget_workers()
        pending = {
            (str(task.args[0]["id"]), int(task.args[0].get("attempt", 0)))
            for queue_huey in self.hueys.values()
            for task in queue_huey.pending()
            if task.args and isinstance(task.args[0], dict)
        }
        ids = self.store.unfinished_ids()
        self.collect()
        for job_id in self.store.unfinished_ids():
            job = self.store.job(job_id)
            if job is None or job.attempt == 0:
                continue
            claimed = self.huey.get(key("claim", job.id, job.attempt), peek=True)
            if claimed is None and (job.id, job.attempt) not in pending:
                self._send(job, job.attempt, again=True)
        self.dispatch()
        return len(ids)

    def collect(self, job_id: str | None = None) -> None:
        """Copy what workers wrote (progress, results) into the store, for one job or for
        every unfinished one; retry or fail the jobs of dead workers; send held jobs when
        some finished. A round over every job reads the key-value storage once."""
        with self._collecting:
            if job_id is not None:
                job = self.store.job(job_id)
                if job is not None and self._collect_one(job, self._peek):
                    self.dispatch()
                return
            values = self.snapshot()
            finished = sum(self._collect_one(job, values.get) for job in self.store.unfinished())
            self.dispatch()
            if finished or time.monotonic() - self._swept > SWEEP_S:
                self.sweep()

    def _peek(self, name: str) -> Any:
        return self.huey.get(name, peek=True)

    def snapshot(self) -> dict[str, Any]:
        """Every key of the key-value storage with its value, in one read."""
        raw = self.huey.storage.result_items()
        return {str(name): self.huey.serializer.deserialize(value) for name, value in raw.items()}

    def _collect_one(self, job: ServiceJob, peek: Callable[[str], Any]) -> bool:
        """Whether the job finished (its result taken, or given up); ``peek`` reads a key."""
        if job.finished or job.attempt == 0:
            return False
        job_id, attempt = job.id, job.attempt
        if peek(key("result", job_id, attempt)) is not None:
            outcome = self.huey.get(key("result", job_id, attempt))  # taken: stored now
        else:
            outcome = None
        # the last progress before the outcome: a job can finish between two collections,
        # and its counts must not depend on when the web process looked
        progress = peek(key("progress", job_id, attempt))
        if progress is not None and (progress["stage"], progress["done"], progress["total"]) != (
            job.stage,
            job.done,
            job.total,
        ):
            self.store.progress(job_id, progress["stage"], progress["done"], progress["total"])
        if outcome is not None:
            if outcome["status"] == DONE:
                self.store.finish(job_id, outcome["result"])
            else:
                self.store.fail(job_id, outcome["error"])
            self._forget_job(job_id, attempt)
            return True
        claimed = peek(key("claim", job_id, attempt))
        if claimed is None or not self.gone(str(claimed), peek):
            return False
        # its worker died in the middle: once more, or failed with the reason
        self._forget_job(job_id, attempt)
        if attempt < ATTEMPTS and self._send(job, attempt + 1) is not None:
            return False
        self.store.fail(
            job_id,
            f"the worker running this check stopped in the middle ({claimed}, attempt "
            f"{attempt} of {ATTEMPTS}); it is not run again",
        )
        return True

    def _forget_job(self, job_id: str, attempt: int) -> None:
        for attempt_ in range(1, attempt + 1):
            for kind in _JOB_KEYS:
                self.huey.delete(key(kind, job_id, attempt_))

    def sweep(self) -> int:
        """Delete the keys of jobs that are not unfinished in the store (a worker's outcome
        for an attempt given up on, a job that expired); how many."""
        self._swept = time.monotonic()
        live = set(self.store.unfinished_ids())
        removed = 0
        for name in list(self.huey.storage.result_items()):
            kind, _, rest = str(name).partition(":")
            if kind in _JOB_KEYS and rest.rpartition(":")[0] not in live:
                self.huey.delete(name)
                removed += 1
        return removed

    def gone(self, worker_id: str, peek: Callable[[str], Any] | None = None) -> bool:
        """Whether a worker has died: on this host, its process is gone; anywhere, it has
        been silent for :data:`SILENT_BEATS` heartbeats."""
        if worker.process_gone(worker_id):
            return True
        seen = (peek or self._peek)(key("seen", worker_id))
        silent_s = SILENT_BEATS * self.config.worker_heartbeat_s
        return seen is None or time.time() - float(seen) > silent_s

    def forget_workers(self) -> None:
        """Drop the descriptions of workers that died (``serve`` does when it starts); live
        workers keep theirs, on this machine and on others."""
        self.workers()

    def workers(self) -> list[dict[str, Any]]:
        """The workers there now, each with ``seen_s``: seconds since its last sign of life.
        A stopped worker left its slot empty; a dead one (see :meth:`gone`) has its slot
        emptied here."""
        found = []
        now = time.time()
        values = self.snapshot()
        for slot in range(WORKER_SLOTS):
            described = values.get(f"worker:{slot}")
            if described is None:
                continue
            worker_id = str(described.get("id"))
            if self.gone(worker_id, values.get):
                self.huey.delete(f"worker:{slot}")
                self.huey.delete(key("seen", worker_id))
                continue
            seen = float(values[key("seen", worker_id)])
            found.append({**described, "seen_s": round(max(0.0, now - seen), 1)})
        return found

    def collector(self, interval_s: float = 0.5) -> threading.Event:
        """Start a daemon thread that collects every ``interval_s``; set the event to stop."""
        stop = threading.Event()

        def loop() -> None:
            while not stop.wait(interval_s):
                try:
                    self.collect()
                except Exception:  # the next round tries again; requests collect too
                    traceback.print_exc()

        threading.Thread(target=loop, name="checker-collector", daemon=True).start()
        return stop

    # -- the worker side -----------------------------------------------------------------------

    def consumer(self, workers: int, queue: str = "cpu") -> worker.Consumer:
        """A consumer of ``queue`` whose processes end with it (``.run()`` blocks until
        SIGINT, a graceful stop, or SIGTERM)."""
        return worker.Consumer(
            self.hueys[queue],
            workers=workers,
            worker_type="process",
            initial_delay=0.05,
            backoff=1.5,
            max_delay=0.5,
            check_worker_health=True,
        )


def _huey(config: ServiceConfig, name: str) -> Huey:
    if config.redis_url:
        return PriorityRedisHuey(name, url=config.redis_url, results=False)
    config.data_dir.mkdir(parents=True, exist_ok=True)
    return SqliteHuey(name, filename=str(config.queue_file), results=False)


def _runner(huey: Huey, config: ServiceConfig, queue: str) -> Any:
    def run_job(payload: dict[str, Any]) -> None:
        worker.run_job(huey, config, payload, queue)

    return run_job


def _reporter(huey: Huey, queue: str, heartbeat_s: float) -> Any:
    return lambda: worker.report_worker(huey, queue, heartbeat_s)


def _forgetter(huey: Huey) -> Any:
    return lambda: worker.forget_worker(huey)


__all__ = ["QUEUED", "RUNNING", "Queue"]
