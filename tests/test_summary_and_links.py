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


def test_summary_fails_when_a_build_or_a_snippet_failed(tmp_path: Path) -> None:
    (tmp_path / "docs-en.json").write_text(
        json.dumps(
            {
                "lang": "en",
                "ok": False,
                "pages": 4,
                "expected_pages": 5,
                "warnings": 2,
                "index": "x",
            }
        )
    )
    text, ok = render(tmp_path, tmp_path / "locales")
    assert not ok
    assert "pages  en: 4/5 built, 2 warnings, FAILED" in text
    assert "snippets: the doctest session did not run" in text
