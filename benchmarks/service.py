"""The checking service under a bounded load on loopback: ``python -m checker serve`` with
its embedded defaults (SQLite store and queue, 2 worker processes) in a throw-away data
folder; 200 prose-only submissions from 20 concurrent clients through the HTTP API, and
(``--kill-worker``) one worker process killed with SIGKILL in the middle of a job once a
quarter of them are done. Prints throughput (checks finished per second), p50/p95 latency
of a submission's 202 and of its result, the submissions lost and the jobs run to the end
twice (both must be 0: the exit status is 1 otherwise).

Usage: ``python benchmarks/service.py [--submissions N] [--clients N] [--workers N]
[--kill-worker] [--json FILE]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the load test and the running service are test helpers (tests/), not installed
sys.path.insert(0, str(ROOT))

from checker.service.config import ServiceConfig, ServiceLimits  # noqa: E402
from checker.service.worker import runs_log  # noqa: E402
from tests import loadtest  # noqa: E402
from tests.service_running import Running  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--submissions", type=int, default=200)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--kill-worker", action="store_true", help="kill a worker in the middle of a job"
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="checker-service-bench-") as data:
        config = ServiceConfig(
            data_dir=Path(data),
            root=ROOT,
            workers=args.workers,
            # the clients all come from one address, anonymous: neither the rate limit nor
            # the share kept for token holders is what is measured
            limits=dataclasses.replace(
                ServiceLimits(), rate=args.submissions * 2, anonymous_jobs=args.workers
            ),
        )
        runs = runs_log(config) if args.kill_worker else None
        with Running(config) as service:
            result = loadtest.run(service.url, args.submissions, args.clients, kill_worker=runs)
    figures = result.summary()
    print(
        f"service load: {figures['submissions']} prose-only submissions from "
        f"{figures['clients']} clients, {args.workers} workers: {figures['done']} done, "
        f"{figures['lost']} lost in {figures['seconds']} s"
    )
    if args.kill_worker:
        print(
            f"  worker killed in the middle of {figures['killed_mid_job']} job(s); "
            f"{figures['ran_twice']} job(s) ran to the end twice"
        )
    print(f"  throughput: {figures['throughput_per_s']} checks/s")
    print(f"  submit latency: p50 {figures['submit_p50_ms']} ms, p95 {figures['submit_p95_ms']} ms")
    print(f"  result latency: p50 {figures['finish_p50_s']} s, p95 {figures['finish_p95_s']} s")
    for n, what in result.lost[:10]:
        print(f"  lost: submission {n}: {what}")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    missed = args.kill_worker and not result.killed
    return 1 if result.lost or result.ran_twice or missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
