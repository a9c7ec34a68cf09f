"""The reviewed translations of claim statements, ``locales/claim-translations.txt``.

The site promises that a translation cannot change what a claim says. The checks catch a
flipped negation, a changed number or unit, reversed roles; a reviewer catches the rest. So
each translated claim statement is approved once it is reviewed, as one line of this file::

    ja topics/views-and-inplace views/resize-unsaved 3f2a9c0e1b2d4f56

(language, page, claim, and a digest of the English and the translation together; a decision
rule of the generated text, which says what a probe proves, is approved the same way, as
``ko generated:checker decision-rule <digest>``). The gate refuses a claim statement or rule
whose English or translation has no approved line: a translation
changed since its review must be reviewed again. After reviewing it against the English,
``python -m checker i18n --approve-claims`` writes the file anew from the catalogs, and the
change to this file is what the reviewer signs off in the pull request.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

#: The file's name, in the locales folder.
FILE_NAME = "claim-translations.txt"

_HEADER = """\
# Reviewed translations of claim statements and decision rules: one line each, written by
# 'python -m checker i18n --approve-claims' after a review against the English
# (CONTRIBUTING.md, "Translators"). Fields: language, page (generated:checker for rules),
# claim (decision-rule for rules), digest of the English and the translation. A statement
# or rule whose line is missing fails the gate (claim-approval).
"""


@dataclass(frozen=True, order=True)
class Statement:
    """One translated claim statement, as approved."""

    lang: str
    page: str
    claim_id: str
    digest: str

    @property
    def line(self) -> str:
        return f"{self.lang} {self.page} {self.claim_id} {self.digest}"


def digest(english: str, translation: str) -> str:
    """16 hex digits of SHA-256 over the English and the translation together."""
    data = english.encode("utf-8") + b"\0" + translation.encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:16]


def statement(lang: str, page: str, claim_id: str, english: str, translation: str) -> Statement:
    return Statement(lang, page, claim_id, digest(english, translation))


@dataclass(frozen=True)
class Approvals:
    """The approved statements, and the file's malformed lines (``(line, text)``)."""

    statements: frozenset[Statement]
    malformed: tuple[tuple[int, str], ...] = ()

    def approves(self, item: Statement) -> bool:
        return item in self.statements


def read(path: Path) -> Approvals:
    """The approvals in ``path`` (none when it does not exist)."""
    if not path.is_file():
        return Approvals(frozenset())
    found: set[Statement] = set()
    malformed: list[tuple[int, str]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split()
        if len(fields) != 4 or len(fields[3]) != 16:
            malformed.append((number, line[:80]))
            continue
        found.add(Statement(*fields))
    return Approvals(frozenset(found), tuple(malformed))


def write(path: Path, statements: Iterable[Statement]) -> None:
    """Write ``statements``, sorted, one per line, under the file's header."""
    lines = [s.line for s in sorted(set(statements))]
    path.write_text(_HEADER + "\n".join(lines) + "\n", encoding="utf-8")
