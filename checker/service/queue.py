"""The job queue: huey, on SQLite by default (one file beside the store, no server to run),
on Redis with ``CHECKER_SERVICE_REDIS_URL`` for workers on several machines (a GPU machine
among them runs the CUDA snippets of the jobs it takes).

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
import traceback
from dataclasses import asdict
from typing import Any

from huey import Huey, RedisHuey, SqliteHuey
from huey.api import TaskWrapper

from checker.service import checks
from checker.service.config import ServiceConfig
from checker.service.store import DONE, FAILED, QUEUED, RUNNING, Job, Store

#: The task's name in the queue (the same in every process that enqueues or consumes).
TASK = "checker.service.run_job"
#: Workers describe themselves in these slots (``worker:0``, ``worker:1``...), taken atomically.
WORKER_SLOTS = 64


def _key(kind: str, job_id: str) -> str:
    return f"{kind}:{job_id}"


class Queue:
    """A huey instance for ``config`` with the service's one task registered; the web side
    (:meth:`enqueue`, :meth:`collect`) and the worker side (:meth:`consumer`)."""

    def __init__(self, config: ServiceConfig) -> None:
        self.config = config
        self.huey = _huey(config)
        huey, config_ = self.huey, config

        def run_job(payload: dict[str, Any]) -> str:
            return _run(huey, config_, payload)

        self.task: TaskWrapper = self.huey.task(name=TASK, retries=0)(run_job)
        self.huey.on_startup(name="report_worker")(lambda: _report_worker(huey))
        self._collecting = threading.Lock()

    # -- the web side --------------------------------------------------------------------------

    @functools.cached_property
    def store(self) -> Store:
        """The web process's store (a worker never opens it)."""
        return Store(self.config.database)

    def enqueue(self, job: Job) -> None:
        self.task(asdict(job) | {"result": None})

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
        """Clear the workers' descriptions (``serve`` does when it starts: its workers and any
        others describe themselves again when they start)."""
        for slot in range(WORKER_SLOTS):
            self.huey.delete(f"worker:{slot}")

    def workers(self) -> list[dict[str, Any]]:
        found = []
        for slot in range(WORKER_SLOTS):
            worker = self.huey.get(f"worker:{slot}", peek=True)
            if worker is None:
                break
            found.append(worker)
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

    def consumer(self, workers: int) -> Any:
        """A huey consumer of this queue (``.run()`` blocks until SIGINT/SIGTERM)."""
        return self.huey.create_consumer(
            workers=workers,
            worker_type="process",
            initial_delay=0.05,
            backoff=1.5,
            max_delay=0.5,
            check_worker_health=True,
        )


def _huey(config: ServiceConfig) -> Huey:
    if config.redis_url:
        return RedisHuey("checker", url=config.redis_url)
    config.data_dir.mkdir(parents=True, exist_ok=True)
    return SqliteHuey("checker", filename=str(config.queue_file), results=False)


def _run(huey: Huey, config: ServiceConfig, payload: dict[str, Any]) -> str:
    job = Job(**payload)
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
        outcome = {"status": DONE, "result": result}
    huey.put(_key("result", job.id), outcome)
    return str(outcome["status"])


def _report_worker(huey: Huey) -> None:
    """Each worker process says which torch and devices it has (``/api/workers``)."""
    from checker import devices
    from checker.typing import DEVICES

    found: dict[str, str] = {}
    for device in DEVICES:
        presence = devices.presence(device)
        found[device] = "present" if presence.present else f"absent: {presence.reason}"
    info = {
        "id": f"{socket.gethostname()}:{os.getpid()}",
        "torch": devices.torch_version(),
        "devices": found,
    }
    for slot in range(WORKER_SLOTS):
        if huey.put_if_empty(f"worker:{slot}", info):
            return


__all__ = ["QUEUED", "RUNNING", "Queue"]
