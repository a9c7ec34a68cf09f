"""The nodes of translated messages, kept between builds where they depend on the message
alone.

:mod:`checker.sphinx.fast_i18n` has Sphinx's ``_publish_msgstr`` answered by
:func:`keeping`, which keeps what each translated message parses into in the text store
(:mod:`checker.sphinx.text_store`), under the message, the page and line it is parsed for,
and a version naming Sphinx's, docutils' and myst-parser's versions, the code parsing them
and the MyST configuration (:func:`message_store`). Only messages whose nodes depend on
nothing else are kept (:func:`_keepable`): none with a directive, a substitution or a role
other than ``ref``, ``doc`` and ``measured`` (the others may read the environment or note
things in it), an image or HTML, and none whose parse logged a warning (the warning must
show on every build). A kept ``measured`` reference is served only while the probes still
measure its value, and notes, as the role does, that the page shows measurements. Kept nodes
are stored without their throwaway document, and returned as fresh copies.
"""

from __future__ import annotations

import logging
import pickle
import re
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

import docutils
import sphinx
from docutils import nodes
from sphinx.environment import BuildEnvironment

from checker.sphinx.measured import parse_reference
from checker.sphinx.results import mark_dynamic, results_for
from checker.sphinx.text_store import TextStore, code_digest, text_store
from checker.typing import DEVICES


def keeping(
    publish: Callable[..., nodes.Element],
    store: TextStore,
    seen: Callable[[nodes.Element], None],
) -> Callable[..., Any]:
    """``publish`` (Sphinx's ``_publish_msgstr``), answered from ``store`` where a message's
    nodes are kept; ``seen`` is shown every parsed message."""

    def publish_kept(source: str, source_path: str, source_line: int, **kw: Any) -> Any:
        patch = _publish_kept(source, source_path, source_line, **kw)
        seen(patch)
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


def message_store(env: BuildEnvironment, *code: ModuleType) -> TextStore:
    """The store of parsed messages of this build's language, under a version naming the
    tools' versions, ``code`` (the modules parsing them) and the MyST configuration."""
    myst = sys.modules.get("myst_parser")
    config = sorted((o.name, repr(o.value)) for o in env.config if o.name.startswith("myst_"))
    version = repr(
        (
            sphinx.__version__,
            docutils.__version__,
            getattr(myst, "__version__", None),
            code_digest(sys.modules[__name__], *code),
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


def _detached(patch: nodes.Element) -> nodes.Element:
    """A copy of ``patch`` with no parent and no reference to the throwaway document."""
    copied = patch.deepcopy()
    for node in copied.findall():
        node._document = None  # type: ignore[attr-defined]
    return copied


class _WarningCount(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
