"""The doctest plugin: per-device runs, visible skips, failures with page, line, device."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import torch

from tests.helpers import sample

pytest_plugins = ["pytester"]


def run(
    pytester: pytest.Pytester, *pages: str, args: tuple[str, ...] = ()
) -> tuple[pytest.RunResult, dict[str, dict[str, int]]]:
    docs = pytester.path / "docs"
    docs.mkdir()
    for name in pages:
        shutil.copy(sample("pages", name), docs / name)
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
        "--continue-on-collection-errors",
        "--doc-summary",
        str(summary),
        *args,
        str(docs),
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
