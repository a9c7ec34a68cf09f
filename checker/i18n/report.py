"""Rendering an :class:`~checker.i18n.run.I18nResult`: text, JSON, GitHub annotations.

Pure functions ``I18nResult -> str``. The text groups findings by catalog (one per page and
language) and shows the English next to the translation; JSON is the stable document
``checker.i18n/1``; GitHub annotations put each finding on its ``.po`` line in a pull request.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import groupby
from typing import Any

from checker.i18n.findings import TranslationFinding
from checker.i18n.run import I18nResult
from checker.report.github import annotation
from checker.report.plain_text import plain, plain_document

SCHEMA = "checker.i18n/1"
_WIDTH = 160


def _one_line(text: str, width: int = _WIDTH) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def render_text(result: I18nResult) -> str:
    lines: list[str] = []
    for (path, lang, page), group in groupby(
        result.findings, key=lambda f: (f.path, f.lang, f.page)
    ):
        source = page if page.startswith("(") else f"docs/{page}.md"  # "(generated text)"
        title = f"{path}" + (f"  ({lang}, {source})" if page else "")
        lines += ["", title]
        for finding in group:
            lines.append(
                f"  {finding.line}: {finding.severity.value} [{finding.check.value}] "
                f"{finding.message}"
            )
            if finding.msgid:
                lines.append(f"      en: {_one_line(finding.msgid)}")
            if finding.msgstr:
                lines.append(f"      {finding.lang}: {_one_line(finding.msgstr)}")
    lines += ["", "Coverage"]
    for lang in result.langs:
        total = result.language(lang)
        pages = [c for c in result.coverage if c.lang == lang]
        lines.append(
            f"  {lang}: {total.percent:.0f}% ({total.translated}/{total.total} messages, "
            f"{len(result.complete_pages(lang))}/{len(pages)} pages complete, "
            f"{_count(result, lang, error=True)} errors, "
            f"{_count(result, lang, error=False)} warnings)"
        )
        for c in pages:
            state = "no catalog" if not c.has_catalog else f"{c.percent:.0f}%"
            fuzzy = f", {c.fuzzy} fuzzy" if c.fuzzy else ""
            lines.append(f"      {c.page}: {state} ({c.translated}/{c.total}{fuzzy})")
    lines.append("")
    lines.append(
        f"checker i18n: {len(result.errors)} errors, {len(result.warnings)} warnings in "
        f"{result.catalogs} catalogs ({', '.join(result.langs)}); templates: {result.templates}"
    )
    return plain("\n".join(lines).lstrip("\n") + "\n")


def _count(result: I18nResult, lang: str, *, error: bool) -> int:
    return sum(1 for f in result.findings if f.lang == lang and f.is_error == error)


def render_json(result: I18nResult) -> str:
    languages: dict[str, Any] = {}
    for lang in result.langs:
        total = result.language(lang)
        languages[lang] = {
            "translated": total.translated,
            "total": total.total,
            "percent": round(total.percent, 1),
            "errors": _count(result, lang, error=True),
            "warnings": _count(result, lang, error=False),
            "pages": {
                c.page: {
                    "translated": c.translated,
                    "total": c.total,
                    "fuzzy": c.fuzzy,
                    "catalog": c.has_catalog,
                    "complete": c.complete,
                }
                for c in result.coverage
                if c.lang == lang
            },
        }
    document = {
        "schema": SCHEMA,
        "templates": result.templates,
        "catalogs": result.catalogs,
        "summary": {"errors": len(result.errors), "warnings": len(result.warnings)},
        "languages": languages,
        "findings": [_finding(f) for f in result.findings],
    }
    return json.dumps(plain_document(document), indent=2, ensure_ascii=False) + "\n"


def _finding(finding: TranslationFinding) -> dict[str, Any]:
    return {
        "path": finding.path,
        "line": finding.line,
        "lang": finding.lang,
        "page": finding.page,
        "check": finding.check.value,
        "family": finding.check.family,
        "severity": finding.severity.value,
        "message": finding.message,
        "msgid": finding.msgid,
        "msgstr": finding.msgstr,
        # the message as a template and its values, for a page in another language
        "said": finding.said.to_dict() if finding.said is not None else None,
    }


def render_github(result: I18nResult) -> str:
    lines = []
    for f in result.findings:
        message = f.message
        if f.msgid:
            message += f"\nEnglish: {_one_line(f.msgid, 300)}"
        lines.append(
            annotation(
                f.severity.value,
                message,
                path=f.path,
                line=f.line,
                title=f"translation {f.check.value}",
            )
        )
    coverage = ", ".join(f"{lang} {result.language(lang).percent:.0f}%" for lang in result.langs)
    lines.append(
        f"checker i18n: {len(result.errors)} errors, {len(result.warnings)} warnings; "
        f"coverage {coverage}"
    )
    return "\n".join(lines) + "\n"


#: Output formats by name.
RENDERERS: dict[str, Callable[[I18nResult], str]] = {
    "text": render_text,
    "json": render_json,
    "github": render_github,
}
