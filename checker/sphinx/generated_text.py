"""The text the extension writes on pages, as the translation gate checks it: two catalogs of
generated text, each a :class:`~checker.i18n.generated.GeneratedCatalog`.

- ``(generated text)``, the domain ``checker``: every label of :mod:`checker.sphinx.ui_text`,
  the decision rule of every probe, the control labels and the reasons a device was not run
  (read from where they are written by :func:`checker.i18n.extraction.extract`);
- ``(theme labels)``, the domain ``sphinx``: the labels of the HTML theme (pydata-sphinx-theme's
  ``sphinx.pot``), which :mod:`checker.sphinx.site_text` registers before the theme's own
  (none when the theme is not installed), and :data:`SPHINX_LABELS`, the labels of Sphinx's
  HTML writer and of the theme's options that no catalog of theirs translates.

``python -m checker i18n --write-template POT`` writes the first one's template.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from checker.claim import Claim
from checker.i18n import extraction
from checker.i18n.generated import Extraction, GeneratedCatalog, GeneratedMessage
from checker.sphinx import ui_text
from checker.sphinx.messages import DOMAIN, LOCALE_DIR, THEME_DOMAIN
from checker.text.po import merged_messages, read_catalog

#: How the extension's catalog is named in findings and coverage.
PAGE = "(generated text)"
#: How the theme's labels are named in findings and coverage.
THEME_PAGE = "(theme labels)"


def extension_messages(
    claims: Sequence[Claim], root: Path, recorded: tuple[Path, ...] = ()
) -> Extraction:
    """Every message the extension can show, in a stable order."""
    labels_file = Path(ui_text.__file__)
    return extraction.extract(claims, root, recorded, ui_text.LABELS, labels_file)


#: Labels the theme's catalog lacks, with where they are written: the tooltips of Sphinx's
#: permalinks (Sphinx's Japanese and Korean catalogs leave them empty) and the theme's
#: search placeholder, a theme option (``search_bar_text``) that site_text translates.
SPHINX_LABELS: tuple[tuple[str, str], ...] = (
    ("Search the docs ...", "pydata_sphinx_theme/theme.conf (search_bar_text)"),
    ("Link to this heading", "sphinx/writers/html5.py"),
    ("Link to this definition", "sphinx/writers/html5.py"),
    ("Link to this code", "sphinx/writers/html5.py"),
    ("Link to this image", "sphinx/writers/html5.py"),
    ("Link to this table", "sphinx/writers/html5.py"),
    ("Link to this equation", "sphinx/writers/html5.py"),
    ("Link to this term", "sphinx/writers/html5.py"),
    ("Link to this toctree", "sphinx/writers/html5.py"),
)


def theme_messages(
    claims: Sequence[Claim] = (), root: Path = Path(), recorded: tuple[Path, ...] = ()
) -> Extraction:
    """The labels of the HTML theme, from its ``sphinx.pot``."""
    try:
        import pydata_sphinx_theme  # type: ignore[import-untyped]
    except ImportError:
        return Extraction(())
    pot = Path(pydata_sphinx_theme.__file__).parent / "locale" / "sphinx.pot"
    theme = tuple(
        GeneratedMessage(m.msgid, m.msgctxt, ("pydata_sphinx_theme/locale/sphinx.pot",), "theme")
        for m in merged_messages(read_catalog(pot))
        if m.msgid and m.msgid_plural is None
    )
    known = {m.msgid for m in theme}
    extra = tuple(
        GeneratedMessage(msgid, None, (where,), "theme label")
        for msgid, where in SPHINX_LABELS
        if msgid not in known
    )
    return Extraction(theme + extra)


def catalogs(locale_dir: Path = LOCALE_DIR) -> tuple[GeneratedCatalog, ...]:
    """The extension's catalogs of generated text, under ``locale_dir``."""
    return (
        GeneratedCatalog(PAGE, DOMAIN, locale_dir, extension_messages),
        GeneratedCatalog(THEME_PAGE, THEME_DOMAIN, locale_dir, theme_messages),
    )
