"""Markdown and MyST, parsed with markdown-it-py (the parser MyST uses).

Fenced code in a Python language (or with no language) is code, and so is a fence whose
"language" is Python code (the article wrote its first line on the fence line); a
``text``/``output`` fence right after a code fence is that code's shown output, and so is an
unlabelled fence after a paragraph that only announces it ("実行結果:", "Output:"); paragraphs,
headings, list items and table rows are prose (one block per row, its cells joined by ``|``, so
that a paraphrase and the ``{verdict}`` beside it are read together). MyST directives are read
through, except ``{claim}``: a claim directive's body is a statement the docs *evaluate* (a
myth, when it expects ``fails``), not one they make, so it is never read as the article's own
statement.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

from markdown_it.token import Token

from checker.doctest.page import markdown
from checker.scan.document import NOTEBOOK, OUTPUT_LABEL, Block, BlockKind, Document, block

#: Fence languages read as Python code.
PYTHON = {"", "python", "py", "python3", "pycon", "ipython", "ipython3", "py3"}
#: Fence languages read as the output of the code fence before them.
OUTPUT = {"text", "output", "console-output", "none", "txt"}
#: MyST directives whose bodies are not the page's own prose or code.
SKIPPED_DIRECTIVES = ("{claim}", "{measured-chart}", "{glossary}", "{toctree}", "{raw}")


def read(path: Path, text: str) -> Document:
    errors: list[tuple[int, str]] = []
    blocks = blocks_of(text, 0, errors)
    return Document(path, "md", tuple(blocks), tuple(errors))


def blocks_of(text: str, offset: int, errors: list[tuple[int, str]]) -> list[Block]:  # noqa: PLR0912, PLR0915
    """Blocks of Markdown ``text`` whose first line is article line ``offset + 1``."""
    lines = text.split("\n")
    found: list[Block] = []
    previous_code = labelled = False
    row: list[str] | None = None
    row_line = 0
    header: tuple[str, ...] = ()
    in_head = in_heading = False
    for token in markdown().parse(text):
        if token.type in ("thead_open", "thead_close"):
            in_head = token.type == "thead_open"
            continue
        if token.type == "tr_open" and token.map:
            row, row_line = [], offset + token.map[0] + 1
            continue
        if token.type == "tr_close" and row is not None:
            own = tuple(cell.replace("\n", " ").strip() for cell in row)
            cells = " | ".join(cell for cell in own if cell)
            if in_head:
                header = own
            if cells:
                found.append(
                    Block(
                        BlockKind.PROSE,
                        cells,
                        (row_line,),
                        header=() if in_head else header,
                        cells=() if in_head else own,
                    )
                )
            row = None
            continue
        if row is not None:
            if token.type == "inline":
                row.append(token.content)
            continue
        if not token.block or token.nesting == -1 or not token.map:
            continue
        if token.type == "heading_open":
            in_heading = True
            continue
        start, end = token.map
        if token.type in ("fence", "colon_fence"):
            info = token.info.strip()
            if info.startswith("{") or token.type == "colon_fence":
                # a MyST directive, or a Zenn box (":::message", ":::details Title"): Markdown
                if not info.startswith(SKIPPED_DIRECTIVES):
                    body_offset = offset + start + 1
                    found.extend(blocks_of(token.content.rstrip("\n"), body_offset, errors))
                previous_code = False
                continue
            if not _closed(token, lines):
                errors.append((offset + start + 1, f"code fence {token.markup!r} is never closed"))
            language = info.split()[0].lower() if info else ""
            body = token.content.rstrip("\n").split("\n")
            first = offset + start + 2
            titled = _TITLED.fullmatch(info)
            if titled:  # ```python:train.py, ```:実行結果 (Qiita, Zenn)
                language, labelled = _titled_language(titled["language"], titled["title"], labelled)
            elif _code_on_fence_line(info):  # ```x = torch.ones(5)
                body, first, language = [info, *body], first - 1, ""
            kind = None
            if labelled and previous_code and language in OUTPUT | {""}:
                kind = BlockKind.OUTPUT
            elif language in PYTHON:
                kind = BlockKind.CODE
            elif language in OUTPUT and previous_code:
                kind = BlockKind.OUTPUT
            if kind is not None and any(line.strip() for line in body):
                found.append(block(kind, body, first, language))
            previous_code, labelled = kind is BlockKind.CODE, False
        elif token.type == "code_block":
            body = token.content.rstrip("\n").split("\n")
            if previous_code and found and found[-1].info in PYTHON - {""}:
                # nbconvert's Markdown: a cell's output is indented under its fenced code, and
                # the value of the cell's last expression is part of it
                found[-1] = dataclasses.replace(found[-1], info=NOTEBOOK)
                found.append(block(BlockKind.OUTPUT, body, offset + start + 1))
                previous_code = labelled = False
                continue
            found.append(block(BlockKind.CODE, body, offset + start + 1))
            previous_code, labelled = True, False
        elif token.type == "html_block":
            # HTML written in the article: a code box of a blog engine, a <pre>, paragraphs
            from checker.scan.readers import html  # imports this module's languages

            inner = html.blocks_of(token.content, offset + start)
            found.extend(inner)
            previous_code = bool(inner) and inner[-1].kind is BlockKind.CODE
            labelled = False
        elif token.type == "inline" and token.content.strip():
            if previous_code and OUTPUT_LABEL.match(token.content.strip()):
                labelled = True  # the code's output follows: stay after the code
                continue
            found.extend(_prose(token, offset + start + 1, end - start, in_heading))
            previous_code = in_heading = False
    return found


#: A fence's language and title, as Qiita and Zenn write them: ```python:train.py, ```:出力.
_TITLED = re.compile(r"(?P<language>[\w+#.-]*):(?P<title>[^\s:].*)")


def _titled_language(language: str, title: str, labelled: bool) -> tuple[str, bool]:
    """The language of a titled fence, and whether its title announces output: a title such as
    "実行結果" or "output" makes it the output of the code above; a file name with another
    extension than ``.py`` (``run.sh``, ``config.yaml``) makes an untyped fence not Python."""
    language = language.lower()
    if OUTPUT_LABEL.match(title.strip()):
        return language if language in OUTPUT else "", True
    suffix = Path(title.strip()).suffix.lower()
    if not language and suffix and suffix not in (".py", ".ipy"):
        return suffix.lstrip("."), labelled
    return language, labelled


def _code_on_fence_line(info: str) -> bool:
    """Whether a fence's info string is code written on the fence line, not a language."""
    if not info or re.fullmatch(r"[\w+#.-]+", info) or info.startswith("{"):
        return False
    try:
        ast.parse(info)
    except SyntaxError:
        return False
    return True


def _prose(token: Token, first_line: int, span: int, heading: bool = False) -> list[Block]:
    text_lines = token.content.split("\n")
    numbers = [first_line + min(i, span - 1) for i in range(len(text_lines))]
    if len(text_lines) > 1 and all(line.lstrip().startswith("|") for line in text_lines):
        # a pipe table the parser read as a paragraph: one block per row, cells joined; the
        # rows under a header keep its cells and their own (read for marks: scan.table)
        headed = len(text_lines) > 2 and bool(_SEPARATOR.match(text_lines[1].strip()))
        header = tuple(_cells(text_lines[0], keep_empty=True)) if headed else ()
        return [
            Block(
                BlockKind.PROSE,
                " | ".join(_cells(line)),
                (number,),
                header=header if index > 1 else (),
                cells=tuple(_cells(line, keep_empty=True)) if header and index > 1 else (),
            )
            for index, (line, number) in enumerate(zip(text_lines, numbers, strict=True))
            if _cells(line) and not _SEPARATOR.match(line.strip())
        ]
    return [Block(BlockKind.PROSE, "\n".join(text_lines), tuple(numbers), heading=heading)]


_SEPARATOR = re.compile(r"^\|?[\s:|-]+\|?$")


def _cells(row: str, keep_empty: bool = False) -> list[str]:
    cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
    return cells if keep_empty else [cell for cell in cells if cell]


def _closed(token: Token, lines: list[str]) -> bool:
    assert token.map is not None
    last = lines[token.map[1] - 1].strip() if token.map[1] - 1 < len(lines) else ""
    return token.map[1] - token.map[0] >= 2 and last.startswith(token.markup)
