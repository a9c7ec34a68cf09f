"""Claims of "What each constructor costs" (docs/topics/tensors-from-data.md, ``(td-cost)=``)."""

from __future__ import annotations

import functools
import timeit
from collections.abc import Callable
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation


def probe_constructor_cost(device: str) -> Observation:
    return _cost_rule(large=True)


def control_constructor_cost_tiny(device: str) -> Observation:
    return _cost_rule(large=False)


#: Elements of the float32 array whose conversion is timed: 16 MiB.
LARGE = 4 * 1024 * 1024
#: Elements of the array of the cost claim's control: a copy of it costs next to nothing.
TINY = 16
#: A constructor that copies must take at least this many times as long as torch.from_numpy.
COST_FACTOR = 100

#: Constructors that copy a float32 array, with the measurement key of their ratio.
_COPYING: dict[str, Callable[[Any, Any, Any], Any]] = {
    "tensor": lambda torch, a, i: torch.tensor(a),
    "asarray-copy": lambda torch, a, i: torch.asarray(a, copy=True),
    "tensor-class-int64": lambda torch, a, i: torch.Tensor(i),
}
#: Constructors that share a float32 array.
_SHARING: dict[str, Callable[[Any, Any, Any], Any]] = {
    "as-tensor": lambda torch, a, i: torch.as_tensor(a),
    "asarray": lambda torch, a, i: torch.asarray(a),
    "tensor-class": lambda torch, a, i: torch.Tensor(a),
}


def _seconds(call: Callable[[], Any], copies_large: bool) -> float:
    """The time of one call, over 1000 calls (3 for a copy of the large array)."""
    number = 3 if copies_large else 1000
    return timeit.Timer(call).timeit(number=number) / number


#: Rounds of the timing; in each, torch.from_numpy and every constructor take turns.
ROUNDS = 5


def _cost_rule(large: bool) -> Observation:
    import statistics

    import numpy as np
    import torch

    n = LARGE if large else TINY
    a, i = np.ones(n, dtype=np.float32), np.ones(n, dtype=np.int64)
    calls = {"from-numpy": lambda: torch.from_numpy(a)} | {
        key: functools.partial(f, torch, a, i) for key, f in {**_COPYING, **_SHARING}.items()
    }
    # timings only as ratios measured side by side: a busy machine slows a round's calls alike
    rounds = [
        {key: _seconds(call, copies_large=large and key in _COPYING) for key, call in calls.items()}
        for _ in range(ROUNDS)
    ]
    base = min(r["from-numpy"] for r in rounds)
    ratios = {
        key: statistics.median(r[key] / r["from-numpy"] for r in rounds)
        for key in (*_COPYING, *_SHARING)
    }
    slow = all(ratios[k] >= COST_FACTOR for k in _COPYING)
    fast = all(ratios[k] < COST_FACTOR for k in _SHARING)
    size = "large" if large else "tiny"
    return Observation(
        holds=slow and fast,
        rule=f"holds if, for a float32 array of {a.nbytes} bytes, torch.tensor, "
        f"torch.asarray(copy=True) and torch.Tensor of an int64 array each take at least "
        f"{COST_FACTOR} times as long as torch.from_numpy, and torch.as_tensor, torch.asarray and "
        f"torch.Tensor of the float32 array less (the median, over {ROUNDS} rounds in which "
        "every constructor and torch.from_numpy take turns, of each round's ratio)",
        measurements=(
            Measurement(f"data-cost-{size}-bytes", int(a.nbytes), "bytes"),
            Measurement(f"data-cost-{size}-from-numpy", base, "seconds"),
            *(
                Measurement(f"data-cost-{size}-{k}", round(r, 1), "ratio")
                for k, r in ratios.items()
            ),
        ),
    )


COPYING_CONSTRUCTORS_COST_GROWS_WITH_SIZE = Claim(
    id="data/copying-constructors-cost-grows-with-size",
    statement="For a 16 MiB array, the constructors that copy (torch.tensor, "
    "torch.asarray with copy=True, torch.Tensor of an int64 array) take at least 100 "
    "times as long as torch.from_numpy; those that share do not.",
    expect=Expect.HOLDS,
    probe=probe_constructor_cost,
    control=Control(
        "the same constructors on a 16-element array",
        control_constructor_cost_tiny,
        measures=(
            "data-cost-tiny-bytes",
            "data-cost-tiny-from-numpy",
            *(f"data-cost-tiny-{k}" for k in (*_COPYING, *_SHARING)),
        ),
    ),
    devices=("cpu",),
    timeout_s=120.0,
    measures=(
        "data-cost-large-bytes",
        "data-cost-large-from-numpy",
        *(f"data-cost-large-{k}" for k in (*_COPYING, *_SHARING)),
    ),
    vocabulary=Vocabulary(
        subjects=("from_numpy",),
        predicates={
            "en": ("faster", "cheaper"),
            "ja": ("速い", "高速"),
            "ko": ("빠르", "빠른"),
        },
        # compared with another constructor that shares, from_numpy is not what this claim
        # measures ("as_tensor() can be faster than from_numpy()" neither agrees nor denies)
        unless={
            "en": ("as_tensor", "asarray"),
            "ja": ("as_tensor", "asarray"),
            "ko": ("as_tensor", "asarray"),
        },
        denies=False,
    ),
)


CLAIMS = (COPYING_CONSTRUCTORS_COST_GROWS_WITH_SIZE,)
