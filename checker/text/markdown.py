"""The one tokenization of MyST and Markdown: the pages of the docs, the messages of their
catalogs and the articles the scanner reads are parsed alike, as MyST parses them.

:func:`parser` is the markdown-it configuration MyST builds for this project's settings
(``myst_parser.parsers.mdit.create_md_parser`` with ``myst_enable_extensions`` of ``conf.py``,
:data:`MYST_EXTENSIONS`), built from markdown-it-py and mdit-py-plugins alone, so reading
needs no Sphinx and no myst-parser; ``tests/test_text_markdown.py`` compares its tokens with
MyST's on every page of ``docs/`` and every message of ``locales/`` where myst-parser is
installed. (MyST also counts words, which changes no token; that is left out.)

:func:`walk` is the one walk over a page: every block-level token with the page lines it
spans, and after a directive written as a fence (```` ```{note} ````, ``:::{note}``), the
tokens of its body, its ``:option:`` lines left out, as MyST reads them. The doctest plugin
(:mod:`checker.text.pages`), the site index (:mod:`checker.text.sites`), the scanner's
Markdown reader and the translation gate all read Markdown through it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.rules_block import make_fence_rule
from markdown_it.token import Token
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin
from mdit_py_plugins.myst_role import myst_role_plugin

#: The MyST extensions of ``conf.py`` (``myst_enable_extensions``); a test keeps them equal.
MYST_EXTENSIONS = frozenset({"colon_fence", "deflist"})
#: Token types of fenced blocks: backticks or tildes, and MyST's colons.
FENCES = frozenset({"fence", "colon_fence"})
#: Directives whose body is code, not Markdown: a walk does not look into them.
CODE_DIRECTIVES = frozenset({"code-block", "code", "sourcecode", "code-cell", "literalinclude"})

_DIRECTIVE = re.compile(r"^\{(?P<name>[\w:-]+)\}")


@functools.cache
def parser() -> MarkdownIt:
    """The markdown-it parser MyST builds for this project's settings."""
    md = (
        MarkdownIt("commonmark")
        .enable("table")
        .use(front_matter_plugin)
        .use(myst_block_plugin)
        .use(myst_role_plugin)
        .use(footnote_plugin, inline=False, move_to_end=False, always_match_refs=True)
    )
    colon_fence = make_fence_rule(markers=(":",), token_type="colon_fence", exact_match=False)
    alternatives = ["paragraph", "reference", "blockquote", "list", "footnote_def"]
    md.block.ruler.before("fence", "colon_fence", colon_fence, {"alt": alternatives})
    md.use(deflist_plugin)
    md.options.update({"typographer": False, "linkify": False})
    return md


def tokens(text: str) -> list[Token]:
    """The tokens of ``text`` (block tokens; inline ones are their ``children``)."""
    return parser().parse(text)


@dataclass(frozen=True)
class PageToken:
    """A block-level token, placed on the lines of the page it comes from."""

    token: Token
    #: 1-based page line of its first line (the line its text starts on when it has no map).
    line: int
    #: 1-based page line just after its last line (0 when it has no map).
    end: int
    #: How many directives it lies in.
    depth: int = 0
    #: For a fence: whether its closing fence is written (an article may forget it).
    closed: bool = True

    @property
    def type(self) -> str:
        return self.token.type

    @property
    def info(self) -> str:
        """A fence's info string, stripped (``pycon``, ``{note} Title``)."""
        return self.token.info.strip()

    @property
    def directive(self) -> str | None:
        """The directive a fence writes (``note`` for ```` ```{note} ````), else ``None``."""
        if self.token.type not in FENCES:
            return None
        match = _DIRECTIVE.match(self.info)
        return match["name"] if match else None


def is_markdown_directive(node: PageToken) -> bool:
    """A directive whose body is Markdown (an admonition, a tab), not code."""
    return node.directive is not None and node.directive not in CODE_DIRECTIVES


def walk(
    text: str,
    *,
    offset: int = 0,
    into: Callable[[PageToken], bool] = is_markdown_directive,
    depth: int = 0,
) -> Iterator[PageToken]:
    """Every block-level token of ``text`` (whose first line is page line ``offset + 1``), in
    order; right after each fence ``into`` accepts, the tokens of its body, one level deeper
    (a directive's leading ``:option:`` lines are not body)."""
    lines = text.split("\n")
    for token in tokens(text):
        if token.map is None:
            yield PageToken(token, offset + 1, 0, depth)
            continue
        start, end = token.map
        closed = token.type not in FENCES or _closed(token, lines)
        node = PageToken(token, offset + start + 1, offset + end + 1, depth, closed)
        yield node
        if token.type in FENCES and into(node):
            options = option_lines(token.content) if node.directive is not None else 0
            body = "\n".join(token.content.split("\n")[options:])
            yield from walk(body, offset=node.line + options, into=into, depth=depth + 1)


def plain(text: str) -> str:
    """The words of MyST inline text, as a reader reads them: code without its backticks, a
    role as its content, a link as its text, emphasis as its words, line breaks as spaces."""
    words: list[str] = []
    for block in tokens(text):
        for token in block.children or ():
            if token.type in ("text", "code_inline", "myst_role"):
                words.append(token.content)
            elif token.type in ("softbreak", "hardbreak"):
                words.append(" ")
        words.append(" ")
    return " ".join("".join(words).split())


def option_lines(body: str) -> int:
    """Lines of ``:option: value`` (and a following blank line) at the start of a directive."""
    lines = body.split("\n")
    count = 0
    while count < len(lines) and lines[count].startswith(":"):
        count += 1
    if count and count < len(lines) and not lines[count].strip():
        count += 1
    return count


def _closed(token: Token, lines: list[str]) -> bool:
    """Whether the fence's last line is its closing fence."""
    assert token.map is not None
    start, end = token.map
    last = lines[end - 1].strip() if end - 1 < len(lines) else ""
    return end - start >= 2 and last.startswith(token.markup)
