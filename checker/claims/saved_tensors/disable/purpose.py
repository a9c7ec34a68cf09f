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
    return _transforms_allow_hooks(device, under_hooks=True)


def control_func_transforms_without_hooks(device: Device) -> Observation:
    return _transforms_allow_hooks(device, under_hooks=False)


#: The transforms that run inside saved_tensors_hooks, and those that refuse them.
FORWARD_TRANSFORMS = ("jacfwd", "jvp", "vmap")
REVERSE_TRANSFORMS = ("grad", "vjp", "jacrev", "hessian")


def _transforms_allow_hooks(device: Device, under_hooks: bool) -> Observation:
    import contextlib

    import torch

    def f(t: Any) -> Any:
        return (t.sin() * t).sum()

    def g(t: Any) -> Any:
        return t.sin() * t

    x = torch.ones(3, device=device)
    calls: dict[str, Any] = {
        "jacfwd": lambda: torch.func.jacfwd(g)(x),
        "jvp": lambda: torch.func.jvp(g, (x,), (torch.ones(3, device=device),)),
        "vmap": lambda: torch.func.vmap(g)(x.reshape(3, 1)),
        "grad": lambda: torch.func.grad(f)(x),
        "vjp": lambda: torch.func.vjp(g, x)[1](torch.ones(3, device=device)),
        "jacrev": lambda: torch.func.jacrev(g)(x),
        "hessian": lambda: torch.func.hessian(f)(x),
    }
    hooks = (
        torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t)
        if under_hooks
        else contextlib.nullcontext()
    )
    with hooks:
        errors = {name: _error(call) for name, call in calls.items()}
    place = "under" if under_hooks else "without"
    return Observation(
        holds=all(errors[n] == "no error" for n in FORWARD_TRANSFORMS)
        and all(errors[n] != "no error" for n in REVERSE_TRANSFORMS),
        rule="holds if torch.func.jacfwd, jvp and vmap run without error and grad, vjp, jacrev "
        "and hessian raise, "
        + ("inside saved_tensors_hooks" if under_hooks else "without saved_tensors_hooks"),
        measurements=tuple(
            Measurement(f"st-func-{name}-{place}-hooks", error.splitlines()[0][:120], "exception")
            for name, error in errors.items()
        ),
    )


FUNC_FORWARD_TRANSFORMS_ALLOW_HOOKS = Claim(
    id="saved-tensors/func-forward-transforms-allow-hooks",
    statement="torch.func.jacfwd, torch.func.jvp and torch.func.vmap run inside "
    "saved_tensors_hooks; only grad, vjp, jacrev and hessian refuse them.",
    expect=Expect.HOLDS,
    probe=probe_func_forward_transforms_allow_hooks,
    devices=("cpu",),
    measures=tuple(f"st-func-{n}-under-hooks" for n in FORWARD_TRANSFORMS + REVERSE_TRANSFORMS),
    control=Control(
        "the same seven transforms without saved_tensors_hooks",
        control_func_transforms_without_hooks,
        measures=("st-func-grad-without-hooks", "st-func-hessian-without-hooks"),
    ),
)


CLAIMS = (
    FUNC_TRANSFORMS_FORBID_HOOKS,
    FUNC_FORWARD_TRANSFORMS_ALLOW_HOOKS,
)
