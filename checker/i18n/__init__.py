"""Translation checks: no translation can break code, flip a claim, change a number or
inject markup.

``python -m checker i18n`` reads ``locales/<lang>/LC_MESSAGES/*.po`` strictly
(:mod:`checker.text.po`), compares every translated message with its English
(:mod:`~checker.i18n.checks`) and reports :class:`~checker.i18n.findings.Finding` objects
(:mod:`~checker.i18n.report`). The pipeline::

    text/po.py (entries, lines) ─┐
    sources.py (pages, claims,   ├─▶ run.py ─▶ checks/<family>.py ─▶ TranslationFinding ─▶ report.py
      code, .pot templates)      ┘             (per message)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from checker.i18n.findings import Check, Severity, TranslationFinding

if TYPE_CHECKING:
    from checker.i18n.run import I18nOptions, I18nResult, check


def __getattr__(name: str) -> Any:
    # The runner needs babel; importing it lazily keeps `python -m checker verify`
    # usable where only torch is installed (the GPU machines).
    if name in {"I18nOptions", "I18nResult", "check"}:
        from checker.i18n import run

        return getattr(run, name)
    raise AttributeError(name)


__all__ = ["Check", "I18nOptions", "I18nResult", "Severity", "TranslationFinding", "check"]
