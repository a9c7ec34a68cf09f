"""Catalog presence and syntax, checked before a translated build reads its pages.

Sphinx silently falls back to English when a page's catalog is missing and reports a broken
catalog in terms of its compiled ``.mo`` file. A translated build here warns (and fails under
``-W``) naming the ``.po`` file and line, so one language's broken catalog fails that
language's build with a clear message.
"""

from __future__ import annotations

import io
from pathlib import Path

import polib
from babel.messages.pofile import PoFileError, read_po
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from checker.i18n.catalog import parse_catalog
from checker.i18n.findings import Check
from checker.sphinx.warnings_ import CheckerWarnings, warn


def setup_catalogs(app: Sphinx) -> None:
    app.connect("env-before-read-docs", check_catalogs)


def catalog_path(locale_dir: Path, lang: str, docname: str) -> Path:
    return locale_dir / lang / "LC_MESSAGES" / f"{docname}.po"


def check_catalogs(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    lang = app.config.language or "en"
    if lang == "en" or app.builder.name == "gettext":
        return
    locale_dirs = [Path(app.srcdir, d).resolve() for d in app.config.locale_dirs]
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
        problem = catalog_problem(existing[0])
        if problem:
            warn(CheckerWarnings.CATALOG, problem)


def catalog_problem(path: Path) -> str | None:  # noqa: PLR0911  one problem per return
    """A message naming the file and line if ``path`` is not a readable catalog."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return f"{path}: cannot read catalog: {exc}"
    if b"\0" in raw[:4096]:
        return f"{path}:1: binary data, not a .po catalog"
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return f"{path}:{line}: not valid UTF-8 ({exc.reason})"
    # the strict reader first: it names the line of a header that declares another charset
    # (Shift_JIS, EUC-KR) over UTF-8 bytes, which Babel fails on with a bare decoding error
    fatal = [p for p in parse_catalog(raw, path).problems if p.check is Check.ENCODING]
    if fatal:
        return f"{path}:{fatal[0].line}: {fatal[0].message}"
    try:
        read_po(io.BytesIO(raw), abort_invalid=True)
    except PoFileError as exc:
        return f"{path}:{exc.lineno}: malformed catalog: {exc}"
    except (ValueError, LookupError) as exc:
        return f"{path}:1: Babel cannot read the catalog: {exc}"
    try:
        polib.pofile(raw.decode("utf-8"), encoding="utf-8")
    except (OSError, ValueError) as exc:
        return f"{path}: malformed catalog: {exc}"
    return None
