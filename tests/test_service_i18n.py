"""The service's own pages in en, ja and ko: every message of the templates (the gettext
domain ``service``) is in the ja and ko catalogs, translated, and passes the translation
gate's checks of generated text (placeholders, code words, numbers, markup, glossary); a
page rendered in ja or ko shows the translations."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from checker.i18n.generated import GeneratedMessage, check_catalog
from checker.i18n.glossary import load_glossary
from checker.service import ui
from checker.service.app import create_app
from checker.service.queue import Queue
from tests.helpers import ROOT
from tests.service_helpers import config

MESSAGES = tuple(
    dict.fromkeys(
        GeneratedMessage(msgid, context, (f"templates:{line}",), "service page")
        for line, msgid, context in ui.messages()
    )
)


def test_the_templates_have_the_messages_of_every_page() -> None:
    ids = {m.msgid for m in MESSAGES}
    assert len({m.key for m in MESSAGES}) == len(ids) == 56
    assert {"Check an article", "Check a translation", "Claims and verdicts"} <= ids


@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_each_catalog_is_complete_and_passes_the_gate(lang: str) -> None:
    path = ui.catalog_path(lang)
    by_key = {m.key: m for m in MESSAGES}
    findings, coverage = check_catalog(
        path,
        path.relative_to(ROOT).as_posix(),
        lang,  # type: ignore[arg-type]
        tuple(by_key.values()),
        load_glossary(ROOT / "locales" / "glossary.toml"),
        page="(service pages)",
    )
    assert [(f.line, f.check.value, f.message) for f in findings] == []
    assert (coverage.translated, coverage.total, coverage.fuzzy) == (56, 56, 0)


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
