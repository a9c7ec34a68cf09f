"""The service's pages in a real headless Chromium (selenium, the system's chromedriver), on
``python -m checker serve`` started on loopback: submit a corpus article and see its findings
beside its lines; submit a catalog with an injected ``<script>`` and see it refused (shown as
text, never run); a finding's measured evidence in en, ja and ko, values with their units as
the docs write them; the claims index; a queued check's place in the line and an unknown
address as pages in en, ja and ko; the API reference under the pages' content security
policy. Screenshots go to ``_build/screenshots/service/`` (a CI
artifact, as for tests/test_browser.py). Skipped only where Chromium or its driver is absent
(Debian: ``apt-get install chromium chromium-driver``)."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from checker import registry
from checker.service.ui import translations
from checker.text.languages import LANGS, TRANSLATED
from tests.chromium import headless_chromium, needs_chromium
from tests.helpers import ROOT, sample
from tests.service_helpers import RunningService, config

SCREENSHOTS = ROOT / "_build" / "screenshots" / "service"
ARTICLE = ROOT / "tests" / "corpus" / "en" / "01-views-basics.md"
INJECTED = sample("i18n", "injected", "index.po")
WAIT_S = 60

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningService]:
    with RunningService(config(tmp_path_factory.mktemp("browser-service"))) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with headless_chromium(ROOT / "_build" / "chromium-profile-service", "en") as driver:
        yield driver


def _wait(driver: Any, selector: str) -> Any:
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT_S).until(
        expected_conditions.visibility_of_element_located(("css selector", selector))
    )


def _screenshot(driver: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def _no_alert(driver: Any) -> None:
    from selenium.common.exceptions import NoAlertPresentException

    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert.text  # noqa: B018 (reading it is the check)


def test_an_article_submitted_in_the_browser_shows_its_findings(
    service: RunningService, browser: Any
) -> None:
    browser.get(service.url + "/")
    browser.find_element("id", "file").send_keys(str(ARTICLE))
    _screenshot(browser, "article-form")
    browser.find_element("id", "submit-article").click()
    table = _wait(browser, "#findings")
    findings = table.find_elements("css selector", ".finding")
    assert len(findings) == 9
    verdicts = [f.get_attribute("data-verdict") for f in findings]
    assert verdicts.count("contradicted") == 1
    contradicted = next(f for f in findings if f.get_attribute("data-verdict") == "contradicted")
    assert contradicted.find_element("css selector", ".badge").text == "contradicted"
    link = contradicted.find_element("css selector", "a").get_attribute("href")
    assert "/docs/en/" in link and "#claim-" in link
    row = contradicted.find_element("xpath", "./ancestor::tr")
    line = int(row.find_element("css selector", "td.num").text)
    assert row.find_element("css selector", "td.text").text == (
        ARTICLE.read_text(encoding="utf-8").split("\n")[line - 1].strip()
    )
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", contradicted)
    _screenshot(browser, "article-result")
    job_id = browser.current_url.rsplit("/", 1)[1]
    result = json.loads(
        browser.execute_script(
            "const r = await fetch('/api/scan/' + arguments[0]); return await r.text();", job_id
        )
    )
    assert len(result["findings"]) == 9


def test_a_catalog_with_an_injected_script_is_refused(
    service: RunningService, browser: Any
) -> None:
    browser.get(service.url + "/translate")
    browser.find_element("css selector", "#lang option[value='ja']").click()
    browser.find_element("id", "file").send_keys(str(INJECTED))
    browser.find_element("id", "submit-translation").click()
    verdict = _wait(browser, "#verdict")
    assert "refused" in verdict.get_attribute("class")
    assert verdict.text == "Refused: 10 errors must be fixed."
    _no_alert(browser)
    shown = [p.text for p in browser.find_elements("css selector", "pre.msgstr")]
    assert "フィクスチャ <script>alert(1)</script>" in shown
    assert browser.find_elements("css selector", "td.text script") == []
    html_findings = browser.find_elements("css selector", ".finding[data-verdict='error']")
    assert len(html_findings) == 10
    browser.execute_script("window.scrollTo(0, 0)")
    _screenshot(browser, "translation-refused")


#: A Japanese article stating a myth whose probe measures bytes.
MEASURED_ARTICLE = (
    "# メモ\n\n`torch.autograd.graph.disable_saved_tensors_hooks` の中でモデルを実行すると、"
    "autograd のメモリ使用量が削減されます。\n"
)
#: A byte count as each language's docs write it.
BYTE_COUNT = {
    "en": r"\d{1,3}(?:,\d{3})+ bytes",
    "ja": r"\d{1,3}(?:,\d{3})+ バイト",
    "ko": r"\d{1,3}(?:,\d{3})+바이트",
}


def test_a_findings_evidence_reads_as_the_docs_in_each_language(
    service: RunningService, browser: Any, tmp_path: Path
) -> None:
    article = tmp_path / "memo.md"
    article.write_text(MEASURED_ARTICLE, encoding="utf-8")
    browser.get(service.url + "/?ui=en")
    browser.find_element("id", "file").send_keys(str(article))
    browser.find_element("id", "submit-article").click()
    _wait(browser, "#findings")
    address = browser.current_url.split("?")[0]
    for lang in LANGS:
        browser.get(f"{address}?ui={lang}")
        evidence = _wait(browser, ".claim-evidence")
        shown = evidence.text
        assert len(re.findall(BYTE_COUNT[lang], shown)) == 8, shown
        assert "st-held-disable=" not in shown
        keys = [c.text for c in evidence.find_elements("css selector", "li code")]
        assert keys[:2] == ["st-held-disable", "st-peak-disable"]
        if lang != "en":
            assert "The sentence" not in shown and "holds if" not in shown
        browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", evidence)
        _screenshot(browser, f"evidence-{lang}")
    browser.get(service.url + "/?ui=en")


def test_the_claims_index_lists_every_claim_with_its_devices(
    service: RunningService, browser: Any
) -> None:
    browser.get(service.url + "/claims")
    rows = _wait(browser, "#claims").find_elements("css selector", "tbody tr")
    assert len(rows) == len(registry.load().claims)
    assert "CPU, torch" in rows[0].text
    _screenshot(browser, "claims")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_pages_speak_the_chosen_language(
    service: RunningService, browser: Any, lang: str
) -> None:
    browser.get(service.url + f"/?ui={lang}")
    heading = _wait(browser, "h1").text
    assert heading == translations(lang).gettext("Check an article") != "Check an article"
    browser.get(service.url + "/translate")  # the choice is kept in a cookie
    assert _wait(browser, "h1").text == translations(lang).gettext("Check a translation")
    _screenshot(browser, f"translation-form-{lang}")


@pytest.fixture(scope="module")
def idle_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningService]:
    """A service with no worker: what is submitted stays queued."""
    cfg = dataclasses.replace(config(tmp_path_factory.mktemp("idle-service")), workers=0)
    with RunningService(cfg) as running:
        yield running


@pytest.mark.parametrize("lang", LANGS)
def test_a_queued_check_shows_its_place_in_the_line(
    idle_service: RunningService, browser: Any, lang: str
) -> None:
    ids = [_post(idle_service.url, f"Views share storage ({lang} {n}).")["id"] for n in range(2)]
    browser.get(idle_service.url + f"/results/{ids[1]}?ui={lang}")
    shown = _wait(browser, "#progress-position").text
    label = translations(lang).gettext("place in the queue")
    position = idle_service.get(f"/api/jobs/{ids[1]}")["position"]
    assert shown == f"{label}: {position}" and position >= 2
    # a prose-only check runs no snippets: no "0 / 0"
    assert not browser.find_element("id", "progress-count").is_displayed()
    _screenshot(browser, f"queued-{lang}")


@pytest.mark.parametrize("lang", LANGS)
def test_an_unknown_address_is_a_page_in_the_users_language(
    service: RunningService, browser: Any, lang: str
) -> None:
    browser.get(service.url + f"/?ui={lang}")  # the language is kept in a cookie
    browser.get(service.url + "/no-such-page")
    heading = _wait(browser, "h1").text
    assert heading == translations(lang).gettext("Not accepted") + " (404)"
    message = browser.find_element("id", "error-message").text
    assert message == translations(lang).gettext("no such address: {path}").format(
        path="/no-such-page"
    )
    _screenshot(browser, f"not-found-{lang}")


def test_the_api_reference_shows_under_the_pages_policy(
    service: RunningService, browser: Any
) -> None:
    browser.get(service.url + "/api/docs?ui=en")
    sections = _wait(browser, "main").find_elements("css selector", "section.operation")
    assert len(sections) == 11
    heads = [s.find_element("css selector", "h2").text for s in sections]
    assert "POST /api/scan" in heads and "GET /api/scan/{job_id}/sarif" in heads
    assert _policy_reports(browser) == []
    _screenshot(browser, "api-reference")
    # the control: an inline script, as Swagger UI's page has, is reported and not run
    browser.execute_script(
        "const s = document.createElement('script');"
        "s.textContent = 'document.title = \"ran\"'; document.body.appendChild(s);"
    )
    assert len(_policy_reports(browser)) == 1
    assert browser.title != "ran"


def _policy_reports(browser: Any) -> list[str]:
    return [
        entry["message"]
        for entry in browser.get_log("browser")
        if "Content Security Policy" in entry["message"]
    ]


def _post(url: str, text: str) -> Any:
    import urllib.request

    boundary = "browser-test"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\n{text}\r\n'
        f"--{boundary}--\r\n"
    ).encode()
    request = urllib.request.Request(
        url + "/api/scan",
        data=body,
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())
