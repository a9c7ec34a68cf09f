"""The ``translation-glossary`` directive: the preferred terms per language, as a table.

Markup::

    ```{translation-glossary}
    :path: locales/glossary.toml      (optional; relative to the configuration folder)
    ```

The table is built from ``locales/glossary.toml`` every time the page is read (the file is a
dependency of the page), so the page and the translation checks cannot disagree. Its cells
are terms, not sentences: they are marked untranslatable and stay out of the catalogs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from checker.i18n.glossary import GlossaryError, Term, load_glossary
from checker.sphinx.results import results_for
from checker.sphinx.tables import Cell, table
from checker.sphinx.warnings_ import CheckerWarnings, warn
from checker.text.languages import LANGUAGES, TRANSLATED

#: Column headers: each language's name in that language, so nothing needs translating.
HEADERS = tuple(language.name for language in LANGUAGES)


def setup_glossary(app: Sphinx) -> None:
    app.add_directive("translation-glossary", GlossaryDirective)


class GlossaryDirective(SphinxDirective):
    """A table of the glossary's terms: English, Japanese, Korean; avoided variants marked."""

    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {"path": directives.unchanged_required}

    def run(self) -> list[nodes.Node]:
        relative = self.options.get("path", "locales/glossary.toml")
        path = Path(results_for(self.env).confdir, relative).resolve()
        self.env.note_dependency(str(path))
        try:
            glossary = load_glossary(path)
        except GlossaryError as exc:
            here = nodes.container()
            self.set_source_info(here)
            warn(CheckerWarnings.GLOSSARY, str(exc), here)
            return []
        rows: list[list[Cell]] = [
            [term.en, *(_translations(term, lang) for lang in TRANSLATED)]
            for term in glossary.terms
        ]
        tbl = table(HEADERS, rows, classes=["checker-glossary"])
        for para in tbl.findall(nodes.paragraph):
            para["translatable"] = False
        self.set_source_info(tbl)
        return [tbl]


def _translations(term: Term, lang: str) -> list[nodes.Node]:
    cell: list[nodes.Node] = [nodes.Text(" / ".join(term.preferred.get(lang, ("—",))))]
    avoided = term.avoid.get(lang, ())
    if avoided:
        cell.append(nodes.Text(" "))
        cell.append(
            nodes.inline("", f"(✗ {', '.join(avoided)})", classes=["checker-glossary-avoid"])
        )
    return cell
