"""The text the extension generates: extracted from where it is written, looked up in the
page's language, and checked by the translation gate like any page."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker import registry
from checker.i18n import Check, check
from checker.i18n.extraction import write_template
from checker.i18n.generated import check_catalog
from checker.project import i18n_options
from checker.sphinx import messages
from checker.sphinx.generated_text import PAGE, THEME_PAGE, theme_messages
from checker.sphinx.generated_text import extension_messages as extract
from checker.sphinx.ui_text import LABELS, text
from checker.text.languages import TRANSLATED
from checker.text.po import read_catalog
from tests.helpers import ROOT, sample

FIXTURE = registry.load(["tests.fixtures.claims_generated"], package=None)
CATALOGS = sample("generated")


@pytest.fixture
def catalogs(monkeypatch: pytest.MonkeyPatch) -> Path:
    """The sample catalogs stand in for the extension's own."""
    monkeypatch.setattr(messages, "LOCALE_DIR", CATALOGS)
    return CATALOGS


def test_the_template_holds_labels_rules_and_reasons_from_their_source() -> None:
    extraction = extract(FIXTURE, ROOT)
    rules = [m for m in extraction.messages if m.comment == "decision rule"]
    assert [(m.msgid, m.locations) for m in rules] == [
        ("holds if x.sum() of 4 ones is 4", ("tests/fixtures/claims_generated.py:16",)),
        (
            "holds if {name} of a {SIDE} × {SIDE} tensor copies",
            ("tests/fixtures/claims_generated.py:25",),
        ),
    ]
    assert extraction.problems == (
        ("tests/fixtures/claims_generated.py", 32, "not a literal: ' '.join(words)"),
    )
    labels = [m for m in extraction.messages if m.comment == "label"]
    assert [(m.context, m.msgid) for m in labels] == list(LABELS.items())
    reasons = {m.msgid for m in extraction.messages if m.comment == "reason"}
    assert {"no NVIDIA driver on this machine", "only meaningful on {only}"} <= reasons
    assert "torch {torch_version()} is a CPU-only build" in reasons


def test_a_recorded_rule_no_probe_states_any_more_joins_the_template(tmp_path: Path) -> None:
    recorded = tmp_path / "cuda.json"
    recorded.write_text(
        '{"claims": {"generated/fstring": {"rule": "holds if gather of a 64 × 64 tensor '
        'copies"}, "generated/old": {"rule": "holds if an old rule"}}}',
        encoding="utf-8",
    )
    extraction = extract(FIXTURE, ROOT, (recorded,))
    stale = [m.msgid for m in extraction.messages if m.comment.startswith("decision rule of")]
    assert stale == ["holds if an old rule"]  # the f-string produces the other one


def test_the_template_is_a_pot_file(tmp_path: Path) -> None:
    pot = tmp_path / "checker.pot"
    write_template(extract(FIXTURE, ROOT), pot, "checker")
    written = pot.read_text(encoding="utf-8")
    assert (
        "#: tests/fixtures/claims_generated.py:25\n#, python-brace-format\n"
        'msgid "holds if {name} of a {SIDE}'
    ) in written
    assert 'msgctxt "rule"\nmsgid "Decision rule"' in written


def test_the_theme_labels_have_a_template_that_makes_and_updates_their_catalogs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``nox -s i18n`` writes the theme's template with ``--domain sphinx``, so a new
    language's ``sphinx.po`` is created with its pages' catalogs and a new theme label reaches
    every language's."""
    from checker.cli import main

    pot = tmp_path / "sphinx.pot"
    assert (
        main(["i18n", "--root", str(ROOT), "--domain", "sphinx", "--write-template", str(pot)]) == 0
    )
    written = {(m.msgctxt, m.msgid) for m in read_catalog(pot).active if m.msgid}
    assert written == {(m.context, m.msgid) for m in theme_messages().messages}
    assert len(written) > 30
    unknown = ["i18n", "--root", str(ROOT), "--domain", "nope", "--write-template", str(pot)]
    assert main(unknown) == 2
    assert "known: checker, sphinx, service" in capsys.readouterr().err


def test_a_rule_is_shown_in_the_page_language_with_the_values_it_was_given(
    catalogs: Path,
) -> None:
    measured = "holds if gather of a 64 × 64 tensor copies"
    assert (
        messages.translate_text("ja", measured) == "64 × 64 のテンソルの gather がコピーすれば成立"
    )
    # untranslated, fuzzy and unknown messages keep their English
    assert messages.translate_text("ja", "no NVIDIA driver on this machine") == (
        "no NVIDIA driver on this machine"
    )
    assert messages.translate_text("ja", "CUDA hidden by CHECKER_HIDE_CUDA") == (
        "CUDA hidden by CHECKER_HIDE_CUDA"
    )
    assert messages.translate_text("ko", measured) == measured  # no Korean catalog


def test_a_label_whose_translation_lost_its_placeholder_keeps_its_english(
    catalogs: Path,
) -> None:
    assert text("ja", "claim") == "主張"
    assert text("ja", "bytes", n=4) == "バイト"  # the gate reports the dropped {n}
    assert text("ja", "seconds", n=2) == "2 ms"  # no translation: English


def test_the_gate_judges_a_generated_catalog_like_a_page() -> None:
    path = CATALOGS / "ja" / "LC_MESSAGES" / "checker.po"
    findings, coverage = check_catalog(
        path, "checker.po", "ja", extract(FIXTURE, ROOT).messages, None, page=PAGE
    )
    assert [(f.line, f.check.value, f.message) for f in findings] == [
        (
            16,
            "substitution",
            "placeholders differ: drops {n}; keep every placeholder of the English",
        ),
        (19, "code-literal", "the English's code 'x.sum()' is missing; code is never translated"),
        (19, "number", "numbers differ: the English's 4, 4 missing; 5 not in the English"),
        (25, "untranslated", "not translated yet"),
        (27, "fuzzy", "marked fuzzy: check the translation against the changed English"),
        (
            31,
            "out-of-date",
            "the extension no longer generates this message: run 'nox -s i18n'",
        ),
        (
            1,
            "out-of-date",
            # the labels; the reasons of the harness the sample catalog lacks: a probe out of
            # time on a busy machine (checker.runner), a CPU-only torch (checker.devices), and
            # the six reasons of checker/pool.py a job may fail with (a jailed fork server's
            # timeout among them)
            f"{len(LABELS) + 8} generated message(s) missing from the catalog (first: "
            "'Myth'): run 'nox -s i18n'",
        ),
    ]
    assert {f.page for f in findings} == {PAGE}
    assert (coverage.translated, coverage.fuzzy) == (4, 1)


def test_a_missing_generated_catalog_is_a_finding(tmp_path: Path) -> None:
    findings, coverage = check_catalog(
        tmp_path / "checker.po",
        "checker.po",
        "ko",
        extract(FIXTURE, ROOT).messages,
        None,
        page=PAGE,
    )
    assert [f.check for f in findings] == [Check.MISSING_CATALOG]
    assert not coverage.has_catalog


def test_every_theme_label_is_in_the_template() -> None:
    labels = {m.msgid for m in theme_messages().messages}
    assert {"Collapse Sidebar", "Expand Sidebar", "Color mode", "On this page"} <= labels


def test_the_project_translates_every_generated_message_and_theme_label() -> None:
    result = check(i18n_options(ROOT, build_templates=False))
    pages = {(c.lang, c.page): c for c in result.coverage}
    for lang in TRANSLATED:
        for page in (PAGE, THEME_PAGE):
            assert pages[lang, page].complete, (lang, page)
    generated = [f for f in result.findings if f.page in (PAGE, THEME_PAGE)]
    assert [f"{f.path}:{f.line}: {f.message}" for f in generated] == []
