"""Renderers: verdicts in, text out. One module per output format, no I/O, no printing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from checker.evidence import Measurement
from checker.text.sites import Site

if TYPE_CHECKING:
    from checker.versions import Versions
from checker.verdict import Status, Verdict


@dataclass(frozen=True)
class Report:
    """Everything a renderer may show: the verdicts and where each claim lives in the docs."""

    verdicts: Sequence[Verdict]
    torch_version: str
    #: ``{device: reason}`` for requested devices that are absent.
    absent: Mapping[str, str] = field(default_factory=dict)
    sites: Mapping[str, Sequence[Site]] = field(default_factory=dict)
    #: Outcomes across torch releases (``docs/_evidence/versions.json``), if recorded.
    versions: Versions | None = None

    def site(self, claim_id: str) -> Site | None:
        found = self.sites.get(claim_id)
        return found[0] if found else None

    def summary(self) -> dict[str, int]:
        counts = Counter(v.status.value for v in self.verdicts)
        return {s.value: counts.get(s.value, 0) for s in Status}


def evidence_summary(verdict: Verdict, limit: int = 4) -> str:
    """``key=value, ...`` of the first measurements, or the reason a probe did not decide;
    then the control, when the claim has one (see :func:`control_summary`)."""
    if verdict.evidence is None or verdict.status is Status.NOT_RUN:
        return verdict.reason.splitlines()[0] if verdict.reason else ""
    shown = _pairs(verdict.evidence.observation.measurements, limit)
    control = control_summary(verdict)
    return f"{shown}; {control}" if control else shown


def control_summary(verdict: Verdict, limit: int = 2) -> str:
    """``control: <label>, <key=value, ...>, <outcome>``, or empty without control evidence."""
    found = verdict.evidence.control if verdict.evidence is not None else None
    if found is None:
        return ""
    parts = [found.label, _pairs(found.observation.measurements, limit), found.outcome.value]
    return "control: " + ", ".join(p for p in parts if p)


def _pairs(measurements: Sequence[Measurement], limit: int) -> str:
    items = [f"{m.key}={_short(m.value)}" for m in measurements]
    more = f", +{len(items) - limit}" if len(items) > limit else ""
    return ", ".join(items[:limit]) + more


def _short(value: object) -> str:
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 48 else text[:45] + "..."


def renderers() -> dict[str, Callable[[Report], str]]:
    from checker.report import github, json_report, junit, text

    return {
        "text": text.render,
        "json": json_report.render,
        "junit": junit.render,
        "github": github.render,
    }
