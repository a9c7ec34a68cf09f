"""The doctest plugin: per-device runs, visible skips, failures with page, line, device."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import torch

from checker.doctest.cuda_record import snippet_digest
from checker.text.pages import parse_page
from tests.helpers import sample

pytest_plugins = ["pytester"]


def run(
    pytester: pytest.Pytester, *pages: str, args: tuple[str, ...] = ()
) -> tuple[pytest.RunResult, dict[str, dict[str, int]]]:
    docs = pytester.path / "docs"
    docs.mkdir()
    for name in pages:
        shutil.copy(sample("pages", name), docs / name)
    return _run_docs(pytester, "--continue-on-collection-errors", *args)


def _run_docs(pytester: pytest.Pytester, *args: str) -> tuple[pytest.RunResult, dict[str, Any]]:
    """The plugin on ``docs/`` of ``pytester``'s folder: the run and its summary."""
    summary = pytester.path / "summary.json"
    result = pytester.runpytest_subprocess(
        "-p",
        "checker.doctest.plugin",
        "-p",
        "no:cacheprovider",
        "-c",
        "/dev/null",
        "--rootdir",
        str(pytester.path),
        "--doc-summary",
        str(summary),
        *args,
        str(pytester.path / "docs"),
    )
    return result, json.loads(summary.read_text()) if summary.exists() else {}


def test_device_aware_page_runs_per_device_and_cuda_is_skipped_with_reason(
    pytester: pytest.Pytester,
) -> None:
    result, summary = run(pytester, "device_aware.md", "plain.md")
    result.assert_outcomes(passed=5, skipped=6)
    assert summary["cpu"]["passed"] == 5
    assert summary["cpu"]["skip_reasons"] == {"CUDA only: only a GPU has a caching allocator": 1}
    assert summary["cuda"]["skipped"] == 5  # device_aware.md's five snippets, visibly
    [reason] = summary["cuda"]["skip_reasons"]
    assert reason.startswith("CUDA run skipped: ")
    result.stdout.fnmatch_lines(["*snippets per device*", " cuda: 0 passed, 0 failed, 5 skipped"])


def test_wrong_output_fails_with_page_line_device_and_difference(pytester: pytest.Pytester) -> None:
    result, summary = run(pytester, "wrong_output.md", args=("--doc-device", "cpu"))
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*docs/wrong_output.md:3 [[]device: cpu[]]",
            "*line 5*",
            "Expected:",
            "    tensor(3.)",
            "Got:",
            "    tensor(2.)",
        ]
    )
    assert summary["cpu"]["failed"] == 1


def test_an_exception_instead_of_output_fails(pytester: pytest.Pytester) -> None:
    result, _ = run(pytester, "raises.md", args=("--doc-device", "cpu"))
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*RuntimeError: shape '[[]3[]]' is invalid*"])


def test_float_output_tolerates_print_rounding(pytester: pytest.Pytester) -> None:
    result, _ = run(pytester, "float_output.md", args=("--doc-device", "cpu"))
    result.assert_outcomes(passed=1)


def test_requesting_cuda_where_it_is_absent_fails_instead_of_skipping(
    pytester: pytest.Pytester,
) -> None:
    result, _ = run(pytester, "wrong_output.md", args=("--doc-device", "cuda"))
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*--doc-device cuda was requested, but *"])


def test_a_broken_page_is_a_collection_error_naming_file_and_line(
    pytester: pytest.Pytester,
) -> None:
    result, _ = run(pytester, "python_fence.md", "plain.md")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*docs/python_fence.md:3: Python code in a 'python' fence*"])


def test_pages_under_underscore_directories_are_not_collected(pytester: pytest.Pytester) -> None:
    hidden = pytester.path / "docs" / "_templates"
    hidden.mkdir(parents=True)
    shutil.copy(sample("pages", "wrong_output.md"), Path(hidden, "page.md"))
    result = pytester.runpytest_subprocess(
        "-p",
        "checker.doctest.plugin",
        "-p",
        "no:cacheprovider",
        "-c",
        "/dev/null",
        "--rootdir",
        str(pytester.path),
        str(pytester.path / "docs"),
    )
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_a_recorded_run_says_where_and_when_it_ran(pytester: pytest.Pytester) -> None:
    record = pytester.path / "record.json"
    _, summary = run(pytester, "device_aware.md", args=("--doc-record", str(record)))
    data = json.loads(record.read_text())
    assert data["snippets"] == summary
    assert data["torch"] == torch.__version__
    gpu = torch.cuda.is_available()
    assert data["device_name"] == (torch.cuda.get_device_name(0) if gpu else "no CUDA device")
    assert data["measured_at"].startswith("20")
    # the snippets that passed on CUDA, by digest: none where CUDA cannot run
    page = parse_page(pytester.path / "docs" / "device_aware.md")
    digests = sorted({snippet_digest("device_aware.md", s) for s in page.snippets})
    assert data["ran"] == ({"device_aware.md": digests} if gpu else {})


def test_only_pages_changed_since_their_last_passing_run_run_again(
    pytester: pytest.Pytester,
) -> None:
    pages = pytester.path / "pages.json"
    unchanged = ("--doc-device", "cpu", "--doc-unchanged", str(pages))
    result, summary = run(pytester, "plain.md", "wrong_output.md", args=unchanged)
    result.assert_outcomes(passed=1, failed=1)
    # Second run: plain.md is reused; wrong_output.md failed last time, so it runs again.
    result, summary = _run_docs(pytester, *unchanged)
    result.assert_outcomes(failed=1)
    assert summary["cpu"] == {
        "passed": 1,
        "failed": 1,
        "skipped": 0,
        "skip_reasons": {},
        "reused": 1,
    }
    result.stdout.fnmatch_lines(["  cpu: 1 passed, 1 failed, 0 skipped (1 of them reused: *"])
    # An edit to plain.md runs it again; a run narrowed by -k records nothing it did not run.
    plain = pytester.path / "docs" / "plain.md"
    plain.write_text(plain.read_text(encoding="utf-8") + "\nMore prose.\n", encoding="utf-8")
    result, summary = _run_docs(pytester, *unchanged, "-k", "plain")
    result.assert_outcomes(passed=1)
    assert "reused" not in summary["cpu"]
    recorded = json.loads(pages.read_text(encoding="utf-8"))
    assert [Path(p).name for p in recorded] == ["plain.md"]
    # Everything unchanged and passing: nothing runs, the run succeeds with the counts.
    (pytester.path / "docs" / "wrong_output.md").unlink()
    result, summary = _run_docs(pytester, *unchanged)
    assert result.ret == 0
    assert summary["cpu"]["passed"] == summary["cpu"]["reused"] == 1


def test_a_recorded_run_reuses_nothing(pytester: pytest.Pytester) -> None:
    pages = pytester.path / "pages.json"
    unchanged = ("--doc-device", "cpu", "--doc-unchanged", str(pages))
    run(pytester, "plain.md", args=unchanged)
    record = pytester.path / "record.json"
    result, summary = _run_docs(pytester, *unchanged, "--doc-record", str(record))
    result.assert_outcomes(passed=1)
    assert "reused" not in summary["cpu"]
