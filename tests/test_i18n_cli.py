"""``python -m checker i18n``: exit codes, and the text, JSON and GitHub outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checker.cli import main
from tests.i18n_helpers import I18N, SAMPLE_LANGS, sample_locales


def run(capsys: pytest.CaptureFixture[str], locales: Path, *args: str) -> tuple[int, str]:
    code = main(
        [
            "i18n",
            "--root",
            str(locales.parent),
            "--docs",
            str(I18N / "docs"),
            "--templates",
            str(I18N / "templates"),
            "--claims-module",
            "tests.fixtures.claims_i18n",
            "--no-approvals",  # the samples keep no reviewed list of claim translations
            *args,
            # the samples' languages unless the test names one
            *(a for lang in SAMPLE_LANGS if "--lang" not in args for a in ("--lang", lang)),
        ]
    )
    return code, capsys.readouterr().out


def test_clean_catalogs_exit_0_with_full_coverage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(capsys, sample_locales(tmp_path))
    assert code == 0
    assert "  ja: 100% (10/10 messages, 2/2 pages complete, 0 errors, 0 warnings)" in out
    assert out.endswith(
        "checker i18n: 0 errors, 0 warnings in 4 catalogs (ja, ko); "
        f"templates: {I18N / 'templates'}\n"
    )


def test_text_groups_findings_by_page_with_the_english_next_to_the_translation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    locales = sample_locales(tmp_path, {"ja/guide": "flipped-claim.ja.po"})
    code, out = run(capsys, locales, "--lang", "ja")
    assert code == 1
    assert out.splitlines()[:4] == [
        "locales/ja/LC_MESSAGES/guide.po  (ja, docs/guide.md)",
        "  21: error [claim-negation] claim sample/hooks-do-not-reduce-memory: the English "
        "statement denies it, the translation asserts it (no negation found)",
        "      en: Running code inside `disable_saved_tensors_hooks` does not reduce the memory "
        "that autograd saves.",
        "      ja: `disable_saved_tensors_hooks` の中でコードを実行しても、autograd が保存する"
        "メモリが削減されます。",
    ]
    assert "ko:" not in out


def test_warnings_alone_exit_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    locales = sample_locales(tmp_path, {"ja/guide": "glossary-violation.ja.po"})
    code, out = run(capsys, locales)
    assert code == 0
    assert "0 errors, 1 warnings" in out


def test_json_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    locales = sample_locales(tmp_path, {"ko/guide": "img-onerror.ko.po", "ja/index": None})
    code, out = run(capsys, locales, "--format", "json")
    assert code == 1
    document = json.loads(out)
    assert document["schema"] == "checker.i18n/1"
    assert document["summary"] == {"errors": 2, "warnings": 0}
    assert document["languages"]["ja"]["pages"]["index"] == {
        "translated": 0,
        "total": 3,
        "fuzzy": 0,
        "catalog": False,
        "complete": False,
    }
    assert [
        (f["path"], f["line"], f["check"], f["family"], f["severity"]) for f in document["findings"]
    ] == [
        ("locales/ja/LC_MESSAGES/index.po", 1, "missing-catalog", "completeness", "error"),
        ("locales/ko/LC_MESSAGES/guide.po", 44, "html", "security", "error"),
    ]


def test_github_annotations_sit_on_the_po_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    locales = sample_locales(tmp_path, {"ko/guide": "flipped-claim.ko.po"})
    json_file = tmp_path / "out" / "i18n.json"
    code, out = run(capsys, locales, "--format", "github", "--json-file", str(json_file))
    assert code == 1
    first, last = out.splitlines()
    assert first.startswith(
        "::error file=locales/ko/LC_MESSAGES/guide.po,line=21,title=translation claim-negation::"
        "claim sample/hooks-do-not-reduce-memory: the English statement denies it"
    )
    assert "%0AEnglish: Running code inside" in first
    assert last == "checker i18n: 1 errors, 0 warnings; coverage ja 100%, ko 100%"
    assert json.loads(json_file.read_text(encoding="utf-8"))["summary"]["errors"] == 1


def test_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["i18n", "--locales", str(tmp_path / "nope")]) == 2
    assert "--locales" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["i18n", "--lang", "fr"])
    assert exc.value.code == 2


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('[[term]]\nen = "x"\nja = [\n', 3),  # TOML error at the end of the file
        ('[[term]]\nen = "x"\nja = "y" "z"\n', 3),  # TOML error on a line
        ('[[term]]\nen = "x"\n\n[[term]]\nja = "y"\n', 4),  # a term without en
        ('[[term]]\nen = "x"\navoid = { fr = ["y"] }\n', 1),  # an unknown language
    ],
)
def test_a_broken_glossary_is_one_finding_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, line: int
) -> None:
    locales = sample_locales(tmp_path)
    (locales / "glossary.toml").write_text(text, encoding="utf-8")
    code, out = run(capsys, locales, "--format", "json")
    [finding] = json.loads(out)["findings"]
    assert (code, finding["path"], finding["line"], finding["check"]) == (
        1,
        "locales/glossary.toml",
        line,
        "glossary-file",
    )


def test_a_missing_glossary_is_one_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    locales = sample_locales(tmp_path)
    (locales / "glossary.toml").unlink()
    code, out = run(capsys, locales, "--format", "json")
    [finding] = json.loads(out)["findings"]
    assert (code, finding["check"], finding["message"]) == (
        1,
        "glossary-file",
        "the glossary file does not exist",
    )
