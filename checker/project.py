"""The project's catalogs of generated text, gathered from the edges that generate it.

The translation gate (:mod:`checker.i18n`) checks the pages' catalogs and any catalog of
generated text it is given, and imports neither the Sphinx extension nor the service. This
module, an edge above them all like :mod:`checker.cli`, hands it the project's own: the
extension's labels and rules and the theme's labels (:mod:`checker.sphinx.generated_text`),
and the service's pages (:func:`checker.service.ui.generated_catalog`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from checker.i18n.generated import GeneratedCatalog
from checker.i18n.run import I18nOptions
from checker.service import ui
from checker.sphinx import generated_text


def generated_catalogs(root: Path) -> tuple[GeneratedCatalog, ...]:
    """Every catalog of generated text of the repository under ``root`` that it holds, the
    extension's first (the one whose template ``python -m checker i18n --write-template``
    writes)."""
    found = (
        *generated_text.catalogs(root / "checker" / "sphinx" / "locale"),
        ui.generated_catalog(root / "checker" / "service" / "locale"),
    )
    return tuple(catalog for catalog in found if catalog.locale_dir.is_dir())


def i18n_options(root: Path, **changes: Any) -> I18nOptions:
    """The gate's options for the repository under ``root``: its pages' catalogs and every
    catalog of generated text, with ``changes`` applied."""
    return I18nOptions.project(root, **{"generated": generated_catalogs(root), **changes})
