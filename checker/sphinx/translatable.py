"""Keeps text that has nothing to translate out of the catalogs.

A table cell holding only a line number, or only a ``verdict`` or ``measured`` role, would
otherwise become a catalog entry that translators must copy unchanged, and could change by
mistake. This transform runs before the i18n transform and marks such paragraphs as not
translatable, for every builder (gettext extracts the same set the translation applies to).
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform

from checker.sphinx.claims import verdict_node
from checker.sphinx.measured import measured_node

_WORDLESS = re.compile(r"^[\W\d_]*$")


def setup_translatable(app: Sphinx) -> None:
    app.add_transform(MarkUntranslatable)


class MarkUntranslatable(SphinxTransform):
    #: Before sphinx.transforms.i18n.Locale (priority 20).
    default_priority = 10

    def apply(self, **kwargs: Any) -> None:
        for para in self.document.findall(nodes.paragraph):
            if nothing_to_translate(para):
                para["translatable"] = False


def nothing_to_translate(para: nodes.paragraph) -> bool:
    """Only digits and punctuation, or only roles that render measured results."""
    for child in para.children:
        if isinstance(child, verdict_node | measured_node):
            continue
        if isinstance(child, nodes.Text) and _WORDLESS.match(child.astext()):
            continue
        return False
    return True
