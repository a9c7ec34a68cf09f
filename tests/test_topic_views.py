"""Tests of the views and in-place topic: its claim module and the step-memory helper."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from checker.claims import views
from checker.probes import step_memory

ROOT = Path(__file__).resolve().parents[1]


def test_claim_module_does_not_import_torch() -> None:
    code = (
        "import sys, checker.claims.views, checker.probes.step_memory; "
        "sys.exit('torch' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False)
    assert result.returncode == 0


def test_ids_and_keys_carry_the_topic_prefixes() -> None:
    for claim in views.CLAIMS:
        assert claim.id.split("/")[0] in {"views", "inplace"}, claim.id
        assert all(key.startswith("vi-") for key in claim.measures), claim.id


def test_every_myth_has_a_vocabulary() -> None:
    myths = [c for c in views.CLAIMS if c.expect.value == "fails"]
    assert len(myths) >= 6
    assert all(c.vocabulary is not None for c in myths)


def test_selection_myths_are_decided_on_both_devices() -> None:
    for name in ("index-select", "masked-select", "gather"):
        claim = next(c for c in views.CLAIMS if c.id == f"views/myth-{name}-shares-memory")
        assert claim.devices == ("cpu", "cuda")


def test_allocator_claims_are_cuda_only() -> None:
    for claim_id in (
        "inplace/cuda-large-blocks-rounded-to-2mib",
        "inplace/article-relu-shows-382-mib",
        "inplace/cuda-peak-is-a-high-water-mark",
    ):
        claim = next(c for c in views.CLAIMS if c.id == claim_id)
        assert claim.devices == ("cuda",)


def test_levels_replays_allocations_and_frees_in_order() -> None:
    assert step_memory.levels([]) == step_memory.StepMemory(0, 0, 0)
    # allocate 4, allocate 4, free 4: two tensors alive at the peak, one at the end
    assert step_memory.levels([4, 4, -4]) == step_memory.StepMemory(8, 8, 4)
    # a free of something older than the step takes the level below zero
    assert step_memory.levels([-8, 4]) == step_memory.StepMemory(4, 0, -4)


torch = pytest.importorskip("torch")


def test_step_memory_on_cpu_sees_the_temporary_of_slice_assignment() -> None:
    x = torch.ones(256, 256)

    def assign() -> Any:
        y = torch.zeros(256, 256)
        y[:] = y + x
        return y

    def add_() -> Any:
        y = torch.zeros(256, 256)
        return y.add_(x)

    nbytes = x.nbytes
    _, assigned = step_memory.step_memory(assign, "cpu")
    _, added = step_memory.step_memory(add_, "cpu")
    assert (assigned.allocated, assigned.peak, assigned.end) == (2 * nbytes, 2 * nbytes, nbytes)
    assert (added.allocated, added.peak, added.end) == (nbytes, nbytes, nbytes)


def test_every_cpu_claim_is_confirmed() -> None:
    from checker.typing import Device

    for claim in views.CLAIMS:
        if "cpu" not in claim.devices:
            continue
        device: Device = "cpu"
        observation = claim.probe(device)
        assert observation.holds == (claim.expect.value == "holds"), claim.id
        assert {m.key for m in observation.measurements} == set(claim.measures), claim.id
