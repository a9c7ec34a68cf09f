"""One translated message and what the checks need to judge it: the contract of a check.

A *check* is a function ``(Message) -> Iterable[TranslationFinding]`` (see :data:`EntryCheck`); it
compares :attr:`Message.source` (the English, parsed) with :attr:`Message.target` (the
translation, parsed) and reports with :meth:`Message.finding`, which fills in the file, the
line of the ``msgstr``, the language and the page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from checker.claim import Claim
from checker.i18n.findings import Check, Said, Severity, TranslationFinding
from checker.i18n.glossary import Glossary
from checker.i18n.markup import Inventory, inventory
from checker.text.po import Entry
from checker.typing import Lang


@dataclass(frozen=True)
class Message:
    """A catalog entry's English and one of its translated forms, in context."""

    #: The catalog, as reported (relative to the repository root).
    path: str
    lang: Lang
    page: str
    entry: Entry
    #: The form under check: ``msgstr``, or one ``msgstr[N]``.
    translation: str
    #: The id of the claim whose statement this is, if any.
    claim_id: str | None = None
    #: That claim, when the claim modules are loaded.
    claim: Claim | None = None
    glossary: Glossary | None = None

    @property
    def english(self) -> str:
        return self.entry.msgid

    @property
    def source(self) -> Inventory:
        """The English, parsed (cached across messages: equal texts parse once)."""
        return inventory(self.entry.msgid)

    @property
    def target(self) -> Inventory:
        """The translation, parsed."""
        return inventory(self.translation)

    def finding(
        self,
        check: Check,
        message: str | Said,
        *,
        line: int = 0,
        severity: Severity | None = None,
    ) -> TranslationFinding:
        """A finding about this message, on its ``msgstr`` line unless ``line`` is given;
        ``message`` as a :class:`Said` where the check words it for translation."""
        sentence = message if isinstance(message, Said) else None
        return TranslationFinding(
            path=self.path,
            line=line or self.entry.msgstr_line,
            lang=self.lang,
            page=self.page,
            check=check,
            severity=severity or check.severity,
            message=sentence.english if sentence is not None else str(message),
            msgid=self.entry.msgid,
            msgstr=self.translation,
            said=sentence,
        )


#: The signature of a check of one translated message.
EntryCheck = Callable[[Message], Iterable[TranslationFinding]]
