"""The service's pages in a real headless Chromium (selenium, the system's chromedriver), on
``python -m checker serve`` started on loopback: submit a corpus article and see its findings
beside its lines; submit a catalog with an injected ``<script>`` and see it refused (shown as
text, never run); the claims index. Screenshots go to ``_build/screenshots/service/`` (a CI
artifact, as for tests/test_browser.py). Skipped only where Chromium or its driver is absent
(Debian: ``apt-get install chromium chromium-driver``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from checker import registry
from checker.service.ui import translations
from checker.text.languages import TRANSLATED
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
