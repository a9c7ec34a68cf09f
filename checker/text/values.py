"""The values a generated sentence carries, in the language of its translation.

A decision rule built by an f-string is translated once, with ``{fields}``
(:mod:`checker.text.fields`); the values the probe filled in are English or code. Before they
go into a translation, :func:`translated_values` gives each value its own translation when the
catalog has one (a variant written as a slug, ``no-grad``, becomes ``torch.no_grad()``), and
re-joins a list of names with the language's separators: "exp, tanh, sigmoid and relu" reads
``exp、tanh、sigmoid、relu`` in Japanese and ``exp, tanh, sigmoid, relu`` in Korean.
:func:`tidy` removes the space a field leaves between two Japanese words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

#: How a language joins a list: between items, before the last item of "and", of "or".
LIST_JOINERS: dict[str, tuple[str, str, str]] = {
    "en": (", ", " and ", " or "),
    "ja": ("、", "、", "、または "),
    "ko": (", ", ", ", " 또는 "),
}
#: A list as a program writes it: names (``exp``, ``pow(2)``, ``resize_``) joined by ", " and
#: a last "and" or "or".
_NAME = r"[A-Za-z_][\w.()\[\]*-]*"
_LIST = re.compile(rf"{_NAME}(?:, {_NAME})*(?:,? (?:and|or) {_NAME})?")
_LAST = re.compile(r",? (and|or) ")
_JA_WORD = "\u3040-\u30ff\u4e00-\u9fff"
_JA_SPACE = re.compile(rf"(?<=[{_JA_WORD}]) (?=[{_JA_WORD}])")


def translated_values(
    values: Mapping[str, str], lang: str, own: Callable[[str], str]
) -> dict[str, str]:
    """``values`` for a translation into ``lang``: each one's ``own`` translation (``own``
    returns the value itself when it has none), else a list re-joined, else unchanged."""
    return {field: translated_value(value, lang, own) for field, value in values.items()}


def translated_value(value: str, lang: str, own: Callable[[str], str]) -> str:
    translated = own(value)
    if translated != value or lang not in LIST_JOINERS or lang == "en":
        return translated
    if not _LIST.fullmatch(value) or not ("," in value or _LAST.search(value)):
        return value
    last = _LAST.search(value)
    word = last[1] if last else "and"
    head, tail = (value[: last.start()], value[last.end() :]) if last else (value, "")
    items = [own(item) for item in head.split(", ")]
    separator, last_and, last_or = LIST_JOINERS[lang]
    joined = separator.join(items)
    if tail:
        joined += (last_and if word == "and" else last_or) + own(tail)
    return joined


def tidy(text: str, lang: str) -> str:
    """``text`` without the spaces filled-in values leave between two Japanese words."""
    return _JA_SPACE.sub("", text) if lang == "ja" else text
