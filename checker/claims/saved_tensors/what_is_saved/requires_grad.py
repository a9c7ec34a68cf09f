"""Claims of "A graph only where a gradient is needed" (docs/topics/saved-tensors.md,
``(st-requires-grad)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.saved_tensors._model import MESSAGE, _error
from checker.evidence import Measurement, Observation
from checker.measure import saved_bytes
from checker.typing import Device


def probe_graph_needs_requires_grad(device: Device) -> Observation:
    return _requires_grad_rule(device, plain_requires_grad=False)


def control_plain_requires_grad(device: Device) -> Observation:
    return _requires_grad_rule(device, plain_requires_grad=True)


def _requires_grad_rule(device: Device, plain_requires_grad: bool) -> Observation:
    import torch
    from torch.autograd.graph import disable_saved_tensors_hooks

    a: Any = torch.rand(64, 64, device=device, requires_grad=plain_requires_grad)
    b = torch.rand(64, 64, device=device, requires_grad=True)
    with_grad, saved_with = saved_bytes(lambda: a.mm(b))
    plain, saved_plain = saved_bytes(lambda: a.mm(a))
    error_plain = _error(lambda: a.mm(a).sum().backward())
    with disable_saved_tensors_hooks(MESSAGE):
        z = a.mm(a).sum()
    error_disable = _error(z.backward)
    recorded = type(with_grad.grad_fn).__name__
    holds = (
        with_grad.grad_fn is not None
        and saved_with.packs > 0
        and plain.grad_fn is None
        and saved_plain.packs == 0
        and error_plain.startswith("RuntimeError")
        and error_plain == error_disable
    )
    return Observation(
        holds=holds,
        rule="holds if an mm with an input that requires grad gets a grad_fn and saves "
        "tensors, the same mm on tensors that don't"
        + (" (here: that do)" if plain_requires_grad else "")
        + " gets no grad_fn and saves nothing, "
        "and backward then raises the same RuntimeError with and without "
        "disable_saved_tensors_hooks",
        measurements=(
            Measurement("st-grad-fn-with-requires-grad", recorded, "text"),
            Measurement("st-grad-fn-without-requires-grad", str(plain.grad_fn), "text"),
            Measurement("st-packs-without-requires-grad", saved_plain.packs, "count"),
            Measurement("st-backward-error-plain", error_plain, "exception"),
            Measurement("st-backward-error-in-disable", error_disable, "exception"),
        ),
    )


GRAPH_NEEDS_REQUIRES_GRAD = Claim(
    id="saved-tensors/graph-needs-requires-grad",
    statement="Autograd records an operation only when one of its inputs requires grad. "
    "Otherwise the result has no grad_fn, nothing is saved, and calling backward() on it "
    "raises the same error whether or not the code ran inside disable_saved_tensors_hooks.",
    expect=Expect.HOLDS,
    probe=probe_graph_needs_requires_grad,
    control=Control(
        "the plain product with an input that requires grad",
        control_plain_requires_grad,
    ),
    measures=(
        "st-grad-fn-with-requires-grad",
        "st-grad-fn-without-requires-grad",
        "st-packs-without-requires-grad",
        "st-backward-error-plain",
        "st-backward-error-in-disable",
    ),
    vocabulary=Vocabulary(
        subjects=("requires_grad", "grad_fn"),
        predicates={
            "en": ("record", "graph"),
            "ja": ("記録", "計算グラフ"),
            "ko": ("기록", "그래프"),
        },
    ),
)


CLAIMS = (GRAPH_NEEDS_REQUIRES_GRAD,)
