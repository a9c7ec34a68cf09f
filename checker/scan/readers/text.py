"""Plain text: code is not fenced and may have lost its indentation (see ``codelines``)."""

from __future__ import annotations

from pathlib import Path

from checker.scan.codelines import split_blocks
from checker.scan.document import Document


def read(path: Path, text: str) -> Document:
    return Document(path, "txt", tuple(split_blocks(text.split("\n"), 1)))
