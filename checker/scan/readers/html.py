"""A saved web page (``.html``), parsed with the standard library's :mod:`html.parser`.

Blog posts are web pages, and a reader hands the scanner the page they saved. ``<pre>``
blocks are code (a ``language-*``/``lang-*`` class other than Python's, such as ``bash``, is
skipped; ``text``/``output``/``plaintext`` right after code, or any ``<pre>`` after a
paragraph that only announces output, "実行結果", is that code's output); paragraphs,
headings, list items, block quotes and table rows are prose, with inline ``<code>`` written
in backquotes as Markdown would have it. A table row keeps its header's cells (marks:
``scan.table``). What is not the article is left out: ``<script>``, ``<style>``,
``<nav>``, ``<header>``, ``<footer>``, ``<aside>``, forms, and line-number gutters of code
listings. Lines are lines of the ``.html`` file: a block starts on the line of its tag.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from checker.scan.document import OUTPUT_LABEL, Block, BlockKind, Document, block
from checker.scan.readers.markdown import OUTPUT, PYTHON

#: Elements whose content is not the article.
SKIPPED = frozenset(
    ("script", "style", "noscript", "nav", "header", "footer", "aside", "form", "button", "svg")
)
#: Elements that hold a block of prose.
PROSE = frozenset(("p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "dt", "dd"))
#: Classes of line-number gutters beside code (Hexo, Pygments' table layout, Prism).
_GUTTER = re.compile(r"\b(?:gutter|linenos?|line-numbers-rows|lineno)\b")
_LANGUAGE = re.compile(r"\b(?:language|lang|highlight|brush:?)-?\s*([\w+#.-]+)")
#: Output languages: Markdown's, and the names HTML highlighters give plain text.
_OUTPUT = OUTPUT | {"plaintext", "plain"}
_VOID = frozenset(("br", "img", "hr", "meta", "link", "input", "wbr", "source", "col"))


def read(path: Path, text: str) -> Document:
    parser = _Page()
    parser.feed(text)
    parser.close()
    return Document(path, "html", tuple(parser.blocks), ())


@dataclass
class _Open:
    tag: str
    line: int
    parts: list[str] = field(default_factory=list)
    language: str = ""


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[Block] = []
        self.skipping: list[str] = []  # open skipped elements, innermost last
        self.prose: _Open | None = None
        self.code: _Open | None = None
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.row_line = 0
        self.header: tuple[str, ...] = ()
        self.header_row = False
        self.previous_code = False
        self.labelled = False

    # -- tags ----------------------------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = " ".join(value or "" for name, value in attrs if name == "class")
        if self.skipping:
            if tag not in _VOID:
                self.skipping.append(tag)
            return
        if tag in SKIPPED or _GUTTER.search(classes):
            if tag not in _VOID:
                self.skipping.append(tag)
            return
        line = self.getpos()[0]
        if self.code is not None:
            self.code.language = self.code.language or _language(classes)
            return
        if tag == "pre":
            self._end_prose()
            self.code = _Open("pre", line, language=_language(classes))
        elif tag == "br" and self.prose is not None:
            self.prose.parts.append(" ")
        elif tag == "code" and self._text_target() is not None:
            self._append("`")
        elif tag == "tr":
            self.row, self.row_line, self.header_row = [], line, False
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []
            self.header_row = self.header_row or tag == "th"
        elif tag in PROSE and self.row is None:
            self._end_prose()
            self.prose = _Open(tag, line)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br" and self.prose is not None and not self.skipping:
            self.prose.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if self.skipping:
            if tag == self.skipping[-1]:
                self.skipping.pop()
            return
        if self.code is not None:
            if tag == "pre":
                self._end_code()
            return
        if tag == "code" and self._text_target() is not None:
            self._append("`")
        elif tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append(_squeeze("".join(self.cell)))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self._end_row()
        elif tag == "table":
            self.header = ()
        elif self.prose is not None and tag == self.prose.tag:
            self._end_prose()

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        if self.code is not None:
            self.code.parts.append(data)
        else:
            self._append(data)

    def close(self) -> None:
        """The end of the file ends what is still open (a page cut short, a ``<p>`` never
        closed)."""
        super().close()
        if self.code is not None:
            self._end_code()
        self._end_prose()

    # -- blocks --------------------------------------------------------------------------------

    def _text_target(self) -> list[str] | None:
        if self.cell is not None:
            return self.cell
        return self.prose.parts if self.prose is not None else None

    def _append(self, text: str) -> None:
        target = self._text_target()
        if target is not None:
            target.append(text)

    def _end_prose(self) -> None:
        if self.prose is None:
            return
        text = _squeeze("".join(self.prose.parts))
        line, tag = self.prose.line, self.prose.tag
        self.prose = None
        if not text:
            return
        if self.previous_code and OUTPUT_LABEL.match(text):
            self.labelled = True  # the code's output follows: stay after the code
            return
        heading = bool(re.fullmatch(r"h[1-6]", tag))
        self.blocks.append(Block(BlockKind.PROSE, text, (line,), heading=heading))
        self.previous_code = False

    def _end_code(self) -> None:
        assert self.code is not None
        raw = "".join(self.code.parts)
        body = raw.strip("\n")
        language = self.code.language.lower()
        line = self.code.line + raw[: len(raw) - len(raw.lstrip("\n"))].count("\n")
        self.code = None
        if not body.strip():
            return
        lines = body.split("\n")
        if self.previous_code and (self.labelled or language in _OUTPUT):
            self.blocks.append(block(BlockKind.OUTPUT, lines, line, language))
            self.previous_code = self.labelled = False
        elif language in PYTHON:
            self.blocks.append(block(BlockKind.CODE, lines, line, language))
            self.previous_code, self.labelled = True, False
        else:
            self.previous_code = self.labelled = False  # bash, json...: not Python

    def _end_row(self) -> None:
        assert self.row is not None
        cells, self.row = tuple(self.row), None
        if self.header_row:
            self.header = cells
        joined = " | ".join(cell for cell in cells if cell)
        if not joined:
            return
        body = not self.header_row and bool(self.header)
        self.blocks.append(
            Block(
                BlockKind.PROSE,
                joined,
                (self.row_line,),
                header=self.header if body else (),
                cells=cells if body else (),
            )
        )
        self.previous_code = False


def _language(classes: str) -> str:
    match = _LANGUAGE.search(classes)
    return match.group(1) if match else ""


def _squeeze(text: str) -> str:
    """Prose with its whitespace as a browser shows it: runs of spaces and newlines as one."""
    return re.sub(r"\s+", " ", text).strip()
