"""A result page shows what the scanner read: a notebook as its cells' text and outputs (not
its JSON), a web page as its text (not its markup), each line numbered as the source's lines
the findings name; other formats as they were submitted."""

from __future__ import annotations

from checker.service.results import scan_lines
from tests.helpers import ROOT

NOTEBOOK = ROOT / "tests" / "corpus" / "en" / "18-notebook-practice.ipynb"


def test_a_notebook_is_shown_as_the_text_read() -> None:
    content = NOTEBOOK.read_text(encoding="utf-8")
    lines = scan_lines(content, [{"line": 157}, {"line": 8}], ".ipynb")
    shown = "\n".join(line.text for line in lines)
    assert '"cell_type"' not in shown and '"source"' not in shown
    assert lines[0].number == 7
    assert lines[0].text == "Gradient checkpointing and GradScaler, a practical notebook"
    by_number = {line.number: line for line in lines}
    assert by_number[160].text == "print(block[0].weight.grad.dtype)\ntorch.float16"  # + output
    assert [len(by_number[n].findings) for n in (7, 157)] == [1, 1]  # line 8: shown at 7
    assert len(lines) == 29


def test_a_web_page_is_shown_as_its_text() -> None:
    page = (
        "<html><head><title>T</title><style>p {}</style></head><body>\n"
        "<h1>Views</h1>\n<p>A view shares storage.</p>\n"
        '<pre><code class="language-python">x = 1\n</code></pre>\n</body></html>\n'
    )
    lines = scan_lines(page, [{"line": 3}], ".html")
    assert [(line.number, line.text) for line in lines] == [
        (2, "Views"),
        (3, "A view shares storage."),
        (4, "x = 1"),
    ]
    assert len(lines[1].findings) == 1


def test_markdown_is_shown_as_submitted() -> None:
    lines = scan_lines("# T\n\nA view.\n", [{"line": 3}], ".md")
    assert [(line.number, line.text, len(line.findings)) for line in lines] == [
        (1, "# T", 0),
        (2, "", 0),
        (3, "A view.", 1),
        (4, "", 0),
    ]
