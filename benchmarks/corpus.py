"""The scanner on its corpus (``tests/corpus/``): recall of the errors a reviewer finds by
running the code, and false alarms, per language and per class; and the scan's own time per
article beyond the time the articles' code ran, measured warm (a second scan, the probe
cache and the fork server's imports paid by the first).

Target (issue 15): overhead <= 0.5 s per article. The figures also go to
``_build/bench/corpus.json`` (a CI artifact) or ``--json FILE``.

Usage: ``python benchmarks/corpus.py [--json FILE] [CORPUS_DIR]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from checker import registry as registry_mod
from checker.scan import corpus
from checker.scan.run import ScanOptions, scan

ROOT = Path(__file__).resolve().parent.parent

OVERHEAD_TARGET_S = 0.5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=ROOT / "tests" / "corpus")
    parser.add_argument(
        "--json",
        type=Path,
        default=ROOT / "_build" / "bench" / "corpus.json",
        help="where to write the figures (default _build/bench/corpus.json)",
    )
    args = parser.parse_args()
    paths = corpus.articles(args.corpus)
    answers = [corpus.load(p) for p in paths]
    registry = registry_mod.load()
    options = ScanOptions(project_root=ROOT)
    scan(paths[:1], registry, options)  # warm: the probe cache, the fork server's first start
    start = time.perf_counter()
    result = scan(paths, registry, options)
    seconds = time.perf_counter() - start
    score = corpus.score(result, answers)
    code = sum(result.code_seconds.values())
    langs = sorted({a.lang for a in answers})
    classes = sorted({cls for _, cls in score.recall})
    print(f"articles: {len(paths)}, expected errors: {score.totals()[1]}, "
          f"false alarms: {len(score.false_alarms)}")  # fmt: skip
    print(f"{'recall':<28} " + " ".join(f"{lang:>8}" for lang in langs) + f" {'all':>8}")
    for cls in [*classes, None]:
        cells = []
        for lang in [*langs, None]:
            found, expected = score.totals(lang, cls)
            cells.append(f"{found:>3}/{expected:<4}" if expected else f"{'-':>8}")
        print(f"{cls or 'all':<28} " + " ".join(cells))
    overhead = (seconds - code) / len(paths) if paths else 0.0
    print(f"{'scan, warm (all articles)':<40} {seconds:8.2f} s")
    print(f"{'of which the articles own code':<40} {code:8.2f} s")
    verdict = "met" if overhead <= OVERHEAD_TARGET_S else "NOT met"
    print(f"{'scan overhead per article':<40} {overhead:8.2f} s "
          f"(target <= {OVERHEAD_TARGET_S} s: {verdict})")  # fmt: skip
    print(f"{'ratio scan / articles own code':<40} {seconds / code if code else float('nan'):8.2f}")
    for missed in score.missed:
        print(f"missed: {missed.article}:{missed.line} {missed.kind} {missed.verdict.value} "
              f"[{missed.cls}] {missed.why}")  # fmt: skip
    for alarm in score.false_alarms:
        print(f"false alarm: {alarm.path}:{alarm.line} {alarm.kind} {alarm.verdict.value}: "
              f"{alarm.evidence[:160]}")  # fmt: skip
    for ok in score.ok_missed:
        print(f"ok without its verdict ({ok.verdict}): {ok.article}:{ok.line} {ok.why}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps(
                {
                    "articles": len(paths),
                    "recall": score.rate(),
                    "recall_by_lang": {lang: score.rate(lang) for lang in langs},
                    "recall_by_class": {cls: score.rate(cls=cls) for cls in classes},
                    "false_alarms": len(score.false_alarms),
                    "scan_seconds": seconds,
                    "code_seconds": code,
                    "overhead_per_article_s": overhead,
                    "scan_over_code": seconds / code if code else None,
                },
                indent=2,
            )
            + "\n",
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
