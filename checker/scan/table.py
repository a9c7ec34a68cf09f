"""A table row of marks read as the statements it makes.

Summary tables state claims with marks: under a header "| op | shares memory |", the row
"| `index_select()` | O |" says that ``index_select()`` shares memory, and "| `clone()` | X |"
that ``clone()`` does not. Each mark cell becomes a sentence in the article's language, built
from the row's first cell (the subject) and the column's header (the predicate), negated for a
"no" mark, so that the scanner's ordinary statement reading judges it. A cell that is not a
mark says nothing here.
"""

from __future__ import annotations

import re

from checker.text import languages

#: Marks that say yes, and marks that say no, as tables in every language write them: a
#: table's marks are read whatever the article's language (a Japanese post may use ✓).
YES: frozenset[str] = frozenset().union(*(language.yes_marks for language in languages.LANGUAGES))
NO: frozenset[str] = frozenset().union(*(language.no_marks for language in languages.LANGUAGES))

_UNMARKED = re.compile(r"[*_`\s]+")


def mark(cell: str) -> bool | None:
    """``True`` for a yes mark, ``False`` for a no mark, ``None`` for anything else."""
    word = _UNMARKED.sub("", cell).lower()
    if word in YES:
        return True
    if word in NO:
        return False
    return None


def statements(header: tuple[str, ...], cells: tuple[str, ...], lang: str) -> list[tuple[str, str]]:
    """The sentences a row of marks makes, one per mark cell under a named column, each with
    its column's header: ``(column, sentence)``."""
    if len(cells) < 2 or not cells[0].strip():
        return []
    subject = cells[0].strip()
    found = []
    for column, cell in zip(header[1:], cells[1:], strict=False):
        said = mark(cell)
        if said is None or not column.strip():
            continue
        found.append((column.strip(), _sentence(subject, column.strip(), said, lang)))
    return found


def _sentence(subject: str, predicate: str, said: bool, lang: str) -> str:
    language = languages.language(lang)
    template = language.marked_statement if said else language.marked_denial
    return template.format(subject=subject, predicate=predicate)
