"""The ``claim`` directive: a statement about PyTorch, proven on every device when built.

Markup::

    ```{claim}
    :id: saved-tensors/disable-hooks-reduces-memory
    :expect: fails

    Running code inside `disable_saved_tensors_hooks` makes autograd keep less memory.
    ```

The directive emits a neutral :class:`claim_node` holding the statement, so the gettext
builder extracts only the statement for translation. The HTML post-transform
:class:`ClaimHtmlTransform` adds a label, a verdict badge per device and a collapsible
evidence block, and fails the build (a warning, an error under ``-W``) when a probe
contradicts the page or breaks::

    claim_node (container, ids=[claim-<id>], classes=[checker-claim, checker-expect-<e>])
        inline (checker-claim-label)          <- added for HTML
        paragraph ...                         <- the statement, translated
        container (checker-badges)            <- added for HTML
        raw <details> container (checker-evidence) raw </details>
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective, SphinxRole

from checker.claim import Expect
from checker.links import anchor
from checker.sphinx import formatting
from checker.sphinx.messages import translate_text
from checker.sphinx.results import Results, dynamic_pages, results_for
from checker.sphinx.tables import table
from checker.sphinx.ui_text import text
from checker.sphinx.warnings_ import CheckerWarnings, warn
from checker.verdict import Status, Verdict
from checker.versions import Versions, short


def setup_claims(app: Sphinx) -> None:
    app.add_node(claim_node)
    app.add_node(verdict_node)
    app.add_directive("claim", ClaimDirective)
    app.add_role("verdict", VerdictRole())
    app.add_post_transform(ClaimHtmlTransform)
    app.connect("env-get-outdated", outdate_pages_with_verdicts)
    app.connect("doctree-read", collect_claim_sites)
    app.connect("env-purge-doc", purge_claim_sites)
    app.connect("env-merge-info", merge_claim_sites)
    app.connect("env-check-consistency", check_claim_sites)


class claim_node(nodes.container):
    """A claim's statement; ``claim_id`` and ``expect`` are attributes."""


class verdict_node(nodes.inline):
    """A claim's verdicts, inline (a table cell of a review page); ``claim_id`` attribute."""


# -- directive ------------------------------------------------------------------------------


class ClaimDirective(SphinxDirective):
    """``claim`` with options ``id`` and ``expect``; the body is the statement."""

    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "id": directives.unchanged_required,
        "expect": lambda arg: directives.choice(arg, [e.value for e in Expect]),
    }

    def run(self) -> list[nodes.Node]:
        claim_id = self.options.get("id", "").strip()
        expect = self.options.get("expect")
        node = claim_node(
            claim_id=claim_id,
            expect=expect or "",
            classes=["checker-claim", f"checker-expect-{expect or 'unknown'}"],
        )
        self.set_source_info(node)
        if not claim_id or not expect:
            warn(CheckerWarnings.DIRECTIVE, "a claim needs both :id: and :expect:", node)
            return []
        if not self.content:
            warn(CheckerWarnings.DIRECTIVE, f"claim {claim_id} has no statement", node)
            return []
        node["ids"].append(anchor(claim_id))
        node.extend(self.parse_content_to_nodes())
        results = results_for(self.env)
        claim = results.registry.get(claim_id)
        if claim is None:
            if results.loaded:
                warn(CheckerWarnings.UNKNOWN_CLAIM, f"unknown claim id {claim_id!r}", node)
        elif claim.expect.value != expect:
            warn(
                CheckerWarnings.EXPECT_MISMATCH,
                f"claim {claim_id} expects {expect!r} here, but is defined with "
                f"expect={claim.expect.value!r}",
                node,
            )
        return [node]


class VerdictRole(SphinxRole):
    """``{verdict}`claim-id``` shows a claim's verdict badges inline, for review tables."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        claim_id = self.text.strip()
        node = verdict_node(claim_id=claim_id, classes=["checker-verdict"])
        seen = self.env.temp_data.setdefault("checker_verdict_ids", set())
        assert isinstance(seen, set)
        if claim_id not in seen:  # the first reference on a page is the link target
            seen.add(claim_id)
            node["ids"].append(anchor(claim_id, "verdict"))
        node += nodes.literal(text=claim_id)
        self.set_source_info(node)
        results = results_for(self.env)
        if results.loaded and results.registry.get(claim_id) is None:
            warn(CheckerWarnings.UNKNOWN_CLAIM, f"unknown claim id {claim_id!r}", node)
        return [node], []


# -- where claims are shown (collected after translation, so statements are translated) -----


#: Where a claim appears: ``(docname, line, translated statement)``; the statement is empty
#: for ``verdict`` references.
Site = tuple[str, int, str]


def _store(env: BuildEnvironment, name: str) -> dict[str, list[Site]]:
    if not hasattr(env, name):
        setattr(env, name, {})
    store: dict[str, list[Site]] = getattr(env, name)
    return store


def collect_claim_sites(app: Sphinx, doctree: nodes.document) -> None:
    shown, referenced = _store(app.env, "checker_claim_sites"), _store(app.env, "checker_refs")
    for node in doctree.findall(claim_node):
        statement = " ".join(p.astext() for p in node.findall(nodes.paragraph))
        shown.setdefault(node["claim_id"], []).append((app.env.docname, node.line or 0, statement))
    for ref in doctree.findall(verdict_node):
        referenced.setdefault(ref["claim_id"], []).append((app.env.docname, ref.line or 0, ""))


def purge_claim_sites(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    for name in ("checker_claim_sites", "checker_refs"):
        store = _store(env, name)
        for claim_id, places in list(store.items()):
            kept = [p for p in places if p[0] != docname]
            if kept:
                store[claim_id] = kept
            else:
                del store[claim_id]


def merge_claim_sites(
    app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment
) -> None:
    for name in ("checker_claim_sites", "checker_refs"):
        for claim_id, places in _store(other, name).items():
            _store(env, name).setdefault(claim_id, []).extend(p for p in places if p[0] in docnames)


def outdate_pages_with_verdicts(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Re-read every page showing verdicts when the measurements changed without the page.

    The results are summed up in a fingerprint kept in the environment; when this build's is
    the same as the last one's, the pages Sphinx found changed (an edited page or catalog)
    are all that is re-read."""
    fingerprint = results_fingerprint(results_for(env))
    previous = getattr(env, "checker_results_fingerprint", None)
    env.checker_results_fingerprint = fingerprint  # type: ignore[attr-defined]
    if previous == fingerprint:
        return []
    pages = {
        d
        for name in ("checker_claim_sites", "checker_refs")
        for places in _store(env, name).values()
        for d, _, _ in places
    }
    return sorted((pages | dynamic_pages(env)) - removed)


def check_claim_sites(app: Sphinx, env: BuildEnvironment) -> None:
    """Duplicates, unshown claims, and, once per claim, contradictions and probe errors."""
    results = results_for(env)
    if not results.loaded:
        return
    shown, referenced = _store(env, "checker_claim_sites"), _store(env, "checker_refs")
    for claim_id, places in sorted(shown.items()):
        if len(places) > 1:
            where = ", ".join(f"{env.doc2path(d)}:{line}" for d, line, _ in places)
            warn(
                CheckerWarnings.DUPLICATE_CLAIM,
                f"claim {claim_id} is shown {len(places)} times ({where}); show it once "
                "and reference it elsewhere with the verdict role",
                (places[1][0], places[1][1]),
            )
    for claim in results.registry:
        places = shown.get(claim.id) or referenced.get(claim.id) or []
        if not places:
            warn(CheckerWarnings.UNSHOWN_CLAIM, f"claim {claim.id} is shown on no page")
            continue
        location = (places[0][0], places[0][1])
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


def claim_sites(env: BuildEnvironment) -> dict[str, list[Site]]:
    """Where each claim is shown by a ``claim`` directive."""
    return _store(env, "checker_claim_sites")


def claim_references(env: BuildEnvironment) -> dict[str, list[Site]]:
    """Where each claim's verdict is referenced with the ``verdict`` role."""
    return _store(env, "checker_refs")


# -- HTML post-transform -------------------------------------------------------------------


class ClaimHtmlTransform(SphinxPostTransform):
    """Adds label, badges and evidence to every claim; reports contradictions."""

    default_priority = 200
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        results = results_for(self.env)
        lang = self.config.language or "en"
        for node in list(self.document.findall(claim_node)):
            claim = results.registry.get(node["claim_id"])
            if claim is None:
                continue
            verdicts = [
                v
                for d in results.devices
                if d in claim.devices and (v := results.verdict(claim.id, d)) is not None
            ]
            label = "myth" if claim.expect is Expect.FAILS else "claim"
            node.insert(0, nodes.inline(text=text(lang, label), classes=["checker-claim-label"]))
            badges = nodes.container(classes=["checker-badges"])
            for verdict in verdicts:
                badges += nodes.inline(
                    text=formatting.badge(verdict, lang), classes=formatting.badge_classes(verdict)
                )
            node += badges
            if results.versions is not None:
                badges += _release_changes(results.versions, claim.id, lang)
            evidence = _evidence_block(verdicts, lang)
            if evidence is not None and results.versions is not None:
                evidence += _release_history(results.versions, claim.id, lang)
            if evidence is not None:
                summary = text(lang, "evidence")
                node += nodes.raw(
                    "",
                    f'<details class="checker-evidence"><summary>{summary}</summary>',
                    format="html",
                )
                node += evidence
                node += nodes.raw("", "</details>", format="html")

        for ref in list(self.document.findall(verdict_node)):
            claim = results.registry.get(ref["claim_id"])
            if claim is None:
                continue
            ref.children = []
            for device in claim.devices:
                found = results.verdict(claim.id, device)
                if found is not None:
                    ref += nodes.inline(
                        text=formatting.badge(found, lang),
                        classes=formatting.badge_classes(found),
                    )


def _release_changes(found: Versions, claim_id: str, lang: str) -> list[nodes.Node]:
    """A note beside the badges for each change across torch releases ("holds since 2.5")."""
    notes: list[nodes.Node] = []
    for outcome, release in found.changes(claim_id):
        label = text(
            lang, "since", outcome=text(lang, f"outcome-{outcome}"), release=short(release)
        )
        notes.append(nodes.inline(text=label, classes=["checker-badge", "checker-release-change"]))
    broken = found.errors(claim_id)
    if broken and len(broken) < len(found.releases):
        label = text(lang, "release-error", releases=", ".join(short(r) for r in broken))
        notes.append(nodes.inline(text=label, classes=["checker-badge", "checker-release-change"]))
    return notes


def _release_history(found: Versions, claim_id: str, lang: str) -> list[nodes.Node]:
    """``Across torch releases (CPU): 2.4 holds · 2.5 holds · ...`` in the evidence panel."""
    history = found.history(claim_id)
    if not history:
        return []
    para = nodes.paragraph(classes=["checker-releases"])
    para += nodes.emphasis(text=f"{text(lang, 'releases')}: ")
    para += nodes.Text(" · ".join(f"{short(r)} {text(lang, f'outcome-{o}')}" for r, o in history))
    return [para]


def _control_paragraph(verdict: Verdict, lang: str) -> nodes.paragraph:
    """``Control: <label>, <measurements>, <outcome>``, or why the claim has none."""
    para = nodes.paragraph(classes=["checker-control"])
    claim, evidence = verdict.claim, verdict.evidence
    found = evidence.control if evidence is not None else None
    if claim.control is None:
        para += nodes.emphasis(text=f"{text(lang, 'no-control')}: ")
        reason = claim.no_control
        para += nodes.Text(translate_text(lang, reason) if reason else text(lang, "no-control-yet"))
        return para
    para += nodes.emphasis(text=f"{text(lang, 'control')}: ")
    if found is None:
        label = translate_text(lang, claim.control.label)
        para += nodes.Text(f"{label}, {text(lang, 'not-run')}")
        return para
    para += nodes.Text(f"{translate_text(lang, found.label)}, ")
    for m in found.observation.measurements:
        shown, is_code = formatting.value(m.value, m.unit, lang)
        para += nodes.literal(text=m.key)
        para += nodes.Text(" ")
        para += nodes.literal(text=shown) if is_code else nodes.Text(shown)
        para += nodes.Text(", ")
    para += nodes.strong(text=text(lang, found.outcome.value))
    return para


def _evidence_block(verdicts: list[Verdict], lang: str) -> nodes.container | None:
    block = nodes.container(classes=["checker-evidence-body"])
    for verdict in verdicts:
        evidence = verdict.evidence
        if evidence is None:
            if verdict.reason:
                reason = translate_text(lang, verdict.reason)
            else:
                reason = text(lang, verdict.outcome.value)
            block += nodes.paragraph(text=f"{verdict.device.upper()}: {reason}")
            continue
        heading = nodes.paragraph(classes=["checker-evidence-device"])
        heading += nodes.strong(text=formatting.measured_on(evidence, lang))
        heading += nodes.Text(" · ")
        heading += nodes.Text(
            text(lang, "duration", n=formatting.number(evidence.duration_s * 1000, lang, 1))
        )
        block += heading
        rows = []
        for m in evidence.observation.measurements:
            shown, is_code = formatting.value(m.value, m.unit, lang)
            rows.append(
                [
                    nodes.literal(text=m.key),
                    nodes.literal(text=shown) if is_code else nodes.Text(shown),
                ]
            )
        if rows:
            block += table(
                [text(lang, "measurement"), text(lang, "value")],
                rows,
                classes=["checker-evidence-table"],
            )
        rule = nodes.paragraph()
        rule += nodes.emphasis(text=f"{text(lang, 'rule')}: ")
        rule += nodes.Text(translate_text(lang, evidence.observation.rule))
        block += rule
        block += _control_paragraph(verdict, lang)
        probe = nodes.paragraph()
        probe += nodes.emphasis(text=f"{text(lang, 'probe')}: ")
        probe += nodes.literal(text=verdict.claim.probe_name)
        probe += nodes.Text(f" ({evidence.probe_hash})")
        block += probe
    return block if len(block) else None


def results_fingerprint(results: Results) -> str:
    """A digest of everything a page can show from the results: each verdict and its
    evidence, the outcomes across releases, and the day of the build."""
    verdicts = [
        [claim_id, device, v.outcome.value, v.reason, v.stale]
        + ([] if v.evidence is None else [v.evidence.origin, v.evidence.to_dict()])
        for (claim_id, device), v in sorted(results.verdicts.items())
    ]
    raw = json.dumps(
        [verdicts, repr(results.versions), results.built_at, results.devices, results.loaded],
        sort_keys=True,
        default=str,
    )
    return hashlib.sha256(raw.encode()).hexdigest()
