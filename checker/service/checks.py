"""The work of a job, in a worker: the scanner (:func:`checker.scan.run.scan`, as ``python -m
checker scan`` calls it) for an article, the translation gate (:func:`checker.i18n.run.check`)
for a catalog. Submitted content is written under a name the service chose, in a throw-away
folder; submitted code runs only in the scanner's sandbox, and only when the job says so (an
authenticated submission that asked for it)."""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from checker import registry as registry_mod
from checker.scan.sandbox import SnippetLimits
from checker.service.config import ServiceConfig
from checker.service.preview import PreviewFailed, build_preview
from checker.service.store import ServiceJob

#: Reports a job's progress: ``(stage, done, total)``.
Progress = Callable[[str, int, int], None]

#: Where the service serves the built site; links in findings point there.
DOCS_URL = "/docs"
_OCCURRENCE_PAGE = re.compile(r"(?:^|/)docs/(.+)\.md$")


class CheckFailed(Exception):
    """The job cannot be checked; the message says why (shown to the submitter)."""


@functools.cache
def _registry() -> registry_mod.Registry:
    return registry_mod.load()


def run(job: ServiceJob, config: ServiceConfig, progress: Progress) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="checker-service-"))
    try:
        if job.kind == "scan":
            return scan_article(job, config, progress, folder)
        if job.kind == "translation":
            return check_translation(job, config, progress, folder)
        raise CheckFailed(f"unknown kind of job {job.kind!r}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def uses_cuda(job: ServiceJob) -> bool:
    """Whether a check runs code that asks for CUDA: the work a GPU worker is for."""
    from checker.scan.document import ReadError
    from checker.scan.readers import read_bytes
    from checker.scan.run import _prepare
    from checker.scan.snippets import uses_cuda as snippet_uses_cuda

    if job.kind != "scan" or not job.run_code:
        return False
    try:
        document = read_bytes(Path(f"article{job.suffix}"), job.content.encode("utf-8"))
    except ReadError:
        return False
    return any(
        p.program is not None and snippet_uses_cuda(p.program.source) for p in _prepare(document)
    )


def snippet_count(name: str, text: str) -> int:
    """How many code snippets of an article the scanner would run."""
    from checker.scan.document import ReadError
    from checker.scan.readers import read_bytes
    from checker.scan.run import _prepare

    try:
        document = read_bytes(Path(name), text.encode("utf-8"))
    except ReadError:
        return 0  # the scan says why
    return sum(1 for p in _prepare(document) if p.program is not None)


def scan_article(
    job: ServiceJob, config: ServiceConfig, progress: Progress, folder: Path
) -> dict[str, Any]:
    from checker.scan.report import render_json
    from checker.scan.run import ScanOptions, scan

    path = folder / f"article{job.suffix}"
    path.write_text(job.content, encoding="utf-8")
    total = snippet_count(path.name, job.content) if job.run_code else 0
    progress("scanning", 0, total)
    limits = SnippetLimits(
        timeout_s=config.snippet_timeout_s,
        memory_bytes=int(config.snippet_memory_gib * 1024**3),
    )
    options = ScanOptions(
        lang=job.lang,
        limits=limits,  # the scan makes a jail of its own for this job, and removes it
        run_code=job.run_code,
        project_root=config.root,
        base_url=DOCS_URL,
        progress=lambda _path, done, count: progress("running", done, count),
    )
    result = scan([path], _registry(), options)
    progress("judged", total, total)
    document = json.loads(render_json(result))
    for item in (*document["findings"], *document["summary"]["errors"]):
        item["path"] = job.name
    return dict(document)


def check_translation(
    job: ServiceJob, config: ServiceConfig, progress: Progress, folder: Path
) -> dict[str, Any]:
    from checker.i18n.report import render_json
    from checker.i18n.run import I18nOptions, check
    from checker.i18n.sources import page_names, read_templates
    from checker.text.po import parse_catalog

    docs = config.root / "docs"
    pages = page_names(docs)
    catalog = parse_catalog(job.content.encode("utf-8"), Path("catalog.po"), job.lang)
    gettext = config.root / "_build" / "gettext"
    templates = read_templates(gettext) if gettext.is_dir() else None
    page = page_of(
        [o for e in catalog.entries for o in e.occurrences],
        [e.msgid for e in catalog.entries],
        pages,
        templates.messages if templates else {},
    ) or page_with_text([e.msgid for e in catalog.entries], docs, pages)
    if page is None:
        raise CheckFailed(
            "cannot tell which page this catalog translates: its messages have no "
            "'#: ../../docs/PAGE.md' references and none is the English of a page"
        )
    progress("checking", 0, len(catalog.entries))
    locales = folder / "locales"
    target = locales / job.lang / "LC_MESSAGES" / f"{page}.po"  # page: one of ours
    target.parent.mkdir(parents=True)
    target.write_text(job.content, encoding="utf-8")
    options = I18nOptions.project(
        config.root,
        locales=locales,
        langs=(job.lang,),
        # Judged against the catalogs' own English, whatever templates a local build left in
        # _build/gettext (they may be stale, and a pasted message is not a whole catalog):
        # the same submission gets the same findings on every server.
        templates=None,
        reuse_templates=None,
        build_templates=False,
        # a changed claim statement is approved by a reviewer in the pull request, not here:
        # the preview shows it (the other claim checks still refuse a flipped statement)
        approvals=None,
    )
    result = check(dataclasses.replace(options, root=folder))
    document = json.loads(render_json(result))
    document["page"] = page
    document["findings"] = [
        {**f, "path": job.name} for f in document["findings"] if f["page"] in (page, "")
    ]
    errors = sum(1 for f in document["findings"] if f["severity"] == "error")
    warnings = len(document["findings"]) - errors
    document["summary"] = {"errors": errors, "warnings": warnings}
    document["catalogs"] = 1  # the one submitted
    document["languages"] = {
        lang: _page_counts(found, page, [f for f in document["findings"] if f["lang"] == lang])
        for lang, found in document["languages"].items()
    }
    document["preview"] = None
    if config.preview and errors == 0:  # a refused catalog is never built
        progress("previewing", len(catalog.entries), len(catalog.entries))
        try:
            build_preview(
                config, job.id, lang=job.lang, page=page, submitted=job.content, folder=folder
            )
            document["preview"] = f"/results/{job.id}/preview/{page}.html"
        except PreviewFailed as exc:
            document["preview_error"] = str(exc)
    progress("checked", len(catalog.entries), len(catalog.entries))
    return dict(document)


def _page_counts(
    found: dict[str, Any], page: str, findings: list[dict[str, Any]]
) -> dict[str, Any]:
    """A language's counts for the one page checked: its coverage and its findings (the
    gate's own counts are of every page and generated catalog of the language)."""
    coverage = found["pages"].get(page) or {"translated": 0, "total": 0}
    total = int(coverage["total"])
    errors = sum(1 for f in findings if f["severity"] == "error")
    return {
        "translated": coverage["translated"],
        "total": total,
        "percent": round(100.0 * coverage["translated"] / total, 1) if total else 100.0,
        "errors": errors,
        "warnings": len(findings) - errors,
        "pages": {page: found["pages"].get(page)},
    }


def page_with_text(msgids: list[str], docs: Path, pages: tuple[str, ...]) -> str | None:
    """The page whose English source holds the first message (whitespace aside): how a pasted
    message finds its page where no templates were built."""
    for msgid in msgids:
        wanted = " ".join(msgid.split())
        if len(wanted) < 12:  # too short to name one page
            continue
        for page in pages:
            source = " ".join((docs / f"{page}.md").read_text(encoding="utf-8").split())
            if wanted in source:
                return page
    return None


def page_of(
    occurrences: list[tuple[str, int]],
    msgids: list[str],
    pages: tuple[str, ...],
    templates: dict[str, Any],
) -> str | None:
    """The page a catalog translates: the one its ``#:`` references name most, else the one
    whose template holds its first message; always one of ``pages`` (never a submitted path)."""
    named = Counter(
        m[1] for path, _ in occurrences if (m := _OCCURRENCE_PAGE.search(path)) is not None
    )
    for candidate, _ in named.most_common():
        if candidate in pages:
            return candidate
    for msgid in msgids:
        for page, messages in templates.items():
            if page in pages and any(key[1] == msgid for key in messages):
                return str(page)
    return None
