"""The scanner on real articles nobody here wrote (issue 23): ``../shared/real-articles``,
32 public posts in ja/ko/en saved as retrieved, with an answer key (``key.json``).

An error of the key is *found* when the scan gives a ``contradicted`` or ``broken`` finding
on a line of its range (two lines of slack either side, as the key says); a ``contradicted``
or ``broken`` finding on no error's range and no neutral range is a *false alarm*, printed
with its evidence. Also printed: errors found per language and per kind of error, and the
scan's time per article (warm: a first scan pays the fork server's imports and the probe
cache), against the articles' own code time.

The articles are data for measuring, like the seeds: nothing of them is copied into the
project. Usage: ``python benchmarks/real_articles.py [--json FILE] [FOLDER]``; the figures
also go to ``_build/bench/real-articles.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checker import registry as registry_mod
from checker.scan.findings import ScanResult
from checker.scan.run import ScanOptions, scan

ROOT = Path(__file__).resolve().parent.parent

#: Where the articles are, beside the repository.
ARTICLES = ROOT.parent / "shared" / "real-articles"
#: Lines either side of an error's range where a finding still counts (the key's rule).
SLACK = 2
#: Verdicts that claim an error.
ALARMS = frozenset({"contradicted", "broken"})


@dataclass(frozen=True)
class KeyedError:
    """One error of the answer key."""

    article: str
    name: str
    first: int
    last: int
    verdict: str

    @property
    def lang(self) -> str:
        return self.article.split("_")[1]


@dataclass
class Score:
    """What the scan found of the key, and what it raised that the key does not hold."""

    errors: list[KeyedError]
    found: set[KeyedError] = field(default_factory=set)
    false_alarms: list[dict[str, Any]] = field(default_factory=list)

    def totals(self, lang: str | None = None, verdict: str | None = None) -> tuple[int, int]:
        chosen = [
            e
            for e in self.errors
            if (lang is None or e.lang == lang) and (verdict is None or e.verdict == verdict)
        ]
        return sum(e in self.found for e in chosen), len(chosen)


def load_key(folder: Path) -> tuple[list[KeyedError], dict[str, list[tuple[int, int]]]]:
    """The key's errors, and each article's neutral line ranges."""
    key = json.loads((folder / "key.json").read_text(encoding="utf-8"))
    errors, neutral = [], {}
    for article, entry in sorted(key.items()):
        if article.startswith("_"):
            continue
        for name, (first, last, verdict) in sorted(entry["errors"].items()):
            errors.append(KeyedError(article, name, first, last, verdict))
        neutral[article] = [(first, last) for first, last, *_ in entry["neutral"]]
    return errors, neutral


def score(
    result: ScanResult, errors: list[KeyedError], neutral: dict[str, list[tuple[int, int]]]
) -> Score:
    """Match every alarm of ``result`` with the key."""
    outcome = Score(errors)
    for finding in result.findings:
        if finding.verdict.value not in ALARMS:
            continue
        article = Path(finding.path).name
        hits = [
            e
            for e in errors
            if e.article == article and e.first - SLACK <= finding.line <= e.last + SLACK
        ]
        outcome.found.update(hits)
        calm = any(
            first - SLACK <= finding.line <= last + SLACK
            for first, last in neutral.get(article, [])
        )
        if not hits and not calm:
            outcome.false_alarms.append(
                {
                    "article": article,
                    "line": finding.line,
                    "kind": finding.kind,
                    "verdict": finding.verdict.value,
                    "claim": finding.claim,
                    "evidence": finding.evidence,
                }
            )
    return outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=ARTICLES)
    parser.add_argument(
        "--json", type=Path, default=ROOT / "_build" / "bench" / "real-articles.json"
    )
    args = parser.parse_args()
    if not (args.folder / "key.json").is_file():
        print(f"real-articles: no key.json in {args.folder}", file=sys.stderr)
        return 2
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
