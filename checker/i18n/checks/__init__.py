"""The checks of one translated message, one module per family.

Each module exposes ``check(message) -> Iterable[Finding]`` (see
:data:`checker.i18n.message.EntryCheck`). Completeness is judged per catalog, not per
message: see :mod:`checker.i18n.checks.completeness`.
"""

from __future__ import annotations

from checker.i18n.checks import (
    claims,
    code,
    glossary,
    register,
    roles,
    security,
    structure,
    terms,
)
from checker.i18n.message import EntryCheck

#: Checks of a translation that the build will use, in report order.
TRANSLATION_CHECKS: tuple[EntryCheck, ...] = (
    security.check,
    code.check,
    structure.check,
    claims.check,
    roles.check,
    glossary.check,
    terms.check,
    register.check,
)

#: Checks of a translation that the build will not use (fuzzy entries): only what is unsafe.
UNUSED_TRANSLATION_CHECKS: tuple[EntryCheck, ...] = (security.check,)
