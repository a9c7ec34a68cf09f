"""The service's store: a job is claimed by one worker only, results expire after their
time, a stop's unfinished jobs are found again; settings round-trip through the environment
the workers get."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from fastapi.testclient import TestClient

from checker.service.app import create_app
from checker.service.config import ServiceConfig, ServiceLimits
from checker.service.queue import Queue
from checker.service.store import Store
from tests.service_helpers import config


def _add(store: Store, ttl_s: float = 60.0) -> str:
    return store.add_job("scan", "en", "a.md", ".md", "Views.", False, None, ttl_s).id


def test_an_attempt_is_sent_once_and_a_finished_job_is_never_sent_again(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    job_id = _add(store)
    assert store.send(job_id, 1) is True
    assert store.send(job_id, 1) is False  # attempt 1 went already
    assert store.send(job_id, 2) is True  # its worker died: once more
    assert store.finish(job_id, {"schema": "x"}) is True
    assert store.finish(job_id, {"schema": "y"}) is False  # a late worker changes nothing
    assert store.fail(job_id, "late") is False
    assert store.send(job_id, 3) is False
    job = store.job(job_id)
    assert job is not None and (job.status, job.attempt, job.result) == ("done", 2, {"schema": "x"})
    assert store.unfinished_ids() == []


def test_anonymous_jobs_are_held_until_sent_and_wait_behind_token_holders(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    anonymous = [_add(store) for _ in range(3)]
    token = store.add_job("scan", "en", "a.md", ".md", "Views.", False, "ann", 60.0)
    assert store.held() == anonymous
    store.send(anonymous[0], 1)
    assert store.held() == anonymous[1:]
    assert store.sent_anonymous() == 1
    # the token holder's job comes next, whatever came before it
    assert store.position(token) == 1
    last = store.job(anonymous[2])
    assert last is not None and store.position(last) == 4


def test_results_expire(tmp_path: Path) -> None:
    cfg = dataclasses.replace(config(tmp_path), result_ttl_s=0.5)
    client = TestClient(create_app(cfg, Queue(cfg)))
    job = client.post("/api/scan", data={"text": "Views share storage."}).json()
    assert client.get(f"/api/jobs/{job['id']}").status_code == 200
    time.sleep(0.6)
    assert client.get(f"/api/jobs/{job['id']}").status_code == 404
    assert client.get(f"/results/{job['id']}").status_code == 404
    assert Store(cfg.database).purge() == 1


def test_the_settings_reach_the_workers_through_the_environment(tmp_path: Path) -> None:
    cfg = ServiceConfig(
        data_dir=tmp_path,
        root=tmp_path / "root",
        redis_url="redis://example:6379/1",
        result_ttl_s=30.0,
        workers=3,
        preview=False,
        limits=ServiceLimits(upload_bytes=10, rate=7, rate_window_s=2.5),
    )
    assert ServiceConfig.from_env(cfg.to_env()) == cfg


def test_a_job_that_finishes_between_two_collections_keeps_its_counts(tmp_path: Path) -> None:
    """A worker can write its last progress and its result before the web process looks: the
    finished job still says how many snippets ran (it said 0 of 0, now and then, in CI)."""
    from checker.service.worker import key

    queue = Queue(config(tmp_path))
    job_id = _add(queue.store)
    queue.store.send(job_id, 1)
    queue.huey.put(key("progress", job_id, 1), {"stage": "judged", "done": 2, "total": 2})
    queue.huey.put(key("result", job_id, 1), {"status": "done", "result": {"schema": "x"}})
    queue.collect(job_id)
    job = queue.store.job(job_id)
    assert job is not None
    assert (job.status, job.done, job.total) == ("done", 2, 2)
