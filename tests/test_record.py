"""Recorded evidence: written atomically, read back exactly, corrupt files named with line."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from checker import record, registry, versions
from checker.evidence import ControlResult, Evidence, Measurement, Observation
from checker.runner import Runner
from checker.source_hash import probe_hash
from checker.verdict import Status


def evidence(claim_id: str, probe_hash_: str = "0" * 16, holds: bool = True) -> Evidence:
    return Evidence(
        claim_id=claim_id,
        device="cuda",
        device_name="NVIDIA H100 80GB HBM3",
        torch_version="2.11.0+cu130",
        probe_hash=probe_hash_,
        observation=Observation(holds, "rule", (Measurement("k", 512, "bytes"),)),
        duration_s=0.01,
        measured_at="2026-11-22T10:00:00+00:00",
    )


def test_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "cuda.json"
    written = record.write(path, "cuda", [evidence("a/b"), evidence("a/c")])
    loaded = record.load(path)
    assert loaded is not None
    assert loaded.device_name == "NVIDIA H100 80GB HBM3"
    assert sorted(loaded.evidence) == ["a/b", "a/c"]
    assert loaded.evidence["a/b"].observation == written.evidence["a/b"].observation
    assert loaded.evidence["a/b"].origin == "recorded"


def test_a_control_round_trips_and_evidence_without_one_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "cuda.json"
    control = ControlResult("a slice", Observation(False, "rule", (Measurement("k", 0, "bytes"),)))
    with_control = dataclasses.replace(evidence("a/b"), control=control)
    record.write(path, "cuda", [with_control, evidence("a/c")])
    loaded = record.load(path)
    assert loaded is not None
    assert loaded.evidence["a/b"].control == control
    assert loaded.evidence["a/c"].control is None
    assert "control" not in json.loads(path.read_text())["claims"]["a/c"]


def test_a_missing_file_is_no_record(tmp_path: Path) -> None:
    assert record.load(tmp_path / "cuda.json") is None


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"schema": 1,\n "claims": [\n', r"cuda.json:3: not valid JSON"),
        ('{"schema": 2, "claims": {}}', r"malformed evidence file: schema 2 is not 1"),
        ("[]", r"malformed evidence file: top level must be an object"),
        (
            '{"schema": 1, "device": "cuda", "device_name": "x", "torch_version": "y", '
            '"recorded_at": "z", "claims": {"a/b": {"claim": "a/b"}}}',
            r"malformed evidence file: malformed evidence: missing or wrong field 'measurements'",
        ),
    ],
)
def test_corrupt_files_name_the_file_and_what_is_wrong(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "cuda.json"
    path.write_text(content)
    with pytest.raises(record.RecordError, match=message):
        record.load(path)


def test_binary_garbage_is_reported_not_raised_as_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "cuda.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(record.RecordError, match=r"cuda\.json: cannot read evidence file"):
        record.load(path)


def test_recorded_evidence_is_shown_for_an_absent_device_and_goes_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHECKER_HIDE_CUDA", "1")
    reg = registry.load(["tests.fixtures.claims_ok"], package=None)
    ones, f16 = reg.get("fixture/ones-sum"), reg.get("fixture/float16-is-2-bytes")
    assert ones is not None and f16 is not None
    path = tmp_path / "cuda.json"
    record.write(
        path,
        "cuda",
        [evidence(ones.id, probe_hash(ones.probe)), evidence(f16.id, "an-older-hash", holds=False)],
    )
    runner = Runner(reg, recorded={"cuda": record.load(path)})  # type: ignore[dict-item]
    verdicts = {v.claim.id: v for v in runner.run([ones, f16], ("cuda",))}
    fresh, stale = verdicts[ones.id], verdicts[f16.id]
    assert fresh.status is Status.NOT_RUN and not fresh.stale
    assert fresh.evidence is not None and fresh.evidence.origin == "recorded"
    assert stale.stale
    assert stale.recorded_contradiction  # recorded on a GPU, it contradicts the docs


def test_evidence_files_in_the_repository_are_valid() -> None:
    """Claim evidence per device (``cuda.json``), the CUDA doctest tally and the outcomes
    across torch releases (``versions.json``), nothing else."""
    files = sorted(p.name for p in Path("docs/_evidence").glob("*.json"))
    assert files == ["cuda.json", "doctest-cuda.json", "versions.json"]
    found = versions.load(Path("docs/_evidence/versions.json"))
    assert found is not None and len(found.releases) >= 4
    assert set(found.claims) == {c.id for c in registry.load()}
    path = Path("docs/_evidence/cuda.json")
    assert record.load(path) is not None
    assert json.loads(path.read_text())["device"] == "cuda"
