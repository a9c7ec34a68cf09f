"""Addresses in the built docs: a claim's HTML anchor and a page's URL in one language.

Pure string functions with no Sphinx import, shared by the Sphinx extension (which sets the
anchors and the language switcher's links) and by the article scanner (which links each finding
to the section of the docs that explains it).
"""

from __future__ import annotations

import re


def anchor(claim_id: str, prefix: str = "claim") -> str:
    """The HTML id of a claim on its page: ``claim-saved-tensors-disable-hooks``.

    ``verdict`` role references use the prefix ``verdict``.
    """
    return f"{prefix}-" + re.sub(r"[^a-z0-9]+", "-", claim_id.lower()).strip("-")


def language_url(base_url: str, lang: str, pagename: str, suffix: str = ".html") -> str:
    """Where ``pagename`` lives in ``lang``: absolute under ``base_url``, else relative."""
    page = f"{pagename}{suffix}"
    if base_url:
        return f"{base_url.rstrip('/')}/{lang}/{page}"
    depth = pagename.count("/")
    return "../" * (depth + 1) + f"{lang}/{page}"
