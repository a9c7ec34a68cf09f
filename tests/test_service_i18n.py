"""The service's own pages in en, ja and ko: every message of the templates (the gettext
domain ``service``) is in the ja and ko catalogs, translated, and passes the translation
gate's checks of generated text (placeholders, code words, numbers, markup, glossary); a
page rendered in ja or ko shows the translations."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from checker.i18n.run import I18nOptions, check
from checker.service import ui
from checker.service.app import create_app
from checker.service.queue import Queue
from checker.service.ui import SERVICE_PAGE
from checker.text.languages import TRANSLATED
from tests.helpers import ROOT
from tests.service_helpers import config

MESSAGES = ui.generated_catalog().extract((), ROOT, ()).messages


def test_the_templates_have_the_messages_of_every_page() -> None:
    ids = {m.msgid for m in MESSAGES}
    assert len({m.key for m in MESSAGES}) == len(ids) == 249
    assert {"Check an article", "Check a translation", "Claims and verdicts"} <= ids
    # the messages of the translation gate and the scanner, which a findings page shows
    where = [m.locations[0].split("/")[1] for m in MESSAGES]
    assert (where.count("i18n"), where.count("scan")) == (54, 89)
    assert "numbers differ: {parts}" in ids
    # a snippet finding's evidence; a verdict's word is the badge's too
    assert "line {line}: the article shows {shown}, the run printed {got}" in ids
    assert (
        "checker/scan/snippet_said.py"
        in next(m for m in MESSAGES if m.msgid == "broken").locations[0]
    )


def test_the_gate_checks_the_service_catalogs_and_they_pass() -> None:
    options = I18nOptions.project(ROOT, build_templates=False)
    result = check(dataclasses.replace(options, generated=(ui.generated_catalog(),)))
    coverage = {c.lang: c for c in result.coverage if c.page == SERVICE_PAGE}
    for lang in TRANSLATED:
        assert (coverage[lang].translated, coverage[lang].total, coverage[lang].fuzzy) == (
            249,
            249,
            0,
        )
    assert [f for f in result.findings if f.page == SERVICE_PAGE] == []


def test_the_gate_reports_a_broken_service_translation(tmp_path: Path) -> None:
    broken = tmp_path / "ja" / "LC_MESSAGES" / "service.po"
    broken.parent.mkdir(parents=True)
    text = ui.catalog_path("ja").read_text(encoding="utf-8")
    broken.write_text(
        text.replace('msgstr "%(name)s としてサインイン中"', 'msgstr "<b>サインイン中</b>"'),
        encoding="utf-8",
    )
    result = check(
        I18nOptions.project(
            ROOT,
            build_templates=False,
            generated=(ui.generated_catalog(tmp_path),),
            langs=("ja",),
        )
    )
    found = sorted(f.check.value for f in result.findings if f.page == SERVICE_PAGE)
    assert found == ["html", "substitution"]


@pytest.mark.parametrize(
    ("lang", "heading", "button"), [("ja", "記事をチェック", "チェック"), ("ko", "글 검사", "검사")]
)
def test_a_page_is_rendered_in_the_chosen_language(
    tmp_path: Path, lang: str, heading: str, button: str
) -> None:
    client = TestClient(create_app(config(tmp_path), Queue(config(tmp_path))))
    html = client.get(f"/?ui={lang}").text
    assert f'<html lang="{lang}">' in html
    assert f"<h1>{heading}</h1>" in html
    assert f'id="submit-article">{button}</button>' in html
    assert client.cookies.get("checker_ui") == lang
    assert f"<h1>{heading}</h1>" in client.get("/").text  # kept in the cookie
    assert "<h1>Check a translation</h1>" in client.get("/translate?ui=en").text
    assert "<h1>Check an article</h1>" in client.get("/").text


def test_a_queued_check_shows_its_progress_in_the_pages_language(tmp_path: Path) -> None:
    client = TestClient(create_app(config(tmp_path), Queue(config(tmp_path))))  # no worker
    job = client.post("/api/scan", data={"text": "Views share storage."}).json()
    page = client.get(f"/results/{job['id']}?ui=ja").text
    assert '<span id="progress-stage">キューで待機中</span>' in page
    # a prose-only check runs no snippets: no "0 / 0", its place in the line instead
    assert '<span id="progress-count" hidden>0 / 0</span>' in page
    assert '<span id="progress-position" data-label="待ち順">待ち順: 1</span>' in page
    assert 'data-stage-running="コード例を実行中"' in page
    assert '<script src="/static/progress.js"></script>' in page


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "no check &#39;nope&#39; (unknown or expired)"),
        ("ja", "チェック &#39;nope&#39; はありません（不明か、期限切れです）"),
        ("ko", "&#39;nope&#39; 검사가 없습니다(알 수 없거나 만료되었습니다)"),
    ],
)
def test_a_refusal_is_shown_in_the_pages_language_and_the_api_keeps_english(
    tmp_path: Path, lang: str, expected: str
) -> None:
    client = TestClient(create_app(config(tmp_path), Queue(config(tmp_path))))
    page = client.get(f"/results/nope?ui={lang}")
    assert page.status_code == 404
    assert f'<p class="failed" id="error-message">{expected}</p>' in page.text
    api = client.get("/api/jobs/nope", headers={"Accept-Language": lang})
    assert api.json() == {"error": "no check 'nope' (unknown or expired)", "status": 404}


def test_every_refusal_of_the_service_is_a_message_with_its_fields() -> None:
    """Each ``Refused(...)`` sentence is a literal template (ui.refusals raises otherwise),
    in the catalogs, and its translations keep its fields (the gate checks them too)."""
    found = list(ui.refusals())
    assert len({template for _, _, template in found}) == 33
    for lang in TRANSLATED:
        translations = ui.translations(lang)
        for path, line, template in found:
            translated = translations.gettext(template)
            assert translated != template, (lang, f"{path.name}:{line}")
            assert sorted(re.findall(r"\{(\w+)\}", translated)) == sorted(
                re.findall(r"\{(\w+)\}", template)
            ), (lang, template)
