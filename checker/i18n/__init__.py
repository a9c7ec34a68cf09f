"""Translation checks: no translation can break code, flip a claim, change a number or
inject markup.

``python -m checker i18n`` reads ``locales/<lang>/LC_MESSAGES/*.po`` strictly
(:mod:`~checker.i18n.catalog`), compares every translated message with its English
(:mod:`~checker.i18n.checks`) and reports :class:`~checker.i18n.findings.Finding` objects
(:mod:`~checker.i18n.report`). The pipeline::

    catalog.py (entries, lines) ─┐
    sources.py (pages, claims,   ├─▶ run.py ─▶ checks/<family>.py ─▶ Finding ─▶ report.py
      code, .pot templates)      ┘             (per message)
"""

from __future__ import annotations

from checker.i18n.findings import Check, Finding, Severity
from checker.i18n.run import I18nOptions, I18nResult, check

__all__ = ["Check", "Finding", "I18nOptions", "I18nResult", "Severity", "check"]
