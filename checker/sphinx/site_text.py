"""The words around the pages, in the page's language: the theme's labels and the site's
title.

- Theme labels ("Collapse Sidebar", "Color mode", "On this page"...) are messages of the
  ``sphinx`` gettext domain. Sphinx's own catalogs translate some, the theme's catalog others
  (pydata-sphinx-theme has no Korean and leaves several Japanese labels empty). Ours,
  ``checker/sphinx/locale/<lang>/LC_MESSAGES/sphinx.po``, holds every label of the theme's
  template; it is compiled into the build's doctree folder and registered before the
  theme's, so it completes and corrects the theme while Sphinx's own translations stay first.
- The theme's search placeholder is a theme option (``search_bar_text``), not a message:
  :func:`translate_search_text` puts it through the same catalog on every page.
- The "page not found" page (``docs/404.md``) is served for any missing address of the
  site, at any depth: :func:`root_the_404_page` gives it a ``<base>`` at the site's root
  (``checker_404_base``, where the service mounts the site of each language), so that its
  styles and links resolve wherever it is shown.
- The site's title, project name and copyright line come from ``checker_site_text``, a
  ``{lang: {config name: text}}`` table in ``conf.py``, applied once the language is known.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ConfigError
from sphinx.locale import get_translation

from checker.sphinx.messages import THEME_DOMAIN, catalog_path
from checker.sphinx.warnings_ import CheckerWarnings, warn

#: Configuration values a language may set in ``checker_site_text``.
SITE_TEXT_KEYS = ("project", "html_title", "html_short_title", "copyright")


def setup_site_text(app: Sphinx) -> None:
    app.add_config_value("checker_site_text", {}, "html", types=[dict])
    app.add_config_value("checker_404_base", "/docs/{lang}/", "html", types=[str])
    app.connect("config-inited", apply_site_text)
    app.connect("html-page-context", translate_search_text)
    app.connect("html-page-context", root_the_404_page)
    register_theme_catalog(app)


def translate_search_text(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """The theme's search placeholder and label in the page's language."""
    english = context.get("theme_search_bar_text")
    if isinstance(english, str) and english:
        context["theme_search_bar_text"] = str(get_translation(THEME_DOMAIN)(english))


#: The page served for a missing address.
NOT_FOUND_PAGE = "404"


def root_the_404_page(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """A ``<base>`` at the site's root for the 404 page: it is served at the address that
    was not found, so its relative links would otherwise resolve from there."""
    base = app.config.checker_404_base
    if pagename != NOT_FOUND_PAGE or not base:
        return
    href = html.escape(base.format(lang=app.config.language or "en"), quote=True)
    context["metatags"] = context.get("metatags", "") + f'\n<base href="{href}">'


def apply_site_text(app: Sphinx, config: Config) -> None:
    """Set the title, project and copyright of the language being built."""
    table: Any = config.checker_site_text
    if not isinstance(table, dict):
        raise ConfigError("checker_site_text must be a dict {lang: {name: text}}")
    texts = table.get(config.language or "en", {})
    unknown = set(texts) - set(SITE_TEXT_KEYS)
    if unknown:
        raise ConfigError(f"checker_site_text: unknown names {sorted(unknown)}")
    for name, value in texts.items():
        config[name] = value


def register_theme_catalog(app: Sphinx) -> None:
    """Compile our theme labels for the language being built and register them."""
    lang = app.config.language or "en"
    source = catalog_path(lang, domain=THEME_DOMAIN)
    if lang == "en" or not source.exists():
        return
    target_dir = Path(app.doctreedir) / "checker-locale"
    target = target_dir / lang / "LC_MESSAGES" / f"{THEME_DOMAIN}.mo"
    try:
        compile_catalog(source, target)
    except Exception as exc:  # the gate names the problem; the page keeps the theme's words
        warn(CheckerWarnings.CATALOG, f"{source}: theme labels not compiled: {exc}")
        return
    app.add_message_catalog(THEME_DOMAIN, str(target_dir))


def compile_catalog(source: Path, target: Path) -> None:
    """``source`` (.po) into ``target`` (.mo), as Sphinx compiles the pages' catalogs."""
    from checker.text.mo import compile_mo
    from checker.text.po import read_catalog

    compiled = compile_mo(read_catalog(source))
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(compiled)
