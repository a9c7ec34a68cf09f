"""Catalog presence and syntax, checked before a translated build reads its pages, and
catalog edits noticed by content.

Sphinx silently falls back to English when a page's catalog is missing and reports a broken
catalog in terms of its compiled ``.mo`` file. A translated build here warns (and fails under
``-W``) naming the ``.po`` file and line, so one language's broken catalog fails that
language's build with a clear message.

Sphinx re-reads a page when the ``.mo`` compiled from its catalog is newer than the page's
last reading, comparing a file's modification time with the building process's clock. Where
the file system keeps another clock (a share mounted from a host or a virtual machine), an
edited catalog can look older than the page, and the edit would not show.
:func:`outdate_pages_with_edited_catalogs` compares a digest of each ``.po`` file with the
one recorded when its page was last read, and compiles the edited catalog again, so an edit
is seen whatever the clocks say.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import babel
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.i18n import CatalogInfo

from checker.sphinx.state import build_state
from checker.sphinx.text_store import code_digest, text_store
from checker.sphinx.warnings_ import CheckerWarnings, warn
from checker.text import po, po_entries, po_header, po_lexer
from checker.text.po import ProblemKind, parse_catalog


def setup_catalogs(app: Sphinx) -> None:
    app.connect("env-get-outdated", outdate_pages_with_edited_catalogs)
    app.connect("env-before-read-docs", check_catalogs)
    app.connect("env-before-read-docs", record_catalog_digests)


def catalog_path(locale_dir: Path, lang: str, docname: str) -> Path:
    return locale_dir / lang / "LC_MESSAGES" / f"{docname}.po"


def _translated(app: Sphinx) -> bool:
    return (app.config.language or "en") != "en" and app.builder.name != "gettext"


def _locale_dirs(app: Sphinx) -> list[Path]:
    return [Path(app.srcdir, d).resolve() for d in app.config.locale_dirs]


def _catalog(app: Sphinx, docname: str) -> Path | None:
    """The page's catalog: the first locale folder that has one."""
    paths = (catalog_path(d, app.config.language, docname) for d in _locale_dirs(app))
    return next((p for p in paths if p.is_file()), None)


def catalog_digest(app: Sphinx, docname: str) -> str | None:
    """SHA-256 of the page's catalog, ``None`` where it has none."""
    path = _catalog(app, docname)
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest() if path else None
    except OSError:
        return None


def outdate_pages_with_edited_catalogs(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Pages read before whose catalog's content changed since (see the module's text)."""
    if not _translated(app):
        return []
    recorded = build_state(env).catalog_digests
    edited = sorted(
        d
        for d in env.found_docs - added - changed - removed
        if d in recorded and recorded[d] != catalog_digest(app, d)
    )
    for docname in edited:  # Sphinx compiled it only if the clocks said it was newer
        path = _catalog(app, docname)
        if path is not None:
            info = CatalogInfo(path.parent, path.stem, app.config.source_encoding)
            info.write_mo(app.config.language, app.config.gettext_allow_fuzzy_translations)
    return edited


def record_catalog_digests(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """The catalog each page about to be read is translated from."""
    if _translated(app):
        recorded = build_state(env).catalog_digests
        for gone in set(recorded) - env.found_docs:
            del recorded[gone]
        recorded.update({d: catalog_digest(app, d) for d in docnames})


def check_catalogs(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    if not _translated(app):
        return
    lang = app.config.language
    locale_dirs = _locale_dirs(app)
    for docname in sorted(env.found_docs):
        paths = [catalog_path(d, lang, docname) for d in locale_dirs]
        existing = [p for p in paths if p.is_file()]
        if not existing:
            warn(
                CheckerWarnings.CATALOG,
                f"no {lang} catalog for page {docname!r}: expected {paths[0]}; run "
                f"'nox -s i18n' and translate it",
                (docname, 1),
            )
            continue
        problem = _known_readable(app, existing[0])
        if problem:
            warn(CheckerWarnings.CATALOG, problem)


def _known_readable(app: Sphinx, path: Path) -> str | None:
    """:func:`catalog_problem`, remembered for a catalog found readable (by its content, in
    the text store); a problem is found again every build."""
    try:
        raw = path.read_bytes()
    except OSError:
        return catalog_problem(path)
    key = (str(path), hashlib.sha256(raw).hexdigest())
    code = code_digest(sys.modules[__name__], po, po_entries, po_header, po_lexer)
    version = f"{babel.__version__}:{code}"  # the reader asks Babel for locales' plural forms
    store = text_store(Path(app.confdir), app.config.language, "readable-catalogs", version)
    if store.get(key):
        return None
    problem = _problem(path, raw)
    if problem is None:
        store.put(key, True)
    return problem


def catalog_problem(path: Path) -> str | None:
    """A message naming the file and line if ``path`` is not a readable catalog."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return f"{path}: cannot read catalog: {exc}"
    return _problem(path, raw)


def _problem(path: Path, raw: bytes) -> str | None:
    if b"\0" in raw[:4096]:
        return f"{path}:1: binary data, not a .po catalog"
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return f"{path}:{line}: not valid UTF-8 ({exc.reason})"
    # the one reader, as strict as Babel (which Sphinx compiles the catalog with): a header
    # that declares another charset (Shift_JIS, EUC-KR) over UTF-8 bytes first, on its line
    fatal = sorted(
        (p for p in parse_catalog(raw, path).problems if p.fatal),
        key=lambda p: (p.kind is not ProblemKind.ENCODING, p.line),
    )
    if not fatal:
        return None
    first = fatal[0]
    if first.kind is ProblemKind.ENCODING:
        return f"{path}:{first.line}: {first.message}"
    return f"{path}:{first.line}: malformed catalog: {first.message}"
