"""Benchmark of the article scanner, measured side by side in one run: the scan of the seed
articles (reading, claims judged, every snippet run in the sandbox) against the sum of their
snippets' own run times, each snippet (indentation repaired where needed) run in a fresh
``python -c`` interpreter, which pays ``import torch`` every time.

Usage: ``python benchmarks/scan.py [SEEDS_DIR]`` (default ``../shared/seeds`` beside the
repository; the seeds are not part of it).
"""

from __future__ import annotations

import argparse
import contextlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from checker import registry as registry_mod
from checker.scan.document import BlockKind
from checker.scan.indent import needs_repair, repair
from checker.scan.program import from_block
from checker.scan.readers import read
from checker.scan.run import ScanOptions, scan

ROOT = Path(__file__).resolve().parent.parent

#: Per snippet, as the scanner's default.
TIMEOUT_S = 20.0


def snippets(paths: list[Path]) -> list[str]:
    """Each code block of the articles as the sandbox would run it (repaired if needed)."""
    found = []
    for path in paths:
        for block in read(path).blocks:
            if block.kind is not BlockKind.CODE:
                continue
            source = from_block(block.text, block.lines)[0].source
            if needs_repair(source):
                source = repair(source) or source
            found.append(source)
    return found


def run_alone(source: str) -> float:
    """Seconds to run ``source`` in a fresh interpreter, in a throw-away folder."""
    with tempfile.TemporaryDirectory(prefix="checker-bench-") as folder:
        start = time.perf_counter()
        with contextlib.suppress(subprocess.TimeoutExpired):
            subprocess.run(
                [sys.executable, "-c", source],
                capture_output=True,
                timeout=TIMEOUT_S,
                check=False,
                cwd=folder,
            )
        return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("seeds", nargs="?", type=Path, default=ROOT.parent / "shared" / "seeds")
    args = parser.parse_args()
    paths = sorted(args.seeds.glob("*.txt")) if args.seeds.is_dir() else []
    if not paths:
        print(
            f"benchmarks/scan.py: no seed articles (*.txt) in {args.seeds}; they are not part of "
            "the repository: pass their folder as the argument",
            file=sys.stderr,
        )
        return 2
    registry = registry_mod.load()
    start = time.perf_counter()
    result = scan(paths, registry, ScanOptions(project_root=ROOT))
    scan_s = time.perf_counter() - start
    sources = snippets(paths)
    alone = [run_alone(source) for source in sources]
    total = sum(alone)
    print(f"articles: {len(paths)}, snippets: {len(sources)}, findings: {len(result.findings)}")
    print(f"{'scan (sandbox, torch imported once)':<48} {scan_s:8.2f} s")
    print(f"{'sum of snippets, each in a fresh python -c':<48} {total:8.2f} s")
    print(f"{'ratio scan / sum':<48} {scan_s / total if total else float('nan'):8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
