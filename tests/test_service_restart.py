"""The service keeps every submission across a restart: ``python -m checker serve`` stopped
(SIGTERM) with checks still queued, or with a worker killed in the middle of one, and started
again, finishes each of them; finished results are still there to revisit."""

from __future__ import annotations

import dataclasses
import json
import urllib.request
from pathlib import Path
from typing import Any

from checker.service.store import Store
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
    # a worker died in the middle of a check: the job is left "running"
    store = Store(without_workers.database)
    assert store.claim(queued[0]) is not None
    assert store.count("running") == 1
    with RunningService(dataclasses.replace(without_workers, workers=1)) as service:
        states = [wait_finished(service.get, job_id) for job_id in queued]
        assert [s["status"] for s in states] == ["done"] * 5
        finished = {job_id: service.get(f"/api/scan/{job_id}") for job_id in queued}
    assert store.count() == 5
    with RunningService(without_workers) as service:
        assert service.get("/healthz") == {"status": "ok", "queued": 0, "running": 0}
        for job_id in queued:
            assert service.get(f"/api/jobs/{job_id}")["status"] == "done"
            assert service.get(f"/api/scan/{job_id}") == finished[job_id]
