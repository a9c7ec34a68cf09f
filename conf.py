"""Sphinx configuration. Build one language with ``sphinx-build -c . -D language=ja docs OUT``
where the project is installed (``.nox/shared``); ``nox -s docs`` builds all three."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent

project = "PyTorch memory and precision, verified"
author = "the project's contributors"
copyright = "2026, the project's contributors"

extensions = ["myst_parser", "checker.sphinx"]
root_doc = "index"
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "_evidence", "_survey", "_templates", "_static", "**/.*"]
language = "en"

# -- translations (sphinx-intl catalogs under locales/<lang>/LC_MESSAGES) -------------
locale_dirs = [str(ROOT / "locales")]
gettext_compact = False  # one catalog per page, so translators can claim pages
gettext_uuid = False
gettext_location = True  # "#: docs/page.md:12" lets checks point at the English line

# -- MyST: only the syntax the docs use; raw HTML is refused by checker.sphinx --------
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# -- HTML ----------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = "PyTorch memory & precision, verified"
templates_path = [str(ROOT / "docs" / "_templates")]
html_static_path = [str(ROOT / "docs" / "_static")]
html_css_files = ["checker.css"]
html_show_sourcelink = False
html_theme_options = {
    "navbar_end": ["language-switcher", "theme-switcher"],
    "header_links_before_dropdown": 3,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
# The title, project and copyright line in each language (checker.sphinx.site_text).
checker_site_text = {
    "ja": {
        "project": "PyTorch のメモリと精度を検証する",
        "html_title": "PyTorch のメモリと精度を検証する",
        "copyright": "2026, プロジェクトの貢献者",
    },
    "ko": {
        "project": "PyTorch 메모리와 정밀도: 검증된 설명",
        "html_title": "PyTorch 메모리와 정밀도: 검증된 설명",
        "copyright": "2026, 프로젝트 기여자",
    },
}
# Absolute links in the language switcher when published: DOCS_BASE_URL=https://host/path/
html_baseurl = os.environ.get("DOCS_BASE_URL", "")

# -- the checker (claims, measured values, figures, languages) ------------------------
from checker.text.languages import LANGS  # noqa: E402  (the installed project: nox -s shared)

checker_languages = list(LANGS)
