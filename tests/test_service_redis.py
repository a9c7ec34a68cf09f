"""The queue on Redis (``--redis-url``), as workers on several machines use it: a real
``redis-server`` on a free loopback port, the whole ``serve`` command with its worker and a
second worker started on its own (as on another machine, on the ``cuda`` queue), sharing
nothing but Redis with the web process. Skipped, with the reason, where Debian's
``redis-server`` is not installed (``.ci/run`` installs it)."""

from __future__ import annotations

import dataclasses
import json
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from checker.service.auth import create_token
from checker.service.store import Store
from tests.service_helpers import RunningService, config, start_worker, stop, wait_finished
from tests.test_service_queues import CUDA_ARTICLE
from tests.test_service_restart import _post

REDIS = shutil.which("redis-server")
pytestmark = pytest.mark.skipif(REDIS is None, reason="redis-server is not installed")


def _post_code(url: str, article: str, token: str) -> Any:
    boundary = "checker-test-boundary"
    fields = {"text": article, "run": "true"}
    body = "".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
        for name, value in fields.items()
    )
    request = urllib.request.Request(
        url + "/api/scan",
        data=(body + f"--{boundary}--\r\n").encode(),
        headers={
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "Authorization": f"Bearer {token}",
        },
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 202
        return json.loads(response.read())


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    assert REDIS is not None
    server = subprocess.Popen(
        [REDIS, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_checks_go_through_redis_to_workers_that_share_nothing_else(
    tmp_path: Path, redis_url: str
) -> None:
    cfg = dataclasses.replace(config(tmp_path / "web"), redis_url=redis_url)
    token = create_token(Store(cfg.database), "dave")
    # "another machine": its own data folder, only the Redis address in common
    elsewhere = dataclasses.replace(cfg, data_dir=tmp_path / "elsewhere", workers=1)
    other = None
    try:
        with RunningService(cfg) as service:
            other = start_worker(elsewhere, "cuda")
            deadline = time.monotonic() + 60
            while len(service.get("/api/workers")["workers"]) < 2:
                assert time.monotonic() < deadline, service.get("/api/workers")
                time.sleep(0.2)
            queues = sorted(w["queue"] for w in service.get("/api/workers")["workers"])
            assert queues == ["cpu", "cuda"]
            ids = [_post(service.url, f"Sentence {n}: views share storage.")["id"] for n in (1, 2)]
            states = [wait_finished(service.get, job_id) for job_id in ids]
            assert [s["status"] for s in states] == ["done"] * 2
            results = [service.get(f"/api/scan/{job_id}") for job_id in ids]
            assert {r["ran_on"]["queue"] for r in results} == {"cpu"}  # prose: no CUDA code
            # code that asks for CUDA, run for a token's holder: the other machine's worker
            job_id = _post_code(service.url, CUDA_ARTICLE, token)["id"]
            assert wait_finished(service.get, job_id)["status"] == "done"
            assert service.get(f"/api/scan/{job_id}")["ran_on"]["queue"] == "cuda"
    finally:
        if other is not None:
            stop(other)
    assert not (tmp_path / "web" / "queue.sqlite3").exists()  # the queue was Redis


def _redis_keys(url: str) -> dict[str, list[str]]:
    """Every key in Redis, and the fields of each hash (huey keeps its key-value pairs, and
    would keep task results, in hashes)."""
    import redis

    client = redis.Redis.from_url(url)
    found = {}
    for name in client.keys("*"):
        kind = client.type(name)
        fields = client.hkeys(name) if kind == b"hash" else []
        found[name.decode()] = sorted(f.decode() for f in fields)
    return found


def test_a_worker_started_apart_on_the_web_host_stays_listed_and_nothing_is_left_in_redis(
    tmp_path: Path, redis_url: str
) -> None:
    from checker.service.worker import read_runs
    from tests.test_service_crashes import SLOW_ARTICLE, post, started_by

    cfg = dataclasses.replace(config(tmp_path / "web"), redis_url=redis_url, workers=0)
    token = create_token(Store(cfg.database), "gwen")
    apart = dataclasses.replace(cfg, data_dir=tmp_path / "worker", workers=1)
    worker = start_worker(apart)  # started first, as an operator would: before the web
    try:
        with RunningService(cfg) as service:
            deadline = time.monotonic() + 60
            while len(service.get("/api/workers")["workers"]) < 1:
                assert time.monotonic() < deadline, "the worker never listed"
                time.sleep(0.2)
            ids = [_post(service.url, f"Sentence {n}: views share storage.")["id"] for n in (1, 2)]
            status, slow = post(service.url, {"text": SLOW_ARTICLE, "run": "true"}, token)
            assert status == 202
            # the web process started after the worker and forgot nothing it should not
            assert len(service.get("/api/workers")["workers"]) == 1
            # kill -9 of the worker process in the middle of the job: it runs once more
            import os
            import signal

            os.kill(started_by(apart, slow["id"], 1), signal.SIGKILL)
            states = [wait_finished(service.get, job_id) for job_id in [*ids, slow["id"]]]
            assert [s["status"] for s in states] == ["done"] * 3
            assert service.get(f"/api/scan/{slow['id']}")["ran_on"]["attempt"] == 2
            assert len(service.get("/api/workers")["workers"]) == 1
            keys = _redis_keys(redis_url)
    finally:
        stop(worker)
    done = [r["job"] for r in read_runs(apart) if r["event"] == "done"]
    assert sorted(done) == sorted([*ids, slow["id"]])
    # huey's queues are empty lists (Redis drops those); its key-value hash holds only the
    # worker's description and heartbeat: no task results, no job's keys
    assert list(keys) == ["huey.results.checker"]
    assert [f.split(":")[0] for f in keys["huey.results.checker"]] == ["seen", "worker"]


def test_a_killed_web_process_leaves_other_machines_workers_at_their_job(
    tmp_path: Path, redis_url: str
) -> None:
    """``kill -9`` of the web process while a worker elsewhere (it shares only Redis) runs a
    job: the worker goes on, and the web process started again takes its result; the job
    ran once, as attempt 1."""
    import os
    import signal
    import sys

    from checker.service.worker import read_runs
    from tests.service_running import child_env, free_port
    from tests.test_service_crashes import SLOW_ARTICLE, post, started_by, wait_until

    cfg = dataclasses.replace(config(tmp_path / "web"), redis_url=redis_url, workers=0)
    token = create_token(Store(cfg.database), "lena")
    apart = dataclasses.replace(cfg, data_dir=tmp_path / "worker", workers=1)
    worker = start_worker(apart)
    port = free_port()
    web = subprocess.Popen(
        [sys.executable, "-m", "checker", "serve", "--port", str(port)],
        env=child_env(cfg),
        cwd=cfg.root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until(lambda: _answers(url), 60, "the web process started")
        status, job = post(url, {"text": SLOW_ARTICLE, "run": "true"}, token)
        assert status == 202
        running = started_by(apart, job["id"], 1)
        os.kill(web.pid, signal.SIGKILL)
        web.wait()
        assert worker.poll() is None  # not the web process's child: it goes on
        with RunningService(cfg) as service:
            state = wait_finished(service.get, job["id"])
            result = service.get(f"/api/scan/{job['id']}")
    finally:
        if web.poll() is None:
            web.kill()
            web.wait()
        stop(worker)
    assert state["status"] == "done"
    assert result["ran_on"] == {"worker": result["ran_on"]["worker"], "queue": "cpu", "attempt": 1}
    assert result["ran_on"]["worker"].endswith(f":{running}")
    events = [(r["attempt"], r["event"]) for r in read_runs(apart) if r["job"] == job["id"]]
    assert events == [(1, "started"), (1, "done")]


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=5):
            return True
    except (OSError, ValueError):
        return False
