"""Measured values and verdicts as words, in the page's language."""

from __future__ import annotations

from babel.numbers import format_decimal
from docutils import nodes

from checker.claim import Expect
from checker.evidence import Evidence, Outcome, Value
from checker.sphinx.ui_text import text
from checker.text.languages import LANGUAGES
from checker.verdict import Verdict

_BABEL_LOCALES: dict[str, str] = {language.code: language.locale for language in LANGUAGES}


def number(value: float, lang: str, digits: int | None = None) -> str:
    """``value`` with the language's grouping and decimal signs."""
    locale = _BABEL_LOCALES.get(lang, "en_US")
    if digits is not None:
        return str(
            format_decimal(round(value, digits), format=f"#,##0.{'0' * digits}", locale=locale)
        )
    return str(format_decimal(value, locale=locale))


def value(raw: Value, unit: str, lang: str) -> tuple[str, bool]:  # noqa: PLR0911
    """The display text of a measured value, and whether it is code (shown as a literal)."""
    if isinstance(raw, bool):
        return str(raw), True
    if unit == "bytes" and isinstance(raw, int | float):
        return text(lang, "bytes", n=number(raw, lang)), False
    if unit == "seconds" and isinstance(raw, int | float):
        return text(lang, "seconds", n=number(raw * 1000, lang, digits=2)), False
    if unit == "ratio" and isinstance(raw, int | float):
        if raw and abs(raw) < 0.01:  # a small ratio keeps two significant digits, not 0.00
            return f"{raw:.2g}", False
        return number(raw, lang, digits=2), False
    if unit == "text" and raw == "no error":  # what a call that raised nothing returned
        return text(lang, "no-error"), False
    if unit in ("dtype", "exception", "text"):
        return str(raw), True
    if isinstance(raw, float):
        if raw and not 1e-3 <= abs(raw) < 1e7:  # tiny or huge: significant digits, not 0.0000
            return f"{raw:.3g}", False
        return number(raw, lang, digits=4), False
    if isinstance(raw, int):
        return number(raw, lang), False
    return str(raw), False


def device_name(evidence: Evidence) -> str:
    """``CPU`` or ``CUDA (NVIDIA H100 80GB HBM3)``."""
    if evidence.device == "cpu":
        return "CPU"
    return f"{evidence.device.upper()} ({evidence.device_name})"


def measured_on(evidence: Evidence, lang: str) -> str:
    label = text(lang, "measured-on", device=device_name(evidence), torch=evidence.torch_version)
    if evidence.origin == "recorded":
        label += text(lang, "separator") + text(lang, "recorded", date=evidence.measured_at[:10])
    return label


#: Between the parts of a badge.
BADGE_SEPARATOR = " · "


def badge(verdict: Verdict, lang: str) -> str:
    """One line per device: ``holds · CPU · torch 2.13.0+cpu``; for a myth, ``myth refuted ·
    CPU · torch 2.13.0+cpu``."""
    return BADGE_SEPARATOR.join(badge_parts(verdict, lang))


def badge_node(verdict: Verdict, lang: str) -> nodes.inline:
    """The badge with each part in a span of its own (``checker-badge-part``), so that a
    narrow column breaks it between its parts, never inside a date or a word."""
    node = nodes.inline(classes=badge_classes(verdict))
    for i, part in enumerate(badge_parts(verdict, lang)):
        if i:
            node += nodes.Text(BADGE_SEPARATOR)
        node += nodes.inline(text=part, classes=["checker-badge-part"])
    return node


def badge_parts(verdict: Verdict, lang: str) -> list[str]:
    """The outcome (a myth's as "myth refuted" or "myth holds"), the device, its name, the
    torch version, when recorded, whether stale."""
    device = verdict.device.upper()
    evidence = verdict.evidence
    if evidence is None:
        if verdict.outcome is Outcome.ERROR:
            return [text(lang, "error"), device]
        return [text(lang, "not-run"), device]
    outcome = evidence.outcome.value
    # a myth measured false reads "myth refuted", never a bare "confirmed" or "refuted"
    myth = verdict.claim.expect is Expect.FAILS
    parts = [text(lang, f"myth-{outcome}" if myth else outcome), device]
    if evidence.device != "cpu":
        parts.append(evidence.device_name)
    parts.append(f"torch {evidence.torch_version}")
    if evidence.origin == "recorded":
        parts.append(text(lang, "recorded", date=evidence.measured_at[:10]))
    if verdict.stale:
        parts.append(text(lang, "stale"))
    if verdict.superseded:
        parts.append(text(lang, "superseded"))
    return parts


def badge_classes(verdict: Verdict) -> list[str]:
    """CSS classes: the measured outcome and whether it matches the docs."""
    classes = ["checker-badge", f"checker-{verdict.status.value}"]
    if verdict.evidence is not None:
        classes.append(f"checker-outcome-{verdict.evidence.outcome.value}")
        if verdict.evidence.origin == "recorded":
            classes.append("checker-recorded")
    if verdict.stale:
        classes.append("checker-stale")
    if verdict.superseded:
        classes.append("checker-superseded")
    return classes
