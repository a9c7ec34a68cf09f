"""The build keeps injected markup out of every page, whatever a catalog holds.

A hostile Japanese catalog for the fixture site (tests/samples/i18n/injected/index.po) tries
``<script>``, ``<img onerror>``, ``<a href="javascript:...">``, the ``{raw}`` role, the
``{eval-rst}`` and ``{include}`` directives and a link to a new host. Without the safety
transforms all of it reaches the HTML (first test); with them, none of it does.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import sphinx.locale

from checker.sphinx import safety
from tests.helpers import ROOT
from tests.i18n_helpers import I18N
from tests.sphinx_site import Site, copy_site

INJECTED = ("<script>alert", "onerror=", "javascript:", "raw-role", "<iframe", "evil.example")
SECRET = "TOP-SECRET-TOKEN"


@pytest.fixture(scope="module")
def probe_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One result cache for the module: the fixture claims are probed once."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, probe_cache: Path) -> Iterator[Site]:
    # Sphinx keeps loaded catalogs in a global: a build in another language in this
    # process would otherwise reuse them.
    sphinx.locale.translators.clear()
    monkeypatch.setenv("CHECKER_REPO_ROOT", str(ROOT))
    monkeypatch.setenv("CHECKER_CACHE_DIR", str(probe_cache))
    monkeypatch.setenv("CHECKER_HIDE_CUDA", "1")
    site = copy_site(tmp_path)
    catalog = site.root / "locales" / "ja" / "LC_MESSAGES" / "index.po"
    catalog.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(I18N / "injected" / "index.po", catalog)
    (site.root / "secret.txt").write_text(f"{SECRET} next to the docs\n", encoding="utf-8")
    yield site
    sphinx.locale.translators.clear()


# The injected `{include}` is run by MyST-Parser (5.2, the newest), which reaches Sphinx's
# deprecated BuildEnvironment.app to emit "include-read": its warning, not ours, and only here,
# where the safety transforms that refuse the directive are switched off.
@pytest.mark.filterwarnings(
    "ignore:'sphinx.environment.BuildEnvironment.app' is deprecated"
    ":sphinx.deprecation.RemovedInSphinx11Warning"
)
def test_without_the_safety_transforms_the_injection_reaches_the_page(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(safety.RefuseUnsafeTranslations, "apply", lambda self, **kw: None)
    monkeypatch.setattr(safety.RemoveRawMarkup, "apply", lambda self, **kw: None)
    html = site.build("html", "ja").html()
    for needle in ("<script>alert", "onerror=alert", "javascript:alert", SECRET, "evil.example"):
        assert needle in html, needle


def test_the_built_page_contains_none_of_the_injected_markup(site: Site) -> None:
    build = site.build("html", "ja")
    html = build.html()
    for needle in (*INJECTED, SECRET):
        assert needle not in html, needle
    # The refused messages keep their English; the clean translations are applied.
    assert "Fixture site" in html and "Dividing integer tensors" in html
    assert "合計" in html and "バイト数" in html
    catalog = site.root / "locales" / "ja" / "LC_MESSAGES" / "index.po"
    refused = [w for w in build.warnings.splitlines() if "[checker.unsafe_markup]" in w]
    assert [w.split(": WARNING: ")[0] for w in refused] == [
        f"{catalog}:{line}" for line in (14, 18, 22, 28, 32, 41, 45)
    ]
    assert build.code != 0  # -W: an injected catalog fails its language's build


def test_raw_html_left_in_a_page_is_removed_and_reported(site: Site) -> None:
    line = site.append("claims.md", "\nA <b>bold</b> move: <script>alert(9)</script>.\n")
    build = site.build()
    html = build.html("claims")
    assert "<script>alert" not in html and "<b>bold" not in html
    assert "A bold move: alert(9)." in html  # the text stays, escaped; no markup does
    removed = [w for w in build.warnings.splitlines() if "raw html markup removed" in w]
    assert len(removed) == 4
    assert all(w.startswith(f"{site.page('claims.md')}:{line + 1}: WARNING:") for w in removed)


def test_a_new_host_in_a_translation_is_unlinked_even_if_the_catalog_check_is_bypassed(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(safety.security, "check", lambda message: iter(()))
    catalog = site.root / "locales" / "ja" / "LC_MESSAGES" / "index.po"
    text = catalog.read_text(encoding="utf-8").split("#: ../../docs/index.md:14")[0]
    text += (
        '#: ../../docs/index.md:19\nmsgid "float16 is two bytes"\n'
        'msgstr "float16 は [2 バイト](https://evil.example/phish) です"\n'
    )
    catalog.write_text(text, encoding="utf-8")
    build = site.build("html", "ja")
    html = build.html()
    assert "evil.example" not in html and "<script>alert" not in html
    assert "float16 は 2 バイト です" in html
    assert "a translation links to evil.example, which the English does not" in build.warnings


# -- the glossary table ------------------------------------------------------------------------


def _with_glossary(site: Site) -> None:
    shutil.copyfile(I18N / "locales" / "glossary.toml", site.root / "glossary.toml")
    site.append("claims.md", "\n```{translation-glossary}\n:path: glossary.toml\n```\n")


def test_the_glossary_table_is_built_from_the_toml_file(site: Site) -> None:
    _with_glossary(site)
    build = site.build()
    assert (build.code, build.warnings) == (0, "")
    html = build.html("claims")
    assert '<table class="checker-glossary table">' in html
    assert "<td><p>storage</p></td>" in html
    assert (
        '<td><p>ストレージ <span class="checker-glossary-avoid">(✗ 記憶領域)</span></p></td>'
        in html
    )


def test_the_glossary_terms_stay_out_of_the_catalogs(site: Site) -> None:
    _with_glossary(site)
    build = site.build("gettext")
    pot = (build.out / "claims.pot").read_text(encoding="utf-8")
    assert "All claims" in pot
    for term in ("storage", "ストレージ", "日本語", "English"):
        assert f'msgid "{term}"' not in pot


def test_a_broken_glossary_is_a_build_warning_with_its_line(site: Site) -> None:
    _with_glossary(site)
    (site.root / "glossary.toml").write_text('[[term]]\nen = "x"\nja = 3\n', encoding="utf-8")
    build = site.build()
    assert build.code != 0
    assert f"{site.root / 'glossary.toml'}:1: ja must be a non-empty string" in build.warnings
    assert "[checker.glossary]" in build.warnings
