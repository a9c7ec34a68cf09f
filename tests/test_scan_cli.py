"""``python -m checker scan``: exit codes, the JSON document, GitHub annotations, ``--no-run``
and ``--lang``. Prose-only runs use ``--no-run``; the runs that execute code scan one small
article each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checker.cli import main
from tests.helpers import ROOT, sample

SAMPLES = sample("scan")
FINDING_KEYS = {
    "path",
    "line",
    "lang",
    "kind",
    "verdict",
    "claim",
    "quote",
    "evidence",
    "link",
    "repaired",
    "measured",
    "said",
}
SUMMARY_COUNTS = {"contradicted", "supported", "broken", "needs-cuda", "unverified"}


def scan(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["scan", "--root", str(ROOT), "--base-url", "_build/html", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_clean_article_exits_0(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    article = tmp_path / "clean.md"
    article.write_text(
        "# Clean\n\n```pycon\n>>> 1 + 1\n2\n```\n\n`torch.no_grad` reduces memory.\n",
        encoding="utf-8",
    )
    code, out, _ = scan(capsys, str(article))
    assert code == 0
    assert "snippet supported" in out


def test_a_broken_snippet_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = scan(capsys, str(SAMPLES / "ko" / "notes.txt"))
    assert code == 1
    assert "snippet broken (repaired)" in out


def test_an_unreadable_file_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = scan(capsys, "--no-run", str(SAMPLES / "malformed" / "broken.po"))
    assert code == 1
    assert "broken.po:9: error: broken catalog" in out


@pytest.mark.parametrize(
    "args",
    [
        ["does/not/exist.md"],
        ["--format", "xml", "x.md"],
        ["--lang", "fr", "x.md"],
        ["--timeout", "0", "README.md"],
        [],
    ],
)
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    try:
        code = main(["scan", *args])
    except SystemExit as exc:  # argparse
        code = int(exc.code or 0)
    capsys.readouterr()
    assert code == 2


def test_json_document(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = scan(capsys, "--no-run", "--format", "json", str(SAMPLES / "en"))
    document = json.loads(out)
    assert set(document) == {"schema", "findings", "summary"}
    assert document["schema"] == "checker.scan/2"
    assert document["findings"]
    for finding in document["findings"]:
        assert set(finding) == FINDING_KEYS
        assert finding["kind"] in ("claim", "snippet")
        assert finding["verdict"] in SUMMARY_COUNTS
        assert isinstance(finding["line"], int)
    summary = document["summary"]
    assert set(summary) >= SUMMARY_COUNTS
    assert sum(summary[v] for v in SUMMARY_COUNTS) == len(document["findings"])
    assert summary["files-with-errors"] == 0 and summary["errors"] == []
    (contradicted,) = [
        f for f in document["findings"] if (Path(f["path"]).name, f["line"]) == ("snippets.md", 3)
    ]
    assert contradicted["kind"] == "claim"
    assert contradicted["verdict"] == "contradicted"
    assert contradicted["lang"] == "en"
    assert contradicted["claim"] == "saved-tensors/myth-disable-reduces-memory"
    assert contradicted["link"] == (
        "_build/html/en/topics/saved-tensors.html#claim-saved-tensors-myth-disable-reduces-memory"
    )
    assert "cpu: fails" in contradicted["evidence"]
    assert code == 1


def test_json_reports_unreadable_files(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = scan(capsys, "--no-run", "--format", "json", str(SAMPLES / "malformed"))
    summary = json.loads(out)["summary"]
    assert summary["files-with-errors"] == 3
    assert {"path": str(SAMPLES / "malformed" / "broken.po"), "line": 9} in [
        {"path": e["path"], "line": e["line"]} for e in summary["errors"]
    ]


def test_github_annotations(capsys: pytest.CaptureFixture[str]) -> None:
    path = SAMPLES / "en" / "snippets.md"
    code, out, _ = scan(capsys, "--format", "github", str(path))
    lines = out.splitlines()
    assert code == 1
    assert lines[-1].startswith("checker scan: ")
    heads = {line.split("::", 2)[1] for line in lines if line.startswith("::")}
    assert heads >= {
        f"error file={path},line=3,title=claim contradicted "
        "(saved-tensors/myth-disable-reduces-memory)",
        f"error file={path},line=42,title=snippet contradicted",
        f"error file={path},line=49,title=snippet broken",
        f"notice file={path},line=56,title=snippet needs-cuda",
    }
    assert not any("supported" in line for line in lines[:-1])


def test_no_run_judges_the_prose_only(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = scan(capsys, "--no-run", "--format", "json", str(SAMPLES / "en" / "snippets.md"))
    kinds = {f["kind"] for f in json.loads(out)["findings"]}
    assert kinds == {"claim"}
    assert "sandbox" not in out or json.loads(out)["summary"]["sandbox"] == {}


def test_lang_override(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(SAMPLES / "ja" / "memory.md")
    _, auto, _ = scan(capsys, "--no-run", "--format", "json", path)
    _, forced, _ = scan(capsys, "--no-run", "--format", "json", "--lang", "en", path)
    assert {f["lang"] for f in json.loads(auto)["findings"]} == {"ja"}
    forced_findings = json.loads(forced)["findings"]
    assert {f["lang"] for f in forced_findings} == {"en"}
    assert all("/en/" in f["link"] for f in forced_findings if f["link"])
