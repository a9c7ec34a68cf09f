"""What a message holds besides words: its MyST markup, parsed as the build will parse it.

Sphinx re-parses every translated string with the page's parser (MyST here), so a
translation is compared with its English message by parsing both with the markdown-it
configuration that MyST uses (:func:`checker.text.markdown.parser`) and comparing their
:class:`Inventory`: roles, inline code, links, HTML, directives, blocks.
Parsing, not searching the text, is what catches markup that no longer parses in Japanese or
Korean (``**「重要」**です`` stays literal asterisks).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from markdown_it.token import Token

from checker.text.markdown import tokens

#: Block tokens that a translated sentence may hold: one paragraph.
_PLAIN_BLOCKS = frozenset({"paragraph_open", "paragraph_close", "inline"})
#: Inline tokens that carry no structure of their own.
_PLAIN_INLINE = frozenset({"text", "softbreak", "hardbreak", "link_close", "code_inline"})
#: Cross-reference roles, whose ``title <target>`` form has a translatable title.
XREF_ROLES = frozenset({"ref", "doc", "numref", "any", "download", "term", "keyword", "option"})
_XREF = re.compile(r"^(?P<title>.*\S)\s*<(?P<target>[^<>]+)>$", re.DOTALL)
_SUBSTITUTION = re.compile(r"\{\{\s*[^{}]+?\s*\}\}")
_DIRECTIVE_INFO = re.compile(r"^\{(?P<name>[^}\s]+)\}")


@dataclass(frozen=True)
class Inventory:
    """The markup of one message, in comparable form."""

    #: ``(role, content)``; for cross-references with a title (:data:`XREF_ROLES`, domain
    #: roles), ``(role, "<target>")``.
    roles: Counter[tuple[str, str]] = field(default_factory=Counter)
    #: Inline code literals.
    code: Counter[str] = field(default_factory=Counter)
    #: Targets of links and autolinks.
    links: Counter[str] = field(default_factory=Counter)
    #: Sources of images.
    images: Counter[str] = field(default_factory=Counter)
    #: Raw HTML, inline or block.
    html: tuple[str, ...] = ()
    #: Names of directives (```` ```{name} ```` and ``:::{name}``).
    directives: tuple[str, ...] = ()
    #: Contents of code blocks (fenced or indented) that are not directives.
    code_blocks: tuple[str, ...] = ()
    #: Structural token types besides one paragraph: ``heading_open``, ``image``, ...
    syntax: Counter[str] = field(default_factory=Counter)
    #: ``em_open`` and ``strong_open`` counts.
    emphasis: Counter[str] = field(default_factory=Counter)
    substitutions: Counter[str] = field(default_factory=Counter)
    #: The words: text tokens (link texts included), without code, roles or targets.
    prose: str = ""

    @property
    def hosts(self) -> frozenset[str]:
        """Hosts (or schemes, for non-web links) of every link and image target."""
        return frozenset(h for h in map(host, [*self.links, *self.images]) if h)


def host(target: str) -> str:
    """``evil.example`` for ``https://evil.example/x``; ``""`` for a target on this site."""
    parts = urlsplit(target.strip())
    if parts.netloc:
        return parts.netloc.lower()
    if parts.scheme and parts.scheme.lower() not in ("", "file"):
        return f"{parts.scheme.lower()}:"
    return ""


@functools.lru_cache(maxsize=4096)
def inventory(text: str) -> Inventory:
    """Parse ``text`` as a MyST paragraph and collect its markup."""
    collector = _Collector()
    for token in tokens(text):
        collector.block(token)
        for child in token.children or ():
            collector.inline(child)
    return collector.inventory()


class _Collector:
    """Mutable counterpart of :class:`Inventory`, filled token by token."""

    def __init__(self) -> None:
        self.roles: Counter[tuple[str, str]] = Counter()
        self.code: Counter[str] = Counter()
        self.links: Counter[str] = Counter()
        self.images: Counter[str] = Counter()
        self.syntax: Counter[str] = Counter()
        self.emphasis: Counter[str] = Counter()
        self.html: list[str] = []
        self.directives: list[str] = []
        self.code_blocks: list[str] = []
        #: Text tokens; a blank stands for each piece of markup taken out.
        self.words: list[str] = []
        self.paragraphs = 0

    def inventory(self) -> Inventory:
        prose = "".join(self.words)
        if self.paragraphs > 1:  # Sphinx keeps only the first paragraph of a translation
            self.syntax["paragraph_open"] += self.paragraphs - 1
        return Inventory(
            roles=self.roles,
            code=self.code,
            links=self.links,
            images=self.images,
            html=tuple(self.html),
            directives=tuple(self.directives),
            code_blocks=tuple(self.code_blocks),
            syntax=self.syntax,
            emphasis=self.emphasis,
            substitutions=Counter(m.replace(" ", "") for m in _SUBSTITUTION.findall(prose)),
            prose=prose,
        )

    def block(self, token: Token) -> None:
        if token.type == "paragraph_open" and token.level == 0:
            self.paragraphs += 1
        if token.type in _PLAIN_BLOCKS or token.nesting == -1:
            return
        if token.type == "html_block":
            self.html.append(token.content)
        elif token.type in ("fence", "colon_fence"):
            match = _DIRECTIVE_INFO.match(token.info.strip())
            if match:
                self.directives.append(match["name"])
            else:
                self.code_blocks.append(token.content)
        elif token.type == "code_block":
            self.code_blocks.append(token.content)
        else:
            self.syntax[token.type] += 1

    def inline(self, token: Token) -> None:
        kind = token.type
        if kind == "text":
            self.words.append(token.content)
            return
        if kind == "softbreak":
            self.words.append("\n")
            return
        self.words.append(" ")
        if kind == "code_inline":
            self.code[token.content] += 1
        elif kind == "myst_role":
            name = str(token.meta.get("name", ""))
            xref = _XREF.match(token.content) if name in XREF_ROLES or ":" in name else None
            self.roles[(name, f"<{xref['target'].strip()}>" if xref else token.content)] += 1
        elif kind == "link_open":
            self.links[str(token.attrs.get("href", ""))] += 1
        elif kind == "image":
            self.images[str(token.attrs.get("src", ""))] += 1
            self.syntax["image"] += 1
            self.words.append(token.content)
        elif kind == "html_inline":
            self.html.append(token.content)
        elif kind in ("em_open", "strong_open"):
            self.emphasis[kind] += 1
        elif kind not in _PLAIN_INLINE and token.nesting != -1:
            self.syntax[kind] += 1
