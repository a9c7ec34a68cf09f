"""Sphinx integration: claims with verdict badges, measured values, figures, languages.

Enable with ``extensions = ["checker.sphinx"]``. The heavy imports happen in
:func:`checker.sphinx.extension.setup_extension`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def setup(app: Sphinx) -> dict[str, Any]:
    from checker.sphinx.extension import setup_extension

    return setup_extension(app)
