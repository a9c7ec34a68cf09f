"""A saved web page (``.html``), parsed with the standard library's :mod:`html.parser`.

Blog posts are web pages, and a reader hands the scanner the page they saved. ``<pre>``
blocks are code (a ``language-*``/``lang-*`` class other than Python's, such as ``bash``, is
skipped; ``text``/``output``/``plaintext`` right after code, or any ``<pre>`` after a
paragraph that only announces output, "実行結果", is that code's output); paragraphs,
headings, list items, block quotes and table rows are prose, with inline ``<code>`` written
in backquotes as Markdown would have it. A table row keeps its header's cells (marks:
``scan.table``). What is not the article is left out: ``<script>``, ``<style>``,
``<nav>``, ``<header>``, ``<footer>``, ``<aside>``, forms, and line-number gutters of code
listings. Code that blog engines draw without ``<pre>`` (a box of one element per line, see
:data:`_CODE_BOX`) is code too, without its gutter, credits and toolbar; ``<br>`` breaks a
line of code. Lines are lines of the ``.html`` file: prose starts on the line of its tag, and
each line of code keeps the page line it starts on. HTML inside a Markdown article is read
here too (:func:`blocks_of`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from checker.scan import table
from checker.scan.document import OUTPUT_LABEL, Block, BlockKind, Document
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
#: Code listings that blog engines draw without ``<pre>``: a box holding one element per line
#: (Tistory's Color Scripter, WordPress's SyntaxHighlighter and Crayon, Naver's SmartEditor).
_CODE_BOX = re.compile(r"\b(?:colorscripter-code|syntaxhighlighter|crayon-syntax|se-code-source)\b")
#: Boxes whose text keeps its own line breaks (Naver's SmartEditor lays its code out with
#: ``white-space: pre``), where the others break lines with elements only.
_LITERAL_BOX = re.compile(r"\bse-code-source\b")
#: SyntaxHighlighter names the language as the box's second class: "syntaxhighlighter python".
_BOX_LANGUAGE = re.compile(r"\bsyntaxhighlighter\s+([\w+#-]+)")
#: Elements that hold one line of a code box.
_LINE_TAGS = frozenset(("div", "p", "li", "tr"))
#: A column of a code box's table that holds only line numbers.
_NUMBERS_ONLY = re.compile(r"[\d\s]*")
#: Output languages: Markdown's, and the names HTML highlighters give plain text.
_OUTPUT = OUTPUT | {"plaintext", "plain"}
_VOID = frozenset(("br", "img", "hr", "meta", "link", "input", "wbr", "source", "col"))


def read(path: Path, text: str) -> Document:
    return Document(path, "html", tuple(blocks_of(text, 0)), ())


def blocks_of(text: str, offset: int) -> list[Block]:
    """The blocks of HTML ``text`` whose first line is line ``offset + 1`` (a whole page, or
    HTML written inside a Markdown article)."""
    parser = _HtmlPage(offset)
    parser.feed(text)
    parser.close()
    return parser.blocks


@dataclass
class _Open:
    tag: str
    line: int
    parts: list[str] = field(default_factory=list)
    language: str = ""
    #: For a code box (see :data:`_CODE_BOX`): its lines as they are laid out.
    box: _Box | None = None
    #: For a ``<pre>``: the page line where each of its lines starts (a ``<br>`` breaks a
    #: line without a new page line).
    starts: list[int] = field(default_factory=list)

    def newline_at(self, line: int) -> None:
        self.parts.append("\n")
        self.starts.append(line)

    def numbered_lines(self) -> list[tuple[str, int]]:
        """The ``<pre>``'s lines and their page lines, blank lines at either end left out."""
        lines = "".join(self.parts).split("\n")
        return _trimmed(list(zip(lines, self.starts or [self.line], strict=False)))


@dataclass
class _Box:
    """The lines of a code box, each with the page line where it starts, per table cell (a
    cell of numbers only is a gutter)."""

    tag: str
    depth: int = 1
    cells: list[list[tuple[str, int]]] = field(default_factory=lambda: [[]])
    #: The box's text keeps its line breaks (see :data:`_LITERAL_BOX`).
    literal: bool = False

    def add(self, text: str, line: int) -> None:
        cell = self.cells[-1]
        if cell and not cell[-1][0].endswith("\n"):
            cell[-1] = (cell[-1][0] + text, cell[-1][1])
        else:
            cell.append((text, line))

    def newline(self) -> None:
        """Ends a line (the box's line elements carry no newline of their own)."""
        cell = self.cells[-1]
        if cell and not cell[-1][0].endswith("\n"):
            cell[-1] = (cell[-1][0] + "\n", cell[-1][1])

    def start(self, tag: str) -> None:
        self.depth += tag == self.tag
        if tag == "td":
            self.cells.append([])
        elif tag in _LINE_TAGS or tag == "br":
            self.newline()

    def end(self, tag: str) -> bool:
        """Whether the box ends with this tag."""
        if tag in _LINE_TAGS:
            self.newline()
        self.depth -= tag == self.tag
        return self.depth == 0

    def lines(self) -> list[tuple[str, int]]:
        """The code's lines and their page lines, blank lines at either end left out."""
        return _trimmed(
            [
                (text.rstrip("\n"), line)
                for cell in self.cells
                if not _NUMBERS_ONLY.fullmatch("".join(text for text, _ in cell))
                for text, line in cell
            ]
        )


class _HtmlPage(HTMLParser):
    def __init__(self, offset: int = 0) -> None:
        super().__init__(convert_charrefs=True)
        self.line_offset = offset  # (HTMLParser keeps its own "offset")
        self.blocks: list[Block] = []
        self.skipping: list[str] = []  # open skipped elements, innermost last
        self.prose: _Open | None = None
        self.code: _Open | None = None
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.row_line = 0
        self.header: tuple[str, ...] = ()
        self.header_row = False
        #: No row of the current table read yet: a first row of plain cells (no <th>, no
        #: marks) is its header, as blog editors write tables.
        self.first_row = True
        self.previous_code = False
        self.labelled = False

    # -- tags ----------------------------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = " ".join(value or "" for name, value in attrs if name == "class")
        if self.skipping:
            if tag not in _VOID:
                self.skipping.append(tag)
            return
        in_box = self.code is not None and self.code.box is not None
        if tag in SKIPPED or _GUTTER.search(classes) or (in_box and _beside_code(tag, classes)):
            if tag not in _VOID:
                self.skipping.append(tag)
            return
        line = self.getpos()[0] + self.line_offset
        if self.code is not None:
            self._inside_code(self.code, tag, classes, line)
            return
        code = _code_start(tag, line, classes)
        if code is not None:
            self._end_prose()
            self.code = code
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

    def _inside_code(self, code: _Open, tag: str, classes: str, line: int) -> None:
        code.language = code.language or _language(classes)
        if code.box is not None:
            code.box.start(tag)
        elif tag == "br":  # Medium and others break <pre> lines with <br>
            code.newline_at(line)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skipping:
            return
        if tag == "br" and self.code is not None:
            self._inside_code(self.code, tag, "", self.getpos()[0] + self.line_offset)
        elif tag == "br" and self.prose is not None:
            self.prose.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if self.skipping:
            if tag == self.skipping[-1]:
                self.skipping.pop()
            return
        if self.code is not None:
            if self.code.box.end(tag) if self.code.box is not None else tag == "pre":
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
            self.header, self.first_row = (), True
        elif self.prose is not None and tag == self.prose.tag:
            self._end_prose()

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        if self.code is not None and self.code.box is not None:
            # a box is laid out by its elements: the page's own line breaks between them are
            # not the code's, and indentation is written with no-break spaces
            box, line = self.code.box, self.getpos()[0] + self.line_offset
            if box.literal:
                for index, piece in enumerate(data.replace("\xa0", " ").split("\n")):
                    if index:
                        box.newline()
                    if piece:
                        box.add(piece, line + index)
                return
            if "\n" in data and not data.strip():
                return
            box.add(data.replace("\n", "").replace("\xa0", " "), line)
        elif self.code is not None:
            line = self.getpos()[0] + self.line_offset
            for index, piece in enumerate(data.split("\n")):
                if index:
                    self.code.newline_at(line + index)
                self.code.parts.append(piece)
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
        language = self.code.language.lower()
        box = self.code.box
        laid_out = box.lines() if box is not None else self.code.numbered_lines()
        lines, numbers = [t for t, _ in laid_out], tuple(n for _, n in laid_out)
        self.code = None
        if not "".join(lines).strip():
            return
        if self.previous_code and (self.labelled or language in _OUTPUT):
            self.blocks.append(Block(BlockKind.OUTPUT, "\n".join(lines), numbers, language))
            self.previous_code = self.labelled = False
        elif language in PYTHON:
            self.blocks.append(Block(BlockKind.CODE, "\n".join(lines), numbers, language))
            self.previous_code, self.labelled = True, False
        else:
            self.previous_code = self.labelled = False  # bash, json...: not Python

    def _end_row(self) -> None:
        assert self.row is not None
        cells, self.row = tuple(self.row), None
        if self.first_row and all(table.mark(cell) is None for cell in cells):
            self.header_row = True
        self.first_row = False
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


def _trimmed(lines: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Numbered lines of code without the blank lines at either end."""
    start, end = 0, len(lines)
    while start < end and not lines[start][0].strip():
        start += 1
    while end > start and not lines[end - 1][0].strip():
        end -= 1
    return lines[start:end]


def _beside_code(tag: str, classes: str) -> bool:
    """What a code box shows beside its code: links (Color Scripter's credit and badge) and
    toolbars."""
    return tag == "a" or "toolbar" in classes.split()


def _code_start(tag: str, line: int, classes: str) -> _Open | None:
    """The code an element opens: a ``<pre>``, or a code box."""
    if tag == "pre":
        return _Open("pre", line, language=_language(classes), starts=[line])
    if tag in ("div", "table", "figure") and _CODE_BOX.search(classes):
        named = _BOX_LANGUAGE.search(classes)
        language = named.group(1) if named else _language(classes)
        box = _Box(tag, literal=bool(_LITERAL_BOX.search(classes)))
        return _Open(tag, line, language=language, box=box)
    return None


def _language(classes: str) -> str:
    match = _LANGUAGE.search(classes)
    return match.group(1) if match else ""


def _squeeze(text: str) -> str:
    """Prose with its whitespace as a browser shows it: runs of spaces and newlines as one."""
    return re.sub(r"\s+", " ", text).strip()
