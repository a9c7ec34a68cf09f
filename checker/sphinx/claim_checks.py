"""Where each claim is shown, and the checks of the whole build over them.

Once a page is read and translated, :func:`collect_claim_sites` notes where it shows a claim
(with the statement as translated) and where it references a verdict, in the build's
:class:`~checker.sphinx.state.BuildState`. Once every page is read,
:func:`check_claim_sites` warns, each problem once for the whole build: a claim shown twice,
a claim shown on no page, and, at the place a claim is shown, a probe that contradicts the
page or broke. :func:`outdate_pages_with_verdicts` has the pages showing results read again
when the results changed and the pages did not.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from checker.sphinx.claims import claim_node, verdict_node
from checker.sphinx.results import results_for
from checker.sphinx.state import ClaimPlace, build_state
from checker.sphinx.warnings_ import CheckerWarnings, warn
from checker.verdict import Status, Verdict


def setup_claim_checks(app: Sphinx) -> None:
    app.connect("env-get-outdated", outdate_pages_with_verdicts)
    app.connect("doctree-read", collect_claim_sites)
    app.connect("env-check-consistency", check_claim_sites)


def collect_claim_sites(app: Sphinx, doctree: nodes.document) -> None:
    state = build_state(app.env)
    docname = app.env.docname
    for node in doctree.findall(claim_node):
        statement = " ".join(p.astext() for p in node.findall(nodes.paragraph))
        place = ClaimPlace(docname, node.line or 0, statement)
        state.claim_sites.setdefault(node["claim_id"], []).append(place)
    for ref in doctree.findall(verdict_node):
        place = ClaimPlace(docname, ref.line or 0, "")
        state.verdict_sites.setdefault(ref["claim_id"], []).append(place)


def outdate_pages_with_verdicts(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Re-read every page showing verdicts when the measurements changed without the page.

    The results are summed up in a fingerprint kept in the build state; when this build's is
    the same as the last one's, the pages Sphinx found changed (an edited page or catalog)
    are all that is re-read. An environment without a fingerprint (new, or kept by older
    code that kept its state elsewhere) has every page read, so that the state is whole."""
    state = build_state(env)
    fingerprint = results_for(env).fingerprint()
    previous, state.results_fingerprint = state.results_fingerprint, fingerprint
    if previous is None:
        return sorted(env.found_docs - removed)
    if previous == fingerprint:
        return []
    pages = {
        place.docname
        for sites in (state.claim_sites, state.verdict_sites)
        for places in sites.values()
        for place in places
    }
    return sorted((pages | state.dynamic_pages) - removed)


def check_claim_sites(app: Sphinx, env: BuildEnvironment) -> None:
    """Duplicates, unshown claims, and, once per claim, contradictions and probe errors."""
    results = results_for(env)
    if not results.loaded:
        return
    state = build_state(env)
    for claim_id, places in sorted(state.claim_sites.items()):
        if len(places) > 1:
            where = ", ".join(f"{env.doc2path(p.docname)}:{p.line}" for p in places)
            warn(
                CheckerWarnings.DUPLICATE_CLAIM,
                f"claim {claim_id} is shown {len(places)} times ({where}); show it once "
                "and reference it elsewhere with the verdict role",
                (places[1].docname, places[1].line),
            )
    for claim in results.registry:
        places = state.claim_sites.get(claim.id) or state.verdict_sites.get(claim.id) or []
        if not places:
            warn(CheckerWarnings.UNSHOWN_CLAIM, f"claim {claim.id} is shown on no page")
            continue
        location = (places[0].docname, places[0].line)
        verdicts = [v for d in results.devices if (v := results.verdict(claim.id, d))]
        _report(verdicts, location)


def _report(verdicts: list[Verdict], location: tuple[str, int]) -> None:
    for v in verdicts:
        if v.status is Status.CONTRADICTED or v.recorded_contradiction:
            assert v.evidence is not None
            measured = ", ".join(
                f"{m.key}={m.value!r}" for m in v.evidence.observation.measurements
            )
            warn(
                CheckerWarnings.CONTRADICTED,
                f"claim {v.claim.id} is contradicted on {v.device}: the page says it "
                f"{v.claim.expect.value}, the probe found it {v.evidence.outcome.value} "
                f"({v.evidence.observation.rule}; {measured})",
                location,
            )
        elif v.status is Status.ERROR:
            warn(
                CheckerWarnings.PROBE_ERROR,
                f"probe of claim {v.claim.id} broke on {v.device}: {v.reason}",
                location,
            )
