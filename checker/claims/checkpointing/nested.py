"""Claims of "Nested checkpoints" (docs/topics/checkpointing.md, ``(ck-nested)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.checkpointing._variants import _CHECKPOINT
from checker.evidence import Measurement, Observation
from checker.measure import caught_warnings
from checker.typing import Device


def probe_nested_checkpoints(device: Device) -> Observation:
    return _nested_rule(device, deterministic=True)


def control_nondeterministic_inner(device: Device) -> Observation:
    return _nested_rule(device, deterministic=False)


def _nested_rule(device: Device, deterministic: bool) -> Observation:
    """Gradients through a non-reentrant checkpoint whose function holds another one, against
    the gradients without checkpointing, and how often the inner function ran; without
    ``deterministic``, the inner function scales by how often it has run, so a recomputation
    differs from the forward pass."""
    import torch
    from torch.utils.checkpoint import checkpoint

    torch.manual_seed(0)
    inner_layer = torch.nn.Linear(16, 16).to(device)
    outer_layer = torch.nn.Linear(16, 16).to(device)
    x = torch.randn(8, 16, device=device, requires_grad=True)
    runs = [0]

    def inner(t: Any) -> Any:
        runs[0] += 1
        scale = 1.0 if deterministic else float(runs[0])
        return torch.tanh(inner_layer(t)) * scale

    def outer(t: Any) -> Any:
        return outer_layer(checkpoint(inner, t, use_reentrant=False)).sin()

    def grads(forward: Any) -> tuple[Any, ...]:
        runs[0] = 0
        params = (x, *inner_layer.parameters(), *outer_layer.parameters())
        out, _ = caught_warnings(forward)
        return torch.autograd.grad(out.pow(2).sum(), params)

    expected = grads(lambda: outer_layer(inner(x)).sin())
    nested = grads(lambda: checkpoint(outer, x, use_reentrant=False))
    nested_runs = runs[0]
    equal = all(torch.allclose(a, b) for a, b in zip(nested, expected, strict=True))
    prefix = "ckpt-nested" if deterministic else "ckpt-nested-nondeterministic"
    measurements = [Measurement(f"{prefix}-grads-equal", equal, "bool")]
    if deterministic:
        measurements.append(Measurement("ckpt-nested-inner-runs", nested_runs, "count"))
    return Observation(
        holds=equal,
        rule="holds if the gradients of the input and of every parameter through a "
        "non-reentrant checkpoint whose function calls another non-reentrant checkpoint equal "
        "those without checkpointing",
        measurements=tuple(measurements),
    )


NONREENTRANT_CHECKPOINTS_NEST = Claim(
    id="checkpointing/nonreentrant-checkpoints-nest",
    statement="Non-reentrant checkpoints can be nested: a checkpointed function that calls "
    "checkpoint itself gives the same gradients as the model without checkpointing.",
    expect=Expect.HOLDS,
    probe=probe_nested_checkpoints,
    measures=("ckpt-nested-grads-equal", "ckpt-nested-inner-runs"),
    control=Control(
        "an inner function that gives another result each time it runs",
        control_nondeterministic_inner,
        measures=("ckpt-nested-nondeterministic-grads-equal",),
    ),
    vocabulary=Vocabulary(
        subjects=_CHECKPOINT,
        predicates={
            "en": ("nested", "nest"),
            "ja": ("入れ子", "ネスト"),
            "ko": ("중첩",),
        },
    ),
)


CLAIMS = (NONREENTRANT_CHECKPOINTS_NEST,)
