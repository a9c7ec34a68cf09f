"""Claims of "What del frees" (docs/topics/memory-growth.md, ``(mg-del)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.typing import Device

#: What else references the tensor when ``del`` runs, in the probe.
_HOLDERS = ("list", "view", "graph")


def probe_del_with_other_references(device: Device) -> Observation:
    return _del_rule(_HOLDERS)


def control_del_last_reference(device: Device) -> Observation:
    return _del_rule(("nothing",))


def _storage_freed_after_del(holder: str) -> bool:
    """Whether ``del x`` releases the storage of ``x`` while ``holder`` also references it.

    ``x`` wraps a NumPy array (``torch.from_numpy``), and its storage holds the array's only
    reference: a weak reference to the array dies exactly when the storage is released.
    """
    import weakref

    import numpy as np
    import torch

    array = np.zeros(1000, dtype=np.float32)
    watch = weakref.ref(array)
    x = torch.from_numpy(array)
    del array
    kept: Any = None
    if holder == "list":
        kept = [x]
    elif holder == "view":
        kept = x[:10]
    elif holder == "graph":
        weight = torch.ones(1000, requires_grad=True)
        kept = (x * weight).sum()  # MulBackward0 saves x for the gradient of weight
    del x
    freed = watch() is None
    del kept
    return freed


def _del_rule(holders: tuple[str, ...]) -> Observation:
    freed = {holder: _storage_freed_after_del(holder) for holder in holders}
    return Observation(
        holds=all(freed.values()),
        rule="holds if del x releases the storage of x when, besides the name x, it is "
        "referenced by "
        + (
            "nothing else"
            if holders == ("nothing",)
            else "a list, by a view of it, or by a graph that saved it"
        ),
        measurements=tuple(
            Measurement(f"growth-del-{holder}-freed", value, "bool")
            for holder, value in freed.items()
        ),
    )


MYTH_DEL_ALWAYS_FREES = Claim(
    id="growth/myth-del-always-frees",
    statement="del x always frees the memory of the tensor x.",
    expect=Expect.FAILS,
    probe=probe_del_with_other_references,
    control=Control(
        "x referenced by nothing else",
        control_del_last_reference,
        measures=("growth-del-nothing-freed",),
    ),
    devices=("cpu",),
    measures=("growth-del-list-freed", "growth-del-view-freed", "growth-del-graph-freed"),
    vocabulary=Vocabulary(
        subjects=("del ", "`del`", "del로", "del을", "delで", "del は", "del은"),
        predicates={
            "en": ("always free", "always release", "always frees", "always releases"),
            "ja": ("必ず解放", "常に解放", "必ずメモリを解放", "常にメモリを解放"),
            "ko": ("항상 해제", "반드시 해제", "항상 메모리를 해제", "반드시 메모리를 해제"),
        },
        denies=False,
    ),
)


CLAIMS = (MYTH_DEL_ALWAYS_FREES,)
