"""Python source files: a sphinx-gallery example, a percent-format script (jupytext, VS Code,
Spyder: ``# %%``), a notebook exported as a script (``# In[3]:``), or a plain ``.py`` file,
saved as ``.txt`` or ``.py``.

Such a file is one program: its text is in comments and docstrings. A text file is read as one
when, after a header of ``key: value`` lines that is not Python (``source: https://...``, as a
saved page starts), it holds two cell markers or more, starts as such a file does (a gallery
example with its docstring, a script with a cell, a comment or code) and nearly every other
line is code or comment; or when it compiles whole and starts as a module does (a docstring,
``#!``, a coding line) or is named ``.py``.

Blocks are the cells a gallery or an editor shows: the module docstring and the comment block
after a sphinx-gallery line of ``#`` (or a ``# %% [markdown]`` cell) are prose, its comment
markers removed; the rest of each cell is code. A line inside a cell that is neither code nor
comment (reST left outside a comment: ``.. math::``) is prose there, so the cells run without
it; :attr:`Document.program` keeps the whole file, which the scan compiles as the file is run
(``python FILE``, or a gallery's build).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from checker.scan.codelines import CodeLineKind, classify
from checker.scan.document import Block, BlockKind, Document, block

#: A line that starts a cell.
MARKER = re.compile(r"^(?:#{20,}|#\s*%%.*|#\s*In\[[\d ]*\]:)\s*$")
#: A sphinx-gallery marker: the comment lines right after it are the cell's text.
_GALLERY = re.compile(r"^#{20,}\s*$")
_MARKDOWN_CELL = re.compile(r"^#\s*%%.*\[(?:markdown|md)\]", re.IGNORECASE)
_HEADER = re.compile(r"^[A-Za-z][\w-]*:\s+\S")
_DOCSTRING = re.compile(r"^[rRuU]?(\"\"\"|''')")
_MODULE_START = re.compile(r"^(?:[rRuU]?(?:\"\"\"|''')|#!|#.*coding[:=])")
_UNDERLINE = re.compile(r"^([=\-~^*+#\"'`])\1{2,}\s*$")
#: Cell markers a file needs to be read as cells of a program.
MIN_MARKERS = 2
#: Share of its non-blank lines a file of cells may have that are neither code nor comment.
MAX_STRAY = 0.1


def source_start(path: Path, lines: list[str]) -> int | None:
    """Index of the first line of the Python source that ``lines`` are, or ``None`` when they
    are not a Python source file."""
    start = _header_end(lines)
    region = lines[start:]
    kinds = classify(region)
    written = [k for k in kinds if k is not CodeLineKind.BLANK]
    if not any(k in (CodeLineKind.STRONG, CodeLineKind.WEAK) for k in written):
        return None
    first = next((line for line in region if line.strip()), "")
    stray = sum(k is CodeLineKind.PROSE for k in written)
    gallery = sum(bool(_GALLERY.match(line)) for line in region)
    markers = sum(bool(MARKER.match(line)) for line in region)
    # a gallery example starts with its docstring; a script, with a cell, a comment or code
    starts = _DOCSTRING.match(first) if gallery else written[0] is not CodeLineKind.PROSE
    if markers >= MIN_MARKERS and starts and stray <= MAX_STRAY * len(written):
        return start
    if (path.suffix.lower() == ".py" or _MODULE_START.match(first)) and _compiles(
        "\n".join(region)
    ):
        return start
    return None


def read(path: Path, lines: list[str], start: int) -> Document:
    """The Python source of ``lines`` from index ``start`` (the lines before are a header)."""
    blocks = [block(BlockKind.PROSE, [line.strip()], i + 1) for i, line in enumerate(lines[:start])]
    blocks = [b for b in blocks if b.text]
    index = start
    while index < len(lines) and not lines[index].strip():
        index += 1
    if index < len(lines) and _DOCSTRING.match(lines[index]):
        end = _docstring_end(lines, index)
        blocks += _text(lines, index, end + 1, docstring=True)
        index = end + 1
    cell_start = index
    for k in range(index, len(lines) + 1):
        if k == len(lines) or (MARKER.match(lines[k]) and k > cell_start):
            blocks += _cell(lines, cell_start, k)
            cell_start = k
    program = block(BlockKind.CODE, ["" for _ in lines[:start]] + lines[start:], 1, "python")
    return Document(path, "py", tuple(sorted(blocks, key=lambda b: b.line)), program=program)


def _cell(lines: list[str], start: int, end: int) -> list[Block]:
    """The blocks of the cell ``lines[start:end]`` (``lines[start]`` may be its marker)."""
    marker = lines[start] if MARKER.match(lines[start]) else ""
    body = start + 1 if marker else start
    if _MARKDOWN_CELL.match(marker):
        return _text(lines, body, end)
    text_end = body
    if _GALLERY.match(marker):
        while text_end < end and lines[text_end].lstrip().startswith("#"):
            text_end += 1
    return _text(lines, body, text_end) + _code(lines, text_end, end)


def _code(lines: list[str], start: int, end: int) -> list[Block]:
    """Code blocks of ``lines[start:end]``, split where a line is neither code nor comment
    (which is prose)."""
    kinds = classify(lines[start:end])
    blocks: list[Block] = []
    run: list[int] = []
    for offset, kind in enumerate([*kinds, CodeLineKind.PROSE]):
        k = start + offset
        if kind is not CodeLineKind.PROSE:
            run.append(k)
            continue
        while run and not lines[run[-1]].strip():
            run.pop()
        while run and not lines[run[0]].strip():
            run.pop(0)
        code_kinds = (CodeLineKind.STRONG, CodeLineKind.WEAK, CodeLineKind.CONTINUED)
        if any(kinds[i - start] in code_kinds for i in run):
            blocks.append(block(BlockKind.CODE, [lines[i] for i in run], run[0] + 1, "python"))
        run = []
        if k < end:
            blocks.append(block(BlockKind.PROSE, [lines[k].strip()], k + 1))
    return blocks


def _text(lines: list[str], start: int, end: int, docstring: bool = False) -> list[Block]:
    """Prose paragraphs of the comment text (or docstring) ``lines[start:end]``; a line over
    an underline is a heading."""
    texts = [_uncommented(line, docstring) for line in lines[start:end]]
    blocks: list[Block] = []
    group: list[int] = []
    for offset, text in enumerate([*texts, ""]):
        underline = bool(_UNDERLINE.match(text))
        if text and not underline:
            group.append(offset)
            continue
        if group:
            heading = underline and len(group) == 1
            found = block(BlockKind.PROSE, [texts[i] for i in group], start + group[0] + 1)
            blocks.append(Block(found.kind, found.text, found.lines, heading=heading))
        group = []
    return blocks


def _uncommented(line: str, docstring: bool) -> str:
    text = line.strip()
    if docstring:
        return _DOCSTRING.sub("", text).removesuffix('"""').removesuffix("'''").strip()
    return text[1:].strip() if text.startswith("#") else text


def _docstring_end(lines: list[str], start: int) -> int:
    """Index of the line that closes the docstring opened on ``lines[start]``."""
    quote = _DOCSTRING.match(lines[start])
    assert quote is not None
    mark = quote.group(1)
    if lines[start].count(mark) >= 2:
        return start
    for k in range(start + 1, len(lines)):
        if mark in lines[k]:
            return k
    return len(lines) - 1


def _header_end(lines: list[str]) -> int:
    """Index after a header of ``key: value`` lines (and the blank lines after it) that is not
    Python (``source: https://...``); 0 when there is none."""
    end = 0
    while end < len(lines) and _HEADER.match(lines[end]):
        end += 1
    if not end or (end < len(lines) and lines[end].strip()):
        return 0
    if all(_compiles(line) for line in lines[:end]):
        return 0
    while end < len(lines) and not lines[end].strip():
        end += 1
    return end


def _compiles(source: str) -> bool:
    try:
        ast.parse(source)
    except (SyntaxError, ValueError):
        return False
    return True
