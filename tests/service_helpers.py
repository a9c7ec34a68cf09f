"""Starting the service for tests: the whole ``serve`` command on a free loopback port, or a
worker process beside an in-process application (FastAPI's TestClient)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from checker.service.config import ServiceConfig, ServiceLimits
from tests.helpers import ROOT

#: Seconds a test waits for a check to finish before failing.
JOB_TIMEOUT_S = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def config(data: Path, **limits: Any) -> ServiceConfig:
    return ServiceConfig(data_dir=data, root=ROOT, workers=1, limits=ServiceLimits(**limits))


def _env(cfg: ServiceConfig) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), **cfg.to_env()}


def start_worker(cfg: ServiceConfig) -> subprocess.Popen[bytes]:
    """A huey consumer of ``cfg``'s queue, as ``serve`` starts it."""
    return subprocess.Popen(
        [sys.executable, "-m", "checker", "serve", "--worker"],
        env=_env(cfg),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def stop(process: subprocess.Popen[bytes], sig: int = signal.SIGINT) -> None:
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    if process.stderr is not None:
        process.stderr.close()


class RunningService:
    """``python -m checker serve`` in a subprocess, on a free port; ``stop()`` ends it (and its
    workers) as a SIGTERM from a supervisor would."""

    def __init__(self, cfg: ServiceConfig) -> None:
        self.config = cfg
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "checker", "serve", "--port", str(self.port)],
            env=_env(cfg),
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                self.get("/healthz")
                break
            except (urllib.error.URLError, ConnectionError):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    err = self.process.stderr.read().decode() if self.process.stderr else ""
                    raise RuntimeError(f"the service did not start: {err[-3000:]}") from None
                time.sleep(0.2)

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=30) as response:
            return json.loads(response.read())

    def stop(self) -> None:
        stop(self.process, signal.SIGTERM)

    def __enter__(self) -> RunningService:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()


def wait_finished(get: Callable[[str], dict[str, Any]], job_id: str) -> dict[str, Any]:
    """Poll a job until it is done or failed; its state."""
    deadline = time.monotonic() + JOB_TIMEOUT_S
    while True:
        job = get(f"/api/jobs/{job_id}")
        if job["status"] in ("done", "failed"):
            return job
        assert time.monotonic() < deadline, f"job {job_id} not finished: {job}"
        time.sleep(0.1)
