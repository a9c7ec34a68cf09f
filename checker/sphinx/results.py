"""The verdicts a build shows: computed once per build, before any page is read.

Probes run through the same :class:`~checker.runner.Runner` and cache as ``python -m checker
verify``, so the second and third language builds are answered from the cache. Devices
absent from the build machine are shown from recorded evidence. The :class:`Results` of a
build are kept in its :class:`~checker.sphinx.state.BuildState` for that build only.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

try:
    import fcntl
except ImportError:  # not POSIX: builds side by side may each run the probes
    fcntl = None  # type: ignore[assignment]

from checker import record, registry, versions
from checker.cache import Cache
from checker.evidence import Evidence, Value
from checker.registry import Registry, RegistryError
from checker.runner import Runner
from checker.sphinx.config import get_config
from checker.sphinx.state import build_state
from checker.sphinx.warnings_ import CheckerWarnings, warn
from checker.typing import Device
from checker.verdict import Status, Verdict

#: Builders that only extract text, and need no verdicts.
_TEXT_ONLY_BUILDERS = frozenset({"gettext", "dummy"})


def setup_results(app: Sphinx) -> None:
    app.connect("builder-inited", compute_results)
    app.connect("build-finished", forget_results)


@dataclass
class Results:
    """Every verdict of this build, by claim id and device."""

    registry: Registry
    verdicts: dict[tuple[str, str], Verdict] = field(default_factory=dict)
    #: The builder of this build; post-transforms skip text-only builders such as gettext.
    builder: str = ""
    #: The configuration directory (the project root): where the glossary, evidence and
    #: caches are found. Transforms read it here rather than through ``.app``, which
    #: Sphinx 11 removes from transforms and the build environment.
    confdir: Path = field(default_factory=Path)
    devices: tuple[str, ...] = ()
    #: Devices of :attr:`devices` absent from the build machine, with the reason; their
    #: verdicts come from recorded evidence.
    absent: dict[str, str] = field(default_factory=dict)
    #: Outcomes across torch releases (``versions.json`` beside the recorded evidence).
    versions: versions.Versions | None = None
    #: False when the claim modules could not be loaded; pages then skip claim checks.
    loaded: bool = True
    built_at: str = field(
        default_factory=lambda: datetime.datetime.now(datetime.UTC).date().isoformat()
    )

    def verdict(self, claim_id: str, device: str) -> Verdict | None:
        return self.verdicts.get((claim_id, device))

    def value(self, key: str, device: str | None = None) -> tuple[Value, Evidence] | None:
        """The value measured under ``key`` on ``device``; by default on the first device of
        the build the claim is meant for (the CPU when it runs there), never another
        device's value in its place: a sentence about the CPU must not show a GPU's number."""
        claim = self.registry.by_measurement(key)
        if claim is None:
            return None
        verdict = self.verdicts.get((claim.id, device or self.default_device(key)))
        if verdict is None or verdict.evidence is None:
            return None
        try:
            return verdict.evidence.measurement(key).value, verdict.evidence
        except KeyError:  # recorded before the probe (or its control) measured it
            return None

    def default_device(self, key: str) -> str:
        """The device a ``measured`` value without ``@device`` is read on: the first device
        of the build that the measuring claim is meant for."""
        claim = self.registry.by_measurement(key)
        meant = [d for d in self.devices if claim is None or d in claim.devices]
        return (meant or list(self.devices) or ["cpu"])[0]

    def unmeasured(self, key: str, device: str | None = None) -> Verdict | None:
        """The verdict of the claim measuring ``key`` when it did not measure on a device of
        this machine: not run (a probe that cannot measure its case here, or that ran out of
        time on a busy machine) or broken (the build warns once for the claim). The page then
        says "not measured", with the verdict's reason. ``None`` otherwise: a value missing
        for another reason (an absent device's recording without it) is a warning of its own."""
        claim = self.registry.by_measurement(key)
        if claim is None:
            return None
        dev = device or self.default_device(key)
        verdict = self.verdicts.get((claim.id, dev))
        if verdict is None or dev in self.absent:
            return None
        if verdict.status not in (Status.NOT_RUN, Status.ERROR):
            return None
        return verdict

    def fingerprint(self) -> str:
        """A digest of everything a page can show from the results: each verdict and its
        evidence, the outcomes across releases, and the day of the build."""
        verdicts = [
            [claim_id, device, v.outcome.value, v.reason, v.stale]
            + ([] if v.evidence is None else [v.evidence.origin, v.evidence.to_dict()])
            for (claim_id, device), v in sorted(self.verdicts.items())
        ]
        raw = json.dumps(
            [verdicts, repr(self.versions), self.built_at, self.devices, self.loaded],
            sort_keys=True,
            default=str,
        )
        return hashlib.sha256(raw.encode()).hexdigest()


def compute_results(app: Sphinx) -> None:
    config = get_config(app)
    loaded = _load_registry(app)
    results = Results(
        registry=loaded or Registry(()),
        loaded=loaded is not None,
        devices=tuple(config.devices),
        builder=app.builder.name,
        confdir=Path(app.confdir),
    )
    build_state(app.env).results = results
    if loaded is None or app.builder.name in _TEXT_ONLY_BUILDERS:
        return
    root = Path(app.confdir)
    results.versions = _versions(root, config)
    cache = Cache.default(root)
    runner = Runner(
        loaded, cache=cache, recorded=_recorded(root, config), versions=results.versions
    )
    devices: list[Device] = [d for d in ("cpu", "cuda") if d in config.devices]
    try:
        with _probes_lock(cache):
            for verdict in runner.run(loaded.claims, devices):
                results.verdicts[(verdict.claim.id, verdict.device)] = verdict
        for device in devices:
            if not runner.presence(device).present:
                results.absent[device] = runner.presence(device).reason
    finally:
        runner.close()


def forget_results(app: Sphinx, exception: BaseException | None) -> None:
    build_state(app.env).results = None


def results_for(env: BuildEnvironment) -> Results:
    """The results of the build using ``env`` (no verdicts for text-only builders)."""
    found = build_state(env).results
    if found is None:
        raise RuntimeError("checker.sphinx results requested before builder-inited")
    return found


def shows_results(env: BuildEnvironment) -> bool:
    """Whether this build renders verdicts and values (not gettext and other text-only)."""
    return results_for(env).builder not in _TEXT_ONLY_BUILDERS


def mark_dynamic(env: BuildEnvironment) -> None:
    """Note that the page being read shows measured results, so it is rebuilt every time."""
    build_state(env).dynamic_pages.add(env.docname)


@contextmanager
def _probes_lock(cache: Cache | None) -> Iterator[None]:
    """One build at a time runs probes: language builds started side by side (``nox``) wait
    here while the first fills the cache, then read every result from it, so each probe runs
    once, not once per language (and no two probes compete for the CPU while measuring)."""
    if cache is None or fcntl is None:
        yield
        return
    cache.root.mkdir(parents=True, exist_ok=True)
    with open(cache.root / "probes.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _load_registry(app: Sphinx) -> Registry | None:
    try:
        config = get_config(app)
        return registry.load(config.claim_modules, package=config.claim_package or None)
    except RegistryError as exc:
        warn(CheckerWarnings.REGISTRY, str(exc))
        return None


def _versions(root: Path, config: object) -> versions.Versions | None:
    path = root / getattr(config, "evidence_dir", "docs/_evidence") / "versions.json"
    try:
        return versions.load(path)
    except versions.VersionsError as exc:
        warn(CheckerWarnings.EVIDENCE_FILE, str(exc))
        return None


def _recorded(root: Path, config: object) -> dict[str, record.DeviceRecord]:
    found = {}
    evidence_dir = root / getattr(config, "evidence_dir", "docs/_evidence")
    for device in ("cpu", "cuda"):
        path = evidence_dir / f"{device}.json"
        try:
            loaded = record.load(path)
        except record.RecordError as exc:
            warn(CheckerWarnings.EVIDENCE_FILE, str(exc))
            continue
        if loaded is not None:
            found[device] = loaded
    return found
