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


def probe_reentrant_refuses_autograd_grad(device: Device) -> Observation:
    return _autograd_grad_rule(device, reentrant=True)


def control_nonreentrant_autograd_grad(device: Device) -> Observation:
    return _autograd_grad_rule(device, reentrant=False)


def _autograd_grad_rule(device: Device, reentrant: bool) -> Observation:
    """``torch.autograd.grad(out, x)`` and ``out.backward(inputs=[x])`` through a checkpointed
    block: each raises, or gives the gradient of the block without checkpointing."""
    import torch

    block, x = _block_and_input(device)
    (expected,) = torch.autograd.grad(block(x).sum(), x)
    found: list[Any] = []

    def grad() -> None:
        found.extend(torch.autograd.grad(_checkpointed(block, x, reentrant).sum(), x))

    def backward_with_inputs() -> None:
        x.grad = None
        _checkpointed(block, x, reentrant).sum().backward(inputs=[x])
        found.append(x.grad)

    grad_error, inputs_error = error_text(grad), error_text(backward_with_inputs)
    correct = len(found) == 2 and all(torch.allclose(g, expected) for g in found)
    name = "reentrant" if reentrant else "nonreentrant"
    return Observation(
        holds=grad_error != "no error" and inputs_error != "no error",
        rule="holds if torch.autograd.grad(out, x) and out.backward(inputs=[x]) both raise an "
        "error for the output of a block checkpointed with "
        + ("use_reentrant=True" if reentrant else "use_reentrant=False"),
        measurements=(
            Measurement(f"ckpt-grad-{name}-error", grad_error, "text"),
            Measurement(f"ckpt-grad-{name}-inputs-error", inputs_error, "text"),
            Measurement(f"ckpt-grad-{name}-correct", bool(correct), "bool"),
        ),
    )


REENTRANT_REFUSES_AUTOGRAD_GRAD = Claim(
    id="checkpointing/reentrant-refuses-autograd-grad",
    statement="With use_reentrant=True, torch.autograd.grad and backward with inputs raise a "
    "RuntimeError when they reach a checkpointed block.",
    expect=Expect.HOLDS,
    probe=probe_reentrant_refuses_autograd_grad,
    measures=(
        "ckpt-grad-reentrant-error",
        "ckpt-grad-reentrant-inputs-error",
        "ckpt-grad-reentrant-correct",
    ),
    control=Control(
        "use_reentrant=False",
        control_nonreentrant_autograd_grad,
        measures=(
            "ckpt-grad-nonreentrant-error",
            "ckpt-grad-nonreentrant-inputs-error",
            "ckpt-grad-nonreentrant-correct",
        ),
    ),
    vocabulary=Vocabulary(
        subjects=_REENTRANT,
        predicates={
            "en": ("autograd.grad … raise", "autograd.grad … error", "autograd.grad … fail"),
            "ja": ("autograd.grad … エラー", "autograd.grad … 例外", "autograd.grad … 使えません"),
            "ko": ("autograd.grad … 오류", "autograd.grad … 예외", "autograd.grad … 쓸 수 없"),
        },
        opposites={
            "en": ("autograd.grad … works", "autograd.grad … supported"),
            "ja": ("autograd.grad … 使えます", "autograd.grad … 動きます"),
            "ko": ("autograd.grad … 쓸 수 있", "autograd.grad … 동작합니다"),
        },
    ),
)


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


CLAIMS = (
    REENTRANT_REFUSES_AUTOGRAD_GRAD,
    REENTRANT_PARAMETERS_OUTSIDE_GRAPH,
)
