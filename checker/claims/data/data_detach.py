"""Claims of "``.data`` and ``detach()``" (docs/topics/tensors-from-data.md,
``(td-data-detach)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.data._text import _COPY, _SHARE
from checker.evidence import Measurement, Observation
from checker.measure import shares_storage


def probe_dot_data(device: str) -> Observation:
    return _dot_data_rule(device, detach=False)


def control_dot_data_detach(device: str) -> Observation:
    return _dot_data_rule(device, detach=True)


def _dot_data_rule(device: str, detach: bool) -> Observation:
    import torch

    x = torch.ones(3, device=device, requires_grad=True)
    other = x.detach() if detach else x.data
    shares = shares_storage(other, x)
    outside = not other.requires_grad and other.grad_fn is None
    version = x._version
    other.add_(1.0)
    reaches = bool(x.detach()[0].item() == 2.0)
    bumped = x._version != version
    name = "detach" if detach else "dot-data"
    through = "x.detach()" if detach else "x.data"
    return Observation(
        holds=shares and outside and reaches and not bumped,
        rule=f"holds if {through} shares x's storage, is outside the graph, and an in-place "
        "add through it changes x's values without bumping x's version counter",
        measurements=(
            Measurement(f"data-{name}-shares", shares, "bool"),
            Measurement(f"data-{name}-outside-graph", outside, "bool"),
            Measurement(f"data-{name}-write-reaches", reaches, "bool"),
            Measurement(f"data-{name}-version-bumped", bumped, "bool"),
        ),
    )


DOT_DATA_SHARES_WITHOUT_VERSION = Claim(
    id="data/dot-data-shares-without-version",
    statement=".data returns a tensor over the original's memory, outside the autograd "
    "graph, as detach() does; but an in-place change through .data does not bump the "
    "version counter, so autograd cannot notice it.",
    expect=Expect.HOLDS,
    probe=probe_dot_data,
    control=Control(
        "x.detach() in place of x.data, whose change bumps the version counter",
        control_dot_data_detach,
        measures=(
            "data-detach-shares",
            "data-detach-outside-graph",
            "data-detach-write-reaches",
            "data-detach-version-bumped",
        ),
    ),
    measures=(
        "data-dot-data-shares",
        "data-dot-data-outside-graph",
        "data-dot-data-write-reaches",
        "data-dot-data-version-bumped",
    ),
    vocabulary=Vocabulary(subjects=(".data",), predicates=_SHARE, opposites=_COPY),
)


CLAIMS = (DOT_DATA_SHARES_WITHOUT_VERSION,)
