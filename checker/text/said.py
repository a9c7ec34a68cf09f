"""A message as a template and its values: a sentence a check or the scanner writes with
fields (``said("numbers differ: {parts}", parts=...)``), so that a page in another language
translates the template and fills in the same values; the English is the template filled.
Every template is a literal in a call of :func:`said`, which the service's catalog extracts
(:func:`checker.service.ui.sentences`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from checker.text.fields import fill


@dataclass(frozen=True)
class Said:
    """A message as a template (English, with ``{fields}``) and the values of its fields."""

    template: str
    values: tuple[tuple[str, str | Said], ...] = ()

    @property
    def english(self) -> str:
        return fill(self.template, {k: _english(v) for k, v in self.values})

    def to_dict(self) -> dict[str, Any]:
        return {
            "template": self.template,
            "values": {k: v if isinstance(v, str) else v.to_dict() for k, v in self.values},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Said:
        values = data.get("values") or {}
        return cls(
            str(data["template"]),
            tuple(
                (str(k), v if isinstance(v, str) else cls.from_dict(v)) for k, v in values.items()
            ),
        )


#: A value of a :class:`Said`: text as the check found it (a quote, a number, code), or a
#: sentence of its own.
SaidValue = str | Said


def said(template: str, **values: SaidValue | int) -> Said:
    """The sentence ``template`` (a literal: the service's catalog extracts it) with its
    fields' ``values``."""
    return Said(
        template, tuple((k, v if isinstance(v, Said) else str(v)) for k, v in values.items())
    )


def _english(value: str | Said) -> str:
    return value if isinstance(value, str) else value.english
