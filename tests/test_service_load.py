"""A small version of ``benchmarks/service.py``: prose-only submissions from concurrent
clients on loopback against ``python -m checker serve``, one worker process killed (SIGKILL)
in the middle of a job; none is lost, none runs to the end twice, each finishes with a scan
document, and the figures the benchmark prints are computed."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from checker.service.config import ServiceLimits
from checker.service.store import Store
from checker.service.worker import runs_log
from tests import loadtest
from tests.service_helpers import RunningService, config


def test_percentiles_are_nearest_rank() -> None:
    values = [float(n) for n in range(1, 21)]
    assert loadtest.percentile(values, 95) == 19.0
    assert loadtest.percentile(values, 50) == 10.0
    assert loadtest.percentile([], 95) == 0.0


def test_no_submission_is_lost_or_run_twice_with_a_worker_killed_in_the_middle(
    tmp_path: Path,
) -> None:
    cfg = dataclasses.replace(
        config(tmp_path),
        workers=2,
        # the clients are anonymous: both workers may take their checks
        limits=dataclasses.replace(ServiceLimits(), rate=100, anonymous_jobs=2),
    )
    with RunningService(cfg) as service:
        result = loadtest.run(
            service.url, submissions=24, clients=6, timeout_s=180, kill_worker=runs_log(cfg)
        )
    assert result.lost == []
    assert len(result.killed) == 1
    assert result.ran_twice == []
    assert result.done == 24
    assert len(result.submit_latencies) == len(result.finish_latencies) == 24
    summary = result.summary()
    assert summary["throughput_per_s"] > 0
    assert summary["finish_p95_s"] >= summary["finish_p50_s"] > 0
    store = Store(cfg.database)
    assert store.count("done") == store.count() == 24
