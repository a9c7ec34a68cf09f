"""Claims of "Testing whether memory is shared" (docs/topics/tensors-from-data.md,
``(td-sharing)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.measure import shares_storage


def probe_np_shares_memory(device: str) -> Observation:
    return _np_test_rule(with_numpy=True)


def control_pointer_test(device: str) -> Observation:
    return _np_test_rule(with_numpy=False)


def _np_test_rule(with_numpy: bool) -> Observation:
    import numpy as np
    import torch

    def test(a: Any, b: Any) -> bool:
        if with_numpy:
            return bool(np.shares_memory(a.numpy(), b.numpy()))
        return shares_storage(a, b)

    array = np.zeros(9, dtype=np.float32)
    overlap = test(torch.from_numpy(array[0:6]), torch.from_numpy(array[3:9]))
    empty = test(torch.empty(0), torch.empty(0))
    kind = "np" if with_numpy else "pointer"
    return Observation(
        holds=overlap and not empty,
        rule="holds if "
        + ("np.shares_memory(a.numpy(), b.numpy())" if with_numpy else "comparing storage pointers")
        + " reports sharing for tensors over overlapping slices of one array and no sharing "
        "for two empty tensors",
        measurements=(
            Measurement(f"data-{kind}-test-overlap", overlap, "bool"),
            Measurement(f"data-{kind}-test-empty", empty, "bool"),
        ),
    )


NP_SHARES_MEMORY_GETS_BOTH_CASES = Claim(
    id="data/np-shares-memory-gets-both-cases",
    statement="np.shares_memory() on the arrays of two CPU tensors reports tensors over "
    "overlapping slices of one array as sharing, and two empty tensors as not sharing.",
    expect=Expect.HOLDS,
    probe=probe_np_shares_memory,
    control=Control(
        "comparing storage pointers in place of np.shares_memory",
        control_pointer_test,
        measures=("data-pointer-test-overlap", "data-pointer-test-empty"),
    ),
    devices=("cpu",),
    measures=("data-np-test-overlap", "data-np-test-empty"),
    vocabulary=Vocabulary(
        subjects=("shares_memory",),
        predicates={
            "en": ("overlap", "empty", "reliabl"),
            "ja": ("重な", "空の", "確実", "信頼"),
            "ko": ("겹치", "빈 텐서", "확실", "신뢰"),
        },
        denies=False,
    ),
)


CLAIMS = (NP_SHARES_MEMORY_GETS_BOTH_CASES,)
