"""Reading statements in English, Japanese and Korean: language, sentences, negation, numbers.

One definition serves the article scanner (does this sentence assert or deny a claim?) and
the translation checks (does the translation keep the source's negation and numbers?). It is
deliberately simple and conservative: it recognises how documentation phrases a statement,
not arbitrary prose, and everything it does is covered by tests in each language.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from checker.claim import Claim
from checker.typing import Lang

_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")
_HAN = re.compile(r"[\u4e00-\u9fff]")

#: Sentence ends: Western punctuation followed by space, CJK full stops, line breaks.
#: Korean sentences begin with a Hangul syllable (U+AC00-U+D7A3) as often as with a name.
_SENTENCE_END = re.compile(
    r"(?<=[.!?])\s+(?=[A-Z\uac00-\ud7a3`*\"'(\[])|(?<=[.!?])\n\s*|(?<=[。！？])|\n\s*\n"
)

#: Negation markers per language. Each pattern matches a negated predicate, not a word that
#: merely contains the same letters (``少ない`` "few" is not a negation; ``notably`` is not).
NEGATION: dict[Lang, re.Pattern[str]] = {
    "en": re.compile(
        r"\b(?:not|never|no longer|cannot|neither|nor|nothing|none|no)\b|n't\b"
        r"|\bwithout\s+(?:reduc|sav|chang|copy|allocat)"
        r"|(?<!to )\bavoid(?:s|ed|ing)?\b",  # "avoids a copy"; not "to avoid underflow"
        re.IGNORECASE,
    ),
    # ない/ません/ず after a verb or adjective stem; 少ない・危ない・違いない are not negations.
    "ja": re.compile(
        r"(?<![少危違幼拙汚])(?:ない|なく|なかっ|ません|ませんでし)|(?<=[しせれさかけてでこ])ず(?:に|、|。)"
        r"|ことはない|わけではない|効果はない|変わらない|減らない"
    ),
    # 않다/않는/않습니다, 없다/없습니다, 못 하다, 아니다
    "ko": re.compile(
        r"않|없(?:다|습니다|는|으며|으면|고|어)|못\s*\S|아니(?:다|며|고|라|ㅂ|어|요|)|아닙|아닌"
    ),
}

#: Phrases that hold a negation marker without denying anything: "not only", "whether or
#: not", "otherwise", obligation ("must"), "only", "maybe", "merely", "regardless", "no
#: problem" (it is fine). They are taken out before negations are counted.
AFFIRMATIVE_IDIOMS: dict[Lang, re.Pattern[str]] = {
    "en": re.compile(
        r"\bnot\s+only\b|\bwhether\s+or\s+not\b"
        r"|\b(?:no\s+|without\s+(?:any\s+)?)(?:problem|issue|trouble)s?\b|\bnot\s+a\s+problem\b",
        re.IGNORECASE,
    ),
    # "it is fine": 問題ない/問題ありません, 構わない, 差し支えない; 문제없다, 상관없다
    "ja": re.compile(
        r"だけでなく|のみならず|な(?:ければ|くては|いと)(?:なら|なり|いけ)(?:ない|ません)"
        r"|かもしれ(?:ない|ません)|に(?:違い|過ぎ)(?:ない|ません)"
        r"|しか[^。、！？]{0,30}?(?:ない|ありません|ません)"
        r"|問題(?:は|も)?(?:ない|なく|ありません)|構わ(?:ない|ず|なく|ません)"
        r"|差し支え(?:ない|なく|ありません)"
    ),
    "ko": re.compile(
        r"뿐(?:만)?\s*아니라|지\s*않(?:으면|고는)\s*안\s*[되됩돼된]"
        r"|(?:수)?밖에\s*(?:\S+\s*)?(?:없|않)|(?:관계|상관)\s*없이|그렇지\s*않(?:으면|다면)"
        r"|(?:문제|상관|지장)\s*(?:가|는|도)?\s*없|틀림\s*없|빠짐\s*없|끊임\s*없|어김\s*없"
    ),
}

#: "Without" in each language, where :data:`NEGATION` does not already count it: English
#: ``without`` (except "without reducing/saving/..."), Japanese ``なしで``, Korean ``없이``.
#: Japanese and Korean say "without doing" with a negated verb (``渡さずに``, ``주지 않고``);
#: counting "without" on every side keeps a statement's polarity comparable across languages.
WITHOUT: dict[Lang, re.Pattern[str]] = {
    "en": re.compile(r"\bwithout\b(?!\s+(?:reduc|sav|chang|copy|allocat))", re.IGNORECASE),
    "ja": re.compile(r"なしで|なしに"),
    "ko": re.compile(r"없이"),
}

#: A number in digits. Only ASCII letters and digits glue to it (``v2``, ``float32`` are not
#: numbers); Japanese and Korean text may touch it (``4バイト``, ``1,000개``).
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.])[-+]?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?(?![A-Za-z0-9_])")

#: English number words a translation may write in digits ("four times" is ``4倍``).
_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
SPELLED_NUMBERS: dict[str, float] = {
    **{word: float(i) for i, word in enumerate(_WORDS)},
    "eleven": 11.0,
    "twelve": 12.0,
    "single": 1.0,
    "once": 1.0,
    "twice": 2.0,
    "double": 2.0,
    "both": 2.0,
    "half": 0.5,
}
_SPELLED = re.compile(r"\b(" + "|".join(SPELLED_NUMBERS) + r")\b", re.IGNORECASE)


def cjk_letters(text: str) -> int:
    """How many Japanese and Korean letters (kana, Han, Hangul) ``text`` holds."""
    return len(_HANGUL.findall(text)) + len(_KANA.findall(text)) + len(_HAN.findall(text))


def latin_words(text: str) -> int:
    """How many words of two or more Latin letters ``text`` holds."""
    return len(_LATIN_WORD.findall(text))


def detect(text: str) -> Lang:
    """The language of ``text``: Korean if it has Hangul, Japanese if it has kana or Han,
    else English; English too when such characters are few beside Latin words (an English
    page that quotes a Japanese or Korean example)."""
    hangul, kana = len(_HANGUL.findall(text)), len(_KANA.findall(text))
    if cjk_letters(text) < latin_words(text) / 10:
        return "en"
    if hangul and hangul >= kana:
        return "ko"
    if kana or _HAN.search(text):
        return "ja"
    return "en"


_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


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
    return re.sub(r"`[^`]*`", _blank, normalise(text))


def _blank(match: re.Match[str]) -> str:
    """Spaces as long as the match: offsets into the text stay valid."""
    return " " * len(match.group(0))


def negations(text: str, lang: Lang) -> int:
    """How many negation markers the prose of ``text`` holds (idioms such as "must" aside)."""
    prose = AFFIRMATIVE_IDIOMS[lang].sub(" ", _prose(text))
    return len(NEGATION[lang].findall(prose))


def polarity_markers(text: str, lang: Lang) -> list[str]:
    """Negations and "without"s of ``text``: what decides whether a translated statement
    says the same as its English (see :data:`WITHOUT`)."""
    prose = AFFIRMATIVE_IDIOMS[lang].sub(" ", _prose(text))
    return NEGATION[lang].findall(prose) + WITHOUT[lang].findall(prose)


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
    """Numbers written as words, normalised like :func:`numbers` (English only)."""
    if lang != "en":
        return Counter()
    return Counter(f"{SPELLED_NUMBERS[word.lower()]:g}" for word in _SPELLED.findall(_prose(text)))


@dataclass(frozen=True)
class Mention:
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
    # a name, a call with at most one plain argument, and calls chained on it; or a setting
    # (`use_reentrant=True`, `pin_memory=False`): its name is what the sentence is about
    if re.fullmatch(r"`[\w.]+(?:\(\w*\))?(?:\.\w+\(\))*`", code):
        return code
    if re.fullmatch(r"`\w+=(?:True|False|None|\d+)`", code):
        return code
    return " " * len(code)


def names(subject: str, prose: str) -> bool:
    """Whether ``prose`` names ``subject``: a subject that starts or ends with a letter is
    not part of a longer word ("del " is not in "model "), nor a link of a method chain
    (``clone().detach()`` is about neither alone)."""
    pattern = re.escape(subject)
    if subject[:1].isascii() and subject[:1].isalnum():
        # not part of a longer name, nor a later link of a chain ("clone().detach()")
        pattern = r"(?<![A-Za-z0-9_])(?<!\)\.)" + pattern
    if subject[-1:].isascii() and (subject[-1:].isalnum() or subject[-1:] == "_"):
        # not part of a longer name, nor an earlier link of a chain ("detach().clone()":
        # a chain is about what its links do together)
        pattern += r"(?![A-Za-z0-9_])(?!(?:\([^()]*\))?\.[A-Za-z_])"
    return re.search(pattern, prose) is not None


def mentions(sentence: str, lang: Lang, claims: list[Claim]) -> list[Mention]:
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
        found.append(Mention(claim, negated == opposite, subject, predicate, opposite))
    return found


#: Where a clause ends after its predicate, in the verb-final languages: a negation past it
#: belongs to the next clause ("공유하고 … 연루되지 않습니다").
_CLAUSE_END: dict[str, re.Pattern[str]] = {
    "ja": re.compile(r"[、。,]"),
    "ko": re.compile(r"(?:고|며|면서|지만|으나)\s|[,.。]"),
}

#: Where an English clause begins or ends: its negation sits before the predicate ("does not
#: reduce") or right after it ("allocates nothing"), within the same clause.
_EN_CLAUSE = re.compile(
    r"[;:,()]|\s[-–—]\s|\b(?:and|but|while|whereas|which|that|so|because|although|where|"
    r"when|unless)\b",
    re.IGNORECASE,
)

#: A negated verb opening a relative clause: " does not raise", " never frees", " isn't".
_EN_RELATIVE_NEGATION = re.compile(
    r"\s*(?:(?:does|do|did|is|are|was|were|can|could|will|would|has|have|had)\s+not|"
    r"\w+n't|never)\s+\w+",
    re.IGNORECASE,
)

#: Words that do not make a verb of their own between a negated verb and the predicate.
_EN_FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "any",
        "its",
        "their",
        "this",
        "that",
        "these",
        "those",
        "always",
        "ever",
        "really",
        "quite",
        "fully",
    ]
)


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
    text = AFFIRMATIVE_IDIOMS[lang].sub(_blank, _prose(sentence))
    spans = stem_spans(sentence, lang, stems)
    blanked = "".join(
        " " if any(start <= i < end for start, end in spans) else char
        for i, char in enumerate(text)
    )
    scope_start, scope_end = 0, len(text)
    if spans and lang == "en":
        anchor = spans[0][0] if near is None else near
        # English puts the predicate after its subject: the first stem after it, else the
        # nearest before ("X always copies, while `as_tensor()` avoids a copy")
        following = [span for span in spans if span[0] >= anchor]
        first_start, first_end = (
            min(following)
            if following and near is not None
            else min(spans, key=lambda span: (abs(span[0] - anchor), span))
        )
        opened = list(_EN_CLAUSE.finditer(text, 0, first_start))
        after = _EN_CLAUSE.search(text, first_end)
        scope_start = opened[-1].end() if opened else 0
        if opened and opened[-1].group(0).lower() in ("that", "which", "who"):
            # "An operation that does not raise … always gives correct gradients": the
            # negation right after the relative pronoun belongs to the relative clause when
            # another verb stands between its verb and the predicate ("code that does not
            # give the correct gradients" keeps it).
            relative = _EN_RELATIVE_NEGATION.match(text, scope_start)
            between = text[relative.end() : first_start].lower().split() if relative else []
            if relative and set(between) - _EN_FUNCTION_WORDS:
                scope_start = relative.end()
        scope_end = after.start() if after else len(text)
    elif spans and lang in ("ja", "ko"):
        scope_start = max(start for start, _ in spans)
        last_end = max(end for start, end in spans if start == scope_start)
        boundary = _CLAUSE_END[lang].search(text, last_end)
        scope_end = boundary.start() if boundary else len(text)
        if boundary and boundary.group(0) in "、。,.":
            scope_end += 1  # a negation ends at the mark: "コピーせず、" (NEGATION's ず、)

    def count(start: int, end: int, adnominal: bool = True) -> int:
        found = 0
        for m in NEGATION[lang].finditer(blanked, start, end):
            qualifies = _ADNOMINAL[lang].match(blanked, m.start()) or _CONDITION[lang].match(
                blanked, m.start()
            )
            found += adnominal or not qualifies
        for m in WITHOUT[lang].finditer(blanked, start, end):
            # English "without" negates what directly follows it ("without allocating").
            found += lang != "en" or any(0 <= a - m.end() <= 12 for a, _ in spans)
        return found

    inside = count(scope_start, scope_end)
    # Outside the predicate's clause, a negation that qualifies a noun ("必要としない計算",
    # "필요하지 않은 계산") describes the subject; it does not deny the predicate. Nor does one
    # in a clause of consequence after it ("コピーするので、…変わりません", "복사하므로 …
    # 바뀌지 않는다"): that clause says what follows from the statement.
    after_end = len(blanked)
    if lang in _CONSEQUENCE:
        consequence = _CONSEQUENCE[lang].search(blanked, max(0, scope_end - 4))
        if consequence is not None:
            after_end = consequence.start()
    # Nor does a negated condition before it ("unscale_ を呼ばないと、…クリップする").
    outside = count(0, scope_start, adnominal=False) + count(scope_end, after_end, False)
    return inside, outside


#: Connectives that open a clause of consequence after the predicate's clause.
_CONSEQUENCE: dict[str, re.Pattern[str]] = {
    "ja": re.compile(r"(?:ので|から|ため)、"),
    "ko": re.compile(r"(?:므로|니까|때문에|어서|아서)[\s,]"),
}

#: A negation in a conditional form ("呼ばないと", "しなければ", "호출하지 않으면"): it states
#: a condition of the predicate that follows, it does not deny it.
_CONDITION: dict[str, re.Pattern[str]] = {
    "en": re.compile(r"(?!)"),
    "ja": re.compile(r"(?:ない(?:と|ければ|なら|場合)|なければ)"),
    "ko": re.compile(r"않(?:으면|는다면|을\s*(?:경우|때))|없(?:으면|다면|을\s*때)"),
}

#: A negation that ends in an adnominal form followed by a noun: it qualifies the noun.
_ADNOMINAL: dict[str, re.Pattern[str]] = {
    "en": re.compile(r"(?!)"),
    "ja": re.compile(r"ない(?=[\u4e00-\u9fff\u30a0-\u30ff])"),
    "ko": re.compile(r"(?:않[는은]|없[는은])\s*(?=[\uac00-\ud7a3])"),
}


#: What a vocabulary stem writes for "a few words of any kind here": "only … nn.Sequential"
#: matches "only takes an nn.Sequential" and "only accepts a plain nn.Sequential".
STEM_GAP = " … "
#: What the gap may span: up to 24 characters within one clause (a dot inside a name, as in
#: ``scaler.step()``, does not end it).
_GAP = r"(?:[^.;:!?。、，,！？；：]|\.(?=\S)){0,24}?"


@functools.cache
def stem_pattern(stem: str) -> re.Pattern[str]:
    """The pattern of a vocabulary stem, case-insensitive (see :data:`STEM_GAP`)."""
    parts = (re.escape(part.strip().lower()) for part in stem.split("…"))
    return re.compile(_GAP.join(parts), re.IGNORECASE)


def stem_spans(sentence: str, lang: Lang, stems: tuple[str, ...]) -> list[tuple[int, int]]:
    lowered = AFFIRMATIVE_IDIOMS[lang].sub(_blank, _prose(sentence)).lower()
    return [(m.start(), m.end()) for stem in stems for m in stem_pattern(stem).finditer(lowered)]
