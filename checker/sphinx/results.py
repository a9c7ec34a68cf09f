"""The verdicts a build shows: computed once per build, before any page is read.

Probes run through the same :class:`~checker.runner.Runner` and cache as ``python -m checker
verify``, so the second and third language builds are answered from the cache. Devices
absent from the build machine are shown from recorded evidence.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from pathlib import Path

from sphinx.application import Sphinx

from checker import record, registry
from checker.cache import Cache
from checker.evidence import Evidence, Value
from checker.registry import Registry, RegistryError
from checker.runner import Runner
from checker.sphinx.config import get_config
from checker.sphinx.warnings_ import CheckerWarnings, warn
from checker.typing import Device
from checker.verdict import Verdict

#: Builders that only extract text, and need no verdicts.
_TEXT_ONLY_BUILDERS = frozenset({"gettext", "dummy"})


@dataclass
class Results:
    """Every verdict of this build, by claim id and device."""

    registry: Registry
    verdicts: dict[tuple[str, str], Verdict] = field(default_factory=dict)
    devices: tuple[str, ...] = ()
    #: False when the claim modules could not be loaded; pages then skip claim checks.
    loaded: bool = True
    built_at: str = field(
        default_factory=lambda: datetime.datetime.now(datetime.UTC).date().isoformat())

    def verdict(self, claim_id: str, device: str) -> Verdict | None:
        return self.verdicts.get((claim_id, device))

    def value(self, key: str, device: str | None = None) -> tuple[Value, Evidence] | None:
        """The value measured under ``key`` on ``device`` (default: the first with a value)."""
        claim = self.registry.by_measurement(key)
        if claim is None:
            return None
        for dev in (device,) if device else self.devices:
            verdict = self.verdicts.get((claim.id, dev))
            if verdict is not None and verdict.evidence is not None:
                return verdict.evidence.observation.value(key), verdict.evidence
        return None


_RESULTS: dict[int, Results] = {}


def setup_results(app: Sphinx) -> None:
    app.connect("builder-inited", compute_results)


def results_for(app: Sphinx) -> Results:
    """The results of this build (empty for text-only builders such as gettext)."""
    found = _RESULTS.get(id(app))
    if found is None:
        found = _RESULTS[id(app)] = Results(registry=_load_registry(app) or Registry(()))
    return found


def compute_results(app: Sphinx) -> None:
    config = get_config(app)
    loaded = _load_registry(app)
    results = Results(registry=loaded or Registry(()), loaded=loaded is not None,
                      devices=tuple(config.devices))
    _RESULTS[id(app)] = results
    if loaded is None or app.builder.name in _TEXT_ONLY_BUILDERS:
        return
    root = Path(app.confdir)
    runner = Runner(loaded, cache=Cache.default(root), recorded=_recorded(root, config))
    devices: list[Device] = [d for d in ("cpu", "cuda") if d in config.devices]
    for verdict in runner.run(loaded.claims, devices):
        results.verdicts[(verdict.claim.id, verdict.device)] = verdict


def _load_registry(app: Sphinx) -> Registry | None:
    try:
        config = get_config(app)
        return registry.load(config.claim_modules, package=config.claim_package or None)
    except RegistryError as exc:
        warn(CheckerWarnings.REGISTRY, str(exc))
        return None


def _recorded(root: Path, config: object) -> dict[str, record.Record]:
    found = {}
    evidence_dir = root / getattr(config, "evidence_dir", "docs/_evidence")
    for device in ("cpu", "cuda"):
        path = evidence_dir / f"{device}.json"
        try:
            loaded = record.load(path)
        except record.RecordError as exc:
            warn(CheckerWarnings.EVIDENCE_FILE, str(exc), location=str(path))
            continue
        if loaded is not None:
            found[device] = loaded
    return found
