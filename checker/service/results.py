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


def scan_lines(content: str, findings: list[dict[str, Any]]) -> list[ResultLine]:
    lines = [ResultLine(n, text) for n, text in enumerate(content.split("\n"), start=1)]
    for finding in findings:
        index = min(max(int(finding["line"]), 1), len(lines)) - 1
        lines[index].findings.append(finding)
    return lines


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
