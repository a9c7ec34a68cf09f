"""Workers say they are there with a heartbeat (``checker.service.queue``): a worker that
crashed, or whose machine went away, falls silent and is no longer listed, so no check is
routed to its queue; a live one stays listed however long it runs."""

from __future__ import annotations

import dataclasses
import os
import signal
import time
from pathlib import Path

from checker.service.queue import SILENT_BEATS, Queue
from tests.service_helpers import config, start_worker, stop

BEAT_S = 0.2


def _queue(tmp_path: Path) -> Queue:
    return Queue(dataclasses.replace(config(tmp_path), worker_heartbeat_s=BEAT_S))


def _wait(condition: object, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_worker_silent_for_four_heartbeats_is_dropped_and_its_slot_freed(
    tmp_path: Path,
) -> None:
    queue = _queue(tmp_path)
    silent_s = SILENT_BEATS * BEAT_S
    for slot, (worker_id, seen) in enumerate(
        [("gpu-box:11", 0.0), ("gpu-box:12", silent_s + 1.0), ("gpu-box:13", None)]
    ):
        queue.huey.put(f"worker:{slot}", {"id": worker_id, "queue": "cuda"})
        if seen is not None:
            queue.huey.put(f"seen:{worker_id}", time.time() - seen)
    (listed,) = queue.workers()
    assert listed["id"] == "gpu-box:11" and 0 <= listed["seen_s"] < silent_s
    assert queue.huey.get("worker:1", peek=True) is None  # silent too long
    assert queue.huey.get("worker:2", peek=True) is None  # never said it was alive
    assert queue.huey.get("seen:gpu-box:12", peek=True) is None


def test_a_crashed_worker_falls_silent_and_a_live_one_keeps_beating(tmp_path: Path) -> None:
    queue = _queue(tmp_path)
    worker = start_worker(queue.config)
    try:
        _wait(lambda: len(queue.workers()) == 1)
        time.sleep(3 * SILENT_BEATS * BEAT_S)  # long past silence, had it not beaten
        (alive,) = queue.workers()
        assert alive["seen_s"] < SILENT_BEATS * BEAT_S
        os.killpg(worker.pid, signal.SIGKILL)  # no goodbye: its slot stays written
        worker.wait()
        assert queue.huey.get("worker:0", peek=True) is not None
        _wait(lambda: queue.workers() == [], timeout_s=10 * SILENT_BEATS * BEAT_S)
        assert queue.huey.get("worker:0", peek=True) is None
    finally:
        stop(worker)
