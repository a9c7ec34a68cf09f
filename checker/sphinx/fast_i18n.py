"""A faster translation transform: the same output, without rebuilding a Markdown parser and
docutils defaults for every translated message.

Sphinx's :class:`sphinx.transforms.i18n.Locale` parses each translated message on its own
(``_publish_msgstr``), and for a Markdown page each of those parses goes through
``myst_parser.parsers.sphinx_.MystParser.parse``, which costs far more than the message:

- it calls ``create_md_parser(config, SphinxRenderer)``, building a fresh ``MarkdownIt``
  with every plugin and a fresh renderer (whose constructor inspects all its methods), for
  a configuration that is the same object for every message of the build;
- the renderer's ``setup_render`` evaluates ``options.get("document", make_document())``,
  whose default argument builds a throwaway document with docutils' default settings
  (``frontend.get_default_settings``: about 70 optparse options) even though Sphinx always
  passes the document it parses into.

:class:`ReusingLocale` replaces ``Locale`` in the build's transforms and, only while it
runs, swaps two names inside myst-parser's modules:

- ``myst_parser.parsers.sphinx_.create_md_parser`` by :func:`_ParserCache.create`, which
  returns one parser per configuration object and renderer class (a page's front matter
  makes a new configuration object, which gets a new parser as before). Reusing it is safe:
  ``MarkdownIt.render`` starts from a fresh ``env`` and ``setup_render`` resets every
  per-render attribute of the renderer;
- ``myst_parser.mdit_to_docutils.base.make_document`` by :func:`_make_document`, which
  builds the same document from a cached copy of the default settings instead of
  recomputing them.

It also keeps the nodes each translated message parses into between builds
(:mod:`checker.sphinx.text_store`), under the message, the page and line it is parsed for,
and a version naming Sphinx's, docutils' and myst-parser's versions, this module's code and
the MyST configuration. Only messages whose nodes depend on nothing else are kept: none with
a directive, a substitution or a role other than ``ref``, ``doc`` and ``measured`` (the
others may read the environment or note things in it), an image or HTML, and none whose parse
logged a warning (the warning must show on every build). A kept ``measured`` reference is
served only while the probes still measure its value, and notes, as the role does, that the
page shows measurements. Kept nodes are stored without their throwaway document, and
returned as fresh copies.

On a page with no reStructuredText-style named targets (MyST makes none), the search for
them that Sphinx repeats over the whole page for every translated section title is skipped
(:class:`_RefnameTargets`).

Nothing else changes: the same messages are parsed by the same parser code into the same
nodes; ``tests/test_build_speed_identity.py`` builds ja and ko with and without this
transform (``checker_fast_i18n = False``) and compares every HTML page byte for byte. If a
future Sphinx or myst-parser renames the patched functions, the transform falls back to
Sphinx's own behaviour (it only swaps names that exist).
"""

from __future__ import annotations

import copy
import logging
import pickle
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import docutils
import sphinx
from docutils import nodes
from docutils.frontend import Values, get_default_settings
from docutils.parsers.rst import Parser as RSTParser
from docutils.utils import new_document
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.environment import BuildEnvironment
from sphinx.transforms import i18n
from sphinx.transforms.i18n import Locale

from checker.sphinx.measured import parse_reference
from checker.sphinx.results import mark_dynamic, results_for
from checker.sphinx.text_store import TextStore, code_digest, text_store
from checker.typing import DEVICES


def setup_fast_i18n(app: Sphinx) -> None:
    app.add_config_value(
        "checker_fast_i18n",
        True,
        "",
        types=frozenset({bool}),
        description="reuse the Markdown parser across translated messages and, in Japanese, "
        "the search index's word splits (same output)",
    )
    app.connect("config-inited", _install)


def _install(app: Sphinx, config: Config) -> None:
    if not config.checker_fast_i18n:
        return
    transforms = app.registry.transforms
    app.registry.transforms = [ReusingLocale if t is Locale else t for t in transforms]


class ReusingLocale(Locale):
    """:class:`sphinx.transforms.i18n.Locale`, parsing messages with a reused Markdown parser
    and cached docutils defaults (see the module's description)."""

    def apply(self, **kwargs: Any) -> None:
        targets = _RefnameTargets(self.document)
        with _reused_parsing(), _kept_messages(self.env, targets), targets.matching():
            super().apply(**kwargs)


class _RefnameTargets:
    """Whether the page has ``target`` nodes with a ``refname`` (reStructuredText's
    ``text_``; MyST makes none), for the one search Sphinx repeats per translated title.

    ``_NodeUpdater.update_title_mapping`` renames such targets by walking the whole page for
    each translated section title: on a page that has none, and to which no translated
    message has added one (:meth:`note` sees every parsed message), the walk finds nothing,
    so it is skipped. Anywhere else the walk is Sphinx's own."""

    def __init__(self, document: nodes.document) -> None:
        self.present = any("refname" in t for t in document.findall(nodes.target))

    def note(self, patch: nodes.Node) -> None:
        if not self.present:
            self.present = any("refname" in t for t in patch.findall(nodes.target))

    @contextmanager
    def matching(self) -> Iterator[None]:
        matcher = getattr(i18n, "NodeMatcher", None)
        if matcher is None:
            yield
            return

        def node_matcher(*classes: type[nodes.Node], **attrs: Any) -> Any:
            if classes == (nodes.target,) and set(attrs) == {"refname"} and not self.present:
                return _MatchesNothing()
            return matcher(*classes, **attrs)

        with _swapped(i18n, "NodeMatcher", node_matcher):
            yield


class _MatchesNothing:
    def __call__(self, node: nodes.Node) -> bool:
        return False

    def findall(self, node: nodes.Node) -> Iterator[nodes.Node]:
        return iter(())


class _ParserCache:
    """One Markdown parser per (configuration object, renderer class), for one process."""

    def __init__(self, create: Callable[..., Any]) -> None:
        self._create = create
        self._parsers: list[tuple[object, object, Any]] = []

    def create(self, config: object, renderer: object) -> Any:
        for known_config, known_renderer, parser in self._parsers:
            if known_config is config and known_renderer is renderer:
                return parser
        parser = self._create(config, renderer)
        # Keep only the latest few: configurations of front matter are one-off objects.
        self._parsers = [*self._parsers[-3:], (config, renderer, parser)]
        return parser


_caches: dict[int, _ParserCache] = {}
_default_settings: dict[type, Values] = {}


def _make_document(source_path: str = "notset", parser_cls: type = RSTParser) -> nodes.document:
    """``myst_parser.mdit_to_docutils.base.make_document``, with the defaults computed once
    per parser class (each document gets its own shallow copy: attributes set on one
    document's settings never reach another's; none of the defaults is mutated in place)."""
    if parser_cls not in _default_settings:
        _default_settings[parser_cls] = get_default_settings(parser_cls)
    return new_document(source_path, settings=copy.copy(_default_settings[parser_cls]))


@contextmanager
def _reused_parsing() -> Iterator[None]:
    try:
        from myst_parser.mdit_to_docutils import base
        from myst_parser.parsers import sphinx_
    except ImportError:  # no MyST: Sphinx's own behaviour
        yield
        return
    with ExitStack() as stack:
        create = getattr(sphinx_, "create_md_parser", None)
        if create is not None:
            cache = _caches.setdefault(id(create), _ParserCache(create))
            stack.enter_context(_swapped(sphinx_, "create_md_parser", cache.create))
        if getattr(base, "make_document", None) is not None:
            stack.enter_context(_swapped(base, "make_document", _make_document))
        yield


def _message_store(env: BuildEnvironment) -> TextStore:
    myst = sys.modules.get("myst_parser")
    config = sorted((o.name, repr(o.value)) for o in env.config if o.name.startswith("myst_"))
    version = repr(
        (
            sphinx.__version__,
            docutils.__version__,
            getattr(myst, "__version__", None),
            code_digest(sys.modules[__name__]),
            config,
        )
    )
    lang = env.config.language or "en"
    return text_store(results_for(env).confdir, lang, "translated-messages", version)


#: Roles whose nodes are a function of the message and its page: cross-references, and the
#: placeholder of a measured value (see :func:`_still_measured`).
_KEPT_ROLES = frozenset({"ref", "doc", "measured"})
_ROLE = re.compile(r"\{([^{}`\s]+)\}`([^`]*)`")


def _keepable(source: str) -> bool:
    if any(name not in _KEPT_ROLES for name, _ in _ROLE.findall(source)):
        return False
    rest = _ROLE.sub("", source)
    return not any(mark in rest for mark in ("{", "![", "<"))


def _still_measured(source: str, env: BuildEnvironment) -> bool:
    """What :class:`checker.sphinx.measured.MeasuredRole` checks and notes when it parses: a
    reference to a value no probe measures is parsed again, so that it warns."""
    results = results_for(env)
    for name, content in _ROLE.findall(source):
        if name == "measured":
            key, device = parse_reference(content)
            if device is not None and device not in DEVICES:
                return False
            if results.loaded and results.registry.by_measurement(key) is None:
                return False
            mark_dynamic(env)
    return True


class _WarningCount(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def _keeping(
    publish: Callable[..., nodes.Element], store: TextStore, targets: _RefnameTargets
) -> Callable[..., Any]:
    def publish_kept(source: str, source_path: str, source_line: int, **kw: Any) -> Any:
        patch = _publish_kept(source, source_path, source_line, **kw)
        targets.note(patch)
        return patch

    def _publish_kept(source: str, source_path: str, source_line: int, **kw: Any) -> Any:
        if not _keepable(source):
            return publish(source, source_path, source_line, **kw)
        key = (source, source_path, source_line)
        kept = store.get(key)
        if kept is not None and "{measured}" in source and not _still_measured(source, kw["env"]):
            kept = None
        if kept is None:
            counter = _WarningCount()
            sphinx_logger = logging.getLogger("sphinx")
            sphinx_logger.addHandler(counter)
            try:
                patch = publish(source, source_path, source_line, **kw)
            finally:
                sphinx_logger.removeHandler(counter)
            if counter.count or isinstance(patch, nodes.document):
                return patch
            kept = pickle.dumps(_detached(patch))
            store.put(key, kept)
        return pickle.loads(kept)  # the project's own store: see checker.sphinx.text_store

    return publish_kept


def _detached(patch: nodes.Element) -> nodes.Element:
    """A copy of ``patch`` with no parent and no reference to the throwaway document."""
    copied = patch.deepcopy()
    for node in copied.findall():
        node._document = None  # type: ignore[attr-defined]
    return copied


@contextmanager
def _kept_messages(env: BuildEnvironment, targets: _RefnameTargets) -> Iterator[None]:
    publish = getattr(i18n, "_publish_msgstr", None)
    if publish is None:  # renamed in a future Sphinx: parse every message as Sphinx does
        targets.present = True  # and unseen messages may add targets: search as Sphinx does
        yield
        return
    with _swapped(i18n, "_publish_msgstr", _keeping(publish, _message_store(env), targets)):
        yield


@contextmanager
def _swapped(module: Any, name: str, value: object) -> Iterator[None]:
    original = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, original)
