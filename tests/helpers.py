"""Helpers that keep tests short: sample paths, page parsing with exact counts."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from checker.text.pages import Page, parse_page

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = Path(__file__).resolve().parent / "samples"


def sample(*parts: str) -> Path:
    return SAMPLES.joinpath(*parts)


def parse(name: str, *, examples: int, snippets: int) -> Page:
    """Parse ``samples/pages/<name>`` and assert how many snippets and examples it holds."""
    page = parse_page(sample("pages", name))
    assert len(page.snippets) == snippets, [s.lineno for s in page.snippets]
    assert page.example_count == examples
    return page


def scan_prose(folder: Path) -> Any:
    """A prose-only scan of ``folder`` (the topic pages' scanner samples)."""
    from checker import registry
    from checker.scan.run import ScanOptions, scan

    return scan([folder], registry.load(), ScanOptions(run_code=False, project_root=ROOT))


def claim_verdicts(result: Any) -> set[tuple[str, int, str, object]]:
    """``(lang, line, claim, verdict)`` of every claim finding of a scan."""
    return {
        (f.lang, f.line, f.claim, f.verdict)
        for f in result.findings
        if f.kind == "claim" and f.claim is not None
    }


def sentence_verdicts(sentence: str, lang: str, folder: Path) -> set[Any]:
    """The verdicts a prose scan gives the claims a one-sentence article in ``lang`` states
    (written into ``folder``)."""
    path = folder / f"{lang}.md"
    path.write_text(f"# t\n\n{sentence}\n", encoding="utf-8")
    return {verdict for *_, verdict in claim_verdicts(scan_prose(path))}


def sphinx_html(lang: str, html: Path, doctrees: Path, *options: str) -> list[str]:
    """The command that builds the docs in ``lang`` into ``html`` with ``doctrees``, as
    ``nox -s docs`` runs Sphinx, plus ``options``."""
    return [
        sys.executable,
        "-m",
        "sphinx",
        "-b",
        "html",
        *options,
        "-c",
        str(ROOT),
        "-D",
        f"language={lang}",
        "-d",
        str(doctrees),
        str(ROOT / "docs"),
        str(html),
    ]
