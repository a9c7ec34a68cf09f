"""The job queue: huey, on SQLite by default (one file beside the store, no server to run),
on Redis with ``CHECKER_SERVICE_REDIS_URL`` for workers on several machines (a GPU machine
among them runs the CUDA snippets of the jobs it takes).

Two queues share one storage: ``cpu`` takes every check, ``cuda`` the checks that run code
asking for CUDA (:func:`checker.service.checks.uses_cuda`), and only while a worker on the
``cuda`` queue has said it is there (``serve --worker --queue cuda``, on a GPU machine);
otherwise such a check goes to ``cpu`` too and its CUDA snippets are ``needs-cuda``. Every
result says which worker and queue ran it.

Workers never open the store: a task carries the job itself (kind, language, format, content,
whether to run code) and the worker writes its progress, its result and its own description
(torch, devices) into huey's key-value storage, beside the queue; so a worker needs only the
queue's address. The web process (:meth:`Queue.collect`) copies what workers wrote into the
store: each time a job is asked about, and from a background thread. A job is claimed with
an atomic ``put_if_empty``, so a job queued twice (a restart queues again what was not
finished) runs once; a restart releases the claims of the jobs it queues again.
"""

from __future__ import annotations

import functools
import os
import socket
import threading
import time
import traceback
from dataclasses import asdict
from typing import Any

from huey import Huey, RedisHuey, SqliteHuey
from huey.api import TaskWrapper

from checker.service import checks
from checker.service.config import ServiceConfig
from checker.service.store import DONE, FAILED, QUEUED, RUNNING, ServiceJob, Store

#: The task's name in the queue (the same in every process that enqueues or consumes).
TASK = "checker.service.run_job"
#: The queues, by the name workers and results give them, and huey's name for each.
QUEUES = {"cpu": "checker", "cuda": "checker-cuda"}
#: Workers describe themselves in these slots (``worker:0``, ``worker:1``...), taken atomically.
WORKER_SLOTS = 64
#: Heartbeats a worker may miss before it is taken for gone.
SILENT_BEATS = 4


def _key(kind: str, job_id: str) -> str:
    return f"{kind}:{job_id}"


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

    # -- the web side --------------------------------------------------------------------------

    @functools.cached_property
    def store(self) -> Store:
        """The web process's store (a worker never opens it)."""
        return Store(self.config.database)

    def enqueue(self, job: ServiceJob) -> str:
        """Queue ``job`` on the queue it belongs on (see the module's description); which."""
        queue = "cpu"
        if checks.uses_cuda(job) and any(w.get("queue") == "cuda" for w in self.workers()):
            queue = "cuda"
        self.tasks[queue](asdict(job) | {"result": None})
        return queue

    def requeue_unfinished(self) -> int:
        """Queue again every job a stop left unfinished (its claim released); how many."""
        self.collect()
        ids = self.store.unfinished()
        for job_id in ids:
            self.huey.delete(_key("claim", job_id))
            job = self.store.job(job_id)
            if job is not None:
                self.enqueue(job)
        return len(ids)

    def collect(self, job_id: str | None = None) -> None:
        """Copy what workers wrote (progress, results) into the store, for one job or for
        every unfinished one."""
        with self._collecting:
            ids = [job_id] if job_id is not None else self.store.unfinished_ids()
            for one in ids:
                self._collect_one(one)

    def _collect_one(self, job_id: str) -> None:
        finished = self.huey.get(_key("result", job_id))  # taken: written to the store now
        if finished is not None:
            # the last progress first: a job can finish between two collections, and its
            # counts must not depend on when the web process looked
            last = self.huey.get(_key("progress", job_id), peek=True)
            if last is not None:
                self.store.progress(job_id, last["stage"], last["done"], last["total"])
            if finished["status"] == DONE:
                self.store.finish(job_id, finished["result"])
            else:
                self.store.fail(job_id, finished["error"])
            self.huey.delete(_key("progress", job_id))
            self.huey.delete(_key("claim", job_id))
            return
        progress = self.huey.get(_key("progress", job_id), peek=True)
        if progress is not None:
            self.store.progress(job_id, progress["stage"], progress["done"], progress["total"])

    def forget_workers(self) -> None:
        """Clear the descriptions of this machine's workers (``serve`` does when it starts:
        those left by workers that crashed; its own describe themselves again when they start).
        Workers on other machines keep theirs."""
        here = f"{socket.gethostname()}:"
        for slot in range(WORKER_SLOTS):
            worker = self.huey.get(f"worker:{slot}", peek=True)
            if worker is not None and str(worker.get("id", "")).startswith(here):
                self.huey.delete(f"worker:{slot}")
                self.huey.delete(_key("seen", str(worker["id"])))

    def workers(self) -> list[dict[str, Any]]:
        """The workers there now, each with ``seen_s``: seconds since its last sign of life.
        A stopped worker left its slot empty; one silent for :data:`SILENT_BEATS` heartbeats
        (it crashed) has its slot emptied here."""
        found = []
        now = time.time()
        silent_s = SILENT_BEATS * self.config.worker_heartbeat_s
        for slot in range(WORKER_SLOTS):
            worker = self.huey.get(f"worker:{slot}", peek=True)
            if worker is None:
                continue
            seen = self.huey.get(_key("seen", str(worker.get("id"))), peek=True)
            if seen is None or now - float(seen) > silent_s:
                self.huey.delete(f"worker:{slot}")
                self.huey.delete(_key("seen", str(worker.get("id"))))
                continue
            found.append({**worker, "seen_s": round(max(0.0, now - float(seen)), 1)})
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

    def consumer(self, workers: int, queue: str = "cpu") -> Any:
        """A huey consumer of ``queue`` (``.run()`` blocks until SIGINT/SIGTERM)."""
        return self.hueys[queue].create_consumer(
            workers=workers,
            worker_type="process",
            initial_delay=0.05,
            backoff=1.5,
            max_delay=0.5,
            check_worker_health=True,
        )


def _huey(config: ServiceConfig, name: str) -> Huey:
    if config.redis_url:
        return RedisHuey(name, url=config.redis_url)
    config.data_dir.mkdir(parents=True, exist_ok=True)
    return SqliteHuey(name, filename=str(config.queue_file), results=False)


def _runner(huey: Huey, config: ServiceConfig, queue: str) -> Any:
    def run_job(payload: dict[str, Any]) -> str:
        return _run(huey, config, payload, queue)

    return run_job


def _reporter(huey: Huey, queue: str, heartbeat_s: float) -> Any:
    return lambda: _report_worker(huey, queue, heartbeat_s)


def _forgetter(huey: Huey) -> Any:
    return lambda: _forget_worker(huey)


def _run(huey: Huey, config: ServiceConfig, payload: dict[str, Any], queue: str = "cpu") -> str:
    job = ServiceJob(**payload)
    worker = f"{socket.gethostname()}:{os.getpid()}"
    if not huey.put_if_empty(_key("claim", job.id), worker):
        return "skipped"  # another worker has it, or had it and finished

    def progress(stage: str, done: int, total: int) -> None:
        huey.put(_key("progress", job.id), {"stage": stage, "done": done, "total": total})

    progress("started", 0, 0)
    try:
        result = checks.run(job, config, progress)
    except checks.CheckFailed as exc:
        outcome: dict[str, Any] = {"status": FAILED, "error": str(exc)}
    except Exception as exc:  # a bug must fail this job, not the worker
        traceback.print_exc()
        outcome = {"status": FAILED, "error": f"internal error: {type(exc).__name__}: {exc}"}
    else:
        ran_on = {"worker": worker, "queue": queue}
        outcome = {"status": DONE, "result": {**result, "ran_on": ran_on}}
    huey.put(_key("result", job.id), outcome)
    return str(outcome["status"])


def _report_worker(huey: Huey, queue: str = "cpu", heartbeat_s: float = 5.0) -> None:
    """Each worker process says which queue it takes and which torch and devices it has
    (``/api/workers``), and then, every ``heartbeat_s``, that it is still there."""
    from checker import devices
    from checker.typing import DEVICES

    found: dict[str, str] = {}
    for device in DEVICES:
        presence = devices.presence(device)
        found[device] = "present" if presence.present else f"absent: {presence.reason}"
    worker_id = f"{socket.gethostname()}:{os.getpid()}"
    info = {
        "id": worker_id,
        "queue": queue,
        "torch": devices.torch_version(),
        "devices": found,
    }
    seen = _key("seen", worker_id)
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


def _forget_worker(huey: Huey) -> None:
    """A worker that stops takes its description away: no check is routed to a queue whose
    workers have all stopped. One that crashed falls silent and :meth:`Queue.workers` drops
    it."""
    _beating.set()
    while _heart:
        _heart.pop().join(timeout=5)
    huey.delete(_key("seen", f"{socket.gethostname()}:{os.getpid()}"))
    while _reported:
        huey.delete(f"worker:{_reported.pop()}")


__all__ = ["QUEUED", "RUNNING", "Queue"]
