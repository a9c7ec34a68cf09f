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

__all__ = ["NOTEBOOK", "read"]
_SOURCE_KEY = re.compile(r'^\s*"source"\s*:', re.MULTILINE)


def read(path: Path, text: str) -> Document:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReadError(path, exc.lineno, f"not a notebook: invalid JSON ({exc.msg})") from exc
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
