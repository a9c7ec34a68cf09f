"""The scanner measured against a corpus of articles with answer files (``tests/corpus/``).

Each article ``NAME.<ext>`` has ``NAME.answers.toml`` beside it: ``[[expect]]`` entries, the
errors a reviewer finds by running the code (line, kind, verdict, class), and ``[[ok]]``
entries, correct statements and working snippets that must not be flagged (optionally with
the verdict they must get). See ``tests/corpus/README.md``.

* An expected error is *found* when a finding has its line and verdict, and its kind (an
  ``api`` error in code may be found as the ``snippet`` that raises on that line, and the
  reverse: both say the line is broken).
* A *false alarm* is a finding whose verdict is ``contradicted``, ``broken`` or ``outdated``
  that matches no expected error.
* An ``ok`` entry with a verdict is *missed* when no finding on its line has that verdict.

:func:`score` returns the counts per language and per class, for the corpus test and the
benchmark alike.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from checker.scan.findings import FindingVerdict, ScanFinding, ScanResult

#: Verdicts that claim something is wrong: each must be an expected error.
ALARMS = (FindingVerdict.CONTRADICTED, FindingVerdict.BROKEN, FindingVerdict.OUTDATED)
_KINDS = ("claim", "snippet", "api")
_SAME_LINE_KINDS = {"api", "snippet"}


class AnswersError(ValueError):
    """An answer file that cannot be read, with its path and what is wrong."""


@dataclass(frozen=True)
class Expected:
    article: str
    line: int
    kind: str
    verdict: FindingVerdict
    cls: str
    why: str


@dataclass(frozen=True)
class Ok:
    article: str
    line: int
    why: str
    verdict: FindingVerdict | None = None


@dataclass(frozen=True)
class Answers:
    article: Path
    lang: str
    classes: tuple[str, ...]
    expected: tuple[Expected, ...]
    ok: tuple[Ok, ...]


@dataclass(frozen=True)
class Score:
    """How a scan of the corpus compares with its answers."""

    #: (lang, class) -> (found, expected).
    recall: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    missed: tuple[Expected, ...] = ()
    false_alarms: tuple[ScanFinding, ...] = ()
    #: ``ok`` entries whose required verdict was not given.
    ok_missed: tuple[Ok, ...] = ()

    def totals(self, lang: str | None = None, cls: str | None = None) -> tuple[int, int]:
        found = expected = 0
        for (lang_, cls_), (f, e) in self.recall.items():
            if (lang is None or lang == lang_) and (cls is None or cls == cls_):
                found, expected = found + f, expected + e
        return found, expected

    def rate(self, lang: str | None = None, cls: str | None = None) -> float:
        found, expected = self.totals(lang, cls)
        return found / expected if expected else 1.0


def articles(root: Path) -> list[Path]:
    """The corpus's articles: every file with an answer file beside it."""
    return sorted(
        p
        for p in root.rglob("*")
        if p.is_file()
        and not p.name.endswith(".answers.toml")
        and p.with_name(p.name.rsplit(".", 1)[0] + ".answers.toml").exists()
    )


def load(article: Path) -> Answers:
    path = article.with_name(article.name.rsplit(".", 1)[0] + ".answers.toml")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise AnswersError(f"{path}: {exc}") from exc
    try:
        expected = tuple(
            Expected(
                str(article),
                int(e["line"]),
                _kind(e["kind"]),
                FindingVerdict(e["verdict"]),
                str(e.get("class", "")),
                str(e.get("why", "")),
            )
            for e in data.get("expect", [])
        )
        ok = tuple(
            Ok(
                str(article),
                int(o["line"]),
                str(o.get("why", "")),
                FindingVerdict(o["verdict"]) if "verdict" in o else None,
            )
            for o in data.get("ok", [])
        )
    except (KeyError, ValueError, TypeError) as exc:
        raise AnswersError(f"{path}: bad entry: {exc}") from exc
    return Answers(article, article.parent.name, tuple(data.get("classes", ())), expected, ok)


def _kind(kind: str) -> str:
    if kind not in _KINDS:
        raise ValueError(f"kind {kind!r} is not one of {_KINDS}")
    return kind


def _matches(finding: ScanFinding, expected: Expected) -> bool:
    same_kind = finding.kind == expected.kind or {finding.kind, expected.kind} <= _SAME_LINE_KINDS
    return finding.line == expected.line and finding.verdict is expected.verdict and same_kind


def score(result: ScanResult, answers: list[Answers]) -> Score:
    by_article: dict[str, list[ScanFinding]] = {}
    for finding in result.findings:
        by_article.setdefault(str(Path(finding.path)), []).append(finding)
    found: Counter[tuple[str, str]] = Counter()
    total: Counter[tuple[str, str]] = Counter()
    missed: list[Expected] = []
    alarms: list[ScanFinding] = []
    ok_missed: list[Ok] = []
    for answer in answers:
        findings = by_article.get(str(answer.article), [])
        for expected in answer.expected:
            key = (answer.lang, expected.cls)
            total[key] += 1
            if any(_matches(f, expected) for f in findings):
                found[key] += 1
            else:
                missed.append(expected)
        alarms += [
            f
            for f in findings
            if f.verdict in ALARMS and not any(_matches(f, e) for e in answer.expected)
        ]
        ok_missed += [
            ok
            for ok in answer.ok
            if ok.verdict is not None
            and not any(f.line == ok.line and f.verdict is ok.verdict for f in findings)
        ]
    recall = {key: (found[key], count) for key, count in sorted(total.items())}
    return Score(recall, tuple(missed), tuple(alarms), tuple(ok_missed))
