"""The end-of-run summary and the language switcher's links."""

from __future__ import annotations

import json
from pathlib import Path

from checker.sphinx.languages import language_url
from checker.summary import coverage, render


def test_language_links_are_relative_locally_and_absolute_when_published() -> None:
    assert language_url("", "ja", "index") == "../ja/index.html"
    assert language_url("", "ko", "topics/amp") == "../../ko/topics/amp.html"
    assert language_url("https://docs.example.org/torch/", "ko", "topics/amp") == (
        "https://docs.example.org/torch/ko/topics/amp.html"
    )


def test_summary_reports_pages_snippets_and_coverage(tmp_path: Path) -> None:
    summary, locales = tmp_path / "summary", tmp_path / "locales"
    summary.mkdir()
    (summary / "docs-ja.json").write_text(
        json.dumps(
            {
                "lang": "ja",
                "ok": True,
                "pages": 5,
                "expected_pages": 5,
                "warnings": 0,
                "index": "_build/html/ja/index.html",
            }
        )
    )
    (summary / "doctest.json").write_text(
        json.dumps(
            {
                "cpu": {
                    "passed": 9,
                    "failed": 0,
                    "skipped": 1,
                    "skip_reasons": {"CUDA only: x": 1},
                },
                "cuda": {
                    "passed": 0,
                    "failed": 0,
                    "skipped": 10,
                    "skip_reasons": {"CUDA run skipped: no GPU": 10},
                },
            }
        )
    )
    catalogs = locales / "ja" / "LC_MESSAGES"
    catalogs.mkdir(parents=True)
    (catalogs / "index.po").write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "a"\nmsgstr "あ"\n\n#, fuzzy\nmsgid "b"\nmsgstr "い"\n\nmsgid "c"\nmsgstr ""\n',
        encoding="utf-8",
    )
    text, ok = render(summary, locales)
    assert ok
    assert "pages  ja: 5/5 built, 0 warnings, ok -> _build/html/ja/index.html" in text
    assert "snippets cpu: 9 passed, 0 failed, 1 skipped" in text
    assert "    10 skipped: CUDA run skipped: no GPU" in text
    assert "translation ja: 33% (1/3 entries in 1 catalogs, 1 fuzzy)" in text
    assert coverage(locales, "ko").total == 0
    assert "last recorded CUDA run" not in text
    assert "generated text" not in text


def test_summary_counts_the_generated_text_catalogs(tmp_path: Path) -> None:
    generated = tmp_path / "extension" / "ja" / "LC_MESSAGES"
    generated.mkdir(parents=True)
    (generated / "checker.po").write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgctxt "claim"\nmsgid "Claim"\nmsgstr "主張"\n\nmsgid "holds if x"\nmsgstr ""\n',
        encoding="utf-8",
    )
    (tmp_path / "summary").mkdir()
    text, _ = render(tmp_path / "summary", tmp_path / "locales", None, tmp_path / "extension")
    assert (
        "    generated text and theme labels: 50% (1/2 entries, 0 fuzzy)"
        in text.split("translation ko")[0]
    )


def test_summary_shows_the_recorded_cuda_run_when_cuda_ran_nowhere(tmp_path: Path) -> None:
    (tmp_path / "doctest.json").write_text(
        json.dumps(
            {
                "cuda": {
                    "passed": 0,
                    "failed": 0,
                    "skipped": 3,
                    "skip_reasons": {"CUDA run skipped: no GPU": 3},
                }
            }
        )
    )
    record = tmp_path / "doctest-cuda.json"
    record.write_text(
        json.dumps(
            {
                "device_name": "NVIDIA H100 80GB HBM3",
                "torch": "2.11.0+cu130",
                "measured_at": "2026-11-22T21:55:00+00:00",
                "snippets": {"cuda": {"passed": 3, "failed": 0, "skipped": 0}},
            }
        )
    )
    text, ok = render(tmp_path, tmp_path / "locales", record)
    assert ok
    assert (
        "    last recorded CUDA run (doctest-cuda.json): 3 passed, 0 failed, 0 skipped on "
        "NVIDIA H100 80GB HBM3, torch 2.11.0+cu130, 2026-11-22"
    ) in text
    assert "written since that run" not in text


def test_summary_counts_the_snippets_newer_than_the_recorded_cuda_run(tmp_path: Path) -> None:
    skipped = {"passed": 0, "failed": 0, "skipped": 5, "skip_reasons": {"no GPU": 5}}
    (tmp_path / "doctest.json").write_text(json.dumps({"cuda": skipped}))
    record = tmp_path / "doctest-cuda.json"
    record.write_text(
        json.dumps(
            {
                "device_name": "NVIDIA H100 80GB HBM3",
                "torch": "2.11.0+cu130",
                "measured_at": "2026-11-22T21:55:00+00:00",
                "snippets": {"cuda": {"passed": 3, "failed": 0, "skipped": 0}},
            }
        )
    )
    text, _ = render(tmp_path, tmp_path / "locales", record)
    assert "    2 device-aware snippets written since that run have not run on CUDA" in text


#: Device-aware snippets written since the last GPU run (doctest-cuda.json, 2026-11-27, an
#: H200), per page: they ran on the CPU only, and the pages mark each of them. A session that
#: adds device-aware examples without a GPU declares them here; the next run on a GPU machine
#: records them and empties this.
AWAITING_GPU_RUN: dict[str, int] = {}


def test_the_committed_cuda_record_matches_the_pages() -> None:
    """The recorded CUDA run is evidence, not decoration: it names a GPU, every snippet it
    counts as passed is named by digest, and the device-aware snippets it does not name are
    exactly those awaiting a GPU run (a page that gained examples needs a new GPU run, or its
    new snippets declared in ``AWAITING_GPU_RUN``)."""
    from checker.doctest import cuda_record
    from checker.text.pages import parse_page
    from tests.test_doc_examples import EXPECTED

    docs = Path(__file__).parent.parent / "docs"
    record = cuda_record.load(docs / "_evidence" / "doctest-cuda.json")
    assert record is not None
    assert record.failed == 0
    assert record.device_name.startswith("NVIDIA")
    assert sum(len(digests) for digests in record.ran.values()) == record.passed
    pending = {
        page: len(cuda_record.not_run_on_cuda(parse_page(docs / page), record)) for page in EXPECTED
    }
    assert {page: n for page, n in pending.items() if n} == AWAITING_GPU_RUN
    device_aware = sum(snippets for snippets, _, aware in EXPECTED.values() if aware)
    assert record.passed + record.skipped == device_aware - sum(AWAITING_GPU_RUN.values())


def test_an_edited_snippet_is_no_longer_counted_as_run_on_cuda(tmp_path: Path) -> None:
    from checker.doctest import cuda_record
    from checker.text.pages import parse_page

    page = tmp_path / "docs" / "topics" / "p.md"
    page.parent.mkdir(parents=True)
    page.write_text("```pycon\n>>> device\n'cpu'\n```\n\n```pycon\n>>> 1 + 1\n2\n```\n")
    snippets = parse_page(page).snippets
    record = tmp_path / "doctest-cuda.json"
    record.write_text(
        json.dumps(
            {
                "device_name": "NVIDIA H100 80GB HBM3",
                "torch": "2.11.0+cu130",
                "measured_at": "2026-11-22T21:55:00+00:00",
                "snippets": {"cuda": {"passed": 2, "failed": 0, "skipped": 0}},
                "ran": {
                    "topics/p.md": [cuda_record.snippet_digest("topics/p.md", s) for s in snippets]
                },
            }
        )
    )
    loaded = cuda_record.load(record)
    assert cuda_record.not_run_on_cuda(parse_page(page), loaded) == []
    page.write_text(page.read_text().replace("1 + 1\n2", "2 + 2\n4"))
    assert [s.lineno for s in cuda_record.not_run_on_cuda(parse_page(page), loaded)] == [6]
    assert len(cuda_record.not_run_on_cuda(parse_page(page), None)) == 2


def test_an_unreadable_cuda_record_names_its_file(tmp_path: Path) -> None:
    import pytest

    from checker.doctest import cuda_record

    record = tmp_path / "doctest-cuda.json"
    record.write_text('{"device_name": "x"')
    with pytest.raises(cuda_record.CudaRecordError, match=r"doctest-cuda\.json"):
        cuda_record.load(record)
