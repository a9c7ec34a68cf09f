"""The main command on a busy machine: every core held by another job, the site built from a
fresh clone with nothing cached, and every claim verified.

1. ``git clone`` of this checkout's HEAD into a temporary folder: a fresh clone, no probe
   cache, no text store, no build folder;
2. one CPU-bound loop per core (``os.cpu_count()`` processes of pure Python at this
   process's priority), started before the build and stopped after the last step: another
   job that holds every core;
3. the slowdown the harness measures under that load (:func:`checker.speed.slowdown`);
4. the main command's steps in the clone: the site in every language, built side by side as
   ``nox -s docs`` builds it (``-W --keep-going``: a warning fails it) with an empty probe
   cache, so every probe runs under the load; every snippet of the docs on the CPU, as
   ``nox -s doctest`` runs them;
5. ``python -m checker verify --device cpu --format json`` in the clone: how many claims
   were confirmed, contradicted, broken or not run, and the reason of each not run on the
   CPU.

It passes when every build exits 0 without a warning, every snippet passes, and no claim is
contradicted or broken: a probe that
cannot finish on the loaded machine is not run, saying why, and the pages say "not
measured" where its values would be. The environment is this Python's (the clone is
imported through ``PYTHONPATH``, as the installed project is the working tree); the
figures go to ``_build/bench/busy.json``.

Usage: ``python benchmarks/busy.py [--langs en ja ko] [--loops N] [--no-doctest]``.
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


def build(clone: Path, langs: list[str], env: dict[str, str]) -> list[dict[str, object]]:
    """The site in ``langs``, as ``nox -s docs`` builds it: side by side, one process that
    forks a build per language (the first runs the probes, the others read the cache)."""
    summary = clone / "_build" / "summary"
    summary.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable,
        "-m",
        "checker.sphinx.side_by_side",
        "--log",
        str(summary / "build-{lang}.log"),
        *langs,
        "--",
        "-b",
        "html",
        "-c",
        str(clone),
        "-D",
        "language={lang}",
        "-d",
        str(clone / "_build" / "doctrees" / "{lang}"),
        "-W",
        "--keep-going",
        "-q",
        "-w",
        str(summary / "warnings-{lang}.txt"),
        str(clone / "docs"),
        str(clone / "_build" / "html" / "{lang}"),
    ]
    start = time.perf_counter()
    done = subprocess.run(command, check=False, cwd=clone, env=env, capture_output=True, text=True)
    seconds = round(time.perf_counter() - start, 1)
    codes = json.loads(done.stdout.strip().splitlines()[-1])
    found = []
    for lang in langs:
        warnings = summary / f"warnings-{lang}.txt"
        lines = warnings.read_text(encoding="utf-8").splitlines() if warnings.exists() else []
        found.append(
            {"lang": lang, "exit": codes.get(lang, 1), "seconds": seconds, "warnings": lines}
        )
    return found


def doctest(clone: Path, env: dict[str, str]) -> dict[str, object]:
    """Every snippet of the docs on the CPU, as ``nox -s doctest`` runs them."""
    command = [sys.executable, "-m", "pytest", "-p", "checker.doctest.plugin"]
    command += ["-p", "no:cacheprovider", "-q", "--rootdir", str(clone), "-c", os.devnull]
    command += ["--continue-on-collection-errors", "--doc-device", "cpu", str(clone / "docs")]
    start = time.perf_counter()
    done = subprocess.run(command, check=False, cwd=clone, env=env, capture_output=True, text=True)
    return {
        "exit": done.returncode,
        "seconds": round(time.perf_counter() - start, 1),
        "last_line": (done.stdout.strip().splitlines() or [""])[-1],
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
    parser.add_argument("--langs", nargs="+", default=["en", "ja", "ko"], help="languages to build")
    parser.add_argument("--no-doctest", action="store_true", help="skip the docs' snippets")
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
            builds = build(clone, args.langs, env)
            snippets = None if args.no_doctest else doctest(clone, env)
            verified = verify(clone, env)
    statuses = verified["statuses"]
    assert isinstance(statuses, dict)
    passed = (
        all(b["exit"] == 0 and not b["warnings"] for b in builds)
        and (snippets is None or snippets["exit"] == 0)
        and not statuses.get("contradicted")
        and not statuses.get("error")
    )
    figures = {
        "cores": os.cpu_count(),
        "loops": args.loops,
        "slowdown": round(slowdown, 2),
        "builds": builds,
        "doctest": snippets,
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
    if snippets is not None:
        shown = f"exit {snippets['exit']} in {snippets['seconds']} s: {snippets['last_line']}"
        print(f"  doctest (cpu): {shown}")
    print(f"  verify: {statuses} in {verified['seconds']} s")
    not_run = verified["not_run_on_cpu"]
    assert isinstance(not_run, dict)
    for claim, reason in not_run.items():
        print(f"    not run on the CPU: {claim}: {reason}")
    print("passed" if passed else "FAILED")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
