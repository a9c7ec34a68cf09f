"""Catalogs of generated text: what a program writes on pages (the Sphinx extension's labels,
decision rules and reasons; the HTML theme's labels; the service's pages), translated in a
gettext domain of its own and checked by the gate like a page's catalog.

The gate does not know which programs generate text: each edge that does describes its
catalogs as :class:`GeneratedCatalog` (:mod:`checker.sphinx.generated_text`,
:func:`checker.service.ui.generated_catalog`), and the command line, the summary and the
tests hand them to the gate (:mod:`checker.project`). :func:`check_catalog` judges one
language's catalog with the same findings as a page's catalog (missing, out of date,
untranslated, fuzzy, malformed) and the checks that apply to plain text: placeholders,
numbers, code words, HTML and the glossary.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from checker.claim import Claim
from checker.i18n.checks import english as english_check
from checker.i18n.checks import glossary as glossary_check
from checker.i18n.checks import register, roles, security, structure, terms
from checker.i18n.checks.completeness import PageCoverage
from checker.i18n.findings import Check, Severity, TranslationFinding
from checker.i18n.glossary import Glossary
from checker.i18n.message import Message
from checker.text.fields import FIELD
from checker.text.po import read_catalog
from checker.typing import Lang

#: Words of a rule that are code: API names, calls, indexing, operators.
_CODE_WORD = re.compile(r"[\w.\[\]():=*'\"-]*(?:\w_\w|\w\.\w|\(|\[|\*\*|=)[\w.\[\]():=*'\"-]*")
_PERCENT_FIELD = re.compile(r"%\([A-Za-z_]\w*\)[sd]")
_CODE_TRIGGER = re.compile(r"\w_\w|\w\.\w|\w\(|\[|\*\*|=")


@dataclass(frozen=True)
class GeneratedMessage:
    """One message of a catalog of generated text."""

    msgid: str
    context: str | None
    #: ``path:line`` where the English is written.
    locations: tuple[str, ...]
    #: For translators: what the message is (``label``, ``decision rule of amp/...``).
    comment: str

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.context, self.msgid)


@dataclass(frozen=True)
class Extraction:
    messages: tuple[GeneratedMessage, ...]
    #: ``(path, line, text)`` of rules that could not be read as text.
    problems: tuple[tuple[str, int, str], ...] = ()


#: How a catalog's messages are read: from the loaded claims, the repository's root and the
#: recorded evidence files (a catalog uses what it needs of them).
Extractor = Callable[[Sequence[Claim], Path, tuple[Path, ...]], Extraction]


@dataclass(frozen=True)
class GeneratedCatalog:
    """A gettext domain of generated text, as the gate checks it."""

    #: How findings and coverage name it: ``"(generated text)"``.
    page: str
    #: The domain: its catalogs are ``<locale_dir>/<lang>/LC_MESSAGES/<domain>.po``.
    domain: str
    locale_dir: Path
    #: Its English messages.
    extract: Extractor

    def path(self, lang: str) -> Path:
        return self.locale_dir / lang / "LC_MESSAGES" / f"{self.domain}.po"


def check_catalog(
    path: Path,
    shown_path: str,
    lang: Lang,
    messages: tuple[GeneratedMessage, ...],
    glossary: Glossary | None,
    *,
    page: str,
) -> tuple[list[TranslationFinding], PageCoverage]:
    """The findings of one language's catalog of generated text and its coverage."""
    template = {m.key: m for m in messages}
    findings: list[TranslationFinding] = []
    if not path.exists():
        text = f"no catalog for the {page[1:-1]}: run 'nox -s translation -- {lang}'"
        findings.append(_finding(shown_path, 1, lang, Check.MISSING_CATALOG, text, page=page))
        return findings, PageCoverage(lang, page, len(template), 0, 0, has_catalog=False)
    catalog = read_catalog(path, lang)
    findings += [
        _finding(shown_path, p.line, lang, Check(p.kind.value), p.message, page=page)
        for p in catalog.problems
    ]
    if catalog.fatal:
        return findings, PageCoverage(lang, page, len(template), 0)
    translated = fuzzy = 0
    present = set()
    for entry in catalog.entries:
        key = (entry.msgctxt, entry.msgid)
        message = Message(shown_path, lang, page, entry, entry.msgstr, glossary=glossary)
        if entry.obsolete:
            findings.append(message.finding(Check.OBSOLETE, "an obsolete (#~) entry: delete it"))
            continue
        present.add(key)
        if key not in template:
            text = "the extension no longer generates this message: run 'nox -s i18n'"
            findings.append(message.finding(Check.OUT_OF_DATE, text, line=entry.msgid_line))
        elif entry.fuzzy:
            text = "marked fuzzy: check the translation against the changed English"
            findings.append(message.finding(Check.FUZZY, text, line=entry.flags_line or entry.line))
            fuzzy += 1
        elif not entry.translated:
            findings.append(message.finding(Check.UNTRANSLATED, "not translated yet"))
        else:
            translated += 1
            findings += check_message(message)
    missing = [m for key, m in template.items() if key not in present]
    if missing:
        first = missing[0].msgid if len(missing[0].msgid) < 70 else missing[0].msgid[:67] + "..."
        text = (
            f"{len(missing)} generated message(s) missing from the catalog (first: {first!r}): "
            f"run 'nox -s i18n'"
        )
        findings.append(_finding(shown_path, 1, lang, Check.OUT_OF_DATE, text, page=page))
    return findings, PageCoverage(lang, page, len(template), translated, fuzzy)


def problem_findings(extraction: Extraction, page: str) -> list[TranslationFinding]:
    """A rule that cannot be extracted, once for all languages."""
    return [
        TranslationFinding(
            where, line, "", page, Check.INTERNAL, Severity.ERROR, f"decision rule {text}"
        )
        for where, line, text in extraction.problems
    ]


def check_message(message: Message) -> list[TranslationFinding]:
    """The checks of a translated generated message: the plain-text ones."""
    found = list(_placeholders(message))
    found += _code_words(message)
    found += security.check_plain_text(message)
    found += structure.check_numbers(message)
    # the glossary judges the words, not the code: "view" in a.view(2, 1) is no ビュー
    english = FIELD.sub(" ", message.english)
    for word in _code_in(english):
        english = english.replace(word, " ")
    words_only = dataclasses.replace(
        message, entry=dataclasses.replace(message.entry, msgid=english)
    )
    found += glossary_check.check(words_only)
    found += roles.check(words_only)
    found += terms.check(words_only)
    found += register.check(message)
    found += english_check.check(message)
    return found


def _placeholders(message: Message) -> Iterator[TranslationFinding]:
    english = Counter(_fields(message.english))
    translated = Counter(_fields(message.translation))
    if english != translated:
        missing = sorted((english - translated).elements())
        extra = sorted((translated - english).elements())
        parts = [f"drops {m}" for m in missing] + [f"adds {e}" for e in extra]
        text = f"placeholders differ: {', '.join(parts)}; keep every placeholder of the English"
        yield message.finding(Check.SUBSTITUTION, text)


def _fields(text: str) -> list[str]:
    """``{name}`` fields and ``%(name)s`` placeholders (the theme's)."""
    return [m[0] for m in FIELD.finditer(text)] + _PERCENT_FIELD.findall(text)


def _code_words(message: Message) -> Iterator[TranslationFinding]:
    for word in dict.fromkeys(_code_in(message.english)):
        if word not in message.translation:
            text = f"the English's code {word!r} is missing; code is never translated"
            yield message.finding(Check.CODE_LITERAL, text)


def _code_in(text: str) -> Iterator[str]:
    """The code words of ``text``, without the sentence's own punctuation and parentheses."""
    for match in _CODE_WORD.finditer(FIELD.sub(" ", text)):
        word = match[0].rstrip(".,;:")
        while word.count("(") < word.count(")") and word.endswith(")"):
            word = word[:-1]  # the closing parenthesis of the sentence, not of the call
        if word.startswith("(") and word.count("(") > word.count(")"):
            word = word[1:]
        if word.startswith("(") and word.endswith(")"):
            word = word[1:-1]  # a parenthesised code word: "(use_reentrant=False)"
        if len(word) > 1 and _CODE_TRIGGER.search(word):
            yield word


def _finding(
    path: str, line: int, lang: str, check: Check, text: str, *, page: str
) -> TranslationFinding:
    return TranslationFinding(path, line, lang, page, check, check.severity, text)
