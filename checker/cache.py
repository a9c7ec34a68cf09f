"""A cache of evidence keyed by (claim, probe source hash, torch version, device).

A re-run with nothing changed is answered from here without starting a worker or importing
torch. Decided evidence is cached, and so is a probe's own "not applicable here" (its reason),
under a key that also says whether CUDA is present (what such a reason usually depends on);
errors are always re-run.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from checker.evidence import Evidence

#: Environment variable that moves the cache; ``off`` disables it.
ENV_VAR = "CHECKER_CACHE_DIR"
#: How probes are run, part of every key: evidence measured under another harness (before
#: probes ran on one thread, see :func:`checker.worker.run_probe`) is measured again.
HARNESS = "one-thread"


@dataclass(frozen=True)
class Cache:
    """Evidence stored as one JSON file per key under :attr:`root`."""

    root: Path

    @classmethod
    def default(cls, project_root: Path) -> Cache | None:
        configured = os.environ.get(ENV_VAR)
        if configured == "off":
            return None
        return cls(Path(configured) if configured else project_root / ".checker-cache")

    @staticmethod
    def key(claim_id: str, probe_hash: str, torch_version: str, device: str) -> str:
        raw = "\0".join((claim_id, probe_hash, torch_version, device, HARNESS))
        return hashlib.sha256(raw.encode()).hexdigest()[:32]

    def get(self, key: str) -> Evidence | None:
        try:
            data = json.loads((self.root / f"{key}.json").read_text(encoding="utf-8"))
            return Evidence.from_dict(data, origin="cache")
        except (OSError, ValueError):
            return None  # a missing or damaged entry is simply a miss

    def put(self, key: str, evidence: Evidence) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        target = self.root / f"{key}.json"
        tmp = target.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(evidence.to_dict(), sort_keys=True), encoding="utf-8")
        tmp.replace(target)  # atomic: concurrent builds never see half a file

    def get_not_run(self, key: str) -> str | None:
        """The reason a probe gave for not measuring, stored under ``key``, or None."""
        try:
            data = json.loads((self.root / f"{key}.not-run.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        reason = data.get("not_run") if isinstance(data, dict) else None
        return reason if isinstance(reason, str) else None

    def put_not_run(self, key: str, reason: str) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        target = self.root / f"{key}.not-run.json"
        tmp = target.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"not_run": reason}), encoding="utf-8")
        tmp.replace(target)
