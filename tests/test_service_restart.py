"""The service keeps every submission across a restart: ``python -m checker serve`` stopped
(SIGTERM) with checks still queued, or with a worker killed in the middle of one, and started
again, finishes each of them; finished results are still there to revisit."""

from __future__ import annotations

import dataclasses
import json
import urllib.request
from pathlib import Path
from typing import Any

from checker.service.queue import Queue
from checker.service.store import Store
from checker.service.worker import key
from tests.service_helpers import RunningService, config, wait_finished


def _post(url: str, text: str) -> Any:
    boundary = "checker-test-boundary"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\n{text}\r\n'
        f"--{boundary}--\r\n"
    ).encode()
    request = urllib.request.Request(
        url + "/api/scan",
        data=body,
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 202
        return json.loads(response.read())


def test_nothing_is_lost_across_a_restart(tmp_path: Path) -> None:
    without_workers = dataclasses.replace(config(tmp_path), workers=0)
    with RunningService(without_workers) as service:
        queued = [_post(service.url, f"Sentence number {n} about views.")["id"] for n in range(5)]
        assert service.get("/healthz")["queued"] == 5
    # the first was sent to the workers (one anonymous job at a time with none there), and a
    # worker on another machine claimed it and died: no heartbeat ever came
    store = Store(without_workers.database)
    assert [store.job(job_id).attempt for job_id in queued] == [1, 0, 0, 0, 0]  # type: ignore[union-attr]
    Queue(without_workers).huey.put(key("claim", queued[0], 1), "elsewhere:1")
    with RunningService(dataclasses.replace(without_workers, workers=1)) as service:
        states = [wait_finished(service.get, job_id) for job_id in queued]
        assert [s["status"] for s in states] == ["done"] * 5
        finished = {job_id: service.get(f"/api/scan/{job_id}") for job_id in queued}
    assert [finished[job_id]["ran_on"]["attempt"] for job_id in queued] == [2, 1, 1, 1, 1]
    assert store.count() == 5
    with RunningService(without_workers) as service:
        assert service.get("/healthz") == {"status": "ok", "queued": 0, "running": 0}
        for job_id in queued:
            assert service.get(f"/api/jobs/{job_id}")["status"] == "done"
            assert service.get(f"/api/scan/{job_id}") == finished[job_id]
