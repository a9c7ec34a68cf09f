"""Recorded evidence: results measured on another machine (a GPU runner), committed to the repo.

``python -m checker record --device cuda`` writes ``docs/_evidence/cuda.json``; builds and
``verify`` runs on machines without that device show the recorded verdicts with their date,
device and torch version, and mark them stale when the probe's source has changed since.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from checker.evidence import Evidence

#: Version of the file format; readers refuse other versions.
SCHEMA = 1

#: Where evidence files live, relative to the project root.
EVIDENCE_DIR = Path("docs") / "_evidence"


class RecordError(Exception):
    """An evidence file cannot be read. The message names the file (and line)."""


@dataclass(frozen=True)
class DeviceRecord:
    """The evidence recorded on one device."""

    path: Path
    device: str
    device_name: str
    torch_version: str
    recorded_at: str
    evidence: Mapping[str, Evidence]

    @property
    def date(self) -> str:
        return self.recorded_at[:10]


def path_for(project_root: Path, device: str) -> Path:
    return project_root / EVIDENCE_DIR / f"{device}.json"


def load(path: Path) -> DeviceRecord | None:
    """Read an evidence file; ``None`` if there is none, :class:`RecordError` if it is broken."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path}: cannot read evidence file: {exc}") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}:{exc.lineno}: not valid JSON: {exc.msg}") from exc
    try:
        return _parse(path, data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RecordError(f"{path}: malformed evidence file: {exc}") from exc


def _parse(path: Path, data: Any) -> DeviceRecord:
    if not isinstance(data, dict):
        raise ValueError("top level must be an object")
    if data.get("schema") != SCHEMA:
        raise ValueError(f"schema {data.get('schema')!r} is not {SCHEMA}")
    evidence = {}
    for claim_id, entry in data["claims"].items():
        item = Evidence.from_dict(entry, origin="recorded")
        if item.claim_id != claim_id:
            raise ValueError(f"entry {claim_id!r} holds evidence for {item.claim_id!r}")
        evidence[claim_id] = item
    return DeviceRecord(
        path=path,
        device=str(data["device"]),
        device_name=str(data["device_name"]),
        torch_version=str(data["torch_version"]),
        recorded_at=str(data["recorded_at"]),
        evidence=evidence,
    )


def write(path: Path, device: str, evidence: Iterable[Evidence]) -> DeviceRecord:
    """Write decided evidence for ``device`` to ``path``, replacing the file atomically."""
    items = sorted(evidence, key=lambda e: e.claim_id)
    if not items:
        raise RecordError(f"{path}: nothing to record for {device}")
    first = items[0]
    recorded_at = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    data = {
        "schema": SCHEMA,
        "device": device,
        "device_name": first.device_name,
        "torch_version": first.torch_version,
        "recorded_at": recorded_at,
        "claims": {e.claim_id: e.to_dict() for e in items},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(
        json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    tmp.replace(path)
    return DeviceRecord(
        path,
        device,
        first.device_name,
        first.torch_version,
        recorded_at,
        {e.claim_id: e for e in items},
    )
