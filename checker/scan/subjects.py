"""Where a sentence finds a subject it does not write before its predicate, for
:mod:`checker.scan.statements`: a demonstrative ("this function", この関数, 이 함수) points
back at the last code name the article named."""

from __future__ import annotations

import re

from checker.text import languages, reading


def pointed_back(sentence: str, lang: str, topic: str) -> str:
    """``sentence`` with its demonstrative subject ("this context manager", "この関数",
    "이 함수") replaced by ``topic``, the code name the article named last (if any)."""
    if not topic:
        return sentence
    return languages.language(lang).demonstrative.sub(f"`{topic}`", sentence, count=1)


def names_code(subject: str, sentence: str) -> bool:
    """Whether ``subject`` is named in ``sentence`` as what a demonstrative ("this function",
    この関数, 이 함수) can point back to: a code name, not a word of the language
    (チェックポイント, 체크포인트), and not a setting (``requires_grad=True``)."""
    if not subject.isascii():
        return False
    prose = reading.normalise(sentence)
    written = (m.end() for m in re.finditer(re.escape(subject), prose))
    return any(not re.match(r"\s*=(?!=)", prose[end:]) for end in written)
