"""``verify`` and ``record``: run claims and decide what the run means, as a :class:`Report`
with the page of each claim. No printing here: the renderers beside it format the report."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from checker import devices as devices_mod
from checker import record as record_mod
from checker import versions as versions_mod
from checker.cache import Cache
from checker.registry import Registry
from checker.report import Report
from checker.runner import ProbeLimits, Runner
from checker.text.sites import claim_sites
from checker.typing import DEVICES, Device
from checker.verdict import Status, Verdict


@dataclass(frozen=True)
class VerifyOptions:
    devices: tuple[Device, ...] = DEVICES
    pattern: str | None = None
    strict: bool = False
    use_cache: bool = True
    jobs: int = 1
    limits: ProbeLimits = field(default_factory=ProbeLimits)
    project_root: Path = Path()
    docs_dir: Path = Path("docs")


@dataclass(frozen=True)
class VerifyResult:
    report: Report
    #: 0: every claim confirmed (or not run); 1: contradicted, probe error, or stale (strict).
    exit_code: int
    ran: int
    cached: int


class NothingSelected(Exception):
    """The claim pattern matches no claim."""


def verify(registry: Registry, options: VerifyOptions) -> VerifyResult:
    claims = registry.select(options.pattern)
    if not claims:
        raise NothingSelected(f"no claim matches {options.pattern!r}")
    runner = Runner(
        registry,
        cache=Cache.default(options.project_root) if options.use_cache else None,
        recorded=_recorded(options.project_root),
        versions=versions_mod.load(options.project_root / versions_mod.VERSIONS_PATH),
        limits=options.limits,
        jobs=options.jobs,
    )
    try:
        verdicts = runner.run(claims, options.devices)
    finally:
        runner.close()
    absent: dict[str, str] = {
        d: runner.presence(d).reason for d in options.devices if not runner.presence(d).present
    }
    report = Report(
        verdicts,
        devices_mod.torch_version(),
        absent,
        claim_sites(options.project_root / options.docs_dir),
        # a change across releases is a finding the pages document, never a failure here
        versions_mod.load(options.project_root / versions_mod.VERSIONS_PATH),
    )
    failed = any(v.failed or v.recorded_contradiction for v in verdicts)
    if options.strict and any(v.stale for v in verdicts):
        failed = True
    return VerifyResult(report, 1 if failed else 0, runner.stats.ran, runner.stats.cached)


def _recorded(root: Path) -> dict[str, record_mod.DeviceRecord]:
    found: dict[str, record_mod.DeviceRecord] = {}
    for device in DEVICES:
        loaded = record_mod.load(record_mod.path_for(root, device))  # RecordError propagates
        if loaded is not None:
            found[device] = loaded
    return found


class DeviceAbsent(Exception):
    """``record`` was asked for a device this machine does not have."""


@dataclass(frozen=True)
class RecordResult:
    path: Path
    recorded: int
    verdicts: Sequence[Verdict]
    exit_code: int


def record(
    registry: Registry, device: Device, options: VerifyOptions, output: Path | None = None
) -> RecordResult:
    """Run every claim meaningful on ``device`` and write (merge) its evidence file."""
    presence = devices_mod.presence(device)
    if not presence.present:
        raise DeviceAbsent(f"cannot record {device} evidence here: {presence.reason}")
    claims = [c for c in registry.select(options.pattern) if device in c.devices]
    if not claims:
        raise NothingSelected(f"no claim meaningful on {device} matches {options.pattern!r}")
    runner = Runner(registry, cache=None, limits=options.limits, jobs=options.jobs)
    try:
        verdicts = runner.run(claims, (device,))
    finally:
        runner.close()
    if any(v.status is Status.NOT_RUN for v in verdicts):
        raise DeviceAbsent(f"cannot record {device} evidence here: {verdicts[0].reason}")
    path = output or record_mod.path_for(options.project_root, device)
    previous = record_mod.load(path)
    merged = dict(previous.evidence) if previous and options.pattern else {}
    known = {c.id for c in registry}
    merged = {k: e for k, e in merged.items() if k in known}
    merged.update({v.claim.id: v.evidence for v in verdicts if v.evidence is not None})
    record_mod.write(path, device, merged.values())
    failed = any(v.failed for v in verdicts)
    return RecordResult(path, len(merged), verdicts, 1 if failed else 0)
