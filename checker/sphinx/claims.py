"""The ``claim`` directive: a statement about PyTorch, proven on every device when built;
the ``verdict`` role: a claim's verdicts, referenced from elsewhere (a review table).

Markup::

    ```{claim}
    :id: views/sharing-tensors-have-different-ids
    :expect: holds

    Tensors that share storage, such as a tensor and its `detach()` or `view()`, are different
    Python objects: their `id()` values differ.
    ```

    `torch.tensor` always copies: {verdict}`views/torch-tensor-copies`.

The directive emits a neutral :class:`claim_node` holding the statement, so the gettext
builder extracts only the statement for translation; the role emits a :class:`verdict_node`
holding the id. The HTML post-transform :class:`ClaimHtmlTransform` adds a label, a verdict
badge per device and a folded evidence panel (:mod:`checker.sphinx.evidence_panel`) to each
claim, and the badges to each reference::

    claim_node (container, ids=[claim-<id>], classes=[checker-claim, checker-expect-<e>])
        inline (checker-claim-label)          <- added for HTML
        paragraph ...                         <- the statement, translated
        container (checker-badges)            <- added for HTML
            inline (checker-badge ...) per device, then changes across releases
        evidence_panel (checker-evidence)     <- added for HTML

Where claims are shown, and the checks of the whole build over them (duplicates, unshown
claims, contradictions, probe errors), are :mod:`checker.sphinx.claim_checks`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective, SphinxRole

from checker.claim import Expect
from checker.sphinx import formatting
from checker.sphinx.evidence_panel import evidence_panel_for
from checker.sphinx.results import results_for
from checker.sphinx.ui_text import text
from checker.sphinx.warnings_ import CheckerWarnings, warn
from checker.text.links import anchor
from checker.versions import Versions, short

#: The key, in the data Sphinx keeps while it reads one page, of the claims whose verdict
#: the page has referenced already (the first reference is the link target).
_REFERENCED = "checker_verdict_ids"


def setup_claims(app: Sphinx) -> None:
    app.add_node(claim_node)
    app.add_node(verdict_node)
    app.add_directive("claim", ClaimDirective)
    app.add_role("verdict", VerdictRole())
    app.add_post_transform(ClaimHtmlTransform)


class claim_node(nodes.container):
    """A claim's statement; ``claim_id`` and ``expect`` are attributes."""


class verdict_node(nodes.inline):
    """A claim's verdicts, inline (a table cell of a review page); ``claim_id`` attribute."""


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
        seen = self.env.current_document.setdefault(_REFERENCED, set())
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


class ClaimHtmlTransform(SphinxPostTransform):
    """Adds label, badges and evidence to every claim, and badges to every reference."""

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
            panel = evidence_panel_for(verdicts, results.versions, claim.id, lang)
            if panel is not None:
                node += panel

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
    """A note beside the badges for each change across torch releases: "holds since 2.5"
    between adjacent releases, "holds by torch 2.8 at the latest (fails on torch 2.5)" where
    the sampled releases only bound the change."""
    notes: list[nodes.Node] = []
    for change in found.transitions(claim_id):
        label = text(
            lang,
            "since" if change.exact else "by-release",
            outcome=text(lang, f"outcome-{change.outcome}"),
            release=short(change.release),
            before=text(lang, f"outcome-{change.before}"),
            previous=short(change.previous),
        )
        notes.append(nodes.inline(text=label, classes=["checker-badge", "checker-release-change"]))
    broken = found.errors(claim_id)
    if broken and len(broken) < len(found.releases):
        label = text(lang, "release-error", releases=", ".join(short(r) for r in broken))
        notes.append(nodes.inline(text=label, classes=["checker-badge", "checker-release-change"]))
    return notes
