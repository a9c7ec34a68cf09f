"""Security: a translation may not bring raw HTML, directives, new hosts or new MyST syntax.

Sphinx parses every translated string with MyST: HTML typed by a translator would reach the
page, and a directive (``{include}``, ``{eval-rst}``, ``{raw}``) would even run while the
string is parsed. Nothing here is sanitised: the entry is refused and the page keeps its
English (see :mod:`checker.sphinx.safety`, which applies the same rules in the build).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterator
from urllib.parse import unquote, urlsplit

from checker.i18n.findings import Check, TranslationFinding, said
from checker.i18n.markup import Inventory, host
from checker.i18n.message import Message

#: Roles that insert content unchecked or read files.
DANGEROUS_ROLES = frozenset({"raw", "eval-rst", "include", "literalinclude", "raw-html"})

#: Readable names of MyST syntax a sentence should not gain.
SYNTAX_NAMES = {
    "heading_open": "a heading",
    "bullet_list_open": "a bulleted list",
    "ordered_list_open": "a numbered list",
    "blockquote_open": "a block quote",
    "table_open": "a table",
    "hr": "a horizontal rule",
    "dl_open": "a definition list",
    "myst_target": "a target (label)=",
    "myst_line_comment": "a % comment",
    "myst_block_break": "a +++ block break",
    "front_matter": "front matter",
    "footnote_ref": "a footnote reference",
    "footnote_block_open": "a footnote definition",
    "image": "an image",
    "paragraph_open": "a paragraph break (Sphinx keeps only the first paragraph)",
}


#: The only schemes a translation may link with (``mailto:`` too, where the English has the
#: same address). ``javascript:``, ``data:``, ``vbscript:``, ``file:`` and every other are
#: refused, whether or not the Markdown parser would turn them into a link.
LINK_SCHEMES = ("http", "https")
#: Link targets as written, parsed or not: ``[text](target)``, ``![alt](target)``,
#: ``<scheme:target>``, and a bare ``scheme:`` after a bracket or at a word start.
_WRITTEN_TARGETS = re.compile(
    r"\]\(\s*<?([^\s)>]+)|<([^\s<>]+)>|(?<![\w/.#-])([A-Za-z][A-Za-z0-9+.\-]{0,30}:[^\s]*)"
)


def check(message: Message) -> Iterator[TranslationFinding]:
    source, target = message.source, message.target
    yield from _html(message, source, target)
    yield from _directives(message, source, target)
    yield from _schemes(message)
    web = [t for t in [*target.links, *target.images] if _scheme(t) in ("", *LINK_SCHEMES)]
    for new_host in sorted({host(t) for t in web} - source.hosts - {""}):
        links = [t for t in web if host(t) == new_host]
        yield message.finding(
            Check.EXTERNAL_LINK,
            said(
                "links to {host} ({links}), a host the English does not link to",
                host=new_host,
                links=", ".join(links),
            ),
        )
    added = target.syntax - source.syntax
    if added:
        names = ", ".join(SYNTAX_NAMES.get(kind, kind) for kind in sorted(added))
        yield message.finding(
            Check.MYST_SYNTAX,
            said("adds MyST syntax the English does not have: {names}", names=names),
        )


def _schemes(message: Message) -> Iterator[TranslationFinding]:
    english = {t.strip() for t in [*message.source.links, *message.source.images]}
    targets = {*message.target.links, *message.target.images}
    for match in _WRITTEN_TARGETS.finditer(_HTML_TAG.sub(" ", message.translation)):
        written = next(g for g in match.groups() if g is not None)
        if match.group(3) is None or _scheme(written) in _DANGEROUS_SCHEMES:
            targets.add(written)
    refused: dict[str, str] = {}
    for link in targets:
        scheme = _scheme(link)
        if not scheme or scheme in LINK_SCHEMES:
            continue
        if scheme == "mailto" and link.strip() in english:
            continue
        refused.setdefault(scheme, link)
    for scheme, link in sorted(refused.items()):
        yield message.finding(
            Check.EXTERNAL_LINK,
            said(
                "links with the scheme {scheme}: ({link}); a translation may link only with "
                "http: and https:",
                scheme=scheme,
                link=_short(link),
            ),
        )


#: An HTML tag (``<a href=...>``, ``</a>``): the HTML check refuses it, with its attributes.
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
#: Schemes refused even where they stand as plain text, not as a link target.
_DANGEROUS_SCHEMES = frozenset({"javascript", "vbscript", "data", "file"})


def _scheme(target: str) -> str:
    """The scheme a browser would read: percent-escapes decoded, spaces and control
    characters (which browsers drop from a scheme) removed, lower-cased."""
    decoded = unquote(target.strip())
    cleaned = "".join(c for c in decoded if not c.isspace() and unicodedata.category(c)[0] != "C")
    try:
        return urlsplit(cleaned).scheme.lower()
    except ValueError:
        return "invalid"


def check_plain_text(message: Message) -> Iterator[TranslationFinding]:
    """For text that is not Markdown (the extension's labels and rules, theme labels): raw
    HTML the English does not have is all that can inject anything."""
    yield from _html(message, message.source, message.target)


def _html(message: Message, source: Inventory, target: Inventory) -> Iterator[TranslationFinding]:
    added = list((Counter(target.html) - Counter(source.html)).elements())
    if not added:
        return
    shown = ", ".join(_short(h) for h in added[:3]) + (" ..." if len(added) > 3 else "")
    yield message.finding(
        Check.HTML,
        said("raw HTML is not allowed in a translation: {html}; it is refused", html=shown),
    )


def _directives(
    message: Message, source: Inventory, target: Inventory
) -> Iterator[TranslationFinding]:
    for name in sorted((Counter(target.directives) - Counter(source.directives)).elements()):
        yield message.finding(
            Check.DIRECTIVE,
            said(
                "adds the directive {directive}: directives cannot be translated",
                directive=f"{{{name}}}",
            ),
        )
    roles = Counter({r: n for r, n in target.roles.items() if r[0] in DANGEROUS_ROLES})
    for name, content in sorted((roles - source.roles).elements()):
        yield message.finding(
            Check.DIRECTIVE,
            said(
                "adds the role {role}: it inserts raw content",
                role=f"{{{name}}}`{_short(content)}`",
            ),
        )


def _short(text: str, width: int = 50) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"
