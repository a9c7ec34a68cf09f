"""Claims of "Why it exists" (docs/topics/saved-tensors.md, ``(st-disable-purpose)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.saved_tensors._model import _error
from checker.claims.saved_tensors.disable._block import _DISABLE
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_func_forbids_hooks(device: Device) -> Observation:
    return _func_grad_rule(device, func=True)


def control_autograd_grad_allows_hooks(device: Device) -> Observation:
    return _func_grad_rule(device, func=False)


def _func_grad_rule(device: Device, func: bool) -> Observation:
    import torch

    def f(t: Any) -> Any:
        return (t.sin() * t).sum()

    def differentiate(fn: Any, t: Any) -> Any:
        if func:
            return torch.func.grad(fn)(t)
        leaf = t.detach().requires_grad_()
        return torch.autograd.grad(fn(leaf), leaf)[0]

    x = torch.ones(3, device=device)
    outside = _error(lambda: differentiate(f, x))
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        inside = _error(lambda: differentiate(f, x))

    def register() -> None:
        with torch.autograd.graph.saved_tensors_hooks(lambda u: u, lambda u: u):
            pass

    def hooks_in_transform(t: Any) -> Any:
        found["inner"] = _error(register)
        return f(t)

    found: dict[str, str] = {}
    differentiate(hooks_in_transform, x)
    return Observation(
        holds=outside == "no error"
        and inside.startswith("RuntimeError")
        and "saved tensor hooks" in inside
        and found["inner"] == inside,
        rule=f"holds if {'torch.func.grad' if func else 'torch.autograd.grad'} works outside "
        "hooks, raises a RuntimeError about saved "
        "tensor hooks inside saved_tensors_hooks, and raises the same error when a "
        "function being transformed registers hooks",
        measurements=(
            Measurement("st-func-grad-in-hooks", inside, "exception"),
            Measurement("st-hooks-in-func-grad", found["inner"], "exception"),
        ),
    )


FUNC_TRANSFORMS_FORBID_HOOKS = Claim(
    id="saved-tensors/func-transforms-forbid-hooks",
    statement="torch.func.grad disables saved tensor hooks while it runs: it raises inside "
    "saved_tensors_hooks, and installing hooks inside a function it transforms raises too.",
    expect=Expect.HOLDS,
    probe=probe_func_forbids_hooks,
    control=Control(
        "torch.autograd.grad, which is not a transform",
        control_autograd_grad_allows_hooks,
    ),
    devices=("cpu",),
    measures=("st-func-grad-in-hooks", "st-hooks-in-func-grad"),
    vocabulary=Vocabulary(subjects=(*_DISABLE, "torch.func")),
)


def probe_func_forward_transforms_allow_hooks(device: Device) -> Observation:
    return _transforms_allow_hooks(device, ("jacfwd", "vmap"))


def control_func_grad_refuses_hooks(device: Device) -> Observation:
    return _transforms_allow_hooks(device, ("grad", "vjp"))


def _transforms_allow_hooks(device: Device, names: tuple[str, ...]) -> Observation:
    import torch

    def f(t: Any) -> Any:
        return (t.sin() * t).sum()

    def g(t: Any) -> Any:
        return t.sin() * t

    x = torch.ones(3, device=device)
    calls: dict[str, Any] = {
        "jacfwd": lambda: torch.func.jacfwd(g)(x),
        "vmap": lambda: torch.func.vmap(g)(x.reshape(3, 1)),
        "grad": lambda: torch.func.grad(f)(x),
        "vjp": lambda: torch.func.vjp(g, x)[1](torch.ones(3, device=device)),
    }
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        errors = {name: _error(calls[name]) for name in names}
    return Observation(
        holds=all(e == "no error" for e in errors.values()),
        rule=f"holds if torch.func.{' and '.join(names)} run without error inside "
        "saved_tensors_hooks",
        measurements=tuple(
            Measurement(f"st-func-{name}-under-hooks", error.splitlines()[0][:120], "exception")
            for name, error in errors.items()
        ),
    )


FUNC_FORWARD_TRANSFORMS_ALLOW_HOOKS = Claim(
    id="saved-tensors/func-forward-transforms-allow-hooks",
    statement="torch.func.jacfwd and torch.func.vmap run inside saved_tensors_hooks; "
    "only grad, vjp, jacrev and hessian refuse them.",
    expect=Expect.HOLDS,
    probe=probe_func_forward_transforms_allow_hooks,
    devices=("cpu",),
    measures=("st-func-jacfwd-under-hooks", "st-func-vmap-under-hooks"),
    control=Control(
        "grad and vjp, which refuse hooks",
        control_func_grad_refuses_hooks,
        measures=("st-func-grad-under-hooks",),
    ),
)


CLAIMS = (
    FUNC_TRANSFORMS_FORBID_HOOKS,
    FUNC_FORWARD_TRANSFORMS_ALLOW_HOOKS,
)
