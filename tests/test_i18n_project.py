"""Our own catalogs pass the gate, and the gate's documentation covers every check."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from checker.i18n import Check, I18nResult, check
from checker.i18n.sources import build_templates, read_templates
from checker.project import i18n_options
from checker.text.languages import TRANSLATED
from checker.text.markdown import MYST_EXTENSIONS
from tests.helpers import ROOT
from tests.i18n_helpers import I18N


@pytest.fixture(scope="module")
def project() -> I18nResult:
    return check(i18n_options(ROOT))


def test_the_check_runs_completely_on_our_catalogs(project: I18nResult) -> None:
    assert [f.message for f in project.findings if f.check is Check.INTERNAL] == []
    assert project.catalogs > 0


def test_every_catalog_of_ours_is_well_formed(project: I18nResult) -> None:
    malformed = [f for f in project.findings if f.check.family == "malformed"]
    assert [f"{f.path}:{f.line}: {f.message}" for f in malformed] == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_page_is_translated_and_the_gate_passes(project: I18nResult, lang: str) -> None:
    """The project ships complete translations: every page of every language is translated,
    and not one finding (error or warning) is left for the gate to report."""
    assert [c.page for c in project.coverage if c.lang == lang and not c.complete] == []
    found = [f for f in project.findings if f.lang == lang]
    assert [f"{f.path}:{f.line}: [{f.check.value}] {f.message}" for f in found] == []


def test_the_project_gate_exits_zero(project: I18nResult) -> None:
    assert project.exit_code == 0


@pytest.mark.parametrize("document", ["CONTRIBUTING.md", "docs/reference/translating.md"])
def test_every_check_is_explained_to_translators(document: str) -> None:
    text = (ROOT / document).read_text(encoding="utf-8")
    assert [c.value for c in Check if f"`{c.value}` ({c.severity.value})" not in text] == []


def test_the_checker_parses_markdown_as_the_build_does() -> None:
    conf = runpy.run_path(str(ROOT / "conf.py"))
    assert set(conf["myst_enable_extensions"]) == MYST_EXTENSIONS


def test_the_sample_templates_are_what_the_gettext_builder_extracts(tmp_path: Path) -> None:
    problem = build_templates(I18N / "docs", I18N, tmp_path / "pot", tmp_path / "doctrees")
    assert problem is None
    built = read_templates(tmp_path / "pot").messages
    committed = read_templates(I18N / "templates").messages
    assert {page: sorted(m) for page, m in built.items()} == {
        page: sorted(m) for page, m in committed.items()
    }
