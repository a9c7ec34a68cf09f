"""Which snippets the committed CUDA run executed, and which are newer than it.

A GPU machine runs the docs with ``--doc-record docs/_evidence/doctest-cuda.json``: the file
holds the run's counts, where and when it ran, and, per page, a digest of each snippet that
passed on CUDA. A snippet whose digest is not there was written (or changed) after that run:
it has run on the CPU only, and the pages say so beside it (:mod:`checker.sphinx.cuda_runs`).

A digest covers the page's path below ``docs/`` and the snippet's source (code and expected
output), so an edited snippet needs a new GPU run, and an unchanged one moved on its page does
not.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from checker.text.pages import Page, Snippet

#: Hex digits kept of a snippet's SHA-256: enough to tell a page's snippets apart.
DIGEST_LENGTH = 16


class CudaRecordError(Exception):
    """The record cannot be read; the message names the file."""


@dataclass(frozen=True)
class CudaRecord:
    """One recorded CUDA run of the docs."""

    device_name: str
    torch: str
    measured_at: str
    passed: int
    failed: int
    skipped: int
    #: page path below ``docs/`` -> digests of the snippets that passed on CUDA.
    ran: dict[str, frozenset[str]]

    @property
    def date(self) -> str:
        return self.measured_at[:10]

    def ran_snippet(self, page: str, snippet: Snippet) -> bool:
        return snippet_digest(page, snippet) in self.ran.get(page, frozenset())


def docs_path(path: Path) -> str:
    """``topics/amp.md`` for ``.../docs/topics/amp.md`` (the path below the last ``docs``)."""
    parts = path.parts
    if "docs" not in parts:
        return path.as_posix()
    below = parts[len(parts) - parts[::-1].index("docs") :]
    return "/".join(below)


def snippet_digest(page: str, snippet: Snippet) -> str:
    digest = hashlib.sha256(page.encode() + b"\0" + snippet.source.encode())
    return digest.hexdigest()[:DIGEST_LENGTH]


def not_run_on_cuda(page: Page, record: CudaRecord | None) -> list[Snippet]:
    """The snippets of a device-aware page that the record does not show as passed on CUDA."""
    if not page.device_aware:
        return []
    name = docs_path(page.path)
    return [s for s in page.snippets if record is None or not record.ran_snippet(name, s)]


def load(path: Path) -> CudaRecord | None:
    """The record at ``path``; ``None`` if there is none."""
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        counts = data["snippets"]["cuda"]
        ran = {
            str(page): frozenset(str(d) for d in digests)
            for page, digests in dict(data.get("ran", {})).items()
        }
        return CudaRecord(
            device_name=str(data["device_name"]),
            torch=str(data["torch"]),
            measured_at=str(data["measured_at"]),
            passed=int(counts["passed"]),
            failed=int(counts["failed"]),
            skipped=int(counts["skipped"]),
            ran=ran,
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise CudaRecordError(f"{path}: not a CUDA doctest record ({exc!r})") from exc
