"""The one tokenization of MyST and Markdown (checker.text.markdown): MyST's own parser gives
the same tokens on every page and every translated message, and the walk places each block on
its page's lines, directive bodies included."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from checker.text.markdown import MYST_EXTENSIONS, tokens, walk
from checker.text.po import read_catalog
from tests.helpers import ROOT

PAGES = sorted((ROOT / "docs").rglob("*.md"))

#: Text -> its tokens, as dictionaries.
Tokenize = Callable[[str], list[dict[str, Any]]]


def _messages() -> list[str]:
    found: list[str] = []
    for path in sorted((ROOT / "locales").rglob("*.po")):
        for entry in read_catalog(path).entries:
            found += [entry.msgid, *entry.translations]
    return found


@pytest.fixture(scope="module")
def myst_tokens() -> Tokenize:
    pytest.importorskip("myst_parser", reason="myst-parser (the docs extra) is not installed")
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    parser = create_md_parser(MdParserConfig(enable_extensions=set(MYST_EXTENSIONS)), RendererHTML)
    return lambda text: [t.as_dict() for t in parser.parse(text)]


@pytest.mark.parametrize("path", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_page_is_tokenized_as_myst_does(path: Path, myst_tokens: Tokenize) -> None:
    text = path.read_text(encoding="utf-8")
    assert [t.as_dict() for t in tokens(text)] == myst_tokens(text)


def test_every_message_is_tokenized_as_myst_does(myst_tokens: Tokenize) -> None:
    messages = _messages()
    assert len(messages) > 4000
    different = [m for m in messages if [t.as_dict() for t in tokens(m)] != myst_tokens(m)]
    assert different == []


PAGE = """\
# Title

A paragraph
over two lines.

:::{note}
:class: tip

Inside the note.

```pycon
>>> 1
1
```
:::

```{code-block} python
x = 1
```

Term
: Its definition.

```text
never closed
"""


def test_the_walk_places_every_block_on_its_page_line() -> None:
    found = [
        (n.depth, n.type, n.line, n.end)
        for n in walk(PAGE)
        if n.token.nesting != -1 and n.token.map
    ]
    assert found == [
        (0, "heading_open", 1, 2),
        (0, "inline", 1, 2),
        (0, "paragraph_open", 3, 5),
        (0, "inline", 3, 5),
        (0, "colon_fence", 6, 16),
        (1, "paragraph_open", 9, 10),  # the :class: option and its blank line are not body
        (1, "inline", 9, 10),
        (1, "fence", 11, 15),
        (0, "fence", 17, 20),  # a code directive: not looked into
        (0, "dl_open", 21, 24),  # a list ends after the blank line that ends it
        (0, "dt_open", 21, 21),
        (0, "inline", 21, 21),
        (0, "dd_open", 22, 24),
        (0, "paragraph_open", 22, 23),
        (0, "inline", 22, 23),
        (0, "fence", 24, 26),
    ]


def test_fences_know_their_directive_and_whether_they_are_closed() -> None:
    fences = [n for n in walk(PAGE) if n.type in ("fence", "colon_fence")]
    assert [(n.line, n.info, n.directive, n.closed) for n in fences] == [
        (6, "{note}", "note", True),
        (11, "pycon", None, True),
        (17, "{code-block} python", "code-block", True),
        (24, "text", None, False),
    ]


def test_a_walk_looks_into_the_fences_it_is_told_to() -> None:
    everything = list(walk(PAGE, into=lambda node: node.directive is not None))
    assert [(n.depth, n.line) for n in everything if n.type == "paragraph_open"] == [
        (0, 3),
        (1, 9),
        (1, 18),  # the code-block's body, read as Markdown when asked to
        (0, 22),
    ]
