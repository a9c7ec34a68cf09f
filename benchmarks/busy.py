"""The main command on a busy machine: every core held by another job, the site built from a
fresh clone with nothing cached, and every claim verified.

1. ``git clone`` of this checkout's HEAD into a temporary folder: a fresh clone, no probe
   cache, no text store, no build folder;
2. one CPU-bound loop per core (``os.cpu_count()`` processes of pure Python at this
   process's priority), started before the build and stopped after the last step: another
   job that holds every core;
3. the slowdown the harness measures under that load (:func:`checker.speed.slowdown`);
4. the site in each language asked for, built as ``nox -s docs`` builds it (``-W
   --keep-going``: a warning fails it), each with an empty probe cache, so every probe runs
   under the load;
5. ``python -m checker verify --device cpu --format json`` in the clone: how many claims
   were confirmed, contradicted, broken or not run, and the reason of each not run on the
   CPU.

It passes when every build exits 0 and no claim is contradicted or broken: a probe that
cannot finish on the loaded machine is not run, saying why, and the pages say "not
measured" where its values would be. The environment is this Python's (the clone is
imported through ``PYTHONPATH``, as the installed project is the working tree); the
figures go to ``_build/bench/busy.json``.

Usage: ``python benchmarks/busy.py [--langs en ja ko] [--loops N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checker import speed  # noqa: E402

RESULTS = ROOT / "_build" / "bench" / "busy.json"
#: A loop that only burns CPU, until it is killed.
LOOP = "while True:\n    pass\n"


@contextmanager
def busy_cores(count: int) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``count`` processes that each hold a core, stopped (by their own ids) on exit."""
    loops = [subprocess.Popen([sys.executable, "-c", LOOP]) for _ in range(count)]
    try:
        yield loops
    finally:
        for loop in loops:
            loop.kill()
        for loop in loops:
            loop.wait()


def fresh_clone(target: Path) -> Path:
    """A clone of this checkout's HEAD (committed work only, as a fresh clone has it)."""
    subprocess.run(["git", "clone", "-q", str(ROOT), str(target)], check=True)
    return target


def build(clone: Path, lang: str, env: dict[str, str]) -> dict[str, object]:
    out = clone / "_build" / "html" / lang
    command = [
        sys.executable,
        "-m",
        "sphinx",
        "-b",
        "html",
        "-c",
        str(clone),
        "-D",
        f"language={lang}",
        "-W",
        "--keep-going",
        "-q",
        "-d",
        str(clone / "_build" / "doctrees" / lang),
        str(clone / "docs"),
        str(out),
    ]
    start = time.perf_counter()
    done = subprocess.run(command, check=False, cwd=clone, env=env, capture_output=True, text=True)
    return {
        "lang": lang,
        "exit": done.returncode,
        "seconds": round(time.perf_counter() - start, 1),
        "warnings": [line for line in done.stderr.splitlines() if "WARNING" in line],
    }


def verify(clone: Path, env: dict[str, str]) -> dict[str, object]:
    command = [sys.executable, "-m", "checker", "verify", "--device", "cpu", "--format", "json"]
    start = time.perf_counter()
    done = subprocess.run(command, check=False, cwd=clone, env=env, capture_output=True, text=True)
    results = json.loads(done.stdout)["results"]
    return {
        "exit": done.returncode,
        "seconds": round(time.perf_counter() - start, 1),
        "statuses": dict(Counter(r["status"] for r in results)),
        "not_run_on_cpu": {
            r["claim"]: r["reason"]
            for r in results
            if r["status"] == "not-run" and not r["reason"].startswith("only meaningful on")
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--langs", nargs="+", default=["en"], help="languages to build")
    parser.add_argument(
        "--loops", type=int, default=os.cpu_count() or 1, help="busy loops (default: one a core)"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="busy-") as tmp:
        clone = fresh_clone(Path(tmp) / "clone")
        env = {
            **os.environ,
            "PYTHONPATH": str(clone),
            "PYTHONDONTWRITEBYTECODE": "1",
            "CHECKER_CACHE_DIR": str(clone / ".checker-cache"),
        }
        env.pop("CHECKER_SLOWDOWN", None)
        with busy_cores(args.loops):
            time.sleep(1.0)  # the loops are running
            slowdown = speed.slowdown()
            builds = []
            for lang in args.langs:
                env["CHECKER_CACHE_DIR"] = str(clone / f".checker-cache-{lang}")  # all run
                builds.append(build(clone, lang, env))
            verified = verify(clone, env)
    statuses = verified["statuses"]
    assert isinstance(statuses, dict)
    passed = (
        all(b["exit"] == 0 for b in builds)
        and not statuses.get("contradicted")
        and not statuses.get("error")
    )
    figures = {
        "cores": os.cpu_count(),
        "loops": args.loops,
        "slowdown": round(slowdown, 2),
        "builds": builds,
        "verify": verified,
        "passed": passed,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(figures, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{args.loops} busy loops on {os.cpu_count()} cores; measured slowdown {slowdown:.1f}x")
    for b in builds:
        warnings = b["warnings"]
        assert isinstance(warnings, list)
        print(
            f"  build {b['lang']}: exit {b['exit']} in {b['seconds']} s, {len(warnings)} warnings"
        )
        for warning in warnings:
            print(f"    {warning}")
    print(f"  verify: {statuses} in {verified['seconds']} s")
    not_run = verified["not_run_on_cpu"]
    assert isinstance(not_run, dict)
    for claim, reason in not_run.items():
        print(f"    not run on the CPU: {claim}: {reason}")
    print("passed" if passed else "FAILED")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
