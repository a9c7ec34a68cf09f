"""The stable JSON schema ``checker.verify/1`` (documented in docs/reference/verify.md)."""

from __future__ import annotations

import json
from typing import Any

from checker.report import Report
from checker.report.plain_text import plain_document

SCHEMA = "checker.verify/1"


def render(report: Report) -> str:
    results: list[dict[str, Any]] = []
    for v in report.verdicts:
        site = report.site(v.claim.id)
        results.append(
            {
                "claim": v.claim.id,
                "statement": v.claim.statement,
                "device": v.device,
                "expected": v.expected.value,
                "outcome": v.outcome.value,
                "status": v.status.value,
                "recorded_outcome": (
                    v.evidence.outcome.value
                    if v.evidence is not None and v.outcome.value == "not-run"
                    else None
                ),
                "stale": v.stale,
                "control": v.claim.control.label if v.claim.control is not None else None,
                "no_control": v.claim.no_control or None,
                "reason": v.reason,
                "page": str(site.path) if site else None,
                "line": site.line if site else None,
                "across_releases": dict(report.versions.claims.get(v.claim.id, {}))
                if report.versions is not None
                else None,
                "changed_across_releases": (report.versions.change(v.claim.id) or None)
                if report.versions is not None
                else None,
                "evidence": v.evidence.to_dict() | {"origin": v.evidence.origin}
                if v.evidence is not None
                else None,
            }
        )
    document = {
        "schema": SCHEMA,
        "torch_version": report.torch_version,
        "absent_devices": dict(report.absent),
        "releases": list(report.versions.releases) if report.versions is not None else [],
        "results": results,
        "summary": report.summary(),
    }
    return json.dumps(plain_document(document), indent=2, ensure_ascii=False) + "\n"
