"""Claims: a translated statement must say what the probe proves, not its opposite.

The statement must hold as many negations as the English (negations, "without"s and
sentence-level denials counted by :func:`checker.i18n.polarity.markers`, on text normalised
so that half-width or katakana endings and invisible characters hide nothing, double
negations that stay affirmative counted as none): an odd difference flips the claim, an even
one (a flipped verb and an unrelated negation added elsewhere) may hide a flip; both are
errors (every statement of the project's catalogs keeps the English's count exactly). When
the English phrases the claim with its vocabulary (:class:`checker.claim.Vocabulary`, the
subjects and per-language predicates the article scanner uses), the translation must use the
language's words for it.
Numbers in a statement are compared by :mod:`checker.i18n.checks.structure`.
"""

from __future__ import annotations

from collections.abc import Iterator

from checker.i18n.findings import Check, TranslationFinding
from checker.i18n.message import Message
from checker.i18n.polarity import markers as polarity
from checker.text.languages import detect
from checker.text.reading import mentions
from checker.typing import Lang


def check(message: Message) -> Iterator[TranslationFinding]:
    if message.claim_id is None:
        return
    english, translated = message.source.prose, message.target.prose
    # A statement left in English (code-only ones are) is read with the English rules; one
    # in no language we read (Han without kana, detect() says None), with its catalog's.
    lang: Lang = "en" if detect(translated) == "en" else message.lang
    markers_en, markers = polarity(english, "en"), polarity(translated, lang)
    if len(markers_en) != len(markers):
        if max(len(markers_en), len(markers)) <= 1:
            text = (
                f"the English statement {'denies' if markers_en else 'asserts'} it, the "
                f"translation {'denies' if markers else 'asserts'} it"
            )
        else:
            text = (
                f"the English statement holds {len(markers_en)} negation(s), the translation "
                f"{len(markers)}: a negation added or dropped flips the claim or hides a flip"
            )
        yield message.finding(
            Check.CLAIM_NEGATION,
            f"claim {message.claim_id}: {text}"
            + (f" (negation: {', '.join(markers)})" if markers else " (no negation found)"),
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
