"""Settled terms: one concept, one term per language, in every message.

A glossary term with ``enforce = "settled"`` (``locales/glossary.toml``) names the one
translation of a concept that drifted between two words (ko 언스케일 against 되돌려 나누다,
ja スケーラ against スケーラー); its ``avoid`` variants are errors in every message of the
language, whatever the English says. A variant inside a longer preferred translation of any
term (スケーラ in スケーラー is not: the variant is the longer word) is not counted, and in
Korean a variant must start a word, as in :mod:`checker.i18n.checks.glossary`.
"""

from __future__ import annotations

from collections.abc import Iterator

from checker.i18n.checks.glossary import found
from checker.i18n.findings import Check, TranslationFinding, said
from checker.i18n.message import Message


def check(message: Message) -> Iterator[TranslationFinding]:
    if message.glossary is None:
        return
    lang = message.lang
    translated = message.target.prose.lower()
    others = {p.lower() for t in message.glossary.terms for p in t.preferred.get(lang, ())}
    for term in message.glossary.terms:
        if term.enforce != "settled":
            continue
        for variant in term.avoid.get(lang, ()):
            v = variant.lower()
            allowed = {o for o in others if v in o and o != v}
            if found(v, translated, allowed, lang):
                shown = " / ".join(term.preferred.get(lang, ()))
                yield message.finding(
                    Check.TERM,
                    said(
                        "'{term}' is settled as {preferred}, not {variant} (glossary line {line})",
                        term=term.en,
                        preferred=shown,
                        variant=variant,
                        line=term.line,
                    ),
                )
