"""The ``claims-index`` directive: every claim, the page that shows it, its verdicts.

The directive emits an empty :class:`claims_index_node`. Once every page has been read, the
``doctree-resolved`` handler :func:`fill_claims_index` fills it for the page being written,
with a table in the page's language: statement (as translated on its page), link, what the
docs expect, and a badge per device. (A handler rather than a post-transform, because links
between pages need the builder.)
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from checker.sphinx import formatting
from checker.sphinx.results import mark_dynamic, results_for, shows_results
from checker.sphinx.state import build_state
from checker.sphinx.tables import table
from checker.sphinx.ui_text import text
from checker.text.links import anchor


def setup_claims_index(app: Sphinx) -> None:
    app.add_node(claims_index_node)
    app.add_directive("claims-index", ClaimsIndexDirective)
    app.connect("doctree-resolved", fill_claims_index)


class claims_index_node(nodes.container):
    """Placeholder for the generated table of all claims."""


class ClaimsIndexDirective(SphinxDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        node = claims_index_node(classes=["checker-claims-index"])
        self.set_source_info(node)
        mark_dynamic(self.env)
        return [node]


def fill_claims_index(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    placeholders = list(doctree.findall(claims_index_node))
    if not placeholders or not shows_results(app.env):
        return
    for node in placeholders:
        node += _table(app, docname)


def _table(app: Sphinx, fromdoc: str) -> nodes.table:
    env = app.env
    results = results_for(env)
    lang = app.config.language or "en"
    state = build_state(env)
    shown, referenced = state.claim_sites, state.verdict_sites
    headers = [text(lang, "statement"), text(lang, "page"), text(lang, "expected")]
    headers += [d.upper() for d in results.devices]
    rows = []
    for claim in results.registry:
        if claim.id in shown:
            docname, _line, statement = shown[claim.id][0]
            target = anchor(claim.id)
        elif claim.id in referenced:
            docname, _line, _ = referenced[claim.id][0]
            statement, target = claim.statement, anchor(claim.id, "verdict")
        else:
            continue
        uri = app.builder.get_relative_uri(fromdoc, docname)
        link = nodes.reference("", "", refuri=f"{uri}#{target}", internal=True)
        link += nodes.literal(text=claim.id)
        title = env.titles[docname].astext() if docname in env.titles else docname
        row: list[Any] = [
            [nodes.Text(statement), nodes.Text(" "), link],
            [nodes.reference("", title, refuri=uri, internal=True)],
            text(lang, f"expect-{claim.expect.value}"),
        ]
        for device in results.devices:
            verdict = results.verdict(claim.id, device)
            if verdict is None or device not in claim.devices:
                row.append("—")
            else:
                row.append([formatting.badge_node(verdict, lang)])
        rows.append(row)
    return table(headers, rows, classes=["checker-claims-table"])
