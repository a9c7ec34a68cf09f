"""Claims of "``clone().detach()``: an independent copy" (docs/topics/views-and-inplace.md,
``(vi-clone-detach-both)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect
from checker.claims.views._tensors import _allocated, _square
from checker.evidence import Measurement, Observation
from checker.measure import shares_storage
from checker.typing import Device


def probe_clone_detach(device: Device) -> Observation:
    return _plain_copy_rule(device, copy_first=True)


def control_detach_without_clone(device: Device) -> Observation:
    return _plain_copy_rule(device, copy_first=False)


def _plain_copy_rule(device: Device, copy_first: bool) -> Observation:
    x = _square(device).requires_grad_()
    c, allocated = _allocated((lambda: x.clone().detach()) if copy_first else x.detach, device)
    shared = shares_storage(c, x)
    return Observation(
        holds=not shared and not c.requires_grad and c.is_leaf and allocated >= x.nbytes,
        rule=f"holds if x.{'clone().' if copy_first else ''}detach() allocates at least x's "
        "bytes, shares no storage with x, does not require grad and is a leaf",
        measurements=(
            Measurement("vi-clone-detach-storage-shared", shared, "bool"),
            Measurement("vi-clone-detach-requires-grad", c.requires_grad, "bool"),
            Measurement("vi-clone-detach-is-leaf", c.is_leaf, "bool"),
            Measurement("vi-clone-detach-allocated", allocated, "bytes"),
        ),
    )


CLONE_DETACH_IS_A_PLAIN_COPY = Claim(
    id="views/clone-detach-is-a-plain-copy",
    statement="clone().detach() is a copy outside the graph: it has its own storage, does not "
    "require grad and is a leaf.",
    expect=Expect.HOLDS,
    probe=probe_clone_detach,
    control=Control(
        "detach() without clone()",
        control_detach_without_clone,
    ),
    measures=(
        "vi-clone-detach-storage-shared",
        "vi-clone-detach-requires-grad",
        "vi-clone-detach-is-leaf",
        "vi-clone-detach-allocated",
    ),
)


CLAIMS = (CLONE_DETACH_IS_A_PLAIN_COPY,)
