"""Tests of the saved-tensors topic: its claim module and the measuring helpers it relies on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from checker.claims import saved_tensors

ROOT = Path(__file__).resolve().parents[1]


def test_claim_module_does_not_import_torch() -> None:
    code = "import sys, checker.claims.saved_tensors; sys.exit('torch' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False)
    assert result.returncode == 0


def test_ids_and_keys_carry_the_topic_prefix() -> None:
    for claim in saved_tensors.CLAIMS:
        assert claim.id.startswith("saved-tensors/")
        assert all(key.startswith("st-") for key in claim.measures)


def test_every_myth_has_a_vocabulary() -> None:
    myths = [c for c in saved_tensors.CLAIMS if c.expect.value == "fails"]
    assert myths
    assert all(c.vocabulary is not None for c in myths)


def test_memory_myths_are_decided_on_both_devices() -> None:
    claim = next(
        c for c in saved_tensors.CLAIMS if c.id == "saved-tensors/myth-disable-reduces-memory"
    )
    assert claim.devices == ("cpu", "cuda")


torch = pytest.importorskip("torch")


def test_ffn_model_and_batch_are_deterministic() -> None:
    first = saved_tensors.ffn_model("cpu")(saved_tensors.ffn_batch("cpu"))
    second = saved_tensors.ffn_model("cpu")(saved_tensors.ffn_batch("cpu"))
    assert torch.equal(first, second)
    assert first.shape == (saved_tensors.FFN_ROWS, saved_tensors.FFN_WIDTH)
