"""reStructuredText, parsed with docutils.

Literal blocks, ``code-block``/``code`` directives and doctest blocks are code (a plain
literal block after a paragraph that only announces output, "Output::", is that code's
output); paragraphs, titles and list items are prose. docutils' own errors and warnings
(level 2 and up) are the document's errors, with their lines. Directives and roles docutils
does not know (Sphinx's) are registered as generic ones first, so a Sphinx page reads without
spurious errors.
"""

from __future__ import annotations

import dataclasses
import functools
import io
from pathlib import Path
from typing import Any

from checker.scan.document import OUTPUT_LABEL, Block, BlockKind, Document, block


def read(path: Path, text: str) -> Document:
    from docutils import nodes
    from docutils.core import publish_doctree

    _register_sphinx_names()
    warnings = io.StringIO()
    tree = publish_doctree(
        text,
        source_path=str(path),
        settings_overrides={
            "report_level": 2,
            "halt_level": 5,
            "warning_stream": warnings,
            "file_insertion_enabled": False,
            "raw_enabled": False,
            "input_encoding": "unicode",
        },
    )
    lines = text.split("\n")
    finder = _LineFinder(lines)
    blocks: list[Block] = []
    errors: list[tuple[int, str]] = []
    previous_code = labelled = False
    for node in tree.findall(nodes.Element):
        if isinstance(node, nodes.system_message):
            errors.append((int(node.get("line") or 1), _message(node)))
        elif _inside_message(node):
            continue  # the source of a refused directive, quoted by its error
        elif isinstance(node, (nodes.literal_block, nodes.doctest_block)):
            body = node.astext().split("\n")
            classes = " ".join(node.get("classes", []))
            language = str(node.get("language", "")) or classes
            kind = (
                BlockKind.CODE
                if language in ("", "python", "pycon", "py") or ("python" in classes)
                else None
            )
            if labelled and previous_code and language in ("", "text", "output", "none"):
                kind = BlockKind.OUTPUT  # after "Output::" or "実行結果::"
            if kind is not None:
                blocks.append(block(kind, body, finder.find(body[0], node.line), language))
            previous_code, labelled = kind is BlockKind.CODE, False
        elif isinstance(node, (nodes.paragraph, nodes.title)):
            body = node.astext().split("\n")
            if previous_code and OUTPUT_LABEL.match(node.astext().strip()):
                labelled = True  # the code's output follows: stay after the code
                continue
            prose = block(BlockKind.PROSE, body, finder.find(body[0], node.line))
            if isinstance(node, nodes.title):
                prose = dataclasses.replace(prose, heading=True)
            blocks.append(prose)
            previous_code = False
    # A table of contents repeats the section titles: keep each line's text once.
    unique = list({(b.kind, b.line, b.text): b for b in blocks}.values())
    unique.sort(key=lambda b: b.line)
    return Document(path, "rst", tuple(unique), tuple(sorted(set(errors))))


def _message(node: Any) -> str:
    """``ERROR: Error in "code-block" directive: unknown option: "x".`` (docutils' own text
    starts with the path and line, which the report gives already)."""
    from docutils import nodes

    text = " ".join(
        " ".join(p.astext().split()) for p in node.children if isinstance(p, nodes.paragraph)
    )
    level = {1: "INFO", 2: "WARNING", 3: "ERROR", 4: "SEVERE"}.get(int(node.get("level", 0)), "")
    return f"{level}: {text}" if level else text


def _inside_message(node: Any) -> bool:
    from docutils import nodes

    parent = node.parent
    while parent is not None:
        if isinstance(parent, nodes.system_message):
            return True
        parent = parent.parent
    return False


class _LineFinder:
    """Locates a node's first line in the source (docutils' ``line`` is not always set)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.cursor = 0

    def find(self, first: str, hint: Any) -> int:
        needle = first.strip()[:40]
        if needle and isinstance(hint, int):
            # docutils' line is a paragraph's first line, or the line after a literal block:
            # the nearest line at or before it that holds the text is where the node starts.
            for i in range(min(hint, len(self.lines)) - 1, -1, -1):
                if needle in self.lines[i]:
                    self.cursor = i + 1
                    return i + 1
        for i in range(self.cursor, len(self.lines)):
            if needle and needle in self.lines[i]:
                self.cursor = i + 1
                return i + 1
        return int(hint) if isinstance(hint, int) else self.cursor + 1


@functools.cache
def _register_sphinx_names() -> None:
    from docutils.parsers.rst import directives, roles
    from docutils.parsers.rst.directives.body import CodeBlock

    directives.register_directive("code-block", CodeBlock)
    directives.register_directive("sourcecode", CodeBlock)
    for name in ("py:func", "py:class", "py:meth", "func", "class", "meth", "mod", "doc", "ref"):
        roles.register_generic_role(name, _literal_node())


def _literal_node() -> Any:
    from docutils import nodes

    return nodes.literal
