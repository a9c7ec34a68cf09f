"""The ``claims-index`` directive: every claim, the page that shows it, its verdicts.

The directive emits an empty :class:`claims_index_node`; :class:`ClaimsIndexTransform` fills it
when pages are written, once every page has been read, with a table in the page's language:
statement (as translated on its page), link, what the docs expect, and a badge per device.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective

from checker.sphinx import formatting
from checker.sphinx.claims import anchor, claim_sites
from checker.sphinx.results import results_for
from checker.sphinx.tables import table
from checker.sphinx.ui_text import text


def setup_claims_index(app: Sphinx) -> None:
    app.add_node(claims_index_node)
    app.add_directive("claims-index", ClaimsIndexDirective)
    app.add_post_transform(ClaimsIndexTransform)


class claims_index_node(nodes.container):
    """Placeholder for the generated table of all claims."""


class ClaimsIndexDirective(SphinxDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        node = claims_index_node(classes=["checker-claims-index"])
        self.set_source_info(node)
        return [node]


class ClaimsIndexTransform(SphinxPostTransform):
    default_priority = 205

    def is_supported(self) -> bool:
        return self.app.builder.name not in ("gettext", "dummy")

    def run(self, **kwargs: Any) -> None:
        for node in list(self.document.findall(claims_index_node)):
            node += self._table()

    def _table(self) -> nodes.table:
        results = results_for(self.app)
        lang = self.config.language or "en"
        sites = claim_sites(self.env)
        headers = [text(lang, "statement"), text(lang, "page"), text(lang, "expected")]
        headers += [d.upper() for d in results.devices]
        rows = []
        for claim in results.registry:
            places = sites.get(claim.id)
            if not places:
                continue
            docname, _line, statement = places[0]
            uri = self.app.builder.get_relative_uri(self.env.docname, docname)
            link = nodes.reference("", "", refuri=f"{uri}#{anchor(claim.id)}",
                                   internal=True)
            link += nodes.literal(text=claim.id)
            title = self.env.titles[docname].astext() if docname in self.env.titles else docname
            page = nodes.reference("", title, refuri=uri, internal=True)
            row: list[Any] = [
                [nodes.Text(statement), nodes.Text(" "), link],
                [page],
                text(lang, f"expect-{claim.expect.value}"),
            ]
            for device in results.devices:
                verdict = results.verdict(claim.id, device)
                if verdict is None:
                    row.append("")
                else:
                    row.append([nodes.inline(text=formatting.badge(verdict, lang),
                                             classes=formatting.badge_classes(verdict))])
            rows.append(row)
        return table(headers, rows, classes=["checker-claims-table"])
