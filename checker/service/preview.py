"""The preview of a translated page: the site built in the catalog's language with the
submitted translations, in a throw-away folder, never in the served site.

The page's current catalog is copied and each of its messages that the submission translates
(a whole catalog or one pasted message) takes the submitted translation; every other page
keeps the project's catalog. Sphinx builds the language from the project's sources with
``locale_dirs`` pointing at the copy, in a child process with a time limit, as any build of
the site does: the extension's safety transforms refuse unsafe translations there as well
(the gate refuses them before: a catalog with errors gets no preview). The one page built is
kept under the service's data folder, in a folder named by the job (nothing submitted names
a path), and removed with the job's result when it expires (:func:`prune`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from checker.service.config import ServiceConfig
from checker.text.po import parse_catalog
from checker.text.po_write import replace_translations

#: Seconds a preview build may take.
BUILD_TIMEOUT_S = 600


class PreviewFailed(Exception):
    """The preview could not be built; the message says why."""


def previews_dir(config: ServiceConfig) -> Path:
    return config.data_dir / "previews"


def preview_file(config: ServiceConfig, job_id: str) -> Path:
    """Where the built page of job ``job_id`` is kept (``job_id`` is the service's own)."""
    return previews_dir(config) / job_id / "page.html"


def merged_catalog(current: Path, submitted: str, lang: str) -> str:
    """The page's catalog with the submitted translations of its messages, every other line
    as it is (the submission is read by the one reader, never by one that would take text
    for a path)."""
    raw = current.read_bytes()
    catalog = parse_catalog(raw, current)
    given = parse_catalog(submitted.encode("utf-8"), Path("submitted.po"), lang)
    translations = {(e.msgctxt, e.msgid): e for e in given.entries if e.msgid and not e.obsolete}
    return replace_translations(raw.decode("utf-8"), catalog, translations)


def build_preview(
    config: ServiceConfig, job_id: str, *, lang: str, page: str, submitted: str, folder: Path
) -> Path:
    """Build ``page`` of the site in ``lang`` with the submitted translations; the kept file."""
    source = config.root / "locales" / lang
    current = source / "LC_MESSAGES" / f"{page}.po"
    if not current.is_file():
        raise PreviewFailed(f"the project has no {lang} catalog for {page}")
    locales = folder / "preview-locales"
    shutil.copytree(source, locales / lang, ignore=shutil.ignore_patterns("*.mo"))
    (locales / lang / "LC_MESSAGES" / f"{page}.po").write_text(
        merged_catalog(current, submitted, lang), encoding="utf-8"
    )
    out = folder / "preview-html"
    env = {
        **os.environ,
        "PYTHONPATH": str(config.root),
        "PYTHONDONTWRITEBYTECODE": "1",
        # its own store: submitted text never enters the project's (checker.sphinx.text_store)
        "CHECKER_TEXT_STORE": str(config.data_dir / "preview-store"),
    }
    command = [
        sys.executable,
        "-m",
        "sphinx",
        "-b",
        "html",
        "-q",
        "-c",
        str(config.root),
        "-D",
        f"language={lang}",
        "-D",
        f"locale_dirs={locales}",
        "-d",
        str(folder / "preview-doctrees"),
        str(config.root / "docs"),
        str(out),
    ]
    try:
        done = subprocess.run(
            command,
            env=env,
            cwd=folder,
            capture_output=True,
            timeout=BUILD_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise PreviewFailed(f"the build took more than {BUILD_TIMEOUT_S} s") from exc
    built = out / f"{page}.html"
    if done.returncode != 0 or not built.is_file():
        tail = done.stderr.decode("utf-8", errors="replace").strip().splitlines()[-3:]
        raise PreviewFailed(f"the build failed (exit {done.returncode}): {' / '.join(tail)}")
    kept = preview_file(config, job_id)
    kept.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(built, kept)
    return kept


def prune(config: ServiceConfig, live: set[str]) -> int:
    """Remove the previews of jobs no longer kept; how many."""
    folder = previews_dir(config)
    if not folder.is_dir():
        return 0
    removed = 0
    for child in folder.iterdir():
        if child.name not in live:
            shutil.rmtree(child, ignore_errors=True)
            removed += 1
    return removed
