"""A faster translation transform: the same output, without rebuilding a Markdown parser and
docutils defaults for every translated message. This module is the one place where the
extension patches code of myst-parser and Sphinx.

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
runs, swaps names inside myst-parser's and Sphinx's modules:

- ``myst_parser.parsers.sphinx_.create_md_parser`` by :meth:`MarkdownParsers.create`, which
  returns one parser per configuration object and renderer class, for the build (a page's
  front matter makes a new configuration object, which gets a new parser as before). Reusing
  it is safe: ``MarkdownIt.render`` starts from a fresh ``env`` and ``setup_render`` resets
  every per-render attribute of the renderer;
- ``myst_parser.mdit_to_docutils.base.make_document`` by :func:`_make_document`, which
  builds the same document from a cached copy of the default settings instead of
  recomputing them;
- ``sphinx.transforms.i18n._publish_msgstr`` by
  :func:`checker.sphinx.kept_messages.keeping`, which keeps the nodes each translated
  message parses into between builds, where they depend on nothing but the message;
- ``sphinx.transforms.i18n.NodeMatcher``, on a page with no reStructuredText-style named
  targets (MyST makes none), so that the search for them that Sphinx repeats over the whole
  page for every translated section title is skipped (:class:`_RefnameTargets`).

Nothing else changes: the same messages are parsed by the same parser code into the same
nodes; ``tests/test_build_speed_identity.py`` builds ja and ko with and without this
transform (``checker_fast_i18n = False``) and compares every HTML page byte for byte.
:data:`PATCHED_CODE` names every function swapped or relied on, with its signature and a
digest of its source as written in the releases the patch was made for;
``tests/test_fast_i18n.py`` fails when any of them differs. Where a name is missing or a
signature differs, :class:`ReusingLocale` is Sphinx's own ``Locale``.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import importlib
import inspect
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from docutils import nodes
from docutils.frontend import Values, get_default_settings
from docutils.parsers.rst import Parser as RSTParser
from docutils.utils import new_document
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.environment import BuildEnvironment
from sphinx.transforms import i18n
from sphinx.transforms.i18n import Locale

from checker.sphinx.kept_messages import keeping, message_store
from checker.sphinx.state import build_state


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
        if not _patchable():
            super().apply(**kwargs)
            return
        targets = _RefnameTargets(self.document)
        with (
            _reused_parsing(self.env),
            _kept_messages(self.env, targets),
            targets.matching(),
        ):
            super().apply(**kwargs)


# -- what is patched -------------------------------------------------------------------------


@dataclass(frozen=True)
class PatchedCode:
    """A function this module swaps, or one whose behaviour a swap relies on, as written in
    the releases the patch was made for (:data:`WRITTEN_FOR`)."""

    #: ``module:qualified.name``, looked up as the patch looks it up.
    name: str
    #: ``str(inspect.signature(...))``.
    signature: str
    #: The first 16 hex digits of the SHA-256 of ``inspect.getsource(...)``.
    source: str
    #: What to check again in the new code before pinning it here.
    recheck: str


#: The releases whose code :data:`PATCHED_CODE` describes.
WRITTEN_FOR = {"myst-parser": "5.2.0", "sphinx": "9.0.4"}

#: Every function swapped while :class:`ReusingLocale` runs, and those whose behaviour the
#: swaps rely on.
PATCHED_CODE = (
    PatchedCode(
        "myst_parser.parsers.sphinx_:create_md_parser",
        "(config: 'MdParserConfig', renderer: 'Callable[[MarkdownIt], RendererProtocol]') "
        "-> 'MarkdownIt'",
        "b7ba52b19650dc63",
        "swapped: the parser it builds depends on the configuration and renderer class alone",
    ),
    PatchedCode(
        "myst_parser.parsers.sphinx_:MystParser.parse",
        "(self, inputstring: 'str', document: 'nodes.document') -> 'None'",
        "0d71d5731b4a6f7c",
        "calls create_md_parser by its module's name, and leaves the parser as it found it",
    ),
    PatchedCode(
        "myst_parser.mdit_to_docutils.base:make_document",
        "(source_path='notset', parser_cls=<class 'docutils.parsers.rst.Parser'>) "
        "-> 'nodes.document'",
        "222e9e19081c2e7c",
        "swapped: _make_document must build the same document",
    ),
    PatchedCode(
        "myst_parser.mdit_to_docutils.base:DocutilsRenderer.setup_render",
        "(self, options: 'dict[str, Any]', env: 'MutableMapping[str, Any]') -> 'None'",
        "09ae3e2fe89715fd",
        "resets every per-render attribute of a reused renderer",
    ),
    PatchedCode(
        "sphinx.transforms.i18n:_publish_msgstr",
        "(source: 'str', source_path: 'str', source_line: 'int', *, config: 'Config', "
        "env: 'BuildEnvironment', registry: 'SphinxComponentRegistry', settings: 'Values') "
        "-> 'nodes.Element'",
        "9a43862bd8487aaf",
        "swapped: its result depends on the message, page, line and configuration alone",
    ),
    PatchedCode(
        "sphinx.transforms.i18n:Locale.apply",
        "(self, **kwargs: 'Any') -> 'None'",
        "118126ca0d1cb985",
        "calls _publish_msgstr and NodeMatcher by their module's names",
    ),
    PatchedCode(
        "sphinx.transforms.i18n:_NodeUpdater.update_title_mapping",
        "(self) -> 'bool'",
        "562795a8e7a9ff4c",
        "its NodeMatcher(nodes.target, refname=...) search only renames refname targets",
    ),
    PatchedCode(
        "sphinx.transforms.i18n:NodeMatcher",
        "(*node_classes: 'type[N]', **attrs: 'Any') -> 'None'",
        "4347f5cbad3a75e2",
        "swapped: _RefnameTargets.matching defers to it for every other search",
    ),
)


def differences(*, sources: bool = True) -> list[str]:
    """How the installed code differs from :data:`PATCHED_CODE` (``sources``: digests too)."""
    found = []
    for code in PATCHED_CODE:
        target = _resolve(code.name)
        if target is None:
            found.append(f"{code.name} is gone ({code.recheck})")
            continue
        signature = str(inspect.signature(target))
        if signature != code.signature:
            found.append(
                f"{code.name}: signature {signature}, not {code.signature} ({code.recheck})"
            )
        elif sources and _digest(target) != code.source:
            found.append(f"{code.name}: the source changed ({code.recheck})")
    return found


def _resolve(name: str) -> Any:
    module_name, _, qualname = name.partition(":")
    try:
        found: Any = importlib.import_module(module_name)
    except ImportError:
        return None
    for part in qualname.split("."):
        found = getattr(found, part, None)
    return found


def _digest(target: Any) -> str:
    return hashlib.sha256(inspect.getsource(target).encode()).hexdigest()[:16]


@functools.cache
def _patchable() -> bool:
    """Whether every name is there with its signature (sources are the test's business)."""
    return not differences(sources=False)


# -- the Markdown parser and docutils defaults, reused ----------------------------------------


class MarkdownParsers:
    """One Markdown parser per (configuration object, renderer class), for one build."""

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


@contextmanager
def _reused_parsing(env: BuildEnvironment) -> Iterator[None]:
    from myst_parser.mdit_to_docutils import base
    from myst_parser.parsers import sphinx_

    state = build_state(env)
    if state.markdown_parsers is None:
        create = sphinx_.create_md_parser  # type: ignore[attr-defined]  # imported there
        state.markdown_parsers = MarkdownParsers(create)
    with (
        _swapped(sphinx_, "create_md_parser", state.markdown_parsers.create),
        _swapped(base, "make_document", _make_document),
    ):
        yield


def _make_document(source_path: str = "notset", parser_cls: type = RSTParser) -> nodes.document:
    """``myst_parser.mdit_to_docutils.base.make_document``, with the defaults computed once
    per parser class (each document gets its own shallow copy: attributes set on one
    document's settings never reach another's; none of the defaults is mutated in place)."""
    return new_document(source_path, settings=copy.copy(_default_settings(parser_cls)))


@functools.cache
def _default_settings(parser_cls: type) -> Values:
    return get_default_settings(parser_cls)


# -- translated messages kept between builds ------------------------------------------------


@contextmanager
def _kept_messages(env: BuildEnvironment, targets: _RefnameTargets) -> Iterator[None]:
    store = message_store(env, sys.modules[__name__])
    publish = keeping(i18n._publish_msgstr, store, targets.note)
    with _swapped(i18n, "_publish_msgstr", publish):
        yield


# -- the search for named targets, skipped where there are none -------------------------------


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
        matcher = i18n.NodeMatcher  # type: ignore[attr-defined]  # imported there

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


@contextmanager
def _swapped(module: Any, name: str, value: object) -> Iterator[None]:
    original = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, original)
