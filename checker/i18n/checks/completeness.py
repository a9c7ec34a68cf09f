"""Completeness: every English message of a page is in its catalog, translated, current.

Judged per catalog against the page's template (the ``.pot`` the gettext builder extracts):
a message missing from the catalog or no longer in the English makes it out of date;
``msgstr ""`` is untranslated; ``#, fuzzy`` means the English changed since; ``#~``
entries are obsolete. Code blocks are not counted: they are never translated.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from checker.i18n.findings import Check, Severity, TranslationFinding, said
from checker.i18n.sources import Key
from checker.text.po import Catalog, Entry


@dataclass(frozen=True)
class PageCoverage:
    """How much of one page is translated in one language."""

    lang: str
    page: str
    #: Translatable English messages (the template's, else the catalog's).
    total: int
    #: Of those, translated and not fuzzy.
    translated: int
    fuzzy: int = 0
    has_catalog: bool = True

    @property
    def percent(self) -> float:
        return 100.0 * self.translated / self.total if self.total else 100.0

    @property
    def complete(self) -> bool:
        return self.has_catalog and self.translated == self.total


def missing_catalog(
    path: str, lang: str, page: str, total: int
) -> tuple[TranslationFinding, PageCoverage]:
    finding = TranslationFinding(
        path,
        1,
        lang,
        page,
        Check.MISSING_CATALOG,
        Check.MISSING_CATALOG.severity,
        f"no {lang} catalog for docs/{page}.md: run 'nox -s translation -- {lang}' to create it",
    )
    return finding, PageCoverage(lang, page, total, 0, has_catalog=False)


def missing_messages(
    catalog: Catalog,
    template: Mapping[Key, Entry],
    is_code: Mapping[Key, bool],
    where: tuple[str, str, str],
) -> TranslationFinding | None:
    """One finding for the template's messages that the catalog lacks."""
    present = {(e.msgctxt, e.msgid) for e in catalog.active}
    missing = [t for k, t in template.items() if k not in present and not is_code[k]]
    if not missing:
        return None
    first = missing[0]
    location = ":".join(map(str, first.occurrences[0])) if first.occurrences else "?"
    while location.startswith("../"):
        location = location[3:]
    path, lang, page = where
    text = said(
        "English messages missing from the catalog: {count}, the first from {location}; run "
        "'nox -s translation -- {lang}'",
        count=len(missing),
        location=location,
        lang=lang,
    )
    return TranslationFinding(
        path,
        1,
        lang,
        page,
        Check.OUT_OF_DATE,
        Severity.ERROR,
        text.english,
        msgid=first.msgid,
        said=text,
    )
