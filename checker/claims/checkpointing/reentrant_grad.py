"""Claims of "``torch.autograd.grad`` and the reentrant implementation"
(docs/topics/checkpointing.md, ``(ck-reentrant-grad)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.measure import caught_warnings, error_text
from checker.typing import Device

_REENTRANT = ("reentrant", "use_reentrant=True", "リエントラント", "재진입")


def _block_and_input(device: Device) -> tuple[Any, Any]:
    import torch

    torch.manual_seed(0)
    block = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.GELU(), torch.nn.Linear(16, 4))
    x = torch.randn(8, 16, device=device, requires_grad=True)
    return block.to(device), x


def _checkpointed(block: Any, x: Any, reentrant: bool) -> Any:
    from torch.utils.checkpoint import checkpoint

    out, _ = caught_warnings(lambda: checkpoint(block, x, use_reentrant=reentrant))
    return out


def probe_reentrant_parameters_outside_graph(device: Device) -> Observation:
    return _parameters_rule(device, reentrant=True)


def control_nonreentrant_parameters_in_graph(device: Device) -> Observation:
    return _parameters_rule(device, reentrant=False)


def _parameters_rule(device: Device, reentrant: bool) -> Observation:
    """``torch.autograd.grad`` asked for the gradients of a checkpointed block's parameters:
    whether it raises that they were not used, and how many it returns as ``None`` with
    ``allow_unused=True``."""
    import torch

    block, x = _block_and_input(device)
    params = list(block.parameters())
    expected = torch.autograd.grad(block(x).sum(), params)
    error = error_text(
        lambda: torch.autograd.grad(_checkpointed(block, x, reentrant).sum(), params)
    )
    grads = torch.autograd.grad(_checkpointed(block, x, reentrant).sum(), params, allow_unused=True)
    missing = sum(g is None for g in grads)
    correct = all(
        g is not None and bool(torch.allclose(g, e)) for g, e in zip(grads, expected, strict=True)
    )
    name = "reentrant" if reentrant else "nonreentrant"
    return Observation(
        holds="not have been used in the graph" in error and missing == len(params),
        rule="holds if torch.autograd.grad, asked for the gradients of the parameters of a block "
        "checkpointed with "
        + ("use_reentrant=True" if reentrant else "use_reentrant=False")
        + ", raises that they were not used in the graph, and with allow_unused=True returns "
        "None for each of them",
        measurements=(
            Measurement(f"ckpt-params-{name}-error", error, "text"),
            Measurement(f"ckpt-params-{name}-none", missing, "count"),
            Measurement(f"ckpt-params-{name}-correct", bool(correct), "bool"),
        ),
    )


REENTRANT_PARAMETERS_OUTSIDE_GRAPH = Claim(
    id="checkpointing/reentrant-parameters-outside-graph",
    statement="With use_reentrant=True, torch.autograd.grad does not see the parameters of a "
    "checkpointed block: it raises that they were not used in the graph, and with "
    "allow_unused=True it returns None for them.",
    expect=Expect.HOLDS,
    probe=probe_reentrant_parameters_outside_graph,
    measures=(
        "ckpt-params-reentrant-error",
        "ckpt-params-reentrant-none",
        "ckpt-params-reentrant-correct",
    ),
    control=Control(
        "use_reentrant=False",
        control_nonreentrant_parameters_in_graph,
        measures=(
            "ckpt-params-nonreentrant-error",
            "ckpt-params-nonreentrant-none",
            "ckpt-params-nonreentrant-correct",
        ),
    ),
    vocabulary=Vocabulary(
        subjects=_REENTRANT,
        predicates={
            "en": ("not … used in the graph", "allow_unused … None"),
            "ja": ("グラフで使われていない", "グラフで使われない", "allow_unused … None"),
            "ko": ("그래프에서 사용되지 않", "allow_unused … None"),
        },
    ),
)


CLAIMS = (REENTRANT_PARAMETERS_OUTSIDE_GRAPH,)
