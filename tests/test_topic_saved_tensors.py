"""Tests of the saved-tensors topic: its claims and the model they measure."""

from __future__ import annotations

import pytest

from checker import registry
from checker.claims.saved_tensors import _model

CLAIMS = registry.load().in_package("checker.claims.saved_tensors")


def test_ids_and_keys_carry_the_topic_prefix() -> None:
    for claim in CLAIMS:
        assert claim.id.startswith("saved-tensors/")
        assert all(key.startswith("st-") for key in claim.measures)


def test_every_myth_has_a_vocabulary() -> None:
    myths = [c for c in CLAIMS if c.expect.value == "fails"]
    assert myths
    assert all(c.vocabulary is not None for c in myths)


def test_memory_myths_are_decided_on_both_devices() -> None:
    claim = next(c for c in CLAIMS if c.id == "saved-tensors/myth-disable-reduces-memory")
    assert claim.devices == ("cpu", "cuda")


torch = pytest.importorskip("torch")


def test_ffn_model_and_batch_are_deterministic() -> None:
    first = _model.ffn_model("cpu")(_model.ffn_batch("cpu"))
    second = _model.ffn_model("cpu")(_model.ffn_batch("cpu"))
    assert torch.equal(first, second)
    assert first.shape == (_model.FFN_ROWS, _model.FFN_WIDTH)
