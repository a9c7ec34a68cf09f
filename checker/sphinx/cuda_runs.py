"""Marks the examples a reader cannot assume ran on CUDA.

Every example runs on the CPU with each ``nox`` run; examples of pages that use ``device`` run
on CUDA too, but only where a GPU is, and the run a GPU machine committed
(``docs/_evidence/doctest-cuda.json``, see :mod:`checker.doctest.cuda_record`) names the
examples it executed. :class:`CudaRunHtmlTransform` (HTML only, so gettext and other builders
see the page's own text) adds a line under:

- an example of such a page that the record does not name: it has run on the CPU only;
- a CUDA-only example: where it was checked, or that it was not checked yet.

When the record changes, the pages that use ``device`` are read again, so their marks follow.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms.post_transforms import SphinxPostTransform

from checker.doctest import cuda_record
from checker.sphinx.config import get_config
from checker.sphinx.results import results_for
from checker.sphinx.state import build_state
from checker.sphinx.ui_text import text
from checker.sphinx.warnings_ import CheckerWarnings, warn
from checker.text.pages import Page, PageError, Snippet, parse_page

#: The record's name in the evidence folder.
RECORD = "doctest-cuda.json"


def setup_cuda_runs(app: Sphinx) -> None:
    app.add_post_transform(CudaRunHtmlTransform)
    app.connect("env-get-outdated", outdate_pages_when_the_record_changes)


class CudaRunHtmlTransform(SphinxPostTransform):
    """A line under each example that has not run on CUDA, and under each CUDA-only one."""

    default_priority = 210
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        page = _page(self.env, self.env.docname)
        if page is None or not page.device_aware:
            return
        try:
            evidence_dir = self.config.checker_evidence_dir
            record = cuda_record.load(record_path(results_for(self.env).confdir, evidence_dir))
        except cuda_record.CudaRecordError as exc:
            warn(CheckerWarnings.EVIDENCE_FILE, str(exc))
            record = None
        lang = self.config.language or "en"
        pending = {s.source.rstrip("\n") for s in cuda_record.not_run_on_cuda(page, record)}
        cuda_only = {s.source.rstrip("\n"): s for s in page.snippets if s.cuda_only}
        for block in list(self.document.findall(nodes.literal_block)):
            if block.get("language") != "pycon":
                continue
            source = block.astext().rstrip("\n")
            if source in pending or source in cuda_only:
                line = _line(cuda_only.get(source), source in pending, record, lang)
                parent = block.parent
                parent.insert(parent.index(block) + 1, line)


def _line(
    cuda_only: Snippet | None, pending: bool, record: cuda_record.CudaRecord | None, lang: str
) -> nodes.container:
    """The words under one example."""
    kind = "checker-cuda-pending" if pending else "checker-cuda-checked"
    key = ("cuda-pending" if cuda_only is None else "cuda-only-pending") if pending else ""
    if record is None:
        words = text(lang, key)
    else:
        run = {"device": record.device_name, "torch": record.torch, "date": record.date}
        words = text(lang, f"{key}-since", **run) if key else text(lang, "cuda-only-ran", **run)
    container = nodes.container(classes=["checker-cuda-run", kind])
    container += nodes.paragraph(text=words)
    return container


def outdate_pages_when_the_record_changes(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    path = record_path(Path(app.confdir), get_config(app).evidence_dir)
    fingerprint = hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else ""
    state = build_state(env)
    previous, state.cuda_record_fingerprint = state.cuda_record_fingerprint, fingerprint
    if previous == fingerprint:
        return []
    aware = []
    for docname in sorted(env.found_docs - removed - added):
        page = _page(env, docname)
        if page is not None and page.device_aware:
            aware.append(docname)
    return aware


def record_path(confdir: Path, evidence_dir: str) -> Path:
    return confdir / evidence_dir / RECORD


def _page(env: BuildEnvironment, docname: str) -> Page | None:
    path = Path(env.doc2path(docname))
    if path.suffix != ".md":
        return None
    try:
        return parse_page(path)
    except PageError:
        return None  # reported with file and line by the doctest session
