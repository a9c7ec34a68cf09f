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

Nothing else changes: the same messages are parsed by the same parser code into the same
nodes; ``tests/test_build_speed_identity.py`` builds ja and ko with and without this
transform (``checker_fast_i18n = False``) and compares every HTML page byte for byte. If a
future Sphinx or myst-parser renames the patched functions, the transform falls back to
Sphinx's own behaviour (it only swaps names that exist).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from docutils import nodes
from docutils.frontend import Values, get_default_settings
from docutils.parsers.rst import Parser as RSTParser
from docutils.utils import new_document
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.transforms.i18n import Locale


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
        with _reused_parsing():
            super().apply(**kwargs)


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


@contextmanager
def _swapped(module: Any, name: str, value: object) -> Iterator[None]:
    original = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, original)
