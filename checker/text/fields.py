"""Messages with fields: a sentence a program builds with an f-string (a probe's decision rule)
is one message whose ``{fields}`` stand for the values, so it is translated once and every
text it produces is matched against it. The Sphinx extension looks translations up this way;
the translation gate checks that a translation keeps every field.
"""

from __future__ import annotations

import re

#: A field of an f-string message: ``{SIDE}``, ``{name}``, ``{x.shape}``.
FIELD = re.compile(r"\{([^{}\s][^{}]*)\}")


def template_pattern(msgid: str) -> tuple[re.Pattern[str], dict[str, str]] | None:
    """The pattern of the texts a message with fields produces, and the group name of each
    distinct field; ``None`` without fields."""
    if not FIELD.search(msgid):
        return None
    groups: dict[str, str] = {}
    parts: list[str] = []
    last = 0
    for match in FIELD.finditer(msgid):
        parts.append(re.escape(msgid[last : match.start()]))
        field = match[1]
        if field in groups:
            parts.append(f"(?P={groups[field]})")
        else:
            groups[field] = f"f{len(groups)}"
            parts.append(f"(?P<{groups[field]}>.*?)")  # a conditional field may be empty
        last = match.end()
    parts.append(re.escape(msgid[last:]))
    return re.compile("".join(parts), re.DOTALL), groups


def produces(msgid: str, text: str) -> bool:
    """Whether the message ``msgid`` is ``text``, or has fields that can produce it."""
    if msgid == text:
        return True
    found = template_pattern(msgid)
    return found is not None and found[0].fullmatch(text) is not None


def fill(translation: str, values: dict[str, str]) -> str:
    """A translation with its fields replaced by the values of the English text."""
    return FIELD.sub(lambda m: values.get(m[1], m[0]), translation)
