"""The language switcher: every page links the same page in the other languages.

Each language is built into a sibling directory (``_build/html/en``, ``.../ja``, ``.../ko``).
Links are absolute when ``html_baseurl`` is set (the published site) and relative otherwise,
so a local build can be browsed from disk. Pages also get ``<link rel="alternate" hreflang>``
tags for search engines.
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx

from checker.sphinx.config import get_config
from checker.sphinx.ui_text import LANGUAGE_NAMES, text
from checker.text.links import language_url


def setup_languages(app: Sphinx) -> None:
    app.connect("html-page-context", add_language_links)


def add_language_links(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    current = app.config.language or "en"
    base = app.config.html_baseurl or ""
    suffix = app.builder.out_suffix if hasattr(app.builder, "out_suffix") else ".html"
    links = [
        {
            "code": lang,
            "name": LANGUAGE_NAMES.get(lang, lang),
            "url": language_url(base, lang, pagename, suffix),
            "current": lang == current,
        }
        for lang in get_config(app).languages
    ]
    context["checker_languages"] = links
    context["checker_languages_label"] = text(current, "languages")
    if base:
        tags = "".join(
            f'<link rel="alternate" hreflang="{link["code"]}" href="{link["url"]}">\n'
            for link in links
        )
        context["metatags"] = context.get("metatags", "") + tags
