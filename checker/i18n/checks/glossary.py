"""Glossary: the English uses a term, the translation uses its preferred translation.

Warnings, not errors: a sentence may need another word. Terms are matched in the words of
the message (code, roles and link targets left out), the English term as a whole word in
any case, the translations as written.
"""

from __future__ import annotations

from collections.abc import Iterator

from checker.i18n.findings import Check, Finding
from checker.i18n.message import Message


def check(message: Message) -> Iterator[Finding]:
    if message.glossary is None:
        return
    english = message.source.prose
    translated = message.target.prose.lower()
    for term in message.glossary.terms:
        preferred = term.preferred.get(message.lang, ())
        if not preferred or not term.pattern.search(english):
            continue
        rest = translated
        for word in preferred:
            rest = rest.replace(word.lower(), " ")
        avoided = [a for a in term.avoid.get(message.lang, ()) if a.lower() in rest]
        uses_preferred = rest != translated
        if uses_preferred and not avoided:
            continue
        text = f"'{term.en}' is translated as {' / '.join(preferred)}"
        if avoided:
            text += f", not {', '.join(avoided)}"
        yield message.finding(Check.GLOSSARY, f"{text} (glossary line {term.line})")
