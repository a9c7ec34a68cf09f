"""Code: never translated. Inline literals and code blocks must be the English's, byte for byte.

Because every translation is proven to carry the English code unchanged, the examples are
run once, from the English pages (``nox -s doctest``), not once per language.
"""

from __future__ import annotations

from collections.abc import Iterator

from checker.i18n.checks.diff import changes
from checker.i18n.findings import Check, TranslationFinding, said
from checker.i18n.message import Message


def check(message: Message) -> Iterator[TranslationFinding]:
    source, target = message.source, message.target
    for change in changes(source.code, target.code, pair=lambda _: True):
        if change.before is not None and change.after is not None:
            text = said(
                "changes the code `{before}` into `{after}`; code is never translated",
                before=change.before,
                after=change.after,
            )
        elif change.before is not None:
            text = said("drops the code `{before}`; code is never translated", before=change.before)
        else:
            text = said(
                "adds the code `{after}`, which the English does not have; code is never "
                "translated",
                after=change.after or "",
            )
        yield message.finding(Check.CODE_LITERAL, text)
    added = [block for block in target.code_blocks if block not in source.code_blocks]
    if added:
        yield message.finding(
            Check.CODE_BLOCK,
            said(
                "adds a code block ({first}): code is not translated",
                first=repr(_first_line(added[0])),
            ),
        )


def check_code_entry(message: Message) -> Iterator[TranslationFinding]:
    """An entry whose English is a code block or a doctest: the only allowed translation is
    none (or the English itself)."""
    if message.translation.strip() and message.translation != message.english:
        yield message.finding(
            Check.CODE_BLOCK,
            said(
                "changes a code block ({first}): code is not translated; leave the msgstr empty",
                first=repr(_first_line(message.english)),
            ),
        )


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0][:60] if text.strip() else ""
