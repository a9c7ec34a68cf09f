"""The harness: run claims' probes on devices, in isolated worker processes, with a cache.

Each probe runs in its own process forked from a zygote that imported torch once
(:mod:`checker.pool`), so a probe that raises, segfaults, hangs or exhausts memory is reported
as an ``error`` while the others still run, and the per-probe cost is a fork, not an
interpreter start. The parent process never imports torch: a warm run is answered from the
cache without starting a worker.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from checker import devices as devices_mod
from checker import speed
from checker.cache import Cache
from checker.claim import Claim
from checker.evidence import Evidence
from checker.pool import JobResult, Pool, WorkerJob
from checker.record import DeviceRecord
from checker.registry import Registry
from checker.source_hash import claim_hash
from checker.typing import Device
from checker.verdict import Verdict, broken, judge, not_run

if TYPE_CHECKING:  # checker.versions runs claims with a Runner
    from checker.versions import Versions

#: The job handler that runs a probe inside a worker (see :mod:`checker.worker`).
worker_handler = "checker.worker:run_probe"

#: Address space a CPU probe may add to what the fork server already maps.
DEFAULT_MEMORY_LIMIT = 6 * 1024**3


@dataclass(frozen=True)
class ProbeLimits:
    """Bounds on one probe run."""

    #: Overrides each claim's own ``timeout_s`` when set.
    timeout_s: float | None = None
    #: Bytes of extra address space (CPU) or of GPU memory (CUDA) a probe may use.
    memory_bytes: int | None = DEFAULT_MEMORY_LIMIT


@dataclass
class RunStats:
    """Counts a run reports: how many probes ran, and how many were answered from the cache."""

    ran: int = 0
    cached: int = 0
    skipped: int = 0


@dataclass
class Runner:
    """Runs claims of one registry. Create one per process and reuse it."""

    registry: Registry
    cache: Cache | None = None
    #: Recorded evidence per device, shown where that device is absent.
    recorded: Mapping[str, DeviceRecord] = field(default_factory=dict)
    #: Outcomes per torch release on the CPU: a recording made with an older release that
    #: gave the same outcome there is that release's behaviour, not a contradiction.
    versions: Versions | None = None
    limits: ProbeLimits = field(default_factory=ProbeLimits)
    #: How many probes may run at once. Keep 1 for memory and timing claims.
    jobs: int = 1
    stats: RunStats = field(default_factory=RunStats)
    _pool: Pool | None = field(default=None, init=False, repr=False)
    _presence: dict[str, devices_mod.Presence] = field(default_factory=dict, init=False)

    def run(self, claims: Iterable[Claim], devices: Iterable[Device]) -> list[Verdict]:
        """Verdicts for every claim on every device, in claim order, then device order."""
        slots: list[Verdict | None] = []
        pending: list[tuple[int, Claim, Device, str]] = []
        for claim in claims:
            for device in devices:
                verdict, key = self._without_running(claim, device)
                if verdict is None:
                    pending.append((len(slots), claim, device, key))
                slots.append(verdict)
        for index, verdict in self._execute(pending):
            slots[index] = verdict
        return [v for v in slots if v is not None]

    def presence(self, device: Device) -> devices_mod.Presence:
        if device not in self._presence:
            self._presence[device] = devices_mod.presence(device)
        return self._presence[device]

    def _without_running(self, claim: Claim, device: Device) -> tuple[Verdict | None, str]:
        """A verdict that needs no probe run (not meaningful, absent, cached), or a cache key."""
        if device not in claim.devices:
            self.stats.skipped += 1
            only = ", ".join(d.upper() for d in claim.devices)
            return not_run(claim, device, f"only meaningful on {only}"), ""
        present = self.presence(device)
        if not present.present:
            self.stats.skipped += 1
            return self._recorded(claim, device, present.reason), ""
        key = Cache.key(claim.id, claim_hash(claim), devices_mod.torch_version(), device)
        cached = self.cache.get(key) if self.cache else None
        if cached is not None:
            self.stats.cached += 1
            return judge(claim, cached), key
        reason = self.cache.get_not_run(self._not_run_key(key)) if self.cache else None
        if reason is not None:
            self.stats.cached += 1
            return not_run(claim, device, reason), key
        return None, key

    def _not_run_key(self, key: str) -> str:
        """A probe's "not applicable here" holds for this machine's devices: the key says
        whether CUDA is present."""
        return f"{key}-{'cuda' if self.presence('cuda').present else 'no-cuda'}"

    def _recorded(self, claim: Claim, device: Device, reason: str) -> Verdict:
        record = self.recorded.get(device)
        evidence = record.evidence.get(claim.id) if record else None
        if evidence is None:
            return not_run(claim, device, reason)
        stale = evidence.probe_hash != claim_hash(claim)
        superseded = ""
        if self.versions is not None and evidence.outcome.value != claim.expect.value:
            superseded = self.versions.superseded(
                claim.id, evidence.torch_version, evidence.outcome.value
            )
        return not_run(claim, device, reason, evidence, stale=stale, superseded=superseded)

    # -- running in workers -------------------------------------------------------------

    def _execute(
        self, pending: list[tuple[int, Claim, Device, str]]
    ) -> Iterable[tuple[int, Verdict]]:
        if not pending:
            return []
        jobs = [self._job(claim, device) for _, claim, device, _ in pending]
        outcomes = self._worker_pool().run(jobs)
        self.stats.ran += len(jobs)
        return [
            (index, self._verdict(claim, device, key, outcome))
            for (index, claim, device, key), outcome in zip(pending, outcomes, strict=True)
        ]

    def _job(self, claim: Claim, device: Device) -> WorkerJob:
        memory = self.limits.memory_bytes
        return WorkerJob(
            handler=worker_handler,
            args={
                "modules": list(self.registry.modules),
                "claim": claim.id,
                "device": device,
                "probe_hash": claim_hash(claim),
                "gpu_memory": memory if device == "cuda" else None,
            },
            timeout_s=self.limits.timeout_s or claim.timeout_s,
            address_space=memory if device == "cpu" else None,
        )

    def _worker_pool(self) -> Pool:
        if self._pool is None:
            self._pool = Pool(
                preload=["checker.worker", *self.registry.modules],
                size=max(1, self.jobs),
                slowdown=speed.slowdown,
            )
        return self._pool

    def close(self) -> None:
        """Stop the worker processes (they also stop when this process exits)."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def _verdict(self, claim: Claim, device: Device, key: str, outcome: JobResult) -> Verdict:
        if outcome.timed_out and speed.is_busy(outcome.slowdown):
            # the machine's, not the probe's: not run, and not cached, so a quieter run
            # tries again
            limit, slowdown = f"{outcome.limit_s:.3g}", f"{outcome.slowdown:.1f}"
            return not_run(
                claim,
                device,
                f"did not finish within {limit} s: this machine ran {slowdown} times slower "
                "than the reference machine (it is busy with other work); run it again when it "
                "is less busy",
            )
        if outcome.failure is not None:
            reason = outcome.failure
            if outcome.stderr and not outcome.timed_out:
                reason += f"\nstderr:\n{outcome.stderr}"
            return broken(claim, device, reason)
        result = outcome.result
        if "absent" in result:
            self._presence[device] = devices_mod.Presence(device, False, result["absent"])
            return self._recorded(claim, device, result["absent"])
        if "not_run" in result:
            if self.cache is not None:
                self.cache.put_not_run(self._not_run_key(key), result["not_run"])
            return not_run(claim, device, result["not_run"])
        evidence = Evidence.from_dict(result["evidence"], origin="live")
        if self.cache is not None:
            self.cache.put(key, evidence)
        return judge(claim, evidence)
