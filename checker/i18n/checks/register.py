"""Register: every sentence of a language's prose ends in the register the glossary names.

One register per language (``locales/glossary.toml``, ``[register]``): Japanese prose and
claim statements are written in です/ます, Korean in 합니다/하십시오. A sentence is judged
by its last word, where it ends (``。`` in Japanese; ``.``, ``?``, ``!`` or ``:`` then a space
or the end in Korean): Japanese plain forms (…する。…した。…である。…ない。) and Korean plain
(…한다. …이다.) or 해요체 (…하세요. …해요.) endings are findings. Sentences that end in a noun
(表の見出し、…の数。…하면 성립) are not judged, nor are headings and labels without a
full stop, which both languages write in the plain form (…で実行される, …로 실행된다), except
that a Korean 해요체 ending is a finding anywhere; quotations (「…」, "…") nor the
text of code, roles and links, which :attr:`checker.i18n.message.Message.target` leaves out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from checker.i18n.findings import Check, TranslationFinding, said
from checker.i18n.message import Message

#: Quotations, whose register is the quoted text's: 「…」『…』 and "…".
_QUOTED = re.compile(r"「[^「」]*」|『[^『』]*』|\"[^\"]*\"|“[^”]*”")
_CLOSERS = "」』】］]\"'”’ \u3000"

_JA_SENTENCE = re.compile(r"[^。]*。")
_JA_POLITE = ("です", "ます", "ました", "でした", "ません", "でしょう", "ましょう", "ください")
#: The last kana of a plain sentence: a verb (…する, …した, …使う), an adjective or
#: ない (…正しい, …しない), the copula (…だ, …である).
_JA_PLAIN = re.compile(r"(?:である|[るたいだうくすつぬむぶぐ])$")

_KO_SENTENCE = re.compile(r".*?(?:[.?!:](?=\s|$)|$)", re.DOTALL)
#: A parenthesis at the end of a sentence: its last word is not the sentence's.
_TRAILING_PARENTHESIS = re.compile(r"\s*[（(][^（）()]*[）)]$")
#: 해요체: …하세요, …해요, …이에요, …돼요, …죠; not a noun that ends in 요 (필요, 중요).
_KO_HAEYO = re.compile(r"(?:[세에예어아해돼봐줘써와워져겨려네까래대군데지]요|죠)$")
#: 한다체 (plain): …한다, …이다, …했다, …없다; not …니다 (합니다체).
_KO_PLAIN = re.compile(r"(?<!니)다$")

REGISTER = {
    "ja": "です/ます",
    "ko": "합니다/하십시오",
}


def check(message: Message) -> Iterator[TranslationFinding]:
    """A finding for each sentence of ``message`` that ends in another register."""
    endings = list(off_register(message.target.prose, message.lang))
    if endings:
        shown = ", ".join(f"'…{e}'" for e in endings)
        yield message.finding(
            Check.REGISTER,
            said(
                "{endings}: write every sentence in {register} (glossary.toml, [register])",
                endings=shown,
                register=REGISTER[message.lang],
            ),
        )


def off_register(text: str, lang: str) -> Iterator[str]:
    """The endings (last words) of the sentences of ``text`` that are off the register."""
    if lang not in REGISTER:
        return
    text = _QUOTED.sub(" ", text)
    if lang == "ja":
        for match in _JA_SENTENCE.finditer(text):
            sentence = _last_words(match[0][:-1])
            if sentence.endswith(_JA_POLITE):
                continue
            if _JA_PLAIN.search(sentence):
                yield sentence[-6:].split()[-1] if sentence.split() else sentence[-6:]
        return
    for match in _KO_SENTENCE.finditer(text):
        stop = match[0].rstrip()[-1:] in (".", "?", "!", ":")
        sentence = _last_words(match[0].rstrip(".?!: \n"))
        if not sentence:
            continue
        if _KO_HAEYO.search(sentence) or (stop and _KO_PLAIN.search(sentence)):
            yield sentence.split()[-1]


def _last_words(sentence: str) -> str:
    """The sentence without the closing quotes and parentheses that follow its last word."""
    sentence = sentence.rstrip(_CLOSERS)
    while _TRAILING_PARENTHESIS.search(sentence):
        sentence = _TRAILING_PARENTHESIS.sub("", sentence).rstrip(_CLOSERS)
    return sentence
