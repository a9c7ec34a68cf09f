"""Every warning the extension emits, as ``[checker.<subtype>]``, silenceable by type."""

from __future__ import annotations

import enum
from typing import Any

from sphinx.util import logging

LOGGER = logging.getLogger("checker")


class CheckerWarnings(enum.Enum):
    """The kinds of problems the extension reports. Under ``-W`` each one fails the build."""

    REGISTRY = "registry"
    """The claim modules are broken (duplicate ids or keys, import errors)."""
    UNKNOWN_CLAIM = "unknown_claim"
    """A ``claim`` directive names an id that no claim module defines."""
    DUPLICATE_CLAIM = "duplicate_claim"
    """The same claim is shown on two pages, or twice on one page."""
    UNSHOWN_CLAIM = "unshown_claim"
    """A claim of the project is shown on no page."""
    EXPECT_MISMATCH = "expect_mismatch"
    """A page expects another verdict than the claim's definition."""
    CONTRADICTED = "contradicted"
    """A probe measured the opposite of what the page says."""
    PROBE_ERROR = "probe_error"
    """A probe raised, crashed or timed out: the claim is undecided."""
    UNKNOWN_MEASUREMENT = "unknown_measurement"
    """A ``measured`` role or chart names a value no probe measures, or one not measured."""
    EVIDENCE_FILE = "evidence_file"
    """A recorded evidence file is corrupt."""
    CATALOG = "catalog"
    """A translation catalog is missing or malformed."""
    DIRECTIVE = "directive"
    """A directive of the extension is used wrongly (missing option, bad content)."""
    UNSAFE_MARKUP = "unsafe_markup"
    """Raw HTML or another injection reached a page: a translation with HTML, a directive or a
    new external link is refused (the page keeps its English), and any raw node left is
    removed. The English sources use no raw HTML, so every occurrence is an injection."""
    CLAIM_TRANSLATION = "claim_translation"
    """A claim's translated statement says something else than the English (a negation,
    number, unit or role differs: the gate's claim checks); the page keeps the English."""
    GLOSSARY = "glossary"
    """The translation glossary (``locales/glossary.toml``) is missing or malformed."""


def warn(kind: CheckerWarnings, message: str, location: Any = None) -> None:
    """Emit a warning of ``kind`` at ``location`` (a node, ``(docname, line)`` or a path)."""
    LOGGER.warning(message, type="checker", subtype=kind.value, location=location)
