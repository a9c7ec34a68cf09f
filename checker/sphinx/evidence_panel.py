"""A claim's evidence, folded under its statement: what each device measured, the decision
rule, the control, the probe, and the outcomes across torch releases.

:class:`~checker.sphinx.claims.ClaimHtmlTransform` (HTML only) appends the panel that
:func:`evidence_panel_for` builds from the claim's verdicts::

    evidence_panel (classes=[checker-evidence])               <details>
        evidence_summary "Evidence"                           <summary>
        container (checker-evidence-body)
            paragraph (checker-evidence-device) per device: where and how long
            table (checker-evidence-table)    measurements
            paragraph                         decision rule
            paragraph (checker-control)       the control, or why there is none
            paragraph                         probe and its hash
            paragraph (checker-releases)      across torch releases (CPU)

In HTML the panel is a ``<details>`` element and its summary the ``<summary>`` that unfolds
it. A panel is a container and its summary a rubric, so any other builder that meets them
renders them as those (Sphinx's translators fall back on a node's base classes).
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.writers.html5 import HTML5Translator

from checker.sphinx import formatting
from checker.sphinx.messages import translate_text
from checker.sphinx.tables import table
from checker.sphinx.ui_text import text
from checker.verdict import Verdict
from checker.versions import Versions, short


def setup_evidence_panel(app: Sphinx) -> None:
    app.add_node(evidence_panel, html=(visit_evidence_panel, depart_evidence_panel))
    app.add_node(evidence_summary, html=(visit_evidence_summary, depart_evidence_summary))


class evidence_panel(nodes.container):
    """A foldable panel: an :class:`evidence_summary`, then what unfolds."""


class evidence_summary(nodes.rubric):
    """The words that unfold an :class:`evidence_panel`."""


def visit_evidence_panel(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append(self.starttag(node, "details", suffix=""))


def depart_evidence_panel(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append("</details>")


def visit_evidence_summary(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append(self.starttag(node, "summary", suffix=""))


def depart_evidence_summary(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append("</summary>")


def evidence_panel_for(
    verdicts: list[Verdict], found: Versions | None, claim_id: str, lang: str
) -> evidence_panel | None:
    """The panel of one claim, in ``lang``; ``None`` when no device has a verdict."""
    body = _evidence_body(verdicts, lang)
    if body is None:
        return None
    if found is not None:
        body += _release_history(found, claim_id, lang)
    panel = evidence_panel(classes=["checker-evidence"])
    panel += evidence_summary(text=text(lang, "evidence"))
    panel += body
    return panel


def _evidence_body(verdicts: list[Verdict], lang: str) -> nodes.container | None:
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
        rule += nodes.emphasis(text=text(lang, "rule") + text(lang, "colon"))
        rule += nodes.Text(translate_text(lang, evidence.observation.rule))
        block += rule
        block += _control_paragraph(verdict, lang)
        probe = nodes.paragraph()
        probe += nodes.emphasis(text=text(lang, "probe") + text(lang, "colon"))
        probe += nodes.literal(text=verdict.claim.probe_name)
        probe += nodes.Text(f" ({evidence.probe_hash})")
        block += probe
    return block if len(block) else None


def _control_paragraph(verdict: Verdict, lang: str) -> nodes.paragraph:
    """``Control: <label>, <measurements>, <outcome>``, or why the claim has none."""
    para = nodes.paragraph(classes=["checker-control"])
    claim, evidence = verdict.claim, verdict.evidence
    found = evidence.control if evidence is not None else None
    if claim.control is None:
        para += nodes.emphasis(text=text(lang, "no-control") + text(lang, "colon"))
        reason = claim.no_control
        para += nodes.Text(translate_text(lang, reason) if reason else text(lang, "no-control-yet"))
        return para
    para += nodes.emphasis(text=text(lang, "control") + text(lang, "colon"))
    if found is None:
        label = translate_text(lang, claim.control.label)
        para += nodes.Text(label + text(lang, "separator") + text(lang, "not-run"))
        return para
    separator = text(lang, "separator")
    para += nodes.Text(translate_text(lang, found.label) + separator)
    for m in found.observation.measurements:
        shown, is_code = formatting.value(m.value, m.unit, lang)
        para += nodes.literal(text=m.key)
        para += nodes.Text(" ")
        para += nodes.literal(text=shown) if is_code else nodes.Text(shown)
        para += nodes.Text(separator)
    para += nodes.strong(text=text(lang, found.outcome.value))
    return para


def _release_history(found: Versions, claim_id: str, lang: str) -> list[nodes.Node]:
    """``Across torch releases (CPU): 2.4 holds · 2.5 holds · ...``."""
    history = found.history(claim_id)
    if not history:
        return []
    para = nodes.paragraph(classes=["checker-releases"])
    para += nodes.emphasis(text=text(lang, "releases") + text(lang, "colon"))
    para += nodes.Text(" · ".join(f"{short(r)} {text(lang, f'outcome-{o}')}" for r, o in history))
    return [para]
