"""Consistency: the same English translated the same way in every catalog of a language.

Judged across catalogs, not per message: a heading, a table column or a sentence that two
pages share ("Lost indentation", "Line", "Claims checked for this review") and that two
translators rendered differently is drift the next translator should see. Warnings: the
finding sits on each rendering that differs from the most common one (ties go to the first
catalog in path order) and names where the other rendering is.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from checker.i18n.findings import Check, TranslationFinding
from checker.text.po import Entry


@dataclass(frozen=True)
class Translated:
    """One translated entry of one catalog, as the consistency check needs it."""

    path: str
    lang: str
    page: str
    entry: Entry


def check(translated: Iterable[Translated]) -> Iterator[TranslationFinding]:
    """Findings for English messages translated two or more ways within a language."""
    groups: dict[tuple[str, str | None, str], dict[str, Translated]] = {}
    for item in translated:
        entry = item.entry
        if entry.obsolete or entry.fuzzy or not entry.translated or not entry.msgid.strip():
            continue
        by_path = groups.setdefault((item.lang, entry.msgctxt, _norm(entry.msgid)), {})
        by_path.setdefault(item.path, item)  # a duplicate within a catalog is its own finding
    for by_catalog in groups.values():
        items = list(by_catalog.values())
        renderings: dict[str, list[Translated]] = {}
        for item in sorted(items, key=lambda i: (i.path, i.entry.msgstr_line)):
            renderings.setdefault(_norm(item.entry.msgstr), []).append(item)
        if len(renderings) < 2:
            continue
        common = max(renderings, key=lambda r: len(renderings[r]))  # first of the most common
        where, *more = renderings[common]
        elsewhere = f"{where.path}:{where.entry.msgstr_line}"
        elsewhere += f" and {len(more)} more" if more else ""
        text = f"translated differently elsewhere: {_short(common)!r} in {elsewhere}"
        for rendering, others in renderings.items():
            for item in others if rendering != common else ():
                yield TranslationFinding(
                    item.path,
                    item.entry.msgstr_line,
                    item.lang,
                    item.page,
                    Check.CONSISTENCY,
                    Check.CONSISTENCY.severity,
                    f"{text}; use one translation",
                    msgid=item.entry.msgid,
                    msgstr=item.entry.msgstr,
                )


def _norm(text: str) -> str:
    return " ".join(text.split())


def _short(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
