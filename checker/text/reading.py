"""Reading statements in every language we read: sentences, negation, numbers, mentions.

One definition serves the article scanner (does this sentence assert or deny a claim?) and
the translation checks (does the translation keep the source's negation and numbers?). It is
deliberately simple and conservative: it recognises how documentation phrases a statement,
not arbitrary prose, and everything it does is covered by tests in each language. What it
knows of each language (negation markers, idioms, clause bounds, number words) is that
language's :class:`~checker.text.languages.base.Language`; the rules here hold for all.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from checker.claim import Claim
from checker.text import languages
from checker.text.languages.base import Language
from checker.typing import Lang


def _joined(marks: Iterable[str]) -> str:
    """Character classes' contents joined, each once."""
    return "".join(dict.fromkeys(marks))


def _sentence_end() -> re.Pattern[str]:
    """Where a sentence ends: a spaced full stop followed by a space and what opens a
    sentence, or by a line break; a closed full stop; a blank line. Each language gives its
    marks (:attr:`~checker.text.languages.base.Language.spaced_stops`, ...); every text is
    split by all of them, whatever language it is in (an article quotes others)."""
    spaced = _joined(language.spaced_stops for language in languages.LANGUAGES)
    openers = _joined(language.sentence_openers for language in languages.LANGUAGES)
    closed = _joined(language.closed_stops for language in languages.LANGUAGES)
    # A language whose words run together writes no space after a stop: a half-width "!" or
    # "?" right before one of its letters ends a sentence too ("答えは簡単!この関数は…"), unless
    # it stands inside a quotation (the next corner bracket closes one: 「本当?この値も…」).
    run_together = _joined(
        language.letters + language.shared_letters
        for language in languages.LANGUAGES
        if language.closed_stops and not language.spaced_word_letters
    )
    glued = rf"|(?<=[!?])(?![^「」『』]*[」』])(?=[{run_together}])" if run_together else ""
    return re.compile(
        rf"(?<=[{spaced}])\s+(?=[{openers}])|(?<=[{spaced}])\n\s*|(?<=[{closed}])|\n\s*\n" + glued
    )


_SENTENCE_END = _sentence_end()

#: A number in digits. Only ASCII letters and digits glue to it (``v2``, ``float32`` are not
#: numbers); Japanese and Korean text may touch it (``4バイト``, ``1,000개``).
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.])[-+]?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?(?![A-Za-z0-9_])")


@functools.cache
def _number_words(lang: str) -> re.Pattern[str] | None:
    """The pattern of ``lang``'s number words, ``None`` where it has none."""
    words = languages.language(lang).number_words
    return re.compile(r"\b(" + "|".join(words) + r")\b", re.IGNORECASE) if words else None


def normalise(text: str) -> str:
    """NFKC (full-width digits and letters become ASCII), with inline code removed."""
    return unicodedata.normalize("NFKC", text)


def sentences(text: str) -> list[tuple[int, str]]:
    """``(offset, sentence)`` pairs; offsets index ``text``."""
    found = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        piece = text[start : match.start()]
        if piece.strip():
            found.append((start + len(piece) - len(piece.lstrip()), piece.strip()))
        start = match.end()
    tail = text[start:]
    if tail.strip():
        found.append((start + len(tail) - len(tail.lstrip()), tail.strip()))
    return found


def _prose(text: str) -> str:
    """``text`` without inline code, so ``torch.no_grad()`` does not read as a negation."""
    return re.sub(r"`[^`]*`", blank, normalise(text))


def blank(match: re.Match[str]) -> str:
    """Spaces as long as the match: offsets into the text stay valid."""
    return " " * len(match.group(0))


def _stated(sentence: str, language: Language) -> str:
    """The prose of ``sentence`` with its affirmative idioms blanked ("not only", "must"):
    what negations and stems are looked for in, at the sentence's own offsets."""
    return language.affirmative_idioms.sub(blank, _prose(sentence))


def negations(text: str, lang: Lang) -> int:
    """How many negation markers the prose of ``text`` holds (idioms such as "must" aside)."""
    language = languages.language(lang)
    prose = language.affirmative_idioms.sub(" ", _prose(text))
    return len(language.negation.findall(prose))


def polarity_markers(text: str, lang: Lang) -> list[str]:
    """Negations and "without"s of ``text``: what decides whether a translated statement
    says the same as its English (see :attr:`~checker.text.languages.base.Language.without`)."""
    language = languages.language(lang)
    prose = language.affirmative_idioms.sub(" ", _prose(text))
    return language.negation.findall(prose) + language.without.findall(prose)


def is_negated(text: str, lang: Lang) -> bool:
    """Whether a statement is negative (an odd number of negations)."""
    return negations(text, lang) % 2 == 1


def numbers(text: str) -> Counter[str]:
    """The numbers in the prose of ``text``, normalised (``1,000`` and ``１０００`` are 1000)."""
    return Counter(number_sequence(text))


def number_sequence(text: str) -> list[str]:
    """The numbers in the prose of ``text``, normalised as :func:`numbers`, in order."""
    found: list[str] = []
    for raw in _NUMBER.findall(_prose(text)):
        value = raw.replace(",", "").lstrip("+")
        try:
            as_float = float(value)
        except ValueError:
            continue
        found.append(f"{as_float:g}")
    return found


def spelled_numbers(text: str, lang: Lang) -> Counter[str]:
    """Numbers written as words, normalised like :func:`numbers` (English only: see
    :attr:`~checker.text.languages.base.Language.number_words`)."""
    pattern = _number_words(lang)
    if pattern is None:
        return Counter()
    words = languages.language(lang).number_words
    return Counter(f"{words[word.lower()]:g}" for word in pattern.findall(_prose(text)))


@dataclass(frozen=True)
class ClaimMention:
    """A sentence that talks about a claim, and whether it asserts or denies it."""

    claim: Claim
    asserts: bool
    #: The subject and predicate stems that matched.
    subject: str
    predicate: str
    #: The predicate is one of the vocabulary's opposites: the sentence denies the statement
    #: when it asserts its own predicate.
    opposite: bool = False


_SIMPLE_CODE_ONLY = re.compile(r"`[^`]*`")


def _blank_complex_code(match: re.Match[str]) -> str:
    """Keep a code span that names one thing (`relu`, `torch.no_grad()`, `float16`); blank
    an expression (`autocast(dtype=torch.float16)`), whose words are arguments, not subjects."""
    code = match.group(0)
    # a name, a call with at most one plain argument, calls chained on it and an attribute
    # of the result (`torch.finfo(dtype).eps`); or a setting (`use_reentrant=True`,
    # `pin_memory=False`): its name is what the sentence is about
    if re.fullmatch(r"`[\w.]+(?:\(\w*\))?(?:\.\w+\(\))*(?:\.\w+)?`", code):
        return code
    if re.fullmatch(r"`\w+=(?:True|False|None|\d+)`", code):
        return code
    return " " * len(code)


def names(subject: str, prose: str) -> bool:
    """Whether ``prose`` names ``subject``: a subject that starts or ends with a letter is
    not part of a longer word ("del " is not in "model "), nor a link of a method chain
    (``clone().detach()`` is about neither alone)."""
    return subject in prose and _name_pattern(subject).search(prose) is not None


@functools.lru_cache(maxsize=4096)
def _name_pattern(subject: str) -> re.Pattern[str]:
    pattern = re.escape(subject)
    if subject[:1].isascii() and subject[:1].isalnum():
        # not part of a longer name, nor a later link of a chain ("clone().detach()")
        pattern = r"(?<![A-Za-z0-9_])(?<!\)\.)" + pattern
    if subject[-1:].isascii() and (subject[-1:].isalnum() or subject[-1:] == "_"):
        # not part of a longer name, nor an earlier link of a chain ("detach().clone()":
        # a chain is about what its links do together)
        pattern += r"(?![A-Za-z0-9_])(?!(?:\([^()]*\))?\.[A-Za-z_])"
    return re.compile(pattern)


def mentions(sentence: str, lang: Lang, claims: list[Claim]) -> list[ClaimMention]:
    """Claims whose vocabulary the sentence uses: a subject and a predicate of its language."""
    found = []
    prose = _SIMPLE_CODE_ONLY.sub(_blank_complex_code, normalise(sentence))
    lowered = prose.lower()
    for claim in claims:
        vocabulary = claim.vocabulary
        if vocabulary is None:
            continue
        subject = next((s for s in vocabulary.subjects if names(s, prose)), None)
        unless = vocabulary.unless.get(lang, ())
        if subject is None or any(stem_pattern(u).search(lowered) for u in unless):
            continue
        required = vocabulary.requires.get(lang, ())
        if required and not any(stem_pattern(r).search(lowered) for r in required):
            continue
        outside = lowered.replace(subject.lower(), "\0")  # a predicate is more than the subject
        opposite = False
        stems = vocabulary.predicates.get(lang, ())
        predicate = next((p for p in stems if stem_pattern(p).search(outside)), None)
        if predicate is None:
            stems = vocabulary.opposites.get(lang, ())
            predicate = next((p for p in stems if stem_pattern(p).search(outside)), None)
            opposite = True
        if predicate is None:
            continue
        negated = predicate_negated(sentence, lang, stems)
        found.append(ClaimMention(claim, negated == opposite, subject, predicate, opposite))
    return found


def predicate_negated(sentence: str, lang: Lang, stems: tuple[str, ...]) -> bool:
    """Whether the predicate of a statement is negated, counting only the negations that can
    bear on it: in Japanese and Korean (verb-final) those after the last predicate stem and
    before the end of its clause, so a negated relative clause before it
    ("勾配計算を必要としない計算は…削減できます") does not count; in English those of the
    predicate's clause ("does not reduce", "allocates nothing"). A negation inside a stem
    itself ("使用できない" as the predicate of "cannot be used") is part of what the claim says,
    not a denial of it."""
    spans = stem_spans(sentence, lang, stems)
    if not spans:
        return is_negated(sentence, lang)
    inside, _ = negation_scope(sentence, lang, stems)
    return inside % 2 == 1


def negation_scope(
    sentence: str, lang: Lang, stems: tuple[str, ...], near: int | None = None
) -> tuple[int, int]:
    """Negations (and "without"s) of ``sentence`` inside the predicate's scope (see
    :func:`predicate_negated`) and outside it, not counting those inside the stems themselves.
    ``near``: a character offset (the subject's); the predicate nearest to it is the one whose
    clause counts, in English."""
    language = languages.language(lang)
    text = _stated(sentence, language)
    spans = stem_spans(sentence, lang, stems)
    blanked = "".join(
        " " if any(start <= i < end for start, end in spans) else char
        for i, char in enumerate(text)
    )
    scope_start, scope_end = 0, len(text)
    if spans and not language.verb_final:
        scope_start, scope_end = _clause_around(text, language, spans, near)
    elif spans:
        # the predicate ends its clause: its negations follow its last stem
        scope_start = max(start for start, _ in spans)
        last_end = max(end for start, end in spans if start == scope_start)
        boundary = language.clause_bound.search(text, last_end)
        scope_end = boundary.start() if boundary else len(text)
        if boundary and unicodedata.category(boundary.group(0)[0]).startswith("P"):
            scope_end += 1  # a negation ends at the mark: "コピーせず、" (ず、 is a negation)

    def count(start: int, end: int, adnominal: bool = True) -> int:
        found = 0
        for m in language.negation.finditer(blanked, start, end):
            qualifies = language.adnominal.match(blanked, m.start()) or language.condition.match(
                blanked, m.start()
            )
            found += adnominal or not qualifies
        reach = language.without_reach
        for m in language.without.finditer(blanked, start, end):
            # English "without" negates what directly follows it ("without allocating").
            found += reach is None or any(0 <= a - m.end() <= reach for a, _ in spans)
        return found

    inside = count(scope_start, scope_end)
    # Outside the predicate's clause, a negation that qualifies a noun ("必要としない計算",
    # "필요하지 않은 계산") describes the subject; it does not deny the predicate. Nor does one
    # in a clause of consequence after it ("コピーするので、…変わりません", "복사하므로 …
    # 바뀌지 않는다"): that clause says what follows from the statement.
    after_end = len(blanked)
    consequence = language.consequence.search(blanked, max(0, scope_end - 4))
    if consequence is not None:
        after_end = consequence.start()
    # Nor does a negated condition before it ("unscale_ を呼ばないと、…クリップする").
    outside = count(0, scope_start, adnominal=False) + count(scope_end, after_end, False)
    return inside, outside


def describes_subject(
    sentence: str, lang: Lang, stems: tuple[str, ...], subject: tuple[int, int] | None
) -> bool:
    """Whether the predicate's words only describe the subject (found at ``subject``, a
    ``(start, end)`` of the normalised sentence) and a negation denies what the sentence says
    of it next. English: every stem stands before the subject in its noun phrase, no clause
    bound between them ("in-place methods such as `add_`"), and every negation of the
    sentence follows the subject ("… do not allocate a new tensor"). A verb-final language:
    the subject is an example of the noun phrase after it (``add_ 같은 인플레이스 연산은``),
    every stem stands in that phrase, and every negation follows its particle."""
    language = languages.language(lang)
    if subject is None:
        return False
    text = _stated(sentence, language)
    spans = stem_spans(sentence, lang, stems)
    denials = [m.start() for m in language.negation.finditer(text)]
    denials += [m.start() for m in language.without.finditer(text)]
    if not spans or not denials:
        return False
    if not language.verb_final:
        return _described_before(text, language, spans, subject[0], min(denials))
    return _described_as_example(text, language, spans, subject[1], min(denials))


def _described_before(
    text: str, language: Language, spans: list[tuple[int, int]], start: int, denial: int
) -> bool:
    """English: the stems before the subject, in its noun phrase; the negation after it."""
    if any(stem_end > start for _, stem_end in spans):
        return False
    if language.clause_bound.search(text, max(stem_end for _, stem_end in spans), start):
        return False
    return denial > start


def _described_as_example(
    text: str, language: Language, spans: list[tuple[int, int]], end: int, denial: int
) -> bool:
    """Verb-final: the subject an example of the phrase after it (``X 같은 …은``) that holds
    the stems; the negation after the phrase's particle."""
    example = language.exemplified_by.match(text[end:])
    if example is None:
        return False
    phrase_start = end + example.end()
    particle = language.topic_particle.search(text, phrase_start)
    if particle is None or language.clause_bound.search(text, phrase_start, particle.start()):
        return False
    inside = all(phrase_start <= a and b <= particle.start() for a, b in spans)
    return inside and denial >= particle.end()


def _clause_around(
    text: str, language: Language, spans: list[tuple[int, int]], near: int | None
) -> tuple[int, int]:
    """Where the predicate's clause begins and ends in a language that puts the predicate
    after its subject (English): between the clause bounds around the predicate nearest
    ``near`` (the subject's offset), its negation before it ("does not reduce") or right
    after it ("allocates nothing")."""
    anchor = spans[0][0] if near is None else near
    # English puts the predicate after its subject: the first stem after it, else the
    # nearest before ("X always copies, while `as_tensor()` avoids a copy")
    following = [span for span in spans if span[0] >= anchor]
    first_start, first_end = (
        min(following)
        if following and near is not None
        else min(spans, key=lambda span: (abs(span[0] - anchor), span))
    )
    opened = list(language.clause_bound.finditer(text, 0, first_start))
    after = language.clause_bound.search(text, first_end)
    scope_start = opened[-1].end() if opened else 0
    if opened and opened[-1].group(0).lower() in language.relative_pronouns:
        # "An operation that does not raise … always gives correct gradients": the
        # negation right after the relative pronoun belongs to the relative clause when
        # another verb stands between its verb and the predicate ("code that does not
        # give the correct gradients" keeps it).
        relative = language.relative_negation.match(text, scope_start)
        between = text[relative.end() : first_start].lower().split() if relative else []
        if relative and set(between) - language.function_words:
            scope_start = relative.end()
    return scope_start, after.start() if after else len(text)


#: What a vocabulary stem writes for "a few words of any kind here": "only … nn.Sequential"
#: matches "only takes an nn.Sequential" and "only accepts a plain nn.Sequential".
STEM_GAP = " … "
#: What the gap may span: up to 24 characters within one clause (a dot inside a name, as in
#: ``scaler.step()``, does not end it).
_GAP = r"(?:[^.;:!?。、，,！？；：]|\.(?=\S)){0,24}?"


@functools.cache
def stem_pattern(stem: str) -> re.Pattern[str]:
    """The pattern of a vocabulary stem, case-insensitive (see :data:`STEM_GAP`). A stem that
    begins or ends with a digit is a number there: it does not match inside a longer one
    (the Korean stem "0이", "becomes 0", is not in "2**-10이다")."""
    parts = [re.escape(part.strip().lower()) for part in stem.split("…")]
    pattern = _GAP.join(parts)
    if stem.strip()[:1].isdigit():
        pattern = r"(?<![\d.])" + pattern
    if stem.strip()[-1:].isdigit():
        pattern += r"(?![\d.]?\d)"
    return re.compile(pattern, re.IGNORECASE)


def stem_spans(sentence: str, lang: Lang, stems: tuple[str, ...]) -> list[tuple[int, int]]:
    lowered = _stated(sentence, languages.language(lang)).lower()
    return [(m.start(), m.end()) for stem in stems for m in stem_pattern(stem).finditer(lowered)]
