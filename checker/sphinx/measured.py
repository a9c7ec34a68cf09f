"""The ``measured`` role: a number in prose that a probe measured, never typed by hand.

``{measured}`relu-out-of-place-bytes``` shows the value measured on the first device the build
shows that the claim is meant for (CPU when the claim runs there), never another device's
value in its place; ``{measured}`key@cuda``` picks a device. Where the claim was not run on a
device of the build machine (its probe cannot measure its case here, or ran out of time on a
busy machine), the value reads "not measured", with the reason as its explanation. The role emits
a neutral :class:`measured_node`; :class:`MeasuredValueTransform` (every builder but gettext)
replaces it by the value, formatted for the page's language, as an abbreviation whose
explanation says on which device and torch version it was measured. Pages with measured values
or claims end with a note naming those devices and versions.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxRole

from checker.evidence import Evidence
from checker.sphinx import formatting
from checker.sphinx.claims import claim_node
from checker.sphinx.messages import translate_text
from checker.sphinx.results import mark_dynamic, results_for, shows_results
from checker.sphinx.ui_text import text
from checker.sphinx.warnings_ import CheckerWarnings, warn
from checker.typing import DEVICES
from checker.verdict import Verdict


def setup_measured(app: Sphinx) -> None:
    app.add_node(measured_node)
    app.add_role("measured", MeasuredRole())
    app.add_post_transform(MeasuredValueTransform)


class measured_node(nodes.inline):
    """A placeholder for a measured value; ``key`` and ``device`` are attributes."""


class MeasuredRole(SphinxRole):
    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        key, device = parse_reference(self.text)
        node = measured_node(self.rawtext, self.text, key=key, device=device or "")
        self.set_source_info(node)
        mark_dynamic(self.env)
        results = results_for(self.env)
        if device is not None and device not in DEVICES:
            warn(
                CheckerWarnings.UNKNOWN_MEASUREMENT,
                f"measured value {self.text!r} names unknown device {device!r}",
                node,
            )
        elif results.loaded and results.registry.by_measurement(key) is None:
            warn(
                CheckerWarnings.UNKNOWN_MEASUREMENT,
                f"no probe measures a value named {key!r}",
                node,
            )
        return [node], []


class MeasuredValueTransform(SphinxPostTransform):
    """Replaces placeholders by values and notes where the page's values were measured."""

    default_priority = 210

    def is_supported(self) -> bool:
        return shows_results(self.env)

    def run(self, **kwargs: Any) -> None:
        results = results_for(self.env)
        lang = self.config.language or "en"
        used: dict[tuple[str, str], Evidence] = {}
        for node in list(self.document.findall(measured_node)):
            found = results.value(node["key"], node["device"] or None)
            if found is None:
                unmeasured = results.unmeasured(node["key"], node["device"] or None)
                if (
                    unmeasured is None
                    and results.loaded
                    and results.registry.by_measurement(node["key"])
                ):
                    device = node["device"] or "any device"
                    warn(
                        CheckerWarnings.UNKNOWN_MEASUREMENT,
                        f"value {node['key']!r} has no evidence on {device}: run the probes "
                        f"there ('python -m checker record --device {node['device'] or 'cuda'}'"
                        " on a machine that has it) and commit the evidence file",
                        node,
                    )
                node.replace_self(not_measured(unmeasured, lang))
                continue
            raw, evidence = found
            key = evidence.measurement(node["key"])
            shown, is_code = formatting.value(raw, key.unit, lang)
            explanation = formatting.measured_on(evidence, lang)
            inner: nodes.Node = nodes.literal(text=shown) if is_code else nodes.Text(shown)
            abbr = nodes.abbreviation("", "", explanation=explanation, classes=["checker-measured"])
            abbr += inner
            node.replace_self(abbr)
            used[_context_key(evidence)] = evidence
        for claim in self.document.findall(claim_node):
            for device in results.devices:
                verdict = results.verdict(claim["claim_id"], device)
                if verdict is not None and verdict.evidence is not None:
                    ev = verdict.evidence
                    used.setdefault(_context_key(ev), ev)
        if used:
            self.document += _context_note(used, lang)


def not_measured(verdict: Verdict | None, lang: str) -> nodes.abbreviation:
    """What a page shows where a value was not measured: "not measured", explained by why
    (the claim's verdict on that device), never a raw key or another device's value."""
    why = text(lang, "not-measured-why")
    if verdict is not None:
        reason = verdict.reason.splitlines()[0] if verdict.reason else ""
        why = f"{verdict.device.upper()}: {translate_text(lang, reason)}"
    abbr = nodes.abbreviation(
        "", "", explanation=why, classes=["checker-measured", "checker-not-measured"]
    )
    abbr += nodes.Text(text(lang, "not-measured"))
    return abbr


def parse_reference(reference: str) -> tuple[str, str | None]:
    """``"key@cuda"`` gives ``("key", "cuda")``; ``"key"`` gives ``("key", None)``."""
    key, _, device = reference.strip().partition("@")
    return key.strip(), (device.strip() or None)


def _context_key(evidence: Evidence) -> tuple[str, str]:
    """Evidence measured on this machine is one entry whether this build ran its probe
    ("live") or found the result in the cache ("cache"): the page reads the same either way."""
    return (evidence.device, "recorded" if evidence.origin == "recorded" else "here")


def _context_note(used: dict[tuple[str, str], Evidence], lang: str) -> nodes.paragraph:
    parts = []
    for (_device, origin), ev in sorted(used.items(), key=lambda i: DEVICES.index(i[0][0])):
        name = formatting.device_name(ev)
        if origin == "recorded":
            parts.append(
                text(
                    lang,
                    "context-recorded",
                    device=name,
                    torch=ev.torch_version,
                    date=ev.measured_at[:10],
                )
            )
        else:
            parts.append(
                text(
                    lang,
                    "context-live",
                    device=name,
                    torch=ev.torch_version,
                    date=ev.measured_at[:10],
                )
            )
    sep = text(lang, "separator")
    return nodes.paragraph(
        text=text(lang, "context", parts=sep.join(parts)), classes=["checker-context"]
    )
