"""Starting the service for tests: the whole ``serve`` command on a free loopback port
(:class:`~tests.service_running.Running`), or a worker process beside an in-process
application (FastAPI's TestClient)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from checker.service.config import ServiceConfig, ServiceLimits
from tests.helpers import ROOT
from tests.service_running import Running, child_env

#: Seconds a test waits for a check to finish before failing.
JOB_TIMEOUT_S = 60.0
RunningService = Running


def config(data: Path, *, preview: bool = False, **limits: Any) -> ServiceConfig:
    """A service on ``data``; translation previews (a Sphinx build per check) only if asked."""
    return ServiceConfig(
        data_dir=data, root=ROOT, workers=1, preview=preview, limits=ServiceLimits(**limits)
    )


def start_worker(cfg: ServiceConfig, queue: str = "cpu") -> subprocess.Popen[bytes]:
    """A huey consumer of ``cfg``'s ``queue``, as ``serve`` starts it."""
    return subprocess.Popen(
        [sys.executable, "-m", "checker", "serve", "--worker", "--queue", queue],
        env=child_env(cfg),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)  # huey's graceful stop
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wait_finished(get: Callable[[str], dict[str, Any]], job_id: str) -> dict[str, Any]:
    """Poll a job until it is done or failed; its state."""
    deadline = time.monotonic() + JOB_TIMEOUT_S
    while True:
        job = get(f"/api/jobs/{job_id}")
        if job["status"] in ("done", "failed"):
            return job
        assert time.monotonic() < deadline, f"job {job_id} not finished: {job}"
        time.sleep(0.1)
