"""No translation can inject markup into a page, and no raw HTML reaches one.

Sphinx parses every translated string with the page's parser: with MyST, HTML typed by a
translator becomes a ``raw`` node, and a directive (``{include}``, ``{eval-rst}``) runs while
the string is parsed. Two transforms close this, whatever the checks before the build did:

- :class:`RefuseUnsafeTranslations`, before the i18n transform (priority 20): a message
  whose translation adds HTML, a directive, a dangerous role, new MyST syntax or a link to a
  new host (the rules of :mod:`checker.i18n.checks.security`) is marked untranslatable, so
  the page keeps its English; a ``[checker.unsafe_markup]`` warning names the ``.po`` line.
- :class:`RemoveRawMarkup`, after it: every ``raw`` node left (the English sources use none,
  by policy) is replaced by its text, sanitised by nh3 (tags and scripts dropped), and a
  translated paragraph's link to a host its English did not link to is unlinked.

A catalog's entries and the messages found safe are kept between builds
(:mod:`checker.sphinx.text_store`), under a version naming the code of the rules; a refused
message is checked again on every build, so its warnings always show.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

import markdown_it
import nh3
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms import SphinxTransform
from sphinx.util.i18n import docname_to_domain
from sphinx.util.nodes import extract_messages

from checker.i18n import markup, message, polarity, quantities, roles
from checker.i18n.checks import claims, security, structure
from checker.i18n.checks import roles as roles_check
from checker.i18n.markup import host
from checker.i18n.message import Message
from checker.sphinx.claims import claim_node
from checker.sphinx.results import results_for
from checker.sphinx.text_store import TextStore, code_digest, text_store
from checker.sphinx.warnings_ import CheckerWarnings, warn
from checker.text import markdown, po, po_entries, po_lexer
from checker.text.po import MAX_MESSAGE_CHARS, Entry, read_catalog

#: The attribute holding the hosts a translatable node's English links to.
_HOSTS = "checker_english_hosts"


def setup_safety(app: Sphinx) -> None:
    app.add_transform(RefuseUnsafeTranslations)
    app.add_transform(RemoveRawMarkup)


def _store(env: BuildEnvironment, kind: str, *modules: Any) -> TextStore:
    version = f"{markdown_it.__version__}:{code_digest(*modules)}"
    return text_store(results_for(env).confdir, env.config.language, kind, version)


def _entries(env: BuildEnvironment, path: Path) -> dict[str, Entry]:
    """The entries of a catalog by msgid, read once per content of the file."""
    raw = path.read_bytes()
    key = (str(path), hashlib.sha256(raw).hexdigest())
    store = _store(env, "catalog-entries", po, po_entries, po_lexer)
    entries = store.get(key)
    if entries is None:
        catalog = read_catalog(path)
        entries = {e.msgid: e for e in catalog.active if e.msgctxt is None}
        store.put(key, entries)
    return entries  # type: ignore[no-any-return]


class RefuseUnsafeTranslations(SphinxTransform):
    """Keep the English of every message whose translation is unsafe."""

    #: After :class:`checker.sphinx.translatable.MarkUntranslatable` (10), before
    #: ``sphinx.transforms.i18n.Locale`` (20).
    default_priority = 15

    def apply(self, **kwargs: Any) -> None:
        lang = self.config.language
        if not lang or lang == "en" or results_for(self.env).builder == "gettext":
            return
        path = self._catalog(lang)
        entries = _entries(self.env, path) if path is not None else {}
        modules = (security, markup, message, markdown, sys.modules[__name__], *_CLAIM_MODULES)
        safe = _store(self.env, "safe-messages", *modules)
        fuzzy_ok = bool(self.config.gettext_allow_fuzzy_translations)
        docname = self.env.current_document.docname
        for node, msg in extract_messages(self.document):
            node[_HOSTS] = sorted(_hosts(node))
            entry = entries.get(msg)
            if entry is None or not entry.msgstr.strip() or (entry.fuzzy and not fuzzy_ok):
                continue
            if len(entry.msgstr) > MAX_MESSAGE_CHARS:  # not even parsed: see the cap
                node["translatable"] = False
                warn(
                    CheckerWarnings.UNSAFE_MARKUP,
                    f"translation refused, the page keeps the English: it holds "
                    f"{len(entry.msgstr)} characters (at most {MAX_MESSAGE_CHARS})",
                    f"{path}:{entry.msgstr_line}",
                )
                continue
            claim_id = _claim_of(node)
            if safe.get((msg, entry.msgstr, claim_id)):
                continue
            translated = Message(str(path), lang, docname, entry, entry.msgstr, claim_id)
            problems = [(CheckerWarnings.UNSAFE_MARKUP, p) for p in security.check(translated)]
            if claim_id is not None:  # a statement that says something else is refused too
                problems += [
                    (CheckerWarnings.CLAIM_TRANSLATION, p)
                    for check in _CLAIM_CHECKS
                    for p in check(translated)
                    if p.is_error
                ]
            if not problems:
                safe.put((msg, entry.msgstr, claim_id), True)
                continue
            node["translatable"] = False
            for kind, problem in problems:
                warn(
                    kind,
                    f"translation refused, the page keeps the English: {problem.message}",
                    f"{path}:{problem.line}",
                )

    def _catalog(self, lang: str) -> Path | None:
        domain = docname_to_domain(self.env.current_document.docname, self.config.gettext_compact)
        for directory in self.config.locale_dirs:
            path = Path(self.env.srcdir, directory, lang, "LC_MESSAGES", f"{domain}.po")
            if path.is_file():
                return path.resolve()
        return None


#: What a claim's translated statement must pass to reach the page: its negations, numbers,
#: units and roles as in the English (the gate's checks; the build applies them whatever the
#: gate said).
_CLAIM_CHECKS = (claims.check, structure.check_numbers, roles_check.check)
_CLAIM_MODULES = (claims, structure, roles_check, polarity, quantities, roles)


def _claim_of(node: nodes.Node) -> str | None:
    """The id of the claim whose statement ``node`` is part of, if any."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, claim_node):
            return str(parent.get("claim_id") or "") or None
        parent = parent.parent
    return None


def _hosts(node: nodes.Node) -> set[str]:
    found = {host(str(ref.get("refuri", ""))) for ref in node.findall(nodes.reference)}
    found |= {host(str(img.get("uri", ""))) for img in node.findall(nodes.image)}
    return {h for h in found if h}


class RemoveRawMarkup(SphinxTransform):
    """Replace raw nodes by their sanitised text; unlink new hosts in translated text."""

    #: Right after ``sphinx.transforms.i18n.Locale`` (20).
    default_priority = 21

    def apply(self, **kwargs: Any) -> None:
        for raw in list(self.document.findall(nodes.raw)):
            text = nh3.clean(raw.astext(), tags=set()) if raw.get("format") == "html" else ""
            warn(
                CheckerWarnings.UNSAFE_MARKUP,
                f"raw {raw.get('format', '')} markup removed: {_short(raw.astext())!r}",
                raw,
            )
            replacement: list[nodes.Node] = []
            if text.strip():
                inline = isinstance(raw.parent, nodes.TextElement)
                replacement = [nodes.Text(text) if inline else nodes.paragraph("", text)]
            raw.replace_self(replacement)
        for node in list(self.document.findall(nodes.Element)):
            if node.get("translated") and _HOSTS in node:
                self._unlink_new_hosts(node, set(node[_HOSTS]))

    def _unlink_new_hosts(self, node: nodes.Element, allowed: set[str]) -> None:
        for ref in list(node.findall(nodes.reference)):
            new_host = host(str(ref.get("refuri", "")))
            if new_host and new_host not in allowed:
                warn(
                    CheckerWarnings.UNSAFE_MARKUP,
                    f"a translation links to {new_host}, which the English does not; unlinked",
                    node,
                )
                ref.replace_self(ref.children)


def _short(text: str, width: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"
