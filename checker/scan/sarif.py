"""SARIF 2.1.0 (the OASIS Static Analysis Results Interchange Format), the format GitHub code
scanning uploads: ``python -m checker scan --format sarif`` and the service's
``/api/scan/ID/sarif``. Built from the scanner's JSON document (``checker.scan/2``), so a
stored result converts the same as a fresh scan.

A result per finding that needs attention, at its file and line: ``contradicted`` and
``broken`` are errors, ``outdated`` warnings, ``needs-cuda`` notes (a finding that is
``supported`` or ``unverified`` is not a problem to show); a file that could not be read is
an error of the rule ``read-error``. Each rule is a kind and a verdict (``claim/
contradicted``, ``snippet/broken``...)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

VERSION = "2.1.0"
SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
TOOL = "checker scan"
#: SARIF's level for each verdict shown; verdicts not named here are not results.
LEVELS = {"contradicted": "error", "broken": "error", "outdated": "warning", "needs-cuda": "note"}
_DESCRIPTIONS = {
    "contradicted": "says the opposite of what was measured, or prints other than it shows",
    "broken": "raises, crashes, does not compile, or was stopped by the sandbox",
    "outdated": "uses a deprecated API, or was true in an older torch release only",
    "needs-cuda": "deciding needs a GPU, and none was there",
}
READ_ERROR = "read-error"


def _uri(path: str) -> str:
    """A relative URI reference for a path (forward slashes, reserved characters escaped)."""
    return quote(path.replace("\\", "/"), safe="/")


def _rule(rule_id: str) -> dict[str, Any]:
    if rule_id == READ_ERROR:
        text = "the file could not be read"
        level = "error"
    else:
        kind, _, verdict = rule_id.partition("/")
        text = f"a {kind} that {_DESCRIPTIONS[verdict]}"
        level = LEVELS[verdict]
    return {
        "id": rule_id,
        "shortDescription": {"text": text},
        "defaultConfiguration": {"level": level},
    }


def _location(path: str, line: int) -> dict[str, Any]:
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": _uri(path)},
            "region": {"startLine": max(int(line), 1)},
        }
    }


def sarif_document(scan: dict[str, Any]) -> dict[str, Any]:
    """The SARIF log of one scan document."""
    results: list[dict[str, Any]] = []
    for finding in scan["findings"]:
        level = LEVELS.get(finding["verdict"])
        if level is None:
            continue
        rule_id = f"{finding['kind']}/{finding['verdict']}"
        text = " ".join(str(finding["quote"]).split())[:200]
        message = f"{finding['kind']} {finding['verdict']}: {text}"
        if finding.get("evidence"):
            message += f" — {finding['evidence']}"
        if finding.get("link"):
            message += f" (see {finding['link']})"
        properties = {"verdict": finding["verdict"], "kind": finding["kind"]}
        if finding.get("claim"):
            properties["claim"] = finding["claim"]
        results.append(
            {
                "ruleId": rule_id,
                "level": level,
                "message": {"text": message},
                "locations": [_location(finding["path"], finding["line"])],
                "properties": properties,
            }
        )
    for error in scan["summary"]["errors"]:
        results.append(
            {
                "ruleId": READ_ERROR,
                "level": "error",
                "message": {"text": str(error["message"])},
                "locations": [_location(error["path"], error["line"])],
            }
        )
    rule_ids = sorted({r["ruleId"] for r in results})
    index = {rule_id: n for n, rule_id in enumerate(rule_ids)}
    for result in results:
        result["ruleIndex"] = index[result["ruleId"]]
    summary = scan["summary"]
    return {
        "$schema": SCHEMA_URI,
        "version": VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": TOOL,
                        "rules": [_rule(rule_id) for rule_id in rule_ids],
                    }
                },
                "results": results,
                "properties": {
                    "schema": scan.get("schema"),
                    "torch_version": summary.get("torch_version"),
                },
            }
        ],
    }
