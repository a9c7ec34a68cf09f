"""``python -m checker serve`` in a child process on a free loopback port, for the load test
and the tests: started with a configuration, ready once ``/healthz`` answers, stopped (with
its workers) by SIGTERM as a supervisor would stop it."""

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
from typing import Any

from checker.service.config import ServiceConfig

#: Seconds the service may take to start.
START_TIMEOUT_S = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def child_env(config: ServiceConfig) -> dict[str, str]:
    """The environment of a service or worker process of ``config``."""
    path = os.pathsep.join(p for p in (str(config.root), os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "PYTHONPATH": path, **config.to_env()}


class Running:
    def __init__(self, config: ServiceConfig) -> None:
        self.config = config
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "checker", "serve", "--port", str(self.port)],
            env=child_env(config),
            cwd=config.root,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                self.get("/healthz")
                return
            except (urllib.error.URLError, ConnectionError):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("the service did not start") from None
                time.sleep(0.2)

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=30) as response:
            return json.loads(response.read())

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stderr is not None:
            self.process.stderr.close()

    def __enter__(self) -> Running:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()
