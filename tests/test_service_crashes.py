"""Crashes, with real processes and real signals (``kill -9``), on the SQLite queue: the
workers end with the ``serve`` that started them; a job whose worker died runs once more
(attempt 2), or fails with the reason when that one dies too, and never runs twice
(``runs.log`` has one ``done`` per job); a token's limit holds under concurrent
submissions; the queue's storage keeps nothing of finished jobs."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

from checker.service.auth import create_token
from checker.service.config import ServiceConfig
from checker.service.queue import Queue
from checker.service.store import Store
from checker.service.worker import read_runs
from tests.service_helpers import RunningService, config, wait_finished
from tests.service_running import child_env, free_port

#: An article whose one snippet runs for a few seconds: a job to kill in the middle.
SLOW_ARTICLE = """# Waiting

```python
import time
time.sleep(8)
print("slept")
```
"""


def post(url: str, fields: dict[str, str], token: str | None = None) -> tuple[int, Any]:
    boundary = "checker-crash-boundary"
    body = "".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
        for name, value in fields.items()
    )
    headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        url + "/api/scan", data=(body + f"--{boundary}--\r\n").encode(), headers=headers
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def started_by(cfg: ServiceConfig, job_id: str, attempt: int, timeout_s: float = 120) -> int:
    """The process id of the worker that started ``attempt`` of the job (waits for it)."""
    deadline = time.monotonic() + timeout_s
    while True:
        for run in read_runs(cfg):
            if run["job"] == job_id and run["attempt"] == attempt and run["event"] == "started":
                return int(run["worker"].rpartition(":")[2])
        assert time.monotonic() < deadline, f"attempt {attempt} of {job_id} never started"
        time.sleep(0.1)


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        found += [int(n) for n in (task / "children").read_text().split()]
    return found


def descendants(pid: int) -> list[int]:
    found = children(pid)
    for child in list(found):
        if alive(child):
            found += descendants(child)
    return found


def wait_until(condition: Any, timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"timed out: {what}"
        time.sleep(0.1)


def job_keys(cfg: ServiceConfig) -> list[str]:
    """The keys of jobs in the queue's storage (workers' own keys aside)."""
    names = Queue(cfg).huey.storage.result_items()
    return sorted(n for n in names if str(n).split(":")[0] in ("claim", "progress", "result"))


def finished_once(cfg: ServiceConfig) -> Counter[str]:
    return Counter(r["job"] for r in read_runs(cfg) if r["event"] in ("done", "failed"))


def test_a_killed_web_process_takes_its_workers_and_the_job_runs_once_after_restart(
    tmp_path: Path,
) -> None:
    cfg = config(tmp_path)
    token = create_token(Store(cfg.database), "erin")
    port = free_port()
    serve = subprocess.Popen(
        [sys.executable, "-m", "checker", "serve", "--port", str(port)],
        env=child_env(cfg),
        cwd=cfg.root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until(lambda: _answers(url), 60, "serve started")
        status, job = post(url, {"text": SLOW_ARTICLE, "run": "true"}, token)
        assert status == 202, job
        worker = started_by(cfg, job["id"], 1)
        family = descendants(serve.pid)
        assert worker in family and len(family) >= 3  # consumer, its worker, its scheduler
        serve.send_signal(signal.SIGKILL)
        serve.wait()
        wait_until(lambda: not any(alive(p) for p in family), 15, f"workers {family} ended")
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait()
    assert Store(cfg.database).job(job["id"]).finished is False  # type: ignore[union-attr]
    with RunningService(cfg) as service:
        state = wait_finished(service.get, job["id"])
        result = service.get(f"/api/scan/{job['id']}")
    assert state["status"] == "done", state
    assert result["ran_on"]["attempt"] == 2
    assert result["schema"] == "checker.scan/2"
    events = [(r["attempt"], r["event"]) for r in read_runs(cfg) if r["job"] == job["id"]]
    assert events == [(1, "started"), (2, "started"), (2, "done")]
    assert job_keys(cfg) == []


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=5):
            return True
    except (urllib.error.URLError, ConnectionError):
        return False


def test_a_job_whose_worker_is_killed_runs_once_more_then_fails_with_the_reason(
    tmp_path: Path,
) -> None:
    cfg = dataclasses.replace(config(tmp_path), worker_heartbeat_s=0.5)
    token = create_token(Store(cfg.database), "frank")
    with RunningService(cfg) as service:
        status, job = post(service.url, {"text": SLOW_ARTICLE, "run": "true"}, token)
        assert status == 202, job
        os.kill(started_by(cfg, job["id"], 1), signal.SIGKILL)
        # the consumer starts a new worker process; the job goes to it as attempt 2
        os.kill(started_by(cfg, job["id"], 2), signal.SIGKILL)
        state = wait_finished(service.get, job["id"])
        assert state["status"] == "failed"
        assert "stopped in the middle" in state["error"]
        assert "attempt 2 of 2" in state["error"]
        # it no longer counts against the token: two more are accepted
        quick = "# Quick\n\nA view shares storage with its base.\n"
        again = [post(service.url, {"text": quick, "run": "true"}, token) for _ in range(2)]
        assert [code for code, _ in again] == [202, 202]
        states = [wait_finished(service.get, answer["id"]) for _, answer in again]
        assert [s["status"] for s in states] == ["done", "done"]
    assert finished_once(cfg) == Counter({answer["id"]: 1 for _, answer in again})
    assert job_keys(cfg) == []


def test_concurrent_submissions_never_pass_a_tokens_limit(tmp_path: Path) -> None:
    cfg = dataclasses.replace(config(tmp_path), workers=0)  # nothing finishes meanwhile
    store = Store(cfg.database)
    tokens = {f"user{n}": create_token(store, f"user{n}") for n in range(10)}
    answers: list[tuple[str, int]] = []
    with RunningService(cfg) as service:
        start = threading.Barrier(40)

        def submit(name: str) -> None:
            start.wait()
            code, _ = post(service.url, {"text": f"Views share storage ({name})."}, tokens[name])
            answers.append((name, code))

        threads = [threading.Thread(target=submit, args=(n,)) for n in tokens for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    accepted = Counter(name for name, code in answers if code == 202)
    assert accepted == Counter({name: 2 for name in tokens})
    assert Counter(code for _, code in answers) == Counter({202: 20, 429: 20})
    assert {name: store.active_jobs(name) for name in tokens} == {name: 2 for name in tokens}
