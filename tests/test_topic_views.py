"""Tests of the views and in-place topic: its claims."""

from __future__ import annotations

import pytest

from checker import registry

CLAIMS = registry.load().in_package("checker.claims.views")


def test_ids_and_keys_carry_the_topic_prefixes() -> None:
    for claim in CLAIMS:
        assert claim.id.split("/")[0] in {"views", "inplace"}, claim.id
        assert all(key.startswith("vi-") for key in claim.measures), claim.id


def test_every_myth_has_a_vocabulary() -> None:
    myths = [c for c in CLAIMS if c.expect.value == "fails"]
    assert len(myths) >= 6
    assert all(c.vocabulary is not None for c in myths)


def test_selection_myths_are_decided_on_both_devices() -> None:
    for name in ("index-select", "masked-select", "gather"):
        claim = next(c for c in CLAIMS if c.id == f"views/myth-{name}-shares-memory")
        assert claim.devices == ("cpu", "cuda")


def test_allocator_claims_are_cuda_only() -> None:
    for claim_id in (
        "inplace/cuda-large-blocks-rounded-to-2mib",
        "inplace/article-relu-shows-382-mib",
        "inplace/cuda-peak-is-a-high-water-mark",
    ):
        claim = next(c for c in CLAIMS if c.id == claim_id)
        assert claim.devices == ("cuda",)


torch = pytest.importorskip("torch")


def test_every_cpu_claim_is_confirmed() -> None:
    from checker.typing import Device

    for claim in CLAIMS:
        if "cpu" not in claim.devices:
            continue
        device: Device = "cpu"
        observation = claim.probe(device)
        assert observation.holds == (claim.expect.value == "holds"), claim.id
        assert {m.key for m in observation.measurements} == set(claim.measures), claim.id
