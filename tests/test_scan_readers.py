"""How readers split an article into prose, code and shown output
(``checker.scan.readers``): output announced by a paragraph of its own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from checker.scan.document import BlockKind
from checker.scan.readers import html, markdown, rst

MARKDOWN = """\
```python
print(1 + 1)
```

{label}

```
2
```
"""


@pytest.mark.parametrize(
    "label",
    ["実行結果:", "実行結果は以下の通りです。", "출력:", "실행 결과", "Output:", "**Output**"],
)
def test_an_unlabelled_fence_after_an_output_label_is_the_codes_output(label: str) -> None:
    document = markdown.read(Path("a.md"), MARKDOWN.format(label=label))
    assert [(b.kind, b.text) for b in document.blocks] == [
        (BlockKind.CODE, "print(1 + 1)"),
        (BlockKind.OUTPUT, "2"),
    ]


def test_a_label_that_follows_prose_is_prose_and_the_fence_code() -> None:
    text = "Some words.\n\nOutput:\n\n```\nprint(2)\n```\n"
    kinds = [b.kind for b in markdown.read(Path("a.md"), text).blocks]
    assert kinds == [BlockKind.PROSE, BlockKind.PROSE, BlockKind.CODE]


@pytest.mark.parametrize(
    ("fence", "kind"),
    [
        ("```:実行結果", BlockKind.OUTPUT),
        ("```text:出力", BlockKind.OUTPUT),
        ("```:output.txt", BlockKind.OUTPUT),
        ("```python:check.py", BlockKind.CODE),
        ("```:check.py", BlockKind.CODE),
        ("```bash:run.sh", None),
        ("```:run.sh", None),
    ],
)
def test_a_fence_titled_as_qiita_and_zenn_write_it_is_read_by_its_language_and_title(
    fence: str, kind: BlockKind | None
) -> None:
    text = f"```python:first.py\nprint(1 + 1)\n```\n\n{fence}\nx = 2\n```\n"
    blocks = markdown.read(Path("a.md"), text).blocks
    assert [(b.kind, b.text, b.lines[0]) for b in blocks] == [
        (BlockKind.CODE, "print(1 + 1)", 2),
        *([(kind, "x = 2", 6)] if kind is not None else []),
    ]


def test_a_zenn_box_is_read_as_markdown() -> None:
    text = (
        ":::message alert\nA tensor is **never** copied.\n:::\n\n"
        ":::details Code\n```python\nx = 1\n```\n:::\n"
    )
    blocks = markdown.read(Path("a.md"), text).blocks
    assert [(b.kind, b.text, b.lines[0]) for b in blocks] == [
        (BlockKind.PROSE, "A tensor is **never** copied.", 2),
        (BlockKind.CODE, "x = 1", 7),
    ]


def test_a_literal_block_after_output_colons_is_the_codes_output() -> None:
    text = ".. code-block:: python\n\n   print(1 + 1)\n\nOutput::\n\n   2\n\nAfter.\n"
    document = rst.read(Path("a.rst"), text)
    assert [(b.kind, b.text, b.line) for b in document.blocks] == [
        (BlockKind.CODE, "print(1 + 1)", 3),
        (BlockKind.OUTPUT, "2", 7),
        (BlockKind.PROSE, "After.", 9),
    ]


HTML = """\
<html><head><script>document.write("<pre>x = 1</pre>")</script></head><body>
<nav><p>Menu: <code>torch.nope</code></p></nav>
<p>Inline <code>view()</code> &amp; friends.<br>Second line.</p>
<pre><code class="language-python">
print(1 + 1)
</code></pre>
<p><b>Output</b></p>
<pre>2</pre>
<pre class="language-bash">pip install torch</pre>
<table><tr><th>op</th><th>shares memory</th></tr>
<tr><td><code>clone()</code></td><td>✗</td></tr></table>
<p>unclosed <code>paragraph
"""


def test_a_web_page_is_read_as_the_article_a_browser_shows() -> None:
    from checker.scan.readers import html

    blocks = html.read(Path("a.html"), HTML).blocks
    assert [(b.kind, b.text, b.line) for b in blocks] == [
        (BlockKind.PROSE, "Inline `view()` & friends. Second line.", 3),
        (BlockKind.CODE, "print(1 + 1)", 5),
        (BlockKind.OUTPUT, "2", 8),
        (BlockKind.PROSE, "op | shares memory", 10),
        (BlockKind.PROSE, "`clone()` | ✗", 11),
        (BlockKind.PROSE, "unclosed `paragraph", 12),
    ]
    row = blocks[-2]
    assert (row.header, row.cells) == (("op", "shares memory"), ("`clone()`", "✗"))


def test_a_web_page_that_is_not_one_reads_as_nothing_and_raises_nothing() -> None:
    from checker.scan.readers import html

    for text in ("", "<<<>>>", "<pre>" * 2000, "</p></pre></table>", "<p>" + "a" * 100_000):
        html.read(Path("a.html"), text)


@pytest.mark.parametrize(
    ("reader", "name", "text"),
    [
        (markdown, "a.md", "## deepcopy and the graph\n\nA paragraph.\n"),
        (html, "a.html", "<h2>deepcopy and the graph</h2>\n<p>A paragraph.</p>\n"),
        (rst, "a.rst", "deepcopy and the graph\n======================\n\nA paragraph.\n"),
    ],
)
def test_headings_are_marked_as_headings(reader: Any, name: str, text: str) -> None:
    blocks = reader.read(Path(name), text).blocks
    assert [(b.text, b.heading) for b in blocks] == [
        ("deepcopy and the graph", True),
        ("A paragraph.", False),
    ]


def test_an_indented_block_under_a_python_fence_is_that_cells_output() -> None:
    """nbconvert's Markdown: the output sits indented under the fenced cell, and the cell runs
    as a notebook cell (the value of its last expression is part of what it shows)."""
    text = "```python\nx = 1\nx + 1\n```\n\n    2\n\n\n    more code?\n"
    blocks = markdown.read(Path("a.md"), text).blocks
    assert [(b.kind, b.text, b.info) for b in blocks] == [
        (BlockKind.CODE, "x = 1\nx + 1", "notebook"),
        (BlockKind.OUTPUT, "2\n\n\nmore code?", ""),
    ]
    plain = markdown.read(Path("a.md"), "Some words.\n\n    x = 1\n").blocks
    assert [(b.kind, b.text) for b in plain] == [
        (BlockKind.PROSE, "Some words."),
        (BlockKind.CODE, "x = 1"),
    ]


#: Code boxes as blog engines draw them, without <pre>: Tistory's Color Scripter (a table of
#: a line-number column, the code as one <div> per line, a credit link and a badge cell) and
#: WordPress's SyntaxHighlighter (a toolbar, a gutter, one <div class="line"> per line).
CODE_BOXES = """\
<p>Two boxes.</p>
<div class="colorscripter-code"><table class="colorscripter-code-table"><tr><td><div>\
<div>1</div><div>2</div><div>3</div></div></td><td><div>\
<div style="white-space:pre"><span>for</span>&nbsp;i&nbsp;<span>in</span>&nbsp;range(2):</div>\
<div style="white-space:pre">&nbsp;&nbsp;&nbsp;&nbsp;print(i)</div>\
<div style="white-space:pre">&nbsp;</div></div>\
<div><a href="http://colorscripter.com/info#e">Colored by Color Scripter</a></div></td>\
<td><a href="http://colorscripter.com/info#e"><span>cs</span></a></td></tr></table></div>
<div class="syntaxhighlighter python"><div class="toolbar"><span><a href="#">?</a></span></div>
<table><tbody><tr><td class="gutter"><div class="line number1">1</div>
<div class="line number2">2</div></td><td class="code"><div class="container">
<div class="line number1"><code class="python plain">x&nbsp;=&nbsp;</code><code>1</code></div>
<div class="line number2"><code class="python plain">print(x)</code></div>
</div></td></tr></tbody></table></div>
"""


def test_code_boxes_without_pre_are_code() -> None:
    blocks = html.read(Path("a.html"), CODE_BOXES).blocks
    assert [(b.kind, b.text, b.line, b.info) for b in blocks] == [
        (BlockKind.PROSE, "Two boxes.", 1, ""),
        (BlockKind.CODE, "for i in range(2):\n    print(i)", 2, ""),
        (BlockKind.CODE, "x = 1\nprint(x)", 6, "python"),  # each line keeps its page line
    ]


def test_html_inside_a_markdown_article_is_read_as_html() -> None:
    text = "# A post\n\nSome words.\n\n" + CODE_BOXES + "\nMore words.\n"
    blocks = markdown.read(Path("a.md"), text).blocks
    assert [(b.kind, b.line) for b in blocks] == [
        (BlockKind.PROSE, 1),
        (BlockKind.PROSE, 3),
        (BlockKind.PROSE, 5),
        (BlockKind.CODE, 6),
        (BlockKind.CODE, 10),
        (BlockKind.PROSE, 14),
    ]


def test_br_breaks_a_pre_line_and_each_line_keeps_its_page_line() -> None:
    text = '<p>Code:</p>\n<pre class="graf--pre">x = 1<br>y = 2<br/>print(x +\n      y)</pre>\n'
    [_prose, code] = html.read(Path("a.html"), text).blocks
    assert (code.kind, code.text, code.lines) == (
        BlockKind.CODE,
        "x = 1\ny = 2\nprint(x +\n      y)",
        (2, 2, 2, 3),
    )


def test_a_naver_code_box_keeps_its_own_line_breaks() -> None:
    """Naver's SmartEditor lays its code out with white-space: pre inside <div>s: its line
    breaks are the code's, and the inner <div>'s class names the language."""
    text = (
        '<div class="se-component se-code"><div class="se-code-source">\n'
        '<div class="__se_code_view language-python">x = 1\n'
        "for i in range(2):\n"
        "    print(x)\n"
        "</div>\n</div></div>\n"
        '<div class="se-code-source"><div class="__se_code_view language-bash">pip install torch'
        "</div></div>\n"
    )
    blocks = html.read(Path("a.html"), text).blocks
    assert [(b.kind, b.text, b.lines, b.info) for b in blocks] == [
        (BlockKind.CODE, "x = 1\nfor i in range(2):\n    print(x)", (2, 3, 4), "python"),
    ]


@pytest.mark.parametrize(
    ("header", "lang"),
    [("ja", "ja"), ("ja_JP", "ja"), ("ko-KR", "ko"), ("jv", "en"), ("jav", "en")],
)
def test_a_catalog_is_read_in_the_language_its_header_names(header: str, lang: str) -> None:
    """A catalog is in the language its header names, a region of it included; a code that
    only begins with the same letters (Javanese ``jav``) is not it, and the English text of
    an untranslated catalog is read as English."""
    from checker.scan.document import Block, Document
    from checker.scan.run import _language

    prose = Block(BlockKind.PROSE, "A view shares the storage of its base.", (1,))
    assert _language(Document(Path("x.po"), f"po:{header}", (prose,)), "auto") == lang
