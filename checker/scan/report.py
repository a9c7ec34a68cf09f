"""Rendering a :class:`~checker.scan.findings.ScanResult`: text, JSON, GitHub annotations.

The JSON document is ``{"findings": [{"path", "line", "lang", "kind", "verdict", "claim",
"quote", "evidence", "link", "repaired", "measured", "said"}], "summary": {...}}``: those keys
exactly, per finding; ``measured`` is a claim finding's evidence as data
(:class:`~checker.scan.claim_evidence.ClaimEvidence`), ``said`` the evidence as a template and
its values where the scanner words it so, each ``null`` otherwise. Repaired snippets say so at
the start of their evidence.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from checker.report.github import annotation
from checker.report.plain_text import plain, plain_document, plain_line
from checker.scan.findings import FAILING, FindingVerdict, ScanResult

_MARK = {
    FindingVerdict.CONTRADICTED: "✗",
    FindingVerdict.BROKEN: "✗",
    FindingVerdict.SUPPORTED: "✓",
    FindingVerdict.NEEDS_CUDA: "·",
    FindingVerdict.OUTDATED: "~",
    FindingVerdict.UNVERIFIED: "?",
}


def render_text(result: ScanResult) -> str:
    lines: list[str] = []
    current = None
    for f in result.findings:
        if f.path != current:
            current = f.path
            lines.append(f"{plain_line(f.path)} ({f.lang})")
        label = f"{f.kind} {f.verdict.value}" + (" (repaired)" if f.repaired else "")
        lines.append(
            f"  {_MARK[f.verdict]} line {f.line}: {label}" + (f" [{f.claim}]" if f.claim else "")
        )
        lines.append(f"      {plain_line(f.quote[:200])}")
        lines.append(f"      evidence: {plain_line(f.evidence)}")
        if f.link:
            lines.append(f"      see: {f.link}")
    for error in result.errors:
        lines.append(f"{plain_line(error.path)}:{error.line}: error: {plain_line(error.message)}")
    counts = result.summary()
    lines.append(
        "scan: "
        + ", ".join(f"{counts[v.value]} {v.value}" for v in FindingVerdict)
        + f"; {counts['files-with-errors']} file(s) with errors"
    )
    if result.absent:
        lines.append("absent: " + "; ".join(f"{d}: {r}" for d, r in result.absent.items()))
    if result.sandbox:
        lines.append(
            "sandbox: " + ", ".join(f"{k}={plain_line(str(v))}" for k, v in result.sandbox.items())
        )
    return plain("\n".join(lines) + "\n")


#: The JSON document's schema: ``kind`` is ``claim``, ``snippet`` or ``api``; ``verdict`` one
#: of :class:`~checker.scan.findings.Verdict` (``outdated`` since this version).
SCHEMA = "checker.scan/2"


def render_json(result: ScanResult) -> str:
    document = {
        "schema": SCHEMA,
        "findings": [
            {
                "path": f.path,
                "line": f.line,
                "lang": f.lang,
                "kind": f.kind,
                "verdict": f.verdict.value,
                "claim": f.claim,
                "quote": f.quote,
                "evidence": f.evidence,
                "link": f.link,
                "repaired": f.repaired,
                "measured": f.measured.to_dict() if f.measured is not None else None,
                "said": f.said.to_dict() if f.said is not None else None,
            }
            for f in result.findings
        ],
        "summary": {
            **result.summary(),
            "errors": [
                {"path": e.path, "line": e.line, "message": e.message} for e in result.errors
            ],
            "torch_version": result.torch_version,
            "absent_devices": dict(result.absent),
            "sandbox": dict(result.sandbox),
        },
    }
    return json.dumps(plain_document(document), indent=2, ensure_ascii=False) + "\n"


def render_github(result: ScanResult) -> str:
    lines = []
    for f in result.findings:
        if f.verdict in FAILING:
            level = "error"
        elif f.verdict is FindingVerdict.OUTDATED:
            level = "warning"
        elif f.verdict is FindingVerdict.NEEDS_CUDA:
            level = "notice"
        else:
            continue
        title = f"{f.kind} {f.verdict.value}" + (f" ({f.claim})" if f.claim else "")
        message = f"{f.quote[:200]}\n{f.evidence}" + (f"\nsee {f.link}" if f.link else "")
        lines.append(annotation(level, message, path=f.path, line=f.line, title=title))
    for e in result.errors:
        lines.append(annotation("error", e.message, path=e.path, line=e.line))
    counts = result.summary()
    lines.append(
        "checker scan: " + ", ".join(f"{counts[v.value]} {v.value}" for v in FindingVerdict)
    )
    return "\n".join(lines) + "\n"


def render_sarif(result: ScanResult) -> str:
    """SARIF 2.1.0, for GitHub code scanning (:mod:`checker.scan.sarif`)."""
    from checker.scan.sarif import sarif_document

    document = sarif_document(json.loads(render_json(result)))
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


RENDERERS: dict[str, Callable[[ScanResult], str]] = {
    "text": render_text,
    "json": render_json,
    "github": render_github,
    "sarif": render_sarif,
}
