"""Benchmark of the scanner's jail, measured side by side in one run:

1. starting a jail (bubblewrap, the launcher, the fork server importing torch in it) against
   starting a plain fork server of ours (the probes' harness), which imports torch too;
2. an article of one trivial snippet in a warm jail (a session: the monitor, the executor,
   the clean-up) against a trivial job in the plain fork server (the per-probe cost);
3. each further snippet of an article (one session of ten snippets, per snippet).

Usage: ``python benchmarks/sandbox.py [--repeat N]``. Prints milliseconds and ratios; the
cost per article of a scan job is the jail's start (once per job) plus a session per article.
"""

from __future__ import annotations

import argparse
import statistics
import time

from checker.pool import Pool, WorkerJob
from checker.scan.sandbox import Sandbox, SandboxProgram

TRIVIAL = "x = 1\nprint(x + 1)"


def plain_start() -> float:
    start = time.perf_counter()
    pool = Pool(preload=["checker.scan.sandbox_child"])
    pool.run([WorkerJob("checker.scan.api_probe:resolve", {"names": [], "calls": []}, 60.0)])
    seconds = time.perf_counter() - start
    pool.close()
    return seconds


def jail_start() -> float:
    start = time.perf_counter()
    sandbox = Sandbox()
    sandbox.run(TRIVIAL)
    seconds = time.perf_counter() - start
    sandbox.close()
    return seconds


def per_job(pool: Pool, repeat: int) -> float:
    job = WorkerJob("checker.scan.api_probe:resolve", {"names": [], "calls": []}, 60.0)
    start = time.perf_counter()
    for _ in range(repeat):
        pool.run([job])
    return (time.perf_counter() - start) / repeat


def per_article(sandbox: Sandbox, repeat: int, snippets: int = 1) -> float:
    programs = [SandboxProgram(TRIVIAL)] * snippets
    start = time.perf_counter()
    for _ in range(repeat):
        sandbox.run_session(programs)
    return (time.perf_counter() - start) / repeat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    starts = [(plain_start(), jail_start()) for _ in range(3)]
    plain_s = statistics.median(p for p, _ in starts)
    jail_s = statistics.median(j for _, j in starts)
    pool, sandbox = Pool(preload=["checker.scan.sandbox_child"]), Sandbox()
    try:
        sandbox.run(TRIVIAL)  # the jail is warm
        pool.run([WorkerJob("checker.scan.api_probe:resolve", {"names": [], "calls": []}, 60)])
        job_s = per_job(pool, args.repeat)
        one_s = per_article(sandbox, args.repeat)
        ten_s = per_article(sandbox, max(2, args.repeat // 4), snippets=10)
    finally:
        pool.close()
        sandbox.close()
    print(f"start: plain fork server {plain_s * 1000:.0f} ms, jail {jail_s * 1000:.0f} ms "
          f"({jail_s / plain_s:.2f}x), once per scan job")  # fmt: skip
    print(f"per article of one snippet: jail {one_s * 1000:.1f} ms; a plain job (a probe) "
          f"{job_s * 1000:.1f} ms ({one_s / job_s:.2f}x)")  # fmt: skip
    print(f"per further snippet in an article: {(ten_s - one_s) / 9 * 1000:.2f} ms")
    print(f"a scan job of N one-snippet articles: {jail_s * 1000:.0f} ms + N x "
          f"{one_s * 1000:.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
