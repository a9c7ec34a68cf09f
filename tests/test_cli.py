"""``python -m checker verify`` and ``record``: exit codes, formats, evidence in the output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from checker.cli import main
from tests.helpers import ROOT

FIXTURES = ["--only-modules", "--claims-module", "tests.fixtures.claims_ok"]


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHECKER_CACHE_DIR", str(tmp_path / "cache"))


def verify(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["verify", *args])
    return code, capsys.readouterr().out


def test_clean_run_prints_a_table_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = verify(capsys, *FIXTURES, "--device", "cpu")
    assert code == 0
    header, _rule, *rows = out.splitlines()[:5]
    assert header.split() == ["claim", "device", "expected", "measured", "evidence"]
    assert rows[0].split()[:5] == ["fixture/ones-sum", "cpu", "holds", "holds", "ok"]
    assert "fixture-true-division-dtype='torch.float32'" in out
    assert "3 confirmed, 0 contradicted, 0 error, 0 not-run" in out


def test_contradicted_claim_exits_1_and_shows_its_evidence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = verify(
        capsys, "--only-modules", "--claims-module", "tests.fixtures.claims_contradicted"
    )
    assert code == 1
    assert "CONTRADICTED: fixture/clone-shares-storage on cpu" in out
    assert "measured:  fixture-clone-shares = False bool" in out
    assert "rule:      holds if clone() returns a tensor on the same storage" in out


def test_probe_errors_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = verify(
        capsys,
        "--only-modules",
        "--claims-module",
        "tests.fixtures.claims_broken",
        "--claim",
        "broken/raises",
    )
    assert code == 1
    assert "ERROR: broken/raises on cpu" in out


def test_json_follows_the_documented_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = verify(capsys, *FIXTURES, "--format", "json", "--claim", "fixture/ones-*")
    data = json.loads(out)
    assert code == 0
    assert data["schema"] == "checker.verify/1"
    assert set(data) == {
        "schema",
        "torch_version",
        "absent_devices",
        "releases",
        "results",
        "summary",
    }
    cpu = data["results"][0]
    assert set(cpu) == {
        "claim",
        "statement",
        "device",
        "expected",
        "outcome",
        "status",
        "recorded_outcome",
        "stale",
        "control",
        "no_control",
        "reason",
        "across_releases",
        "changed_across_releases",
        "page",
        "line",
        "evidence",
    }
    assert (cpu["claim"], cpu["device"], cpu["status"]) == ("fixture/ones-sum", "cpu", "confirmed")
    assert cpu["evidence"]["measurements"] == [
        {"key": "fixture-ones-sum", "value": 4, "unit": "count"}
    ]


def test_junit_counts_failures(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = verify(
        capsys,
        "--only-modules",
        "--claims-module",
        "tests.fixtures.claims_contradicted",
        "--format",
        "junit",
    )
    suite = ET.fromstring(out.split("?>", 1)[1])
    assert code == 1
    assert (suite.get("tests"), suite.get("failures")) == ("2", "1")
    assert suite.find("testcase/failure") is not None


def test_github_annotations_point_at_the_doc_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = verify(
        capsys, "--claim", "basics/float32-*", "--device", "cpu", "--format", "github"
    )
    assert code == 0
    assert out.splitlines()[-1].startswith("checker verify: 1 confirmed")


@pytest.mark.parametrize(
    "args",
    [
        ["--claim", "no-such-claim/*"],
        ["--claims-module", "tests.fixtures.does_not_exist"],
        ["--device", "tpu"],
    ],
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "checker", "verify", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip()


def test_the_projects_own_claims_hold_on_cpu(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = verify(capsys, "--device", "cpu")
    assert code == 0, out


def test_strict_fails_on_stale_recorded_evidence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from checker import record, registry
    from checker.evidence import Evidence, Observation
    from checker.report.verify import VerifyOptions, verify

    monkeypatch.setenv("CHECKER_HIDE_CUDA", "1")
    reg = registry.load(["tests.fixtures.claims_ok"], package=None)
    stale = Evidence(
        "fixture/ones-sum",
        "cuda",
        "GPU",
        "2.11.0",
        "an-old-hash",
        Observation(True, "r"),
        0.1,
        "2026-11-01T00:00:00+00:00",
    )
    record.write(record.path_for(tmp_path, "cuda"), "cuda", [stale])
    options = VerifyOptions(project_root=tmp_path, pattern="fixture/ones-sum")
    assert verify(reg, options).exit_code == 0
    strict = verify(
        reg, VerifyOptions(project_root=tmp_path, pattern="fixture/ones-sum", strict=True)
    )
    assert strict.exit_code == 1
    [cuda] = [v for v in strict.report.verdicts if v.device == "cuda"]
    assert cuda.stale and cuda.evidence is not None and cuda.evidence.origin == "recorded"


def test_github_annotation_names_the_page_and_line() -> None:
    from checker import registry
    from checker.report import Report, github
    from checker.runner import Runner
    from checker.text.sites import Site

    reg = registry.load(["tests.fixtures.claims_contradicted"], package=None)
    runner = Runner(reg)
    verdicts = runner.run(reg.claims, ("cpu",))
    runner.close()
    sites = {
        "fixture/clone-shares-storage": [
            Site("fixture/clone-shares-storage", Path("docs/page.md"), 12)
        ]
    }
    out = github.render(Report(verdicts, "2.13.0", {}, sites))
    assert out.startswith(
        "::error file=docs/page.md,line=12,title=claim contradicted on cpu::"
        "fixture/clone-shares-storage: the docs say it holds, the probe "
        "found it fails."
    )


def test_controls_are_shown_and_one_that_does_not_flip_exits_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = verify(
        capsys, "--only-modules", "--claims-module", "tests.fixtures.claims_controls"
    )
    assert code == 1
    row = next(line for line in out.splitlines() if line.startswith("controls/clone-copies "))
    assert row.endswith(
        "fixture-control-shares=False; control: a slice, fixture-control-shares=True, fails"
    )
    assert "ERROR: controls/control-does-not-flip on cpu" in out
    assert "  control:   clone again: holds" in out
    assert "1 confirmed, 0 contradicted, 1 error, 4 not-run" in out  # 3 on CUDA


def test_json_carries_the_control_and_the_reason_for_none(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out = verify(
        capsys,
        "--only-modules",
        "--claims-module",
        "tests.fixtures.claims_controls",
        "--format",
        "json",
    )
    results = {r["claim"]: r for r in json.loads(out)["results"] if r["device"] == "cpu"}
    flips = results["controls/clone-copies"]
    assert flips["control"] == "a slice"
    assert flips["evidence"]["control"] == {
        "label": "a slice",
        "holds": False,
        "rule": "holds if the result does not share the original's storage",
        "measurements": [{"key": "fixture-control-shares", "value": True, "unit": "bool"}],
    }
    skipped = results["controls/not-applicable"]
    assert (skipped["outcome"], skipped["reason"]) == ("not-run", "this case needs two GPUs")
    assert skipped["no_control"] == "the fixture never measures anything"


def test_a_claim_that_could_only_not_run_here_is_not_run_never_an_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A claim about CUDA on a machine without CUDA, and a probe that ran out of time on a
    busy machine: both not run, each with its reason, in the table and in JSON; exit 0."""
    monkeypatch.setenv("CHECKER_HIDE_CUDA", "1")
    code, out = verify(capsys, "--claim", "amp/reductions-float32-on-cuda", "--format", "json")
    assert code == 0
    found = {(r["device"], r["status"], r["reason"]) for r in json.loads(out)["results"]}
    assert found == {
        ("cpu", "not-run", "only meaningful on CUDA"),
        ("cuda", "not-run", "CUDA hidden by CHECKER_HIDE_CUDA"),
    }
    code, out = verify(capsys, "--claim", "amp/reductions-float32-on-cuda")
    assert (code, out.count(" error")) == (0, 1)
    assert "0 confirmed, 0 contradicted, 0 error, 2 not-run" in out
    monkeypatch.setenv("CHECKER_SLOWDOWN", "4")  # four times slower than the reference
    slow = ["--only-modules", "--claims-module", "tests.fixtures.claims_slow"]
    code, out = verify(capsys, *slow, "--device", "cpu", "--format", "json")
    assert code == 0
    found = {(r["claim"], r["status"], r["reason"][:30]) for r in json.loads(out)["results"]}
    assert found == {
        ("slow/takes-0-8-s", "confirmed", ""),
        ("slow/never-ends", "not-run", "did not finish within 2 s: thi"),
    }
