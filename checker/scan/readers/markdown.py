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

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it.token import Token

from checker.scan.codelines import fence_code
from checker.scan.document import NOTEBOOK, OUTPUT_LABEL, Block, BlockKind, Document, block
from checker.text.markdown import FENCES, PageToken, walk

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


def blocks_of(text: str, offset: int, errors: list[tuple[int, str]]) -> list[Block]:
    """Blocks of Markdown ``text`` whose first line is article line ``offset + 1``."""
    reader = _Reader(errors)
    for node in walk(text, offset=offset, into=_read_through):
        reader.read(node)
    return reader.found


def _read_through(node: PageToken) -> bool:
    """A MyST directive, or a Zenn box (":::message", ":::details Title"): Markdown, read
    through, unless its body is not the page's own (:data:`SKIPPED_DIRECTIVES`)."""
    starts = node.info.startswith("{") or node.type == "colon_fence"
    return starts and not node.info.startswith(SKIPPED_DIRECTIVES)


@dataclass
class _Level:
    """What the reader remembers within one text: the page, or a directive's body."""

    previous_code: bool = False
    labelled: bool = False
    row: list[str] | None = None
    row_line: int = 0
    header: tuple[str, ...] = ()
    in_head: bool = False
    in_heading: bool = False


@dataclass
class _Reader:
    """The blocks found so far, and a :class:`_Level` per directive the walk is in."""

    errors: list[tuple[int, str]]
    found: list[Block] = field(default_factory=list)
    levels: list[_Level] = field(default_factory=list)

    def read(self, node: PageToken) -> None:
        del self.levels[node.depth + 1 :]  # the bodies of directives that ended
        self.levels += [_Level() for _ in range(node.depth + 1 - len(self.levels))]  # afresh
        level, token = self.levels[node.depth], node.token
        if token.type in ("thead_open", "thead_close"):
            level.in_head = token.type == "thead_open"
        elif token.type == "tr_open" and token.map:
            level.row, level.row_line = [], node.line
        elif token.type == "tr_close" and level.row is not None:
            self._row(level)
        elif level.row is not None:
            if token.type == "inline":
                level.row.append(token.content)
        elif not token.block or token.nesting == -1 or not token.map:
            return
        elif token.type == "heading_open":
            level.in_heading = True
        elif token.type in FENCES:
            self._fence(node, level)
        elif token.type == "code_block":
            self._code_block(node, level)
        elif token.type == "html_block":
            # HTML written in the article: a code box of a blog engine, a <pre>, paragraphs
            from checker.scan.readers import html  # imports this module's languages

            inner = html.blocks_of(token.content, node.line - 1)
            self.found.extend(inner)
            level.previous_code = bool(inner) and inner[-1].kind is BlockKind.CODE
            level.labelled = False
        elif token.type == "inline" and token.content.strip():
            if level.previous_code and OUTPUT_LABEL.match(token.content.strip()):
                level.labelled = True  # the code's output follows: stay after the code
                return
            self.found.extend(_prose(token, node.line, node.end - node.line, level.in_heading))
            level.previous_code = level.in_heading = False

    def _row(self, level: _Level) -> None:
        assert level.row is not None
        own = tuple(cell.replace("\n", " ").strip() for cell in level.row)
        cells = " | ".join(cell for cell in own if cell)
        if level.in_head:
            level.header = own
        if cells:
            self.found.append(
                Block(
                    BlockKind.PROSE,
                    cells,
                    (level.row_line,),
                    header=() if level.in_head else level.header,
                    cells=() if level.in_head else own,
                )
            )
        level.row = None

    def _fence(self, node: PageToken, level: _Level) -> None:
        token, info = node.token, node.info
        if info.startswith("{") or token.type == "colon_fence":
            level.previous_code = False  # a directive or a box: its body, if read, comes next
            return
        if not node.closed:
            self.errors.append((node.line, f"code fence {token.markup!r} is never closed"))
        language = info.split()[0].lower() if info else ""
        body = token.content.rstrip("\n").split("\n")
        first = node.line + 1
        titled = _TITLED.fullmatch(info)
        if titled:  # ```python:train.py, ```:実行結果 (Qiita, Zenn)
            language, level.labelled = _titled_language(
                titled["language"], titled["title"], level.labelled
            )
        elif fence_code(info):  # ```x = torch.ones(5)
            body, first, language = [info, *body], first - 1, ""
        kind = None
        if level.labelled and level.previous_code and language in OUTPUT | {""}:
            kind = BlockKind.OUTPUT
        elif language in PYTHON:
            kind = BlockKind.CODE
        elif language in OUTPUT and level.previous_code:
            kind = BlockKind.OUTPUT
        if kind is not None and any(line.strip() for line in body):
            self.found.append(block(kind, body, first, language))
        level.previous_code, level.labelled = kind is BlockKind.CODE, False

    def _code_block(self, node: PageToken, level: _Level) -> None:
        body = node.token.content.rstrip("\n").split("\n")
        if level.previous_code and self.found and self.found[-1].info in PYTHON - {""}:
            # nbconvert's Markdown: a cell's output is indented under its fenced code, and
            # the value of the cell's last expression is part of it
            self.found[-1] = dataclasses.replace(self.found[-1], info=NOTEBOOK)
            self.found.append(block(BlockKind.OUTPUT, body, node.line))
            level.previous_code = level.labelled = False
            return
        self.found.append(block(BlockKind.CODE, body, node.line))
        level.previous_code, level.labelled = True, False


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


def _prose(token: Token, first_line: int, span: int, heading: bool = False) -> list[Block]:
    text_lines = token.content.split("\n")
    # a term of a definition list spans no line of its own (its map is [n, n])
    numbers = [first_line + min(i, max(span, 1) - 1) for i in range(len(text_lines))]
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
