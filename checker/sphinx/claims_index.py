"""The ``claims-index`` directive: every claim, the page that shows it, its verdicts, and a
filter by topic, device and outcome.

The directive emits an empty :class:`claims_index_node`. Once every page has been read, the
``doctree-resolved`` handler :func:`fill_claims_index` fills it for the page being written,
with a table in the page's language: statement (as translated on its page), link, what the
docs expect, and a badge per device, a verdict not run with its reason under it. (A handler
rather than a post-transform, because links between pages need the builder.) Each row names
its topic and the status of each device's verdict in its classes
(``checker-topic-t0``, ``checker-on-cpu-confirmed``; a device's recorded evidence counts as
what it found), which every builder keeps.

For HTML only, a :class:`claims_filter_node` above the table is written by its visitor as a
form with one list per facet, in the page's language; ``static/claims-filter.js`` (added to
the pages that have the index, and loaded from the site itself, so it works offline) hides
the rows that do not match and says how many are shown. Other builders never get the node:
the gettext builder extracts only the page's own words, and a text or LaTeX build shows the
whole table.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.util.docutils import SphinxDirective
from sphinx.writers.html5 import HTML5Translator

from checker.sphinx import formatting
from checker.sphinx.messages import translate_text
from checker.sphinx.results import mark_dynamic, results_for, shows_results
from checker.sphinx.state import build_state
from checker.sphinx.tables import table
from checker.sphinx.ui_text import text
from checker.text.links import anchor
from checker.verdict import Status, Verdict

#: The extension's own static files (the filter's script).
STATIC_DIR = Path(__file__).parent / "static"
FILTER_SCRIPT = "claims-filter.js"
#: The outcomes the filter offers, in order, with the label of each.
OUTCOMES = (
    (Status.CONFIRMED, "filter-confirmed"),
    (Status.CONTRADICTED, "filter-contradicted"),
    (Status.ERROR, "error"),
    (Status.NOT_RUN, "not-run"),
)


def setup_claims_index(app: Sphinx) -> None:
    app.add_node(claims_index_node)
    app.add_node(claims_filter_node, html=(visit_claims_filter, depart_claims_filter))
    app.add_directive("claims-index", ClaimsIndexDirective)
    app.connect("config-inited", add_static_dir)
    app.connect("doctree-resolved", fill_claims_index)
    app.connect("html-page-context", add_filter_script)


class claims_index_node(nodes.container):
    """Placeholder for the generated table of all claims."""


class claims_filter_node(nodes.General, nodes.Element):
    """The filter above the claims table (HTML only). Attributes: ``facets``, a list of
    ``(name, label, [(value, label), ...])``; ``all``, the label of no filter; ``shown``, the
    count's sentence with ``{shown}`` and ``{total}``."""


def visit_claims_filter(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append(self.starttag(node, "form", "", **{"data-shown": node["shown"]}))
    for name, label, options in node["facets"]:
        self.body.append(f'<label>{escape(label)} <select name="{escape(name)}">')
        self.body.append(f'<option value="">{escape(node["all"])}</option>')
        for value, shown in options:
            self.body.append(f'<option value="{escape(value)}">{escape(shown)}</option>')
        self.body.append("</select></label>\n")
    self.body.append('<output class="checker-claims-shown" aria-live="polite"></output>')


def depart_claims_filter(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append("</form>\n")


class ClaimsIndexDirective(SphinxDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        node = claims_index_node(classes=["checker-claims-index"])
        self.set_source_info(node)
        mark_dynamic(self.env)
        return [node]


def add_static_dir(app: Sphinx, config: Config) -> None:
    """The filter's script is copied with the site's own static files."""
    config.html_static_path.append(str(STATIC_DIR))


def add_filter_script(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    if doctree is not None and any(doctree.findall(claims_filter_node)):
        app.add_js_file(FILTER_SCRIPT, loading_method="defer")


def fill_claims_index(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    placeholders = list(doctree.findall(claims_index_node))
    if not placeholders or not shows_results(app.env):
        return
    for node in placeholders:
        index, topics = _table(app, docname)
        if app.builder.format == "html":
            node += _filter(app, topics)
        node += index


def _filter(app: Sphinx, topics: list[tuple[str, str]]) -> claims_filter_node:
    lang = app.config.language or "en"
    devices = results_for(app.env).devices
    return claims_filter_node(
        classes=["checker-claims-filter"],
        facets=[
            ("topic", text(lang, "filter-topic"), topics),
            ("device", text(lang, "filter-device"), [(d, d.upper()) for d in devices]),
            (
                "outcome",
                text(lang, "filter-outcome"),
                [(status.value, text(lang, label)) for status, label in OUTCOMES],
            ),
        ],
        all=text(lang, "filter-all"),
        shown=text(lang, "filter-shown", shown="{shown}", total="{total}"),
    )


def _table(app: Sphinx, fromdoc: str) -> tuple[nodes.table, list[tuple[str, str]]]:
    """The table, and the topics (pages) its rows name, as ``(value, title)``."""
    env = app.env
    results = results_for(env)
    lang = app.config.language or "en"
    state = build_state(env)
    shown, referenced = state.claim_sites, state.verdict_sites
    headers = [text(lang, "statement"), text(lang, "page"), text(lang, "expected")]
    headers += [d.upper() for d in results.devices]
    rows = []
    row_classes = []
    topics: dict[str, tuple[str, str]] = {}
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
        topic = topics.setdefault(docname, (f"t{len(topics)}", title))[0]
        row: list[Any] = [
            [nodes.Text(statement), nodes.Text(" "), link],
            [nodes.reference("", title, refuri=uri, internal=True)],
            text(lang, f"expect-{claim.expect.value}"),
        ]
        classes = [f"checker-topic-{topic}"]
        for device in results.devices:
            verdict = results.verdict(claim.id, device)
            if verdict is None or device not in claim.devices:
                row.append("—")
            else:
                row.append(_cell(verdict, lang))
                classes.append(f"checker-on-{device}-{_filtered_as(verdict).value}")
        rows.append(row)
        row_classes.append(classes)
    index = table(headers, rows, classes=["checker-claims-table"], row_classes=row_classes)
    return index, list(topics.values())


def _filtered_as(verdict: Verdict) -> Status:
    """The outcome the filter files a verdict under: a device absent from the build machine
    whose recorded evidence is shown counts as what that evidence found."""
    if verdict.status is Status.NOT_RUN and verdict.evidence is not None:
        if verdict.superseded:  # an older release's behaviour: no verdict on today's
            return Status.NOT_RUN
        return Status.CONTRADICTED if verdict.recorded_contradiction else Status.CONFIRMED
    return verdict.status


def _cell(verdict: Verdict, lang: str) -> list[nodes.Node]:
    """A device's badge; under a verdict not run, why (a device absent from the build
    machine, a probe that cannot measure its case there, a machine too busy to finish it)."""
    cell: list[nodes.Node] = [formatting.badge_node(verdict, lang)]
    if verdict.status is Status.NOT_RUN and verdict.reason:
        reason = translate_text(lang, verdict.reason.splitlines()[0])
        cell.append(nodes.inline(text=reason, classes=["checker-reason"]))
    return cell
