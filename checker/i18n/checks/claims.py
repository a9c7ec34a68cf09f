"""Claims: a translated statement must say what the probe proves, not its opposite.

The statement's negation parity must equal the English's (negations and "without"s counted
by :func:`checker.text.reading.polarity_markers`; an error when one side has a single negation
and the other none, a warning when several are involved), and when the English phrases the
claim with its vocabulary (:class:`checker.claim.Vocabulary`, the subjects and per-language
predicates the article scanner uses), the translation must use the language's words for it.
Numbers in a statement are compared by :mod:`checker.i18n.checks.structure`.
"""

from __future__ import annotations

from collections.abc import Iterator

from checker.i18n.findings import Check, Severity, TranslationFinding
from checker.i18n.message import Message
from checker.text.languages import detect
from checker.text.reading import mentions, polarity_markers
from checker.typing import Lang


def check(message: Message) -> Iterator[TranslationFinding]:
    if message.claim_id is None:
        return
    english, translated = message.source.prose, message.target.prose
    # A statement left in English (code-only ones are) is read with the English rules; one
    # in no language we read (Han without kana, detect() says None), with its catalog's.
    lang: Lang = "en" if detect(translated) == "en" else message.lang
    markers_en, markers = polarity_markers(english, "en"), polarity_markers(translated, lang)
    denies_en, denies = len(markers_en) % 2 == 1, len(markers) % 2 == 1
    if denies_en != denies:
        # One negation against none is a flip; with several, the clauses may just be
        # phrased differently: a warning asks the translator to check each one.
        simple = max(len(markers_en), len(markers)) <= 1
        yield message.finding(
            Check.CLAIM_NEGATION,
            f"claim {message.claim_id}: the English statement "
            f"{'denies' if denies_en else 'asserts'} it, the translation "
            f"{'denies' if denies else 'asserts'} it"
            + (f" (negation: {', '.join(markers)})" if markers else " (no negation found)")
            + ("" if simple else "; with several negations, check each clause"),
            severity=None if simple else Severity.WARNING,
        )
    yield from _vocabulary(message, lang)


def _vocabulary(message: Message, lang: Lang) -> Iterator[TranslationFinding]:
    claim = message.claim
    if claim is None or claim.vocabulary is None:
        return
    predicates = claim.vocabulary.predicates.get(lang, ())
    if not predicates or not mentions(message.english, "en", [claim]):
        return
    if mentions(message.translation, lang, [claim]):
        return
    yield message.finding(
        Check.CLAIM_VOCABULARY,
        f"claim {claim.id}: the translation names none of its subjects "
        f"({', '.join(claim.vocabulary.subjects)}) together with one of its "
        f"{lang} predicates ({', '.join(predicates)})",
    )
