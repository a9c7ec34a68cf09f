"""Glossary: the English uses a term, the translation uses its preferred translation.

Warnings, not errors: a sentence may need another word. Terms are matched in the words of
the message (code, roles and link targets left out), the English term as a whole word in
any case, the translations as written.

A variant to avoid is found as written, except that in Korean it must start a word or follow
a digit (the avoided 행 of a line number is not the 행 of 실행), and a variant that contains a
preferred translation (문장 against 문) is looked for before the preferred ones are set
aside. A variant is allowed where the English also uses another term whose preferred
translation contains it: 행 translates "row" in a message that also speaks of a line.
Terms with ``enforce = "avoid"`` only refuse their variants; ``enforce = "anywhere"`` refuses
them in every message.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from checker.i18n.findings import Check, TranslationFinding, said
from checker.i18n.message import Message
from checker.text.languages import language


def check(message: Message) -> Iterator[TranslationFinding]:
    if message.glossary is None:
        return
    english = message.source.prose
    translated = message.target.prose.lower()
    lang = message.lang
    used = [t for t in message.glossary.terms if t.pattern.search(english)]
    others = {p.lower() for t in message.glossary.terms for p in t.preferred.get(lang, ())}
    in_english = {p.lower() for t in used for p in t.preferred.get(lang, ())}
    for term in message.glossary.terms:
        if term.enforce == "settled":
            continue  # checks/terms.py: an error in every message
        shown = term.preferred.get(lang, ())
        preferred = tuple(p.lower() for p in shown)
        anywhere = term.enforce == "anywhere"
        if not (term in used or anywhere):
            continue
        avoided = []
        for variant in term.avoid.get(lang, ()):
            v = variant.lower()
            # words that are not the variant: this term's preferred translations (except one
            # inside the variant: 문 in 문장), other terms' translations that contain it
            # (活性化関数), and, where the English uses their term, those equal to it (행, row)
            allowed = {p for p in preferred if p not in v}
            allowed |= {o for o in others if v in o and o != v} | {e for e in in_english if v in e}
            if found(v, translated, allowed, lang):
                avoided.append(variant)
        missing_preferred = (
            term.enforce == "preferred"
            and bool(preferred)
            and not any(p in translated for p in preferred)
        )
        if not avoided and not missing_preferred:
            continue
        values = {
            "term": term.en,
            "preferred": " / ".join(shown) or "otherwise",
            "avoided": ", ".join(avoided),
            "line": str(term.line),
        }
        if anywhere and avoided:
            text = said(
                "house style: write {preferred}, not {avoided} (glossary line {line})", **values
            )
        elif anywhere:
            text = said("house style: write {preferred} (glossary line {line})", **values)
        elif avoided:
            text = said(
                "'{term}' is translated as {preferred}, not {avoided} (glossary line {line})",
                **values,
            )
        else:
            text = said("'{term}' is translated as {preferred} (glossary line {line})", **values)
        yield message.finding(Check.GLOSSARY, text)


def found(variant: str, translated: str, allowed: set[str], lang: str) -> bool:
    """Whether ``variant`` occurs in ``translated`` outside the ``allowed`` words."""
    text = translated
    for word in sorted(allowed, key=len, reverse=True):
        text = text.replace(word, " ")
    letters = language(lang).spaced_word_letters  # a variant must start a word (Korean)
    if not letters:
        return variant in text
    return re.search(rf"(?<![{letters}]){re.escape(variant)}", text) is not None
