"""The scanner on real articles nobody here wrote (issue 23): ``../shared/real-articles``,
32 public posts in ja/ko/en saved as retrieved, with an answer key (``key.json``).

An error of the key is *found* when the scan gives a ``contradicted`` or ``broken`` finding
on a line of its range (two lines of slack either side, as the key says); a ``contradicted``
or ``broken`` finding on no error's range and no neutral range is a *false alarm*, printed
with its evidence. Also printed: errors found per language and per kind of error, and the
scan's time per article (warm: a first scan pays the fork server's imports and the probe
cache), against the articles' own code time.

The articles are data for measuring, like the seeds: nothing of them is copied into the
project. Usage: ``python benchmarks/real_articles.py [--json FILE] [--against REV] [FOLDER]``;
the figures also go to ``_build/bench/real-articles.json``. ``--against REV`` also times the
scan of every article by a checkout of ``REV`` (a worktree under ``_build/bench``) and by this
one, each in its own process, warm, in interleaved rounds, and prints the ratio of the best
times: ``--against a4e2e8e`` compares with the scanner before issue 23's work.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from checker import registry as registry_mod
from checker.scan.run import ScanOptions, scan
from tests.answer_key import load_key, score

ROOT = Path(__file__).resolve().parent.parent

#: Where the articles are, beside the repository.
ARTICLES = ROOT.parent / "shared" / "real-articles"
#: Times a warm scan of the articles given as arguments, by the checker on ``PYTHONPATH``.
TIMER = """
import sys, time
from pathlib import Path
from checker import registry
from checker.scan.run import ScanOptions, scan
paths = [Path(p) for p in sys.argv[1:]]
known, options = registry.load(), ScanOptions(project_root=Path.cwd())
scan(paths[:1], known, options)
start = time.perf_counter()
scan(paths, known, options)
print(time.perf_counter() - start)
"""


def against(rev: str, paths: list[Path], rounds: int = 3) -> tuple[float, float]:
    """Best seconds per article of this checkout's scan and of ``rev``'s, interleaved."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", rev], cwd=ROOT, capture_output=True, text=True,
        check=True,
    ).stdout.strip()  # fmt: skip
    other = ROOT / "_build" / "bench" / f"src-{commit}"
    if not other.exists():
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(other), commit], cwd=ROOT, check=True,
            capture_output=True,
        )  # fmt: skip

    def timed(root: Path) -> float:
        env = {**os.environ, "PYTHONPATH": str(root)}
        done = subprocess.run(
            [sys.executable, "-c", TIMER, *map(str, paths)], cwd=root, env=env,
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        return float(done.stdout.split()[-1]) / len(paths)

    now, then = [], []
    for _ in range(rounds):
        now.append(timed(ROOT))
        then.append(timed(other))
    return min(now), min(then)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=ARTICLES)
    parser.add_argument(
        "--json", type=Path, default=ROOT / "_build" / "bench" / "real-articles.json"
    )
    parser.add_argument("--against", metavar="REV", help="also time REV's scan; print the ratio")
    args = parser.parse_args()
    if not (args.folder / "key.json").is_file():
        print(f"real-articles: no key.json in {args.folder}", file=sys.stderr)
        # the articles are not the project's: without them `nox -s bench` goes on
        return 0 if args.folder == ARTICLES else 2
    errors, neutral = load_key(args.folder)
    paths = sorted(p for p in args.folder.glob("[0-9]*") if p.is_file())
    registry = registry_mod.load()
    options = ScanOptions(project_root=ROOT)
    scan(paths[:1], registry, options)  # warm: the fork server's imports, the probe cache
    start = time.perf_counter()
    result = scan(paths, registry, options)
    seconds = time.perf_counter() - start
    outcome = score(result, errors, neutral)
    code = sum(result.code_seconds.values())
    langs = sorted({e.lang for e in errors})
    verdicts = sorted({e.verdict for e in errors})
    found, total = outcome.totals()
    print(f"articles: {len(paths)}, errors in the key: {total}, found: {found}, "
          f"false alarms: {len(outcome.false_alarms)}")  # fmt: skip
    print(f"{'found':<14} " + " ".join(f"{lang:>8}" for lang in langs) + f" {'all':>8}")
    for verdict in [*verdicts, None]:
        cells = []
        for lang in [*langs, None]:
            hit, expected = outcome.totals(lang, verdict)
            cells.append(f"{hit:>3}/{expected:<4}" if expected else f"{'-':>8}")
        print(f"{verdict or 'all':<14} " + " ".join(cells))
    for alarm in outcome.false_alarms:
        print(f"false alarm: {alarm['article']}:{alarm['line']} {alarm['kind']} "
              f"{alarm['verdict']}: {alarm['evidence'][:200]}")  # fmt: skip
    missed = [e for e in errors if e not in outcome.found]
    for error in missed:
        print(f"missed: {error.article} {error.name} lines {error.first}-{error.last} "
              f"({error.verdict})")  # fmt: skip
    per_article = seconds / len(paths)
    overhead = max(0.0, seconds - code) / len(paths)
    print(f"time per article: {per_article:.2f} s, of which the scan's own: {overhead:.2f} s "
          f"(the articles' code: {code / len(paths):.2f} s)")  # fmt: skip
    compared = {}
    if args.against:
        now, then = against(args.against, paths)
        print(f"scan time per article, best of 3 interleaved: {now:.3f} s here, {then:.3f} s at "
              f"{args.against}: {now / then:.2f}x")  # fmt: skip
        compared = {"against": args.against, "here": now, "then": then, "ratio": now / then}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(
        json.dumps(
            {
                "articles": len(paths),
                "errors": total,
                "found": found,
                "found_by": {
                    f"{lang}/{verdict}": outcome.totals(lang, verdict)
                    for lang in langs
                    for verdict in verdicts
                },
                "found_ids": sorted(f"{e.article}:{e.name}" for e in outcome.found),
                "missed_ids": sorted(f"{e.article}:{e.name}" for e in missed),
                "false_alarms": outcome.false_alarms,
                "seconds_per_article": per_article,
                "overhead_seconds_per_article": overhead,
                "compared": compared,
            },
            indent=2,
            ensure_ascii=False,
        )
        + "\n",
        encoding="utf-8",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
