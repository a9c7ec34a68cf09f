"""A finished job laid out for its page: the article's lines with the findings of each line,
or the catalog's entries with the gate's findings of each entry."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class ResultLine:
    number: int
    text: str
    findings: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class EntryView:
    line: int
    msgid: str
    msgstr: str
    findings: list[dict[str, Any]] = field(default_factory=list)


#: Formats whose source is not what a reader reads: shown as the text the scanner read.
READ_AS_TEXT = (".ipynb", ".html")


def scan_lines(
    content: str, findings: list[dict[str, Any]], suffix: str = ".md"
) -> list[ResultLine]:
    """The article's lines with the findings of each; a notebook or a web page as the text
    the scanner read from it (cells, paragraphs, code, outputs), numbered with the source's
    lines, which the findings name."""
    lines = _read_lines(content, suffix) if suffix in READ_AS_TEXT else None
    if not lines:
        lines = [ResultLine(n, text) for n, text in enumerate(content.split("\n"), start=1)]
    for finding in findings:
        at = int(finding["line"])
        owner = lines[0]
        for line in lines:  # the last line shown at or before the finding's
            if line.number <= at:
                owner = line
        owner.findings.append(finding)
    return lines


def _read_lines(content: str, suffix: str) -> list[ResultLine]:
    from checker.scan.document import ReadError
    from checker.scan.readers import read_bytes

    try:
        document = read_bytes(Path(f"article{suffix}"), content.encode("utf-8"))
    except ReadError:
        return []
    from checker.scan.document import BlockKind

    texts: dict[int, list[str]] = {}
    previous = None
    for block in document.blocks:
        numbers = block.lines or (1,)
        if block.kind is BlockKind.OUTPUT and previous is not None and numbers[0] in previous:
            numbers = (previous[-1],)  # a cell's output after the cell's code
        for index, text in enumerate(block.text.split("\n")):
            texts.setdefault(numbers[min(index, len(numbers) - 1)], []).append(text)
        previous = block.lines
    return [ResultLine(number, "\n".join(texts[number])) for number in sorted(texts)]


def translation_entries(content: str, lang: str, findings: list[dict[str, Any]]) -> list[EntryView]:
    """Each entry with the findings whose line falls in it (between its first line and the
    next entry's); findings before the first entry go with the header (line 1)."""
    from checker.text.po import parse_catalog

    catalog = parse_catalog(content.encode("utf-8"), Path("catalog.po"), lang)
    views = [EntryView(1, "", "")]
    views += [EntryView(e.line, e.msgid, e.msgstr) for e in catalog.entries]
    views.sort(key=lambda v: v.line)
    for finding in findings:
        line = int(finding["line"])
        owner = views[0]
        for view in views:
            if view.line <= line:
                owner = view
        owner.findings.append(finding)
    return [v for v in views if v.msgid or v.findings]
