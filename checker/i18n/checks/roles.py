"""Roles: a translation keeps who does what to whom where the grammar states it.

For each noun and verb whose relation the English states in a relative clause ("a tensor
that nothing has saved": the tensor is saved) and the translation states too (``何も保存して
いないテンソル``: the tensor saved nothing), the two must agree (:mod:`checker.i18n.roles`).
An error in a claim's statement, whose meaning the site promises to keep; a warning in
other text.
"""

from __future__ import annotations

from collections.abc import Iterator

from checker.i18n.findings import Check, Said, Severity, TranslationFinding, said
from checker.i18n.message import Message
from checker.i18n.polarity import normalised
from checker.i18n.roles import english_roles, translated_roles

#: Nouns read without a glossary, and beside its terms: ``(English, {lang: words})``.
NOUNS: dict[str, dict[str, tuple[str, ...]]] = {
    "tensor": {"ja": ("テンソル",), "ko": ("텐서",)},
    "leaf": {"ja": ("リーフ",), "ko": ("리프",)},
    "view": {"ja": ("ビュー",), "ko": ("뷰",)},
    "storage": {"ja": ("ストレージ",), "ko": ("스토리지",)},
    "output": {"ja": ("出力",), "ko": ("출력",)},
    "input": {"ja": ("入力",), "ko": ("입력",)},
}


def check(message: Message) -> Iterator[TranslationFinding]:
    if message.lang not in ("ja", "ko"):
        return
    nouns = {en: dict(words) for en, words in NOUNS.items()}
    for term in message.glossary.terms if message.glossary is not None else ():
        if " " not in term.en and term.preferred.get(message.lang):
            nouns.setdefault(term.en, {})[message.lang] = term.preferred[message.lang]
    english = english_roles(normalised(message.source.prose), {en: en for en in nouns})
    if not english:
        return
    words = {en: n[message.lang] for en, n in nouns.items() if n.get(message.lang)}
    translated = translated_roles(normalised(message.target.prose), message.lang, words)
    for role in english:
        found = [t for t in translated if (t.noun, t.verb) == (role.noun, role.verb)]
        if not found or any(t.role == role.role for t in found):
            continue
        text = _reversed(role.role, role.evidence, role.noun, role.verb, found[0].evidence)
        yield message.finding(
            Check.CLAIM_ROLES,
            said("claim {claim}: {text}", claim=message.claim_id, text=text)
            if message.claim_id
            else text,
            severity=None if message.claim_id else Severity.WARNING,
        )


def _reversed(role: str, english: str, noun: str, verb: str, translation: str) -> Said:
    """The finding's words for a noun whose ``role`` in the English the translation reverses."""
    values = {"english": f"'{english}'", "noun": noun, "verb": verb}
    if role == "agent":
        return said(
            "roles reversed: in the English ({english}) the {noun} does it ({verb}); in the "
            "translation ({translation}) it has it done to it",
            translation=f"'{translation}'",
            **values,
        )
    return said(
        "roles reversed: in the English ({english}) the {noun} has it done to it ({verb}); in "
        "the translation ({translation}) it does it",
        translation=f"'{translation}'",
        **values,
    )
