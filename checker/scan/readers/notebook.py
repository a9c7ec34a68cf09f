"""Jupyter notebooks, read with the json module: markdown cells are Markdown, code cells are
code, and a code cell's text outputs are the output it shows. Lines are lines of the ``.ipynb``
file: each cell's source starts on the line after its ``"source"`` key."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from checker.scan.document import NOTEBOOK, Block, BlockKind, Document, ReadError, block
from checker.scan.readers.markdown import blocks_of

__all__ = ["MAX_DEPTH", "NOTEBOOK", "load", "read"]
_SOURCE_KEY = re.compile(r'^\s*"source"\s*:', re.MULTILINE)
#: Arrays and objects a notebook nests at most (a real one nests about six deep); deeper
#: JSON is refused before it is parsed, as the parser would recurse once per level.
MAX_DEPTH = 64
_STRUCTURE = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _too_deep(text: str) -> int | None:
    """The line where the JSON nests past :data:`MAX_DEPTH`; ``None`` within it. Strings are
    skipped (brackets inside them are text)."""
    depth = 0
    for match in _STRUCTURE.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return text.count("\n", 0, match.start()) + 1
        elif token in "]}":
            depth -= 1
    return None


def load(path: Path, text: str) -> Any:
    """The notebook's JSON; a :class:`ReadError` with the line for invalid or too deeply
    nested JSON."""
    line = _too_deep(text)
    if line is not None:
        raise ReadError(
            path, line, f"not a notebook: JSON nested more than {MAX_DEPTH} levels deep"
        )
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReadError(path, exc.lineno, f"not a notebook: invalid JSON ({exc.msg})") from exc
    except RecursionError as exc:  # deeper than this interpreter allows
        raise ReadError(path, 1, "not a notebook: JSON nested too deeply") from exc


def read(path: Path, text: str) -> Document:
    data = load(path, text)
    cells = data.get("cells") if isinstance(data, dict) else None
    if not isinstance(cells, list):
        raise ReadError(path, 1, "not a notebook: no 'cells' list")
    source_lines = [text.count("\n", 0, m.start()) + 1 for m in _SOURCE_KEY.finditer(text)]
    blocks: list[Block] = []
    errors: list[tuple[int, str]] = []
    for index, cell in enumerate(cells):
        if not isinstance(cell, dict):
            errors.append((1, f"cell {index} is not an object"))
            continue
        first = (source_lines[index] if index < len(source_lines) else 1) + 1
        source = _text(cell.get("source", ""))
        if cell.get("cell_type") == "markdown":
            blocks.extend(blocks_of(source, first - 1, errors))
        elif cell.get("cell_type") == "code" and source.strip():
            blocks.append(block(BlockKind.CODE, source.rstrip("\n").split("\n"), first, NOTEBOOK))
            shown = "".join(_output_text(o) for o in cell.get("outputs", []) or [])
            if shown.strip():
                lines = shown.rstrip("\n").split("\n")
                blocks.append(Block(BlockKind.OUTPUT, "\n".join(lines), (first,) * len(lines)))
    return Document(path, "ipynb", tuple(blocks), tuple(errors))


def _text(value: Any) -> str:
    if isinstance(value, list):
        return "".join(str(v) for v in value)
    return str(value)


def _output_text(output: Any) -> str:
    if not isinstance(output, dict):
        return ""
    if output.get("output_type") == "stream" and output.get("name") == "stdout":
        return _text(output.get("text", ""))
    if output.get("output_type") in ("execute_result", "display_data"):
        return _text((output.get("data") or {}).get("text/plain", "")) + "\n"
    return ""
