"""Checks whose code asks for CUDA go to the workers of the ``cuda`` queue (a GPU machine's
``serve --worker --queue cuda``), and only while one is there; everything else, and
everything when none is, to ``cpu``. Both workers run here, on a CPU machine, so the CUDA
worker's snippets are ``needs-cuda``: what is tested is where each check runs."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from checker.service.app import create_app
from checker.service.auth import create_token
from checker.service.config import ServiceConfig
from checker.service.queue import Queue
from tests.service_helpers import config, start_worker, stop, wait_finished

CUDA_ARTICLE = """# Moving a tensor

```python
import torch
x = torch.ones(2).cuda()
print(x.device)
```
"""
CPU_ARTICLE = """# Adding

```python
import torch
print(torch.ones(2) + 1)
```
"""


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str, Any]]:
    cfg = config(tmp_path_factory.mktemp("queues"))
    queue = Queue(cfg)
    cpu_worker = start_worker(cfg)
    try:
        with TestClient(create_app(cfg, queue)) as client:
            yield client, create_token(queue.store, "carol"), cfg
    finally:
        stop(cpu_worker)


def _ran_on(client: TestClient, token: str, article: str, *, run: bool = True) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if run else {}
    response = client.post(
        "/api/scan", data={"text": article, "run": str(run).lower()}, headers=headers
    )
    assert response.status_code == 202, response.text
    job = response.json()
    assert wait_finished(lambda path: client.get(path).json(), job["id"])["status"] == "done"
    result = client.get(job["result_url"]).json()
    assert result["ran_on"]["worker"]
    return dict(result)


def _wait_for_queue(client: TestClient, queue: str) -> None:
    deadline = time.monotonic() + 60
    while not any(w["queue"] == queue for w in client.get("/api/workers").json()["workers"]):
        assert time.monotonic() < deadline, f"no worker on the {queue} queue"
        time.sleep(0.2)


def test_with_no_cuda_worker_a_cuda_check_runs_on_the_cpu_queue(
    service: tuple[TestClient, str, ServiceConfig],
) -> None:
    client, token, _ = service
    _wait_for_queue(client, "cpu")
    result = _ran_on(client, token, CUDA_ARTICLE)
    assert result["ran_on"]["queue"] == "cpu"
    assert result["summary"]["needs-cuda"] == 1


def test_a_cuda_worker_takes_the_checks_whose_code_asks_for_cuda_and_no_other(
    service: tuple[TestClient, str, ServiceConfig],
) -> None:
    client, token, cfg = service
    cuda_worker = start_worker(cfg, "cuda")
    try:
        _wait_for_queue(client, "cuda")
        assert _ran_on(client, token, CUDA_ARTICLE)["ran_on"]["queue"] == "cuda"
        assert _ran_on(client, token, CPU_ARTICLE)["ran_on"]["queue"] == "cpu"
        # a prose-only check runs no code: any worker's, the cpu queue's
        assert _ran_on(client, token, CUDA_ARTICLE, run=False)["ran_on"]["queue"] == "cpu"
    finally:
        stop(cuda_worker)
    # stopped, it took its description away: CUDA checks go to the cpu queue again
    assert [w["queue"] for w in client.get("/api/workers").json()["workers"]] == ["cpu"]
    assert _ran_on(client, token, CUDA_ARTICLE)["ran_on"]["queue"] == "cpu"
