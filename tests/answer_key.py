"""The answer key of ``../shared/real-articles`` (issue 23), and how a scan is scored on it.

An error of the key is *found* when the scan gives a ``contradicted`` or ``broken`` finding
on a line of its range (two lines of slack either side, as the key says); a ``contradicted``
or ``broken`` finding on no error's range and no neutral range is a *false alarm*. Shared by
``benchmarks/real_articles.py`` and ``tests/test_real_articles.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checker.scan.findings import ScanResult

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
