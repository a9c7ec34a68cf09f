"""Structure: roles, links, emphasis, substitutions and numbers as in the English.

A translated sentence may reorder them, never change or drop them. Only the title of a
cross-reference (``{ref}`title <target>```) and a link's text are translated.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from checker.i18n.checks.diff import changes
from checker.i18n.checks.security import DANGEROUS_ROLES
from checker.i18n.findings import Check, TranslationFinding, said
from checker.i18n.markup import host
from checker.i18n.message import Message
from checker.i18n.quantities import cjk_numbers, units
from checker.text.reading import number_sequence, numbers, spelled_numbers

_EMPHASIS = {
    "em_open": said("emphasis (*...*)"),
    "strong_open": said("strong emphasis (**...**)"),
}


def check(message: Message) -> Iterator[TranslationFinding]:
    yield from _roles(message)
    yield from _links(message)
    yield from _emphasis(message)
    yield from _substitutions(message)
    yield from check_numbers(message)


def _role(role: tuple[str, str]) -> str:
    return f"{{{role[0]}}}`{role[1]}`"


def _roles(message: Message) -> Iterator[TranslationFinding]:
    source = message.source.roles
    target = Counter({r: n for r, n in message.target.roles.items() if r[0] not in DANGEROUS_ROLES})
    for change in changes(source, target, pair=lambda role: role[0]):
        if change.before is not None and change.after is not None:
            text = said(
                "changes {before} into {after}",
                before=_role(change.before),
                after=_role(change.after),
            )
        elif change.before is not None and message.target.code[change.before[1]]:
            text = said(
                "drops {role}; keep every role of the English (a role needs its name right "
                "before the backtick: {name}`...`)",
                role=_role(change.before),
            )
        elif change.before is not None:
            text = said("drops {role}; keep every role of the English", role=_role(change.before))
        else:
            text = said(
                "adds {role}, which the English does not have",
                role=_role(change.after or ("", "")),
            )
        yield message.finding(Check.ROLE, text)


def _links(message: Message) -> Iterator[TranslationFinding]:
    source = message.source.links + message.source.images
    target = message.target.links + message.target.images
    source_hosts = message.source.hosts
    for change in changes(source, target, pair=host):
        if change.before is not None and change.after is not None:
            text = said(
                "changes the link target {before} into {after}",
                before=change.before,
                after=change.after,
            )
        elif change.before is not None:
            text = said(
                "drops the link to {before}; translate its text, keep the link",
                before=change.before,
            )
        elif host(change.after or "") and host(change.after or "") not in source_hosts:
            continue  # a new external host: a security finding
        else:
            text = said(
                "adds a link to {after}, which the English does not have", after=change.after or ""
            )
        yield message.finding(Check.LINK, text)


def _emphasis(message: Message) -> Iterator[TranslationFinding]:
    source, target = message.source.emphasis, message.target.emphasis
    for kind, name in _EMPHASIS.items():
        if source[kind] == target[kind]:
            continue
        text = said(
            "the English has {english} {markup}, the translation {translation}",
            english=source[kind],
            markup=name,
            translation=target[kind],
        )
        if target[kind] < source[kind] and any(c in message.target.prose for c in "*_"):
            text = said(
                "{difference}; the markup did not parse: next to Japanese or Korean "
                "punctuation, put the punctuation inside the markup or leave a space around it",
                difference=text,
            )
        yield message.finding(Check.INLINE_MARKUP, text)


def _substitutions(message: Message) -> Iterator[TranslationFinding]:
    source, target = message.source.substitutions, message.target.substitutions
    for change in changes(source, target):
        if change.before is not None:
            text = said("drops the substitution {substitution}", substitution=change.before)
        else:
            text = said("adds the substitution {substitution}", substitution=change.after or "")
        yield message.finding(Check.SUBSTITUTION, text)


#: Values a translation may write more often than the English does: Japanese and Korean
#: count with digits where English has a word ("one element" is ``1 要素``, "square" is
#: ``2 乗``, "zeroes" is ``0으로 만들다``).
_COUNTED_WORDS = frozenset({"0", "1", "2"})


def check_numbers(message: Message) -> Iterator[TranslationFinding]:
    """Every number of the English is kept (as often as the English has it); the translation
    adds no value the English has neither in digits nor spelled out, and repeats none but
    0, 1 and 2 more often than the English writes it. Numbers in Han or Hangul numerals
    (``八十``, ``사십``) count as numbers."""
    english = numbers(message.source.prose)
    translated = numbers(message.target.prose) + Counter(cjk_numbers(message.target.prose))
    missing = english - translated
    allowed = english + spelled_numbers(message.source.prose, "en")
    extra = Counter(
        {
            n: c - allowed[n] if n in allowed else c
            for n, c in translated.items()
            if n not in allowed or (c > allowed[n] and n not in _COUNTED_WORDS)
        }
    )
    if not missing and not extra:
        yield from _check_order(message)
        yield from _units(message)
        return
    if missing and extra:
        parts = said(
            "the English's {missing} missing; {extra} not in the English",
            missing=_list(missing),
            extra=_list(extra),
        )
    elif missing:
        parts = said("the English's {missing} missing", missing=_list(missing))
    else:
        parts = said("{extra} not in the English", extra=_list(extra))
    if message.claim_id:
        text = said(
            "numbers differ in the statement of claim {claim}: {parts}",
            claim=message.claim_id,
            parts=parts,
        )
    else:
        text = said("numbers differ: {parts}", parts=parts)
    yield message.finding(Check.NUMBER, text)


def _units(message: Message) -> Iterator[TranslationFinding]:
    """A number the English gives with a unit keeps that unit (``4 GiB`` is not ``4 MiB``,
    ``20 s`` not ``20 分``); a translation may leave out a unit or add one the English
    implies, never give a value a unit the English gives it nowhere."""
    english: dict[str, Counter[str]] = {}
    for value, unit in units(message.source.prose):
        english.setdefault(value, Counter())[unit] += 1
    translated: dict[str, Counter[str]] = {}
    for value, unit in units(message.target.prose):
        translated.setdefault(value, Counter())[unit] += 1
    for value in english.keys() & translated.keys():
        changed = translated[value] - english[value]
        if changed and set(changed) - set(english[value]):
            values = {
                "value": value,
                "before": ", ".join(sorted(english[value])),
                "after": ", ".join(sorted(changed)),
            }
            text = (
                said(
                    "units differ in the statement of claim {claim}: the English has {value} "
                    "{before}, the translation {value} {after}",
                    claim=message.claim_id,
                    **values,
                )
                if message.claim_id
                else said(
                    "units differ: the English has {value} {before}, the translation {value} "
                    "{after}",
                    **values,
                )
            )
            yield message.finding(Check.UNIT, text)


#: Numbers that belong to code written as text (``reshape(12)``, ``init_scale=4``): the code
#: checks compare them; the order of the sentence's own numbers is judged without them.
_CODE_BOUND = re.compile(
    r"[A-Za-z_][A-Za-z0-9_.]*(?:\([A-Za-z0-9_.,=:*+\-\[\]]*\)|=[A-Za-z0-9_.+\-*]+)"
)


def _check_order(message: Message) -> Iterator[TranslationFinding]:
    """The English's numbers come in the English's order: a translation that swaps two
    values (``2 … 4`` becoming ``4 … 2``) keeps every number and still says something else.
    The translation may repeat a number (``2 乗`` for "square") after the English's
    occurrences of it, and may add none; numbers inside code written as text are left to the
    code checks."""
    english = number_sequence(_CODE_BOUND.sub(" ", message.source.prose))
    if len(set(english)) < 2:
        return
    kept = Counter(english)
    translated = number_sequence(_CODE_BOUND.sub(" ", message.target.prose))
    if _in_order(english, _first_occurrences(translated, kept)):
        return
    values = {"english": ", ".join(english), "translation": ", ".join(translated)}
    text = (
        said(
            "numbers in another order in the statement of claim {claim}: the English has "
            "{english}, the translation {translation}",
            claim=message.claim_id,
            **values,
        )
        if message.claim_id
        else said(
            "numbers in another order: the English has {english}, the translation {translation}",
            **values,
        )
    )
    yield message.finding(Check.NUMBER, text)


def _first_occurrences(translated: list[str], kept: Counter[str]) -> list[str]:
    """The translation's numbers that the English has, each value other than 0, 1 and 2 only
    as many times as the English has it, its first occurrences: a repeated number cannot
    make a swap pass (``4 … 20 … 4`` for ``20 … 4``). 0, 1 and 2 may stand for words
    anywhere (``2 乗`` for "square")."""
    left = Counter(kept)
    found = []
    for number in translated:
        if number in _COUNTED_WORDS and number in kept:
            found.append(number)
        elif left[number] > 0:
            left[number] -= 1
            found.append(number)
    return found


def _in_order(english: list[str], translated: list[str]) -> bool:
    """Whether ``english`` is a subsequence of ``translated``."""
    rest = iter(translated)
    return all(any(n == t for t in rest) for n in english)


def _list(found: Counter[str]) -> str:
    return ", ".join(sorted(found.elements(), key=lambda n: (float(n), n)))
