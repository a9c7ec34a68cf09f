"""Where a sentence finds a subject it does not write before its predicate, for
:mod:`checker.scan.statements`: a demonstrative ("this function", この関数, 이 함수) points
back at the last code name the article named; a sentence that opens with the case a claim is
about ("On the CPU, ...") goes on about its paragraph's subject; a colon that labels a subject
with what is said of it ("what scales the loss: `GradScaler`") joins the two."""

from __future__ import annotations

import re
from collections.abc import Sequence

from checker.claim import Claim
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


def case_of_paragraph(
    sentence: str, lang: str, subject: str, claims: Sequence[Claim]
) -> tuple[str, list[reading.ClaimMention]]:
    """A sentence that opens with the case a claim is about ("On the CPU, only bfloat16
    works", "CPU の場合、…", "CPU의 경우, …") and does not name the claim's subject goes
    on about the subject an earlier sentence of its paragraph named: the sentence read with
    that subject, and the claims it then states, of those that require the case
    (:attr:`~checker.claim.Vocabulary.requires`)."""
    bound = re.search(r"[,、，]", sentence)
    if bound is None or bound.start() > 24:
        return sentence, []
    opening = reading.normalise(sentence[: bound.start()]).lower()
    prose = reading.normalise(sentence)

    def opens_with_its_case(claim: Claim) -> bool:
        vocabulary = claim.vocabulary
        if vocabulary is None or any(reading.names(s, prose) for s in vocabulary.subjects):
            return False
        cases = vocabulary.requires.get(lang, ())  # type: ignore[call-overload]
        return any(reading.stem_pattern(case).search(opening) for case in cases)

    scoped = [claim for claim in claims if opens_with_its_case(claim)]
    if not scoped:
        return sentence, []
    read = f"`{subject}` {sentence}"
    return read, reading.mentions(read, lang, scoped)  # type: ignore[arg-type]


#: A clause after a semicolon that opens by pointing back at the subject of the one before
#: ("`use_reentrant` is optional; the default prints nothing"): it goes on about that subject.
_ANAPHORA = re.compile(r"(?<=;)\s*(?:it|this|that|the default|its default)\b", re.IGNORECASE)
#: What may stand beside a name that a colon labels: code marks, brackets, spaces.
_LABEL_MARKS = re.compile(r"[\s`*()（）「」\"'“”]+")


def joined(prose: str, breaks: list[re.Match[str]], subjects: tuple[str, ...]) -> bool:
    """Whether the clause breaks between a subject and its predicate leave them one statement:
    a single break that a clause after it opens by pointing back at the subject (``_ANAPHORA``),
    or a colon that labels the subject (:func:`labels`)."""
    if len(breaks) != 1:
        return False
    return bool(_ANAPHORA.match(prose, breaks[0].end())) or labels(prose, breaks[0], subjects)


def labels(prose: str, colon: re.Match[str], subjects: tuple[str, ...]) -> bool:
    """Whether a colon joins a subject to what is said of it, as a label does: one side of it,
    to the end of its line, holds the subject and nothing else ("`GradScaler`: scales the loss",
    "what scales the loss: `GradScaler`", "loss를 키워 주는 것 : GradScaler")."""
    if colon.group(0) not in ":：":
        return False
    line_start = prose.rfind("\n", 0, colon.start()) + 1
    line_end = prose.find("\n", colon.end())
    after = prose[colon.end() : line_end if line_end >= 0 else None]
    sides = (prose[line_start : colon.start()], after)
    bare = [_LABEL_MARKS.sub("", side).rstrip(".。") for side in sides]
    return any(side in subjects for side in bare)
