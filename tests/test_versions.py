"""Outcomes across torch releases: merging per-release runs, reading the file, the findings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checker import versions
from checker.report import Report
from checker.report import text as text_report
from checker.verdict import not_run
from tests.fixtures.claims_ok import CLAIMS

RUNS = [
    {"torch": "2.13.0+cpu", "claims": {"a/b": "holds", "a/c": "holds", "a/d": "fails"}},
    {"torch": "2.4.1+cu121", "claims": {"a/b": "fails", "a/c": "holds", "a/d": "error"}},
    {"torch": "2.10.0", "claims": {"a/b": "holds", "a/c": "holds", "a/d": "fails"}},
    {"torch": "2.5.1+cu124", "claims": {"a/b": "holds", "a/c": "holds", "a/d": "fails"}},
]


def test_runs_merge_into_the_documented_schema(tmp_path: Path) -> None:
    merged = versions.merge(RUNS).to_dict()
    assert merged["schema"] == "checker.versions/1"
    assert merged["releases"] == ["2.4.1", "2.5.1", "2.10.0", "2.13.0"]  # numeric order
    assert merged["claims"]["a/b"] == {
        "2.4.1": "fails",
        "2.5.1": "holds",
        "2.10.0": "holds",
        "2.13.0": "holds",
    }
    assert set(merged) == {"schema", "releases", "claims", "measured_at", "python"}
    path = tmp_path / "versions.json"
    path.write_text(json.dumps(merged))
    assert versions.load(path) == versions.merge(RUNS).__class__(
        tuple(merged["releases"]), merged["claims"], merged["measured_at"], merged["python"]
    )


def test_changes_are_named_by_the_release_they_start_on() -> None:
    merged = versions.merge(RUNS)
    assert merged.changes("a/b") == [("holds", "2.5.1")]
    assert merged.change("a/b") == "holds since 2.5"
    assert merged.change("a/c") == ""
    assert merged.change("a/d") == "probe error on 2.4"
    bounded = versions.merge(
        [
            {"torch": "2.5.1", "claims": {"a/b": "fails"}},
            {"torch": "2.8.0", "claims": {"a/b": "holds"}},
        ]
    )
    (change,) = bounded.transitions("a/b")
    assert (change.exact, change.previous, change.before) == (False, "2.5.1", "fails")
    assert bounded.change("a/b") == "holds by 2.8 at the latest (fails on 2.5)"
    assert merged.history("unknown/claim") == []


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "not valid JSON"),
        ('{"schema": "checker.versions/2"}', "schema is not 'checker.versions/1'"),
        (
            '{"schema": "checker.versions/1", "releases": ["2.4.1"], "claims": '
            '{"a/b": {"2.5.1": "holds"}}, "measured_at": "", "python": ""}',
            "release '2.5.1' is not listed",
        ),
        (
            '{"schema": "checker.versions/1", "releases": ["2.4.1"], "claims": '
            '{"a/b": {"2.4.1": "maybe"}}, "measured_at": "", "python": ""}',
            "outcome 'maybe' on 2.4.1",
        ),
    ],
)
def test_a_broken_file_is_named_with_what_is_wrong(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "versions.json"
    path.write_text(content)
    with pytest.raises(versions.VersionsError, match=message) as caught:
        versions.load(path)
    assert str(path) in str(caught.value)


def test_a_missing_file_is_no_versions(tmp_path: Path) -> None:
    assert versions.load(tmp_path / "absent.json") is None


def test_verify_reports_a_change_as_a_finding_not_a_failure() -> None:
    claim = CLAIMS[0]
    run = {"torch": "2.4.1", "claims": {claim.id: "fails"}}
    later = {"torch": "2.13.0", "claims": {claim.id: "holds"}}
    report = Report(
        [not_run(claim, "cpu", "not run in this test")],
        "2.13.0",
        versions=versions.merge([run, later]),
    )
    shown = text_report.render(report)
    assert "across torch 2.4.1, 2.13.0 (CPU, measured " in shown
    assert "1 of 1 claims changed" in shown
    # 2.5 to 2.12 were not sampled: the change is bounded, not dated
    assert f"  {claim.id}: holds by 2.13 at the latest (fails on 2.4)" in shown
    assert not any(v.failed for v in report.verdicts)


def test_the_committed_file_shows_a_change_inside_the_supported_range() -> None:
    found = versions.load(Path("docs/_evidence/versions.json"))
    assert found is not None
    assert found.releases[0] == "2.4.1"
    assert found.change("saved-tensors/func-forward-transforms-allow-hooks") == "holds since 2.5"


def test_a_recording_made_with_an_older_release_that_behaved_so_contradicts_nothing() -> None:
    """A GPU machine with torch 2.4 recorded "fails" for a claim that holds since 2.5: the
    CPU gave "fails" on 2.4 too, so the recording is that release's behaviour, shown as such,
    and no contradiction of the docs (which state today's); made with 2.13 it would be one."""
    from checker.evidence import Evidence, Observation
    from checker.record import DeviceRecord
    from checker.registry import Registry
    from checker.runner import Runner

    merged = versions.merge(RUNS)
    assert merged.superseded("a/b", "2.4.1+cu121", "fails") == (
        "recorded with torch 2.4, which gave fails on the CPU too; holds on torch 2.13"
    )
    assert merged.superseded("a/b", "2.10.0+cu130", "fails") == ""  # it holds there
    assert merged.superseded("a/c", "2.4.1", "fails") == ""  # it never changed
    assert merged.superseded("a/b", "2.4.1", "holds") == ""  # not what 2.4 gave
    claim = next(c for c in CLAIMS if c.expect.value == "holds")
    history = versions.Versions(
        ("2.4.1", "2.13.0"), {claim.id: {"2.4.1": "fails", "2.13.0": "holds"}}, "", ""
    )
    for torch_version, contradicts in (("2.4.1+cu121", False), ("2.13.0+cu130", True)):
        evidence = Evidence(
            claim.id, "cuda", "GPU", torch_version, "hash", Observation(False, "holds if x"),
            0.1, "2026-11-27T00:00:00+00:00", origin="recorded",
        )  # fmt: skip
        record = DeviceRecord(
            Path("cuda.json"), "cuda", "GPU", torch_version, "2026-11-27", {claim.id: evidence}
        )
        runner = Runner(Registry(CLAIMS), recorded={"cuda": record}, versions=history)
        verdict = runner._recorded(claim, "cuda", "no CUDA here")
        assert verdict.recorded_contradiction is contradicts
        assert bool(verdict.superseded) is not contradicts
