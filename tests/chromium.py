"""Headless Chromium for the browser tests (selenium and the system's chromedriver)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = (
    shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
)
CHROMEDRIVER = shutil.which("chromedriver")

#: Skips a browser test module where Chromium or its driver is absent, saying how to get them.
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="chromium and chromedriver are not installed "
    "(Debian: apt-get install chromium chromium-driver)",
)


@contextmanager
def headless_chromium(profile: Path, lang: str) -> Iterator[Any]:
    """A driver for a headless Chromium with a fresh profile folder and ``lang`` as its
    language; the profile is removed afterwards."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    shutil.rmtree(profile, ignore_errors=True)
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={profile}",
        "--window-size=1400,1000",
        f"--lang={lang}",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # console: CSP reports
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
