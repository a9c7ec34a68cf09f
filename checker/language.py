"""Reading statements in English, Japanese and Korean: language, sentences, negation, numbers.

One definition serves the article scanner (does this sentence assert or deny a claim?) and
the translation checks (does the translation keep the source's negation and numbers?). It is
deliberately simple and conservative: it recognises how documentation phrases a statement,
not arbitrary prose, and everything it does is covered by tests in each language.
"""

from __future__ import annotations

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
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*\"'(\[])|(?<=[。！？])|\n\s*\n")

#: Negation markers per language. Each pattern matches a negated predicate, not a word that
#: merely contains the same letters (``少ない`` "few" is not a negation; ``notably`` is not).
NEGATION: dict[Lang, re.Pattern[str]] = {
    "en": re.compile(
        r"\b(?:not|never|no longer|cannot|neither|nor|nothing|none|no)\b|n't\b"
        r"|\bwithout\s+(?:reduc|sav|chang|copy|allocat)",
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
#: not", "otherwise", obligation ("must"), "only", "maybe", "merely", "regardless". They are
#: taken out before negations are counted.
AFFIRMATIVE_IDIOMS: dict[Lang, re.Pattern[str]] = {
    "en": re.compile(r"\bnot\s+only\b|\bwhether\s+or\s+not\b", re.IGNORECASE),
    "ja": re.compile(
        r"だけでなく|のみならず|な(?:ければ|くては|いと)(?:なら|なり|いけ)(?:ない|ません)"
        r"|かもしれ(?:ない|ません)|に(?:違い|過ぎ)(?:ない|ません)"
        r"|しか[^。、！？]{0,30}?(?:ない|ありません|ません)"
    ),
    "ko": re.compile(
        r"뿐(?:만)?\s*아니라|지\s*않(?:으면|고는)\s*안\s*[되됩돼된]"
        r"|(?:수)?밖에\s*(?:\S+\s*)?(?:없|않)|(?:관계|상관)\s*없이|그렇지\s*않(?:으면|다면)"
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


def detect(text: str) -> Lang:
    """The language of ``text``: Korean if it has Hangul, Japanese if it has kana, else English."""
    hangul, kana = len(_HANGUL.findall(text)), len(_KANA.findall(text))
    if hangul and hangul >= kana:
        return "ko"
    if kana or _HAN.search(text):
        return "ja"
    return "en"


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
    return re.sub(r"`[^`]*`", " ", normalise(text))


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
    found: Counter[str] = Counter()
    for raw in _NUMBER.findall(_prose(text)):
        value = raw.replace(",", "").lstrip("+")
        try:
            as_float = float(value)
        except ValueError:
            continue
        found[f"{as_float:g}"] += 1
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


def mentions(sentence: str, lang: Lang, claims: list[Claim]) -> list[Mention]:
    """Claims whose vocabulary the sentence uses: a subject and a predicate of its language."""
    found = []
    prose = normalise(sentence)
    lowered = prose.lower()
    for claim in claims:
        vocabulary = claim.vocabulary
        if vocabulary is None:
            continue
        subject = next((s for s in vocabulary.subjects if s in prose), None)
        if subject is None:
            continue
        predicate = next(
            (p for p in vocabulary.predicates.get(lang, ()) if p.lower() in lowered), None
        )
        if predicate is None:
            continue
        found.append(Mention(claim, not is_negated(sentence, lang), subject, predicate))
    return found
