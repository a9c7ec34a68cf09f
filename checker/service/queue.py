"""The job queue: huey, on SQLite by default (one file beside the store, no server to run),
on Redis with ``CHECKER_SERVICE_REDIS_URL`` for workers on several machines (a GPU machine
among them runs the CUDA snippets of the jobs it takes).

The web process only enqueues a job's id; the job itself is in the store. A worker is a huey
consumer (``python -m checker serve --worker``, started by ``serve`` itself by default) whose
task claims the job, runs :mod:`checker.service.checks` and writes the result back.
"""

from __future__ import annotations

import functools
import os
import socket
import traceback
from typing import Any

from huey import Huey, RedisHuey, SqliteHuey
from huey.api import TaskWrapper

from checker.service import checks
from checker.service.config import ServiceConfig
from checker.service.store import Store

#: The task's name in the queue (the same in every process that enqueues or consumes).
TASK = "checker.service.run_job"


class Queue:
    """A huey instance for ``config`` with the service's one task registered."""

    def __init__(self, config: ServiceConfig) -> None:
        self.config = config
        self.huey = _huey(config)
        self.store = Store(config.database)
        store, config_ = self.store, config

        def run_job(job_id: str) -> str:
            return _run(store, config_, job_id)

        self.task: TaskWrapper = self.huey.task(name=TASK, retries=0)(run_job)
        self.huey.on_startup(name="report_worker")(functools.partial(_report_worker, store))

    def enqueue(self, job_id: str) -> None:
        self.task(job_id)

    def requeue_unfinished(self) -> int:
        """Queue again every job a stop left unfinished; how many."""
        ids = self.store.unfinished()
        for job_id in ids:
            self.enqueue(job_id)
        return len(ids)

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


def _run(store: Store, config: ServiceConfig, job_id: str) -> str:
    job = store.claim(job_id)
    if job is None:  # finished, taken by another worker, or expired
        return "skipped"
    try:
        result = checks.run(job, config, store)
    except checks.CheckFailed as exc:
        store.fail(job_id, str(exc))
        return "failed"
    except Exception as exc:  # a bug must fail this job, not the worker
        store.fail(job_id, f"internal error: {type(exc).__name__}: {exc}")
        traceback.print_exc()
        return "failed"
    store.finish(job_id, result)
    return "done"


def _report_worker(store: Store) -> None:
    """Each worker process says which torch and devices it has (``/api/workers``)."""
    from checker import devices
    from checker.typing import DEVICES

    found: dict[str, str] = {}
    for device in DEVICES:
        presence = devices.presence(device)
        found[device] = "present" if presence.present else f"absent: {presence.reason}"
    store.worker_seen(f"{socket.gethostname()}:{os.getpid()}", devices.torch_version(), found)
