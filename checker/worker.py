"""The probe side of the harness: the job handler that runs one probe in a child process.

The zygote (:mod:`checker.zygote`) preloads this module, so ``import torch`` happens once per
zygote; each probe then runs in a fresh child forked from it.
"""

from __future__ import annotations

import datetime
import importlib
import time
from typing import Any

import torch  # paid once per zygote, never per probe
import torch._dynamo

#                       ~1.5 s that several probes would otherwise each pay)
from checker.claim import Claim
from checker.evidence import ControlResult, Evidence, NotApplicable, Observation
from checker.source_hash import claim_hash
from checker.typing import Device, Probe


def run_probe(args: dict[str, Any]) -> dict[str, Any]:
    """Run one claim's probe on a device.

    ``args``: ``modules`` (claim modules), ``claim`` (id), ``device``, ``probe_hash`` (as
    computed by the parent), ``gpu_memory`` (bytes, optional). Returns ``{"evidence": {...}}``,
    ``{"absent": reason}`` (no such device) or ``{"not_run": reason}`` (the probe or its control
    raised :class:`~checker.evidence.NotApplicable`); a probe that raises anything else is
    reported by the zygote as an error. The claim's control, if any, runs right after the
    probe, in the same process, from the same seed.

    Probes run on one thread (``torch.set_num_threads(1)``): what they count and measure is
    then the same on a 2-core machine and on a 64-core one (operator counts and the working
    memory of some operators depend on the number of threads), and a probe does not stall
    when other jobs hold the cores (OpenMP threads that wait for each other at every parallel
    region made the slowest probes 30 times slower on a busy 2-core machine, against about 3
    times on one thread).
    """
    claim = _find(args["modules"], args["claim"])
    device = args["device"]
    if device == "cuda":
        if not torch.cuda.is_available():
            return {"absent": "torch.cuda.is_available() is False"}
        if args.get("gpu_memory"):
            total = torch.cuda.get_device_properties(0).total_memory
            torch.cuda.set_per_process_memory_fraction(min(1.0, args["gpu_memory"] / total))
        name = torch.cuda.get_device_name(0)
    else:
        name = "CPU"
    torch.set_num_threads(1)
    start = time.perf_counter()
    try:
        observation = _observe(claim.probe, device)
        duration = time.perf_counter() - start
        control = (
            ControlResult(claim.control.label, _observe(claim.control.probe, device))
            if claim.control is not None
            else None
        )
    except NotApplicable as exc:
        return {"not_run": str(exc) or "the probe cannot measure its case here"}
    found = {m.key for m in observation.measurements}
    if control is not None:
        found |= {m.key for m in control.observation.measurements}
    missing = set(claim.all_measures) - found
    if missing:
        raise LookupError(f"probe did not measure {sorted(missing)}")
    evidence = Evidence(
        claim_id=claim.id,
        device=device,
        device_name=name,
        torch_version=torch.__version__,
        probe_hash=args.get("probe_hash") or claim_hash(claim),
        observation=observation,
        duration_s=duration,
        measured_at=datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        control=control,
    )
    return {"evidence": evidence.to_dict()}


def _observe(probe: Probe, device: Device) -> Observation:
    torch.manual_seed(0)
    observation = probe(device)
    if not isinstance(observation, Observation):
        raise TypeError(f"probe returned {type(observation).__name__}, not Observation")
    return observation


def _find(modules: list[str], claim_id: str) -> Claim:
    """The claim with ``claim_id`` (modules are preloaded: this is a dictionary walk)."""
    for name in modules:
        for claim in importlib.import_module(name).CLAIMS:
            if claim.id == claim_id:
                return claim  # type: ignore[no-any-return]
    raise LookupError(f"claim {claim_id!r} is not defined in {modules}")
