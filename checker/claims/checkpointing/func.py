"""Claims of "Under ``torch.func`` transforms" (docs/topics/checkpointing.md, ``(ck-func)=``)."""

from __future__ import annotations

import functools
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, NotApplicable, Observation
from checker.measure import caught_warnings, error_text
from checker.typing import Device


def _first_line(error: str) -> str:
    """The first sentence of an error's first line: the rest points to documentation."""
    return error.split("\n", maxsplit=1)[0].split(". ", maxsplit=1)[0]


def probe_func_grad_refuses_checkpoint(device: Device) -> Observation:
    return _func_grad_rule(device, transform=True)


def control_autograd_backward_through_checkpoint(device: Device) -> Observation:
    return _func_grad_rule(device, transform=False)


def _func_grad_rule(device: Device, transform: bool) -> Observation:
    """A checkpointed function differentiated by ``torch.func.grad`` (or, as the control, by
    ``backward()``), with each implementation; the probe also records what ``torch.func.vmap``
    does with each, which this torch release decides."""
    import torch

    func = getattr(torch, "func", None)
    if func is None:
        raise NotApplicable(f"torch {torch.__version__} has no torch.func")
    from torch.utils.checkpoint import checkpoint

    torch.manual_seed(0)
    weight = torch.randn(8, 8, device=device, requires_grad=True)

    def function(t: Any) -> Any:
        return torch.sin(t @ weight).sum()

    def checkpointed(reentrant: bool) -> Any:
        def loss(t: Any) -> Any:
            out, _ = caught_warnings(lambda: checkpoint(function, t, use_reentrant=reentrant))
            return out

        return loss

    x = torch.randn(8, device=device, requires_grad=True)

    def differentiate(reentrant: bool) -> None:
        if transform:
            func.grad(checkpointed(reentrant))(x)
        else:
            checkpointed(reentrant)(x).backward()

    errors = {
        name: error_text(functools.partial(differentiate, reentrant))
        for name, reentrant in (("reentrant", True), ("nonreentrant", False))
    }
    prefix = "ckpt-func-grad" if transform else "ckpt-backward"
    measurements = [
        Measurement(f"{prefix}-{name}-error", _first_line(error), "text")
        for name, error in errors.items()
    ]
    if transform:
        measurements += _vmap_measurements(func, checkpointed, x)
    return Observation(
        holds=all(error != "no error" for error in errors.values()),
        rule="holds if "
        + ("torch.func.grad" if transform else "backward()")
        + " raises an error for a function checkpointed with use_reentrant=True and for one "
        "checkpointed with use_reentrant=False",
        measurements=tuple(measurements),
    )


def _vmap_measurements(func: Any, checkpointed: Any, x: Any) -> list[Measurement]:
    """What ``torch.func.vmap`` does with each implementation: the reentrant one's error, and
    for the non-reentrant one, whether its forward under vmap and a backward of the result
    raise (a backward that cannot run, because vmap refused, reads "not run")."""
    import torch

    batch = torch.stack([x.detach(), x.detach() * 2]).requires_grad_()
    reentrant_error = error_text(lambda: func.vmap(checkpointed(True))(batch))
    found: list[Any] = []
    forward_error = error_text(lambda: found.append(func.vmap(checkpointed(False))(batch)))
    backward_error = error_text(lambda: found[0].sum().backward()) if found else "not run"
    return [
        Measurement("ckpt-func-vmap-reentrant-error", _first_line(reentrant_error), "text"),
        Measurement("ckpt-func-vmap-nonreentrant-error", _first_line(forward_error), "text"),
        Measurement("ckpt-func-vmap-backward-error", _first_line(backward_error), "text"),
    ]


FUNC_GRAD_REFUSES_CHECKPOINT = Claim(
    id="checkpointing/func-grad-refuses-checkpoint",
    statement="Under torch.func.grad, checkpoint raises an error with use_reentrant=True and "
    "with use_reentrant=False.",
    expect=Expect.HOLDS,
    probe=probe_func_grad_refuses_checkpoint,
    measures=(
        "ckpt-func-grad-reentrant-error",
        "ckpt-func-grad-nonreentrant-error",
        "ckpt-func-vmap-reentrant-error",
        "ckpt-func-vmap-nonreentrant-error",
        "ckpt-func-vmap-backward-error",
    ),
    control=Control(
        "backward() instead of torch.func.grad",
        control_autograd_backward_through_checkpoint,
        measures=("ckpt-backward-reentrant-error", "ckpt-backward-nonreentrant-error"),
    ),
    vocabulary=Vocabulary(
        subjects=("torch.func.grad", "func.grad"),
        requires={
            "en": ("checkpoint",),
            "ja": ("チェックポイント", "checkpoint"),
            "ko": ("체크포인트", "체크포인팅", "checkpoint"),
        },
        predicates={
            "en": ("raise", "error", "not supported", "doesn't work", "does not work", "fails"),
            "ja": ("エラー", "例外", "使えません", "サポートされていません"),
            "ko": ("오류", "예외", "쓸 수 없", "지원되지 않"),
        },
        opposites={
            "en": ("works with", "supports checkpoint", "is supported"),
            "ja": ("使えます", "動作します"),
            "ko": ("쓸 수 있", "동작합니다"),
        },
    ),
)


CLAIMS = (FUNC_GRAD_REFUSES_CHECKPOINT,)
