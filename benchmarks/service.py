"""The checking service under a bounded load on loopback: ``python -m checker serve`` with
its embedded defaults (SQLite store and queue, 2 worker processes) in a throw-away data
folder; 200 prose-only submissions from 20 concurrent clients through the HTTP API. Prints
throughput (checks finished per second), p50/p95 latency of a submission's 202 and of its
result, and the submissions lost (must be 0: the exit status is 1 otherwise).

Usage: ``python benchmarks/service.py [--submissions N] [--clients N] [--workers N]
[--json FILE]``.
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
from tests import loadtest  # noqa: E402
from tests.service_running import Running  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--submissions", type=int, default=200)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="checker-service-bench-") as data:
        config = ServiceConfig(
            data_dir=Path(data),
            root=ROOT,
            workers=args.workers,
            # the clients all come from one address: the rate limit is not what is measured
            limits=dataclasses.replace(ServiceLimits(), rate=args.submissions * 2),
        )
        with Running(config) as service:
            result = loadtest.run(service.url, args.submissions, args.clients)
    figures = result.summary()
    print(
        f"service load: {figures['submissions']} prose-only submissions from "
        f"{figures['clients']} clients, {args.workers} workers: {figures['done']} done, "
        f"{figures['lost']} lost in {figures['seconds']} s"
    )
    print(f"  throughput: {figures['throughput_per_s']} checks/s")
    print(f"  submit latency: p50 {figures['submit_p50_ms']} ms, p95 {figures['submit_p95_ms']} ms")
    print(f"  result latency: p50 {figures['finish_p50_s']} s, p95 {figures['finish_p95_s']} s")
    for n, what in result.lost[:10]:
        print(f"  lost: submission {n}: {what}")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 1 if result.lost else 0


if __name__ == "__main__":
    raise SystemExit(main())
