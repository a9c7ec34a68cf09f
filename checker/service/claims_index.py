"""The claims index the service shows (``/claims``, ``/api/claims``): every claim with its
latest verdicts and where they were measured, read from the committed evidence: the CPU
outcome under the newest torch release measured (``docs/_evidence/versions.json``) and the
evidence recorded on a GPU (``docs/_evidence/cuda.json``). Nothing is run here."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from checker import record as record_mod
from checker import registry as registry_mod
from checker import versions as versions_mod
from checker.text.links import anchor
from checker.text.sites import claim_sites


def _status(expect: str, outcome: str | None) -> str:
    """``confirmed`` (``myth-refuted`` for a myth the probe found false), ``contradicted``,
    ``not-run`` (a claim not run on that device: never a red error), or ``error``."""
    if outcome is None or outcome == "not-run":
        return "not-run"
    if outcome not in ("holds", "fails"):
        return "error"
    if outcome != expect:
        return "contradicted"
    return "myth-refuted" if expect == "fails" else "confirmed"


def claims_index(root: Path) -> list[dict[str, Any]]:
    stamps = tuple(
        p.stat().st_mtime_ns if p.exists() else 0
        for p in (root / versions_mod.VERSIONS_PATH, record_mod.path_for(root, "cuda"))
    )
    return _index(root, stamps)


@functools.lru_cache(maxsize=4)
def _index(root: Path, _stamps: tuple[int, ...]) -> list[dict[str, Any]]:
    registry = registry_mod.load()
    versions = versions_mod.load(root / versions_mod.VERSIONS_PATH)
    cuda = record_mod.load(record_mod.path_for(root, "cuda"))
    sites = claim_sites(root / "docs")
    found = []
    for claim in registry.claims:
        expect = claim.expect.value
        verdicts = []
        if versions is not None and claim.id in versions.claims:
            outcomes = versions.claims[claim.id]
            release = versions.releases[-1]
            outcome = outcomes.get(release)
            verdicts.append(
                {
                    "device": "cpu",
                    "on": f"CPU, torch {release}",
                    "outcome": outcome,
                    "status": _status(expect, outcome),
                    "measured_at": versions.measured_at[:10],
                    # why a CPU verdict was not run: the claim is about CUDA only, or its
                    # probe cannot measure its case on the CPU
                    "cuda_only": "cpu" not in claim.devices,
                }
            )
        evidence = cuda.evidence.get(claim.id) if cuda is not None else None
        if evidence is not None:
            outcome = "holds" if evidence.observation.holds else "fails"
            verdicts.append(
                {
                    "device": "cuda",
                    "on": f"{evidence.device_name}, torch {evidence.torch_version}",
                    "outcome": outcome,
                    "status": _status(expect, outcome),
                    "measured_at": evidence.measured_at[:10],
                }
            )
        page = sites.get(claim.id)
        found.append(
            {
                "id": claim.id,
                "statement": claim.statement,
                "expect": expect,
                "page": f"{page[0].docname}.html#{anchor(claim.id)}" if page else None,
                "verdicts": verdicts,
            }
        )
    return found
