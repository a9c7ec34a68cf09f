"""A table for terminals: claim, device, expected, measured, evidence."""

from __future__ import annotations

from checker.report import Report, evidence_summary
from checker.report.plain_text import plain
from checker.verdict import Status

_MARK = {
    Status.CONFIRMED: "ok",
    Status.CONTRADICTED: "CONTRADICTED",
    Status.ERROR: "ERROR",
    Status.NOT_RUN: "-",
}


def _across_releases(report: Report) -> list[str]:
    """Claims whose outcome changed between torch releases: findings, not failures."""
    found = report.versions
    if found is None:
        return []
    ids = dict.fromkeys(v.claim.id for v in report.verdicts)
    changed = [(i, found.change(i)) for i in ids if found.change(i)]
    lines = [
        f"across torch {', '.join(found.releases)} (CPU, measured {found.measured_at[:10]}): "
        f"{len(changed)} of {len(ids)} claims changed"
    ]
    lines += [f"  {claim_id}: {change}" for claim_id, change in changed]
    return lines


def render(report: Report) -> str:
    header = ("claim", "device", "expected", "measured", "", "evidence")
    rows = []
    for v in report.verdicts:
        measured = v.outcome.value
        if v.evidence is not None and v.status is Status.NOT_RUN:
            measured = f"{v.evidence.outcome.value} (recorded {v.evidence.measured_at[:10]}"
            measured += ", STALE)" if v.stale else ")"
        rows.append(
            (v.claim.id, v.device, v.expected.value, measured, _MARK[v.status], evidence_summary(v))
        )
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(5)]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row[:5], widths, strict=True)) + "  " + row[5]
        for row in [header, *rows]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths) + "  " + "-" * 8)
    for v in report.verdicts:
        if v.status in (Status.CONTRADICTED, Status.ERROR):
            lines += ["", f"{_MARK[v.status]}: {v.claim.id} on {v.device}"]
            lines += [f"  statement: {v.claim.statement}"]
            site = report.site(v.claim.id)
            if site:
                lines += [f"  shown at:  {site.path}:{site.line}"]
            if v.evidence is not None:
                lines += [f"  rule:      {v.evidence.observation.rule}"]
                lines += [
                    f"  measured:  {m.key} = {m.value!r} {m.unit}"
                    for m in v.evidence.observation.measurements
                ]
                control = v.evidence.control
                if control is not None:
                    lines += [f"  control:   {control.label}: {control.outcome.value}"]
                    lines += [
                        f"             {m.key} = {m.value!r} {m.unit}"
                        for m in control.observation.measurements
                    ]
            if v.reason:
                lines += ["  reason:    " + v.reason.replace("\n", "\n             ")]
    counts = report.summary()
    lines += [
        "",
        f"torch {report.torch_version}: "
        + ", ".join(f"{n} {status}" for status, n in counts.items()),
    ]
    for device, reason in report.absent.items():
        lines.append(f"{device} not run: {reason}")
    lines += _across_releases(report)
    return plain("\n".join(lines) + "\n")
