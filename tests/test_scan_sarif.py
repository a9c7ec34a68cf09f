"""``python -m checker scan --format sarif``: a SARIF 2.1.0 log GitHub code scanning accepts,
with one result per finding that needs attention (contradicted and broken as errors,
needs-cuda as notes) and per file that could not be read, each at its file and line. The
structure is checked against what SARIF 2.1.0 requires of the parts written (the OASIS
standard's sections 3.13 run, 3.19 tool component, 3.27 result, 3.28 location, 3.30 region,
3.49 reporting descriptor)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from checker.scan.sarif import SCHEMA_URI
from tests.test_scan_cli import SAMPLES, scan

LEVELS = {"none", "note", "warning", "error"}


def sarif_problems(log: dict[str, Any]) -> list[str]:
    """What a SARIF 2.1.0 log written by the scanner gets wrong."""
    found = []
    if log.get("version") != "2.1.0" or log.get("$schema") != SCHEMA_URI:
        found.append("version or $schema")
    for run in log.get("runs", [None]):
        driver = (run or {}).get("tool", {}).get("driver", {})
        if not isinstance(driver.get("name"), str):
            found.append("run.tool.driver.name")
        ids = [rule["id"] for rule in driver.get("rules", [])]
        if len(ids) != len(set(ids)):
            found.append("rule ids not unique")
        for rule in driver.get("rules", []):
            if rule["defaultConfiguration"]["level"] not in LEVELS:
                found.append(f"rule {rule['id']}: level")
            if not rule["shortDescription"]["text"]:
                found.append(f"rule {rule['id']}: no description")
        found += _result_problems(run.get("results", []), ids)
    return found


def _result_problems(results: list[dict[str, Any]], ids: list[str]) -> list[str]:
    found = []
    for n, result in enumerate(results):
        where = f"result {n}"
        if not result.get("message", {}).get("text"):
            found.append(f"{where}: message.text")
        if result["level"] not in LEVELS:
            found.append(f"{where}: level")
        if ids[result["ruleIndex"]] != result["ruleId"]:
            found.append(f"{where}: ruleIndex does not name ruleId")
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        uri = physical["artifactLocation"]["uri"]
        if not isinstance(uri, str) or "\\" in uri or " " in uri:
            found.append(f"{where}: uri {uri!r}")
        line = physical["region"]["startLine"]
        if not isinstance(line, int) or line < 1:
            found.append(f"{where}: startLine {line!r}")
    return found


def test_a_scan_as_sarif(capsys: pytest.CaptureFixture[str]) -> None:
    path = SAMPLES / "en" / "snippets.md"
    code, out, _ = scan(capsys, "--format", "sarif", str(path))
    log = json.loads(out)
    assert sarif_problems(log) == []
    assert code == 1
    results = log["runs"][0]["results"]
    at = {
        (r["ruleId"], r["level"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
        for r in results
    }
    assert {
        ("claim/contradicted", "error", 3),
        ("snippet/contradicted", "error", 42),
        ("snippet/broken", "error", 49),
        ("snippet/needs-cuda", "note", 56),
    } <= at
    _, json_out, _ = scan(capsys, "--format", "json", str(path))
    shown = [
        f
        for f in json.loads(json_out)["findings"]
        if f["verdict"] not in ("supported", "unverified")
    ]
    assert len(results) == len(shown)
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results} == {
        str(path)
    }


def test_unreadable_files_are_sarif_errors(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = scan(capsys, "--no-run", "--format", "sarif", str(SAMPLES / "malformed"))
    log = json.loads(out)
    assert sarif_problems(log) == []
    read_errors = [r for r in log["runs"][0]["results"] if r["ruleId"] == "read-error"]
    assert len(read_errors) == 4  # three files, one of them with two errors
