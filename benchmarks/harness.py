"""Benchmarks of the probe harness, measured side by side in one run; prints ratios.

1. ``verify`` cold (empty cache) against warm (unchanged re-run), as whole commands.
2. The harness's cost per probe: the same trivial probes called in-process, run through the
   fork server (one fresh child per probe, torch imported once), and run in a fresh
   interpreter per probe (``python -c 'import torch; ...'``).

Usage: ``python benchmarks/harness.py [--probes N]`` (``nox -s bench``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the trivial probes, tests/fixtures, are not installed

from checker import registry  # noqa: E402
from checker.pool import Pool, WorkerJob  # noqa: E402
from checker.runner import worker_handler  # noqa: E402

TRIVIAL = "tests.fixtures.claims_ok"


def timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout[-3000:]}")
    return time.perf_counter() - start


def cold_and_warm() -> tuple[float, float, int]:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, CHECKER_CACHE_DIR=cache)
        command = [sys.executable, "-m", "checker", "verify", "--device", "cpu"]
        cold = timed(command, env)
        warm = min(timed(command, env) for _ in range(3))
    claims = sum(1 for c in registry.load() if "cpu" in c.devices)
    return cold, warm, claims


def per_probe(n: int) -> tuple[float, float, float]:
    """Seconds per probe: in-process, through the fork server, in a fresh interpreter."""
    import torch  # noqa: F401  (the in-process baseline needs it imported, like the zygote)

    claims = [c for c in registry.load([TRIVIAL], package=None) if "cpu" in c.devices]
    picks = [claims[i % len(claims)] for i in range(n)]

    start = time.perf_counter()
    for claim in picks:
        claim.probe("cpu")
    in_process = (time.perf_counter() - start) / n

    pool = Pool(preload=["checker.worker", TRIVIAL])
    pool.run([_job(claims[0])])  # start the zygote outside the timing
    start = time.perf_counter()
    results = pool.run([_job(c) for c in picks])
    forked = (time.perf_counter() - start) / n
    pool.close()
    assert all(r.failure is None for r in results), [r.failure for r in results]

    fresh_n = max(3, n // 10)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.perf_counter()
    for claim in picks[:fresh_n]:
        code = (
            f"import torch; from checker import registry; "
            f"registry.load([{TRIVIAL!r}], package=None).get({claim.id!r}).probe('cpu')"
        )
        subprocess.run([sys.executable, "-c", code], env=env, check=True)
    fresh = (time.perf_counter() - start) / fresh_n
    return in_process, forked, fresh


def _job(claim: object) -> WorkerJob:
    return WorkerJob(
        handler=worker_handler,
        args={"modules": [TRIVIAL], "claim": claim.id, "device": "cpu"},  # type: ignore[attr-defined]
        timeout_s=60,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--probes", type=int, default=60, help="probes for the overhead test")
    args = parser.parse_args()

    cold, warm, claims = cold_and_warm()
    print(
        f"verify, {claims} claims on cpu: cold {cold:.2f} s, warm {warm:.3f} s, "
        f"warm/cold = {warm / cold:.3f} (target < 0.05)"
    )

    in_process, forked, fresh = per_probe(args.probes)
    overhead_ms = (forked - in_process) * 1000
    print(
        f"per probe: in-process {in_process * 1000:.2f} ms, fork server {forked * 1000:.2f} ms,"
        f" fresh interpreter {fresh * 1000:.0f} ms"
    )
    print(
        f"harness overhead per probe: {overhead_ms:.1f} ms (target < 20 ms); "
        f"fresh interpreter / fork server = {fresh / forked:.0f}x"
    )
    ok = warm / cold < 0.05 and overhead_ms < 20
    print("OK" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
