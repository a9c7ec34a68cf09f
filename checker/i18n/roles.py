"""Who does what to whom: the role a noun plays for a verb of a relative clause, in the
English and in a Japanese or Korean translation.

"A tensor that nothing has saved" makes the tensor the *object* of saving; "a tensor that
has saved nothing" its *subject*. A translation that reverses them (``何も保存していない
テンソル``, ``아무것도 저장하지 않은 텐서``: a tensor that saved nothing) keeps every word,
number and negation and still says something else. This module reads the role only where
the grammar states it, and says nothing elsewhere:

- English: ``N that X has saved`` (a subject between "that" and the verb) and ``N that is
  saved`` make N the object (``"patient"``); ``N that saves`` / ``N that has saved`` its
  subject (``"agent"``).
- Japanese and Korean, where the clause stands before its noun: a passive verb (``保存され
  ていない``, ``저장되지 않은``) or a subject marked with が / 이·가 (``autograd が保存した``)
  makes the noun the object; an object marked with を / 을·를, or the pronoun "nothing" in
  the object's place (``何も``, ``아무것도``) before an active verb, makes it the subject.
  A bare active clause (``保存したテンソル``) may mean either, and is not judged.

The verbs are the ones claims are made of (save, hold, copy, free, record, allocate), the
nouns the glossary's terms.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from checker.typing import Lang

#: English stems of the verbs, and each language's stems (Sino-Korean or Sino-Japanese
#: nouns that take する / 하다, and their passives される / 되다).
VERBS: dict[str, dict[str, str]] = {
    "save": {"en": r"sav(?:e|es|ed|ing)", "ja": "保存", "ko": "저장"},
    "hold": {"en": r"(?:hold|holds|held|holding)", "ja": "保持", "ko": "보유|보관"},
    "copy": {"en": r"cop(?:y|ies|ied|ying)", "ja": "コピー|複製", "ko": "복사"},
    "free": {"en": r"free(?:s|d|ing)?", "ja": "解放", "ko": "해제"},
    "record": {"en": r"record(?:s|ed|ing)?", "ja": "記録", "ko": "기록"},
    "allocate": {"en": r"allocat(?:e|es|ed|ing)", "ja": "確保|割り当て", "ko": "할당"},
}

_AUX = r"(?:has|have|had|does|do|did|will|would|can|could|may|might)"
_BE = r"(?:is|are|was|were|be|been|being|has\s+been|have\s+been|had\s+been)"
_NOT = r"(?:\s+(?:not|never|already|just|yet|ever))*"


@dataclass(frozen=True)
class Role:
    """The role ``noun`` plays for ``verb`` where one clause states it."""

    noun: str
    verb: str
    role: str  # "agent" or "patient"
    #: The words that state it, as written.
    evidence: str


def english_roles(text: str, nouns: dict[str, str]) -> list[Role]:
    """Roles stated in English ``text``; ``nouns`` maps an English noun to its key."""
    found = []
    for noun_en, key in nouns.items():
        if noun_en.lower() not in text.lower():
            continue
        for verb, patterns in _english_patterns(noun_en):
            for role, pattern in patterns:
                match = pattern.search(text)
                if match:
                    found.append(Role(key, verb, role, match.group(0)))
                    break
    return found


@functools.cache
def _english_patterns(
    noun_en: str,
) -> tuple[tuple[str, tuple[tuple[str, re.Pattern[str]], ...]], ...]:
    """Per verb, the patterns that state ``noun_en``'s role, compiled once (there are more of
    them than ``re``'s own cache keeps)."""
    # "a tensor that requires grad and that nothing has saved": the second clause too
    noun = (
        rf"\b{re.escape(noun_en)}s?,?\s+(?:that|which)\s+"
        r"(?:[^,.;:]{1,40}?\s+and\s+(?:that|which)\s+)?"
    )
    found = []
    for verb, stems in VERBS.items():
        stem = stems["en"]
        patterns = (
            ("patient", rf"{noun}{_BE}{_NOT}\s+{stem}\b"),
            ("agent", rf"{noun}(?:{_AUX}{_NOT}\s+)?{stem}\b"),
            # a subject between "that" and the verb: "that nothing has saved"
            (
                "patient",
                rf"{noun}(?!{_AUX}\b|{_BE}\b)(?:\w+\s+){{1,3}}?(?:{_AUX}{_NOT}\s+)?{stem}\b",
            ),
        )
        compiled = tuple((role, re.compile(p, re.IGNORECASE)) for role, p in patterns)
        found.append((verb, compiled))
    return tuple(found)


#: A clause before its noun: the verb's stem, its ending (no clause break), the noun.
_CLAUSE_END = {"ja": r"[^。、，,！？「」]{0,16}?", "ko": r"[^.,!?]{0,16}?"}
_PASSIVE = {"ja": re.compile(r"^(?:され|されて|された)"), "ko": re.compile(r"^\s*(?:되|된|돼)")}
#: What fills the object's place before an active verb (the noun is then its subject).
_OBJECT = {
    "ja": re.compile(r"(?:何も|なにも|何一つ|を)\s*$"),
    "ko": re.compile(r"(?:아무것도|아무\s*것도|[을를])\s*$"),
}
#: A subject marked before an active verb (the noun is then its object).
_SUBJECT = {"ja": re.compile(r"(?:が|の)\s*$"), "ko": re.compile(r"[이가]\s+$")}


def translated_roles(text: str, lang: Lang, nouns: dict[str, tuple[str, ...]]) -> list[Role]:
    """Roles stated in a Japanese or Korean ``text``; ``nouns`` maps a key to the language's
    words for the noun."""
    if lang not in _PASSIVE:
        return []
    found = []
    for key, words in nouns.items():
        noun = "|".join(re.escape(w) for w in words)
        for verb, stems in VERBS.items():
            pattern = rf"({stems[lang]})({_CLAUSE_END[lang]})(?:{noun})"
            for match in re.finditer(pattern, text):
                said = _role(text[: match.start()], match.group(2), lang)
                if said is not None:
                    role, marker = said
                    found.append(Role(key, verb, role, marker + match.group(0)))
    return found


def _role(before: str, ending: str, lang: str) -> tuple[str, str] | None:
    """The role and the marker before the verb that states it (``""`` for a passive)."""
    if _PASSIVE[lang].search(ending):
        return "patient", ""
    # the word right before the verb (within its clause) says who stands where
    clause = re.split(r"[。、，,.]", before)[-1]
    for role, marks in (("agent", _OBJECT[lang]), ("patient", _SUBJECT[lang])):
        marked = marks.search(clause)
        if marked:
            return role, marked.group(0)
    return None
