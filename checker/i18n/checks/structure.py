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
from checker.i18n.findings import Check, TranslationFinding
from checker.i18n.markup import host
from checker.i18n.message import Message
from checker.text.reading import number_sequence, numbers, spelled_numbers

_EMPHASIS = {"em_open": "emphasis (*...*)", "strong_open": "strong emphasis (**...**)"}


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
            text = f"changes {_role(change.before)} into {_role(change.after)}"
        elif change.before is not None:
            text = f"drops {_role(change.before)}; keep every role of the English"
            if message.target.code[change.before[1]]:
                text += " (a role needs its name right before the backtick: {name}`...`)"
        else:
            text = f"adds {_role(change.after or ('', ''))}, which the English does not have"
        yield message.finding(Check.ROLE, text)


def _links(message: Message) -> Iterator[TranslationFinding]:
    source = message.source.links + message.source.images
    target = message.target.links + message.target.images
    source_hosts = message.source.hosts
    for change in changes(source, target, pair=host):
        if change.before is not None and change.after is not None:
            text = f"changes the link target {change.before} into {change.after}"
        elif change.before is not None:
            text = f"drops the link to {change.before}; translate its text, keep the link"
        elif host(change.after or "") and host(change.after or "") not in source_hosts:
            continue  # a new external host: a security finding
        else:
            text = f"adds a link to {change.after}, which the English does not have"
        yield message.finding(Check.LINK, text)


def _emphasis(message: Message) -> Iterator[TranslationFinding]:
    source, target = message.source.emphasis, message.target.emphasis
    for kind, name in _EMPHASIS.items():
        if source[kind] == target[kind]:
            continue
        text = f"the English has {source[kind]} {name}, the translation {target[kind]}"
        if target[kind] < source[kind] and any(c in message.target.prose for c in "*_"):
            text += (
                "; the markup did not parse: next to Japanese or Korean punctuation, "
                "put the punctuation inside the markup or leave a space around it"
            )
        yield message.finding(Check.INLINE_MARKUP, text)


def _substitutions(message: Message) -> Iterator[TranslationFinding]:
    source, target = message.source.substitutions, message.target.substitutions
    for change in changes(source, target):
        if change.before is not None:
            text = f"drops the substitution {change.before}"
        else:
            text = f"adds the substitution {change.after}"
        yield message.finding(Check.SUBSTITUTION, text)


def check_numbers(message: Message) -> Iterator[TranslationFinding]:
    """Every number of the English is kept (as often as the English has it); the translation
    adds no value the English has neither in digits nor spelled out (it may repeat one)."""
    english = numbers(message.source.prose)
    translated = numbers(message.target.prose)
    missing = english - translated
    known = set(english) | set(spelled_numbers(message.source.prose, "en"))
    extra = Counter({n: c for n, c in translated.items() if n not in known})
    if not missing and not extra:
        yield from _check_order(message)
        return
    parts = []
    if missing:
        parts.append(f"the English's {_list(missing)} missing")
    if extra:
        parts.append(f"{_list(extra)} not in the English")
    where = f" in the statement of claim {message.claim_id}" if message.claim_id else ""
    yield message.finding(Check.NUMBER, f"numbers differ{where}: {'; '.join(parts)}")


#: Numbers that belong to code written as text (``reshape(12)``, ``init_scale=4``): the code
#: checks compare them; the order of the sentence's own numbers is judged without them.
_CODE_BOUND = re.compile(
    r"[A-Za-z_][A-Za-z0-9_.]*(?:\([A-Za-z0-9_.,=:*+\-\[\]]*\)|=[A-Za-z0-9_.+\-*]+)"
)


def _check_order(message: Message) -> Iterator[TranslationFinding]:
    """The English's numbers come in the English's order: a translation that swaps two
    values (``2 … 4`` becoming ``4 … 2``) keeps every number and still says something else.
    The translation may repeat a number (``2 乗`` for "square") and may add none; numbers
    inside code written as text are left to the code checks."""
    english = number_sequence(_CODE_BOUND.sub(" ", message.source.prose))
    if len(set(english)) < 2:
        return
    kept = set(english)
    translated = number_sequence(_CODE_BOUND.sub(" ", message.target.prose))
    if _in_order(english, [n for n in translated if n in kept]):
        return
    where = f" in the statement of claim {message.claim_id}" if message.claim_id else ""
    yield message.finding(
        Check.NUMBER,
        f"numbers in another order{where}: the English has {', '.join(english)}, "
        f"the translation {', '.join(translated)}",
    )


def _in_order(english: list[str], translated: list[str]) -> bool:
    """Whether ``english`` is a subsequence of ``translated``."""
    rest = iter(translated)
    return all(any(n == t for t in rest) for n in english)


def _list(found: Counter[str]) -> str:
    return ", ".join(sorted(found.elements(), key=lambda n: (float(n), n)))
