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

from checker.i18n.findings import Check, TranslationFinding, said
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
                said("the English statement denies it, the translation asserts it")
                if markers_en
                else said("the English statement asserts it, the translation denies it")
            )
        else:
            text = said(
                "negations in the English statement: {english}, in the translation: "
                "{translation}; a negation added or dropped flips the claim or hides a flip",
                english=len(markers_en),
                translation=len(markers),
            )
        claim = message.claim_id
        yield message.finding(
            Check.CLAIM_NEGATION,
            said(
                "claim {claim}: {text} (negation: {markers})",
                claim=claim,
                text=text,
                markers=", ".join(markers),
            )
            if markers
            else said("claim {claim}: {text} (no negation found)", claim=claim, text=text),
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
        said(
            "claim {claim}: the translation names none of its subjects ({subjects}) together "
            "with one of its {lang} predicates ({predicates})",
            claim=claim.id,
            subjects=", ".join(claim.vocabulary.subjects),
            lang=lang,
            predicates=", ".join(predicates),
        ),
    )
