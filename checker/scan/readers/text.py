"""Plain text: code is not fenced and may have lost its indentation (see ``codelines``). A
text file that is a Python source file (a sphinx-gallery example, a percent-format script) is
read as one (``python``)."""

from __future__ import annotations

from pathlib import Path

from checker.scan.codelines import split_blocks
from checker.scan.document import Document
from checker.scan.readers import python


def read(path: Path, text: str) -> Document:
    lines = text.split("\n")
    start = python.source_start(path, lines)
    if start is not None:
        return python.read(path, lines, start)
    return Document(path, "txt", tuple(split_blocks(lines, 1)))
