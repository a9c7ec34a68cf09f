"""How many negations a claim statement holds, as the translation gate counts them.

The article scanner's markers (:func:`checker.text.reading.polarity_markers`) decide whether
a sentence asserts or denies a claim; the gate asks a stricter question of a translation:
does it hold *the same* negations as its English? Counting parity only, a translation could
flip the claim and add an unrelated negation elsewhere (``…受け付けず…珍しくない``) and still
pass. So the gate compares counts, on text made hard to disguise:

- :func:`normalised`: NFKC (half-width ``ﾅｲ`` becomes ``ナイ``), invisible format characters
  (zero-width spaces, joiners, bidirectional marks) removed, and a negative ending written in
  katakana after a stem (``削減しナイ``, ``されマセン``) or with the kanji 無 (``し無い``)
  read as the hiragana it stands for;
- Korean's short negation (``안 줄어듭니다``), which the scanner does not read;
- sentence-level denials, which deny a whole statement without a negated verb: "… is
  false", ``…というのは誤りです``, ``…は間違いだ``, ``…은 틀린 말이다``, ``…는 거짓이다``;
- double negations that keep a statement affirmative count as none, in every language
  alike: "not uncommon", ``珍しくない`` (not rare), ``ないわけではない``, ``ざるを得ない``,
  ``하지 않을 수 없다``, ``드물지 않다``. A translation may render "common" as ``珍しくない``
  without a finding; one that adds a negation to such a phrase still changes the count.
"""

from __future__ import annotations

import re
import unicodedata

from checker.text.reading import polarity_markers
from checker.typing import Lang

#: A negative ending written in katakana right after a stem written in hiragana or Han: a
#: spelling no one uses except to hide a negation from a check.
_KATAKANA_ENDING = re.compile(r"(?<=[\u3041-\u309f\u4e00-\u9fff])(ナイ|ナク|ナカッ|マセン|ズ|ヌ)")
_HIRAGANA = {
    "ナイ": "ない",
    "ナク": "なく",
    "ナカッ": "なかっ",
    "マセン": "ません",
    "ズ": "ず",
    "ヌ": "ぬ",
}

#: Sentence-level denials (the whole statement is said to be wrong), per language. Only
#: forms that carry no negation marker of their own: ``正しくない``, ``사실이 아니다`` are
#: counted by the negation markers already.
_DENIALS: dict[str, re.Pattern[str]] = {
    "en": re.compile(
        r"\b(?:is|are|was|were)\s+(?:false|wrong|untrue|incorrect|a\s+myth|a\s+misconception)\b"
        r"|\bit\s+is\s+a\s+myth\b",
        re.IGNORECASE,
    ),
    "ja": re.compile(
        r"(?:という|との)(?:のは|ことは|話は|説は|主張は)[^。]*?(?:誤り|間違い|嘘|うそ|誤解|俗説|偽)"
        r"|(?:誤り|間違い|嘘|うそ|誤解|俗説|偽|誤っている|間違っている|誤っています|間違っています)"
        r"(?:です|だ|である|でした)?(?=\s*[。．.！!]|\s*$)"
    ),
    "ko": re.compile(
        r"(?:틀린|잘못된|거짓)\s*(?:것|말|주장|이야기)(?:이다|입니다|이에요|임)"
        r"|(?:틀렸|틀립니|틀리다|거짓이|거짓입니|오해이|오해입니|잘못이|잘못입니)"
    ),
}

#: Double negations that say something affirmative, counted as none (a translation may use
#: one for an affirmative English). Taken out before the negations are counted.
_DOUBLE_NEGATIONS: dict[str, re.Pattern[str]] = {
    "en": re.compile(
        r"\bnot\s+(?:un\w+|in(?:frequent|correct|valid|exact)|rare|rarely|without|a\s+few)\b"
        r"|\bnever\s+fails?\s+to\b|\bnot\s+fail\s+to\b",
        re.IGNORECASE,
    ),
    "ja": re.compile(
        r"(?:な(?:い|く)|ず|ぬ|ません)(?:わけ|こと)(?:では|じゃ|は|も)?(?:ない|ありません|なく)"
        r"|なく(?:は|も)(?:ない|ありません)|ざるを得(?:ない|ません|ず)"
        r"|(?:珍しく|まれで(?:は)?|稀で(?:は)?|少なく)(?:ない|なく|ありません)"
        r"|間違い(?:ない|なく|ありません)"
    ),
    "ko": re.compile(
        r"(?:않|없|못하)(?:을|는)\s*수\s*(?:가\s*)?없|없지\s*않|아닌\s*(?:것은|건)\s*아니"
        r"|(?:드물|흔하지\s*않)지\s*않"
    ),
}

#: Negations the scanner's markers leave out, per language: Korean's short negation
#: (``안 줄어듭니다``, "does not shrink"; ``안에``, "inside", is a noun).
_SHORT_NEGATIONS: dict[str, re.Pattern[str]] = {
    "en": re.compile(r"(?!)"),
    "ja": re.compile(r"(?!)"),
    "ko": re.compile(r"(?<![\uac00-\ud7a3])안\s+(?=[\uac00-\ud7a3])"),
}

#: Japanese negative endings written with the kanji 無 (``削減し無い``): read as ない.
_KANJI_ENDING = re.compile(r"(?<=[\u3041-\u309f])無(い|く|かっ)")

#: Format characters that render as nothing: they could split a marker (``な\u200bい``).
_INVISIBLE = re.compile(
    r"[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
    r"\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]"
)


def normalised(text: str) -> str:
    """``text`` as the gate reads it: NFKC, invisible characters removed, negative endings
    written in katakana read as hiragana."""
    text = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text))
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    text = _KATAKANA_ENDING.sub(lambda m: _HIRAGANA[m.group(1)], text)
    return _KANJI_ENDING.sub(lambda m: "な" + m.group(1), text)


def markers(text: str, lang: Lang) -> list[str]:
    """The negations of ``text`` that decide what a statement says: the scanner's negation
    markers and "without"s, sentence-level denials, double negations counted as none."""
    prose = _without_code(normalised(text))
    prose = _DOUBLE_NEGATIONS[lang].sub(" ", prose)
    found = polarity_markers(prose, lang)
    return found + _SHORT_NEGATIONS[lang].findall(prose) + _DENIALS[lang].findall(prose)


def _without_code(text: str) -> str:
    return re.sub(r"`[^`]*`", " ", text)
