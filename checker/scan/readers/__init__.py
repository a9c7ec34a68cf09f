"""Readers: one per file format, each ``(path, text) -> Document``.

``read(path)`` picks the reader by suffix (``.md``, ``.rst``, ``.po``, ``.ipynb``, ``.html``;
anything else is plain text), refuses binary files and files over :data:`MAX_BYTES`, and
decodes UTF-8 strictly: a file that is not UTF-8 is reported with the line of its first bad
byte.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from checker.scan.document import Document, ReadError

#: Larger files are refused: an article is not megabytes long, and hostile input might be.
MAX_BYTES = 4 * 1024 * 1024

Reader = Callable[[Path, str], Document]


#: Suffix -> reader module (imported on first use: docutils is only needed for ``.rst``).
FORMATS = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".rst": "rst",
    ".po": "po",
    ".pot": "po",
    ".ipynb": "notebook",
    ".html": "html",
    ".htm": "html",
}


def reader_for(path: Path) -> Reader:
    module = importlib.import_module(
        f"checker.scan.readers.{FORMATS.get(path.suffix.lower(), 'text')}"
    )
    reader: Reader = module.read
    return reader


def read(path: Path) -> Document:
    """The document in ``path``. Raises :class:`ReadError` (with a line) when it cannot."""
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise ReadError(
                path, 1, f"file too large to scan ({size} bytes; the limit is {MAX_BYTES})"
            )
        raw = path.read_bytes()
    except OSError as exc:
        raise ReadError(path, 1, f"cannot read: {exc.strerror or exc}") from exc
    return read_bytes(path, raw)


def read_bytes(path: Path, raw: bytes) -> Document:
    if b"\0" in raw[:8192]:
        line = raw[: raw.index(b"\0")].count(b"\n") + 1
        raise ReadError(path, line, "binary file (NUL byte), not an article")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ReadError(
            path, line, f"not UTF-8: byte {raw[exc.start]:#04x} ({exc.reason})"
        ) from exc
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    try:
        return reader_for(path)(path, text)
    except RecursionError as exc:  # a parser recursing once per level of nesting
        raise ReadError(path, _deepest_line(text), "nested too deeply to read") from exc


def _deepest_line(text: str) -> int:
    """The line indented deepest (where nesting is deepest, in an indented format)."""
    lines = text.split("\n")
    depth = [len(line) - len(line.lstrip()) if line.strip() else -1 for line in lines]
    return depth.index(max(depth)) + 1 if lines else 1
