"""The contracts between the stages of the pipeline, in one place.

A claim names a probe; a probe runs on one device and returns an
:class:`~checker.evidence.Observation`; the runner wraps it into
:class:`~checker.evidence.Evidence`; :func:`checker.verdict.judge` compares it with
what the docs expect; renderers (CLI, pytest, Sphinx) only format verdicts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, get_args

if TYPE_CHECKING:
    from checker.evidence import Observation

#: A device a probe can run on. ``"cpu"`` is always present; ``"cuda"`` when torch sees a GPU.
Device = Literal["cpu", "cuda"]

#: Every device the project knows, in display order.
DEVICES: tuple[Device, ...] = ("cpu", "cuda")

#: A language the docs are written in, for the type checker. The languages themselves, what
#: the project knows about each and their order are :mod:`checker.text.languages`, which
#: refuses to import unless it lists these codes, in this order.
Lang = Literal["en", "ja", "ko"]

#: Every language's code, English (the source) first: :data:`Lang`'s, for the core, which
#: imports no text layer (the edges import ``checker.text.languages.LANGS``).
LANGS: tuple[Lang, ...] = get_args(Lang)

#: The signature of a :term:`probe`: it runs one experiment on one device and reports
#: what it measured. It imports torch itself and never prints.
Probe = Callable[[Device], "Observation"]
