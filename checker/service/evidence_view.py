"""A claim finding's evidence (:class:`~checker.scan.claim_evidence.ClaimEvidence`) in the
findings page's language, as the docs show evidence: the statement as the page's catalog
translates it, each measured value with its unit formatted by the docs' own formatter
(:func:`checker.sphinx.formatting.value`: "4,587,524 バイト"), the measurement's key as code,
the decision rule, the control's label and the outcomes as the extension's catalog
translates them. The page's own words around them (agrees, denies, no evidence) are the
template's; here only data, never markup. And a finding's message (its ``said``: a
template and its values) as the service's catalog translates it."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from checker.evidence import Measurement
from checker.scan.claim_evidence import ClaimEvidence, DeviceEvidence
from checker.sphinx import formatting
from checker.sphinx.messages import translate_text
from checker.sphinx.ui_text import text
from checker.text.fields import fill
from checker.versions import short

#: Inline code in a statement as the page writes it (MyST).
_CODE = re.compile(r"`([^`]+)`")


@dataclass(frozen=True)
class Segment:
    """A piece of shown text; ``code`` is shown as code."""

    text: str
    code: bool = False


@dataclass(frozen=True)
class ShownValue:
    """One measurement: its key (shown as code) and its value with its unit."""

    key: str
    value: str
    code: bool


@dataclass(frozen=True)
class DeviceView:
    #: "measured on CPU, torch 2.13.0+cpu" (and when it was recorded elsewhere).
    measured_on: str
    outcome: str
    rule: str
    values: tuple[ShownValue, ...]
    #: The control's label, ``""`` without control evidence.
    control: str
    control_outcome: str
    control_values: tuple[ShownValue, ...]


@dataclass(frozen=True)
class EvidenceView:
    statement: tuple[Segment, ...]
    agrees: bool
    devices: tuple[DeviceView, ...]
    #: ``(DEVICE, reason)`` of devices whose probe did not decide.
    undecided: tuple[tuple[str, str], ...]
    needs_cuda: bool
    #: How the probe's outcome changed across releases ("fails since torch 2.5"), or ``""``.
    older: str
    source_not_contradicted: bool
    #: The docs' labels: "Decision rule", "Control", and between a label and its text.
    rule_label: str
    control_label: str
    colon: str


def evidence_view(data: Mapping[str, Any] | None, lang: str, root: Path) -> EvidenceView | None:
    """The view of a finding's ``measured`` (its JSON), or ``None`` without one."""
    if not data:
        return None
    try:
        evidence = ClaimEvidence.from_dict(data)
    except ValueError:
        return None  # a result stored by an older version: its English evidence is shown
    older = ""
    if evidence.older is not None:
        change = evidence.older
        outcome = text(lang, f"outcome-{change.outcome}")
        if change.exact:
            older = text(lang, "since", outcome=outcome, release=short(change.release))
        else:
            older = text(
                lang,
                "by-release",
                outcome=outcome,
                release=short(change.release),
                before=text(lang, f"outcome-{change.before}"),
                previous=short(change.previous),
            )
    return EvidenceView(
        statement=segments(statement_in(root, evidence.claim, lang) or evidence.statement),
        agrees=evidence.agrees,
        devices=tuple(_device(d, lang) for d in evidence.devices),
        undecided=tuple(
            (device.upper(), translate_text(lang, reason) if reason else text(lang, "not-run"))
            for device, reason in evidence.undecided
        ),
        needs_cuda=evidence.needs_cuda,
        older=older,
        source_not_contradicted=evidence.source_not_contradicted,
        rule_label=text(lang, "rule"),
        control_label=text(lang, "control"),
        colon=text(lang, "colon"),
    )


def _device(found: DeviceEvidence, lang: str) -> DeviceView:
    device = "CPU" if found.device == "cpu" else f"{found.device.upper()} ({found.device_name})"
    measured_on = text(lang, "measured-on", device=device, torch=found.torch_version)
    if found.recorded:
        measured_on += text(lang, "separator") + text(lang, "recorded", date=found.recorded)
    return DeviceView(
        measured_on=measured_on,
        outcome=text(lang, f"outcome-{found.outcome}"),
        rule=translate_text(lang, found.rule),
        values=_values(found.measurements, lang),
        control=translate_text(lang, found.control) if found.control else "",
        control_outcome=text(lang, f"outcome-{found.control_outcome}")
        if found.control_outcome
        else "",
        control_values=_values(found.control_measurements, lang),
    )


def _values(measurements: Sequence[Measurement], lang: str) -> tuple[ShownValue, ...]:
    shown = []
    for m in measurements:
        value, code = formatting.value(m.value, m.unit, lang)
        shown.append(ShownValue(m.key, value, code))
    return tuple(shown)


def segments(statement: str) -> tuple[Segment, ...]:
    """A statement as the page writes it, its inline code (```x```) as code."""
    parts = _CODE.split(statement)
    return tuple(Segment(part, code=bool(i % 2)) for i, part in enumerate(parts) if part)


def statement_in(root: Path, claim_id: str, lang: str) -> str | None:
    """The claim's statement as the docs page of ``lang`` shows it: the translation of the
    claim directive's statement in the page's catalog (the reviewed one), ``None`` where the
    page or its translation is missing."""
    if lang == "en":
        return None
    return _statements(root.resolve(), lang).get(claim_id)


@functools.lru_cache(maxsize=8)
def _statements(root: Path, lang: str) -> dict[str, str]:
    from checker.text.po import read_catalog
    from checker.text.sites import claim_sites

    found: dict[str, str] = {}
    catalogs: dict[str, dict[str, str]] = {}
    for claim_id, sites in claim_sites(root / "docs").items():
        site = sites[0]
        if site.docname not in catalogs:
            path = root / "locales" / lang / "LC_MESSAGES" / f"{site.docname}.po"
            catalog = read_catalog(path, lang) if path.is_file() else None
            catalogs[site.docname] = {
                e.msgid: e.msgstr
                for e in (catalog.active if catalog is not None else ())
                if e.translated and not e.fuzzy
            }
        translated = catalogs[site.docname].get(site.statement)
        if translated:
            found[claim_id] = translated
    return found


def said_in(finding: Mapping[str, Any], lang: str, root: Path) -> str:
    """A finding's message (the gate's) or evidence (the scanner's) in ``lang``: its
    template (``said``) as the service's catalog translates it, filled with its values, a
    value that is a sentence of its own translated too, a claim's statement as the docs page
    of ``lang`` states it; the English where the finding has no template."""
    said = finding.get("said")
    english = str(finding.get("message", finding.get("evidence", "")))
    if not said or lang == "en":
        return english
    from checker.service.ui import translations

    statement = statement_in(root, str(finding.get("claim") or ""), lang)
    return _translated(said, translations(lang).gettext, statement)


def _translated(
    said: Mapping[str, Any], gettext: Callable[[str], str], statement: str | None
) -> str:
    values = {
        name: value if isinstance(value, str) else _translated(value, gettext, statement)
        for name, value in (said.get("values") or {}).items()
    }
    if statement is not None and "statement" in values:
        values["statement"] = statement.replace("`", "").rstrip("。.")
    return fill(gettext(str(said["template"])), values)
