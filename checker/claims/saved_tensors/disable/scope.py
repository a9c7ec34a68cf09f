"""Claims of "Scope: nesting, threads and per-tensor hooks" (docs/topics/saved-tensors.md,
``(st-disable-scope)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect
from checker.claims.saved_tensors._model import MESSAGE, _error
from checker.claims.saved_tensors.disable._block import _block
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_disable_nesting(device: Device) -> Observation:
    return _nesting_rule(inner_real=True)


def control_nesting_without_inner_block(device: Device) -> Observation:
    return _nesting_rule(inner_real=False)


def _nesting_rule(inner_real: bool) -> Observation:
    from torch.autograd.graph import disable_saved_tensors_hooks, saved_tensors_hooks

    def register() -> None:
        with saved_tensors_hooks(lambda t: t, lambda t: t):
            pass

    with disable_saved_tensors_hooks("outer"):
        with _block("inner", inner_real):
            inner = _error(register)
        outer = _error(register)
    after = _error(register)
    return Observation(
        holds=inner == "RuntimeError: inner"
        and outer == "RuntimeError: outer"
        and after == "no error",
        rule="holds if the inner block's message applies inside it, the outer message "
        "applies again after it, and hooks work after both",
        measurements=(
            Measurement("st-nested-inner-error", inner, "exception"),
            Measurement("st-nested-outer-error", outer, "exception"),
            Measurement("st-after-nested-blocks", after, "text"),
        ),
    )


DISABLE_NESTS_AND_RESTORES = Claim(
    id="saved-tensors/disable-nests-and-restores",
    statement="Nested disable_saved_tensors_hooks blocks apply the innermost message and "
    "restore the outer one when the inner block ends.",
    expect=Expect.HOLDS,
    probe=probe_disable_nesting,
    control=Control(
        "the inner block replaced by a plain block",
        control_nesting_without_inner_block,
    ),
    devices=("cpu",),
    measures=("st-nested-inner-error", "st-nested-outer-error", "st-after-nested-blocks"),
)


def probe_disable_thread_local(device: Device) -> Observation:
    return _thread_rule(device, real=True)


def control_thread_without_block(device: Device) -> Observation:
    return _thread_rule(device, real=False)


def _thread_rule(device: Device, real: bool) -> Observation:
    import threading

    import torch
    from torch.autograd.graph import saved_tensors_hooks

    x = torch.ones(4, device=device, requires_grad=True)
    found: dict[str, str] = {}

    def register() -> None:
        with saved_tensors_hooks(lambda t: t, lambda t: t):
            x.exp()

    def other_thread() -> None:
        found["other"] = _error(register)

    with _block(MESSAGE, real):
        thread = threading.Thread(target=other_thread)
        thread.start()
        thread.join()
        this = _error(register)
    return Observation(
        holds=found["other"] == "no error" and this == f"RuntimeError: {MESSAGE}",
        rule="holds if another thread registers hooks without error while this thread is "
        "inside the block, where registering raises",
        measurements=(
            Measurement("st-hooks-in-other-thread", found["other"], "text"),
            Measurement("st-hooks-in-this-thread", this, "exception"),
        ),
    )


DISABLE_IS_THREAD_LOCAL = Claim(
    id="saved-tensors/disable-is-thread-local",
    statement="disable_saved_tensors_hooks affects only the thread that enters it.",
    expect=Expect.HOLDS,
    probe=probe_disable_thread_local,
    control=Control(
        "both threads outside the block",
        control_thread_without_block,
    ),
    devices=("cpu",),
    measures=("st-hooks-in-other-thread", "st-hooks-in-this-thread"),
)


def probe_disable_per_tensor_hooks(device: Device) -> Observation:
    return _per_tensor_rule(device, after_backward=False)


def control_per_tensor_hooks_after_backward(device: Device) -> Observation:
    return _per_tensor_rule(device, after_backward=True)


def _per_tensor_rule(device: Device, after_backward: bool) -> Observation:
    import torch
    from torch.autograd.graph import disable_saved_tensors_hooks

    a = torch.randn(8, device=device, requires_grad=True)
    b = torch.randn(8, device=device, requires_grad=True)
    calls: list[str] = []

    def pack(t: Any) -> Any:
        calls.append("pack")
        return t.detach()

    def unpack(t: Any) -> Any:
        calls.append("unpack")
        return t

    with disable_saved_tensors_hooks(MESSAGE):
        y: Any = a * b
        if after_backward:  # the saved tensors are freed: nothing left to hook
            y.sum().backward()
        error = _error(lambda: y.grad_fn._raw_saved_self.register_hooks(pack, unpack))
        if not after_backward:
            y.sum().backward()
    return Observation(
        holds=error == "no error" and calls == ["pack", "unpack"],
        rule="holds if register_hooks on one saved tensor (grad_fn._raw_saved_self) works "
        "inside the block and its pack and unpack hooks both run"
        + (" (registered after backward)" if after_backward else ""),
        measurements=(
            Measurement("st-per-tensor-hooks-error", error, "text"),
            Measurement("st-per-tensor-hook-calls", ", ".join(calls), "text"),
        ),
    )


DISABLE_ALLOWS_PER_TENSOR_HOOKS = Claim(
    id="saved-tensors/disable-allows-per-tensor-hooks",
    statement="disable_saved_tensors_hooks does not block hooks registered on one saved "
    "tensor through grad_fn._raw_saved_*.register_hooks.",
    expect=Expect.HOLDS,
    probe=probe_disable_per_tensor_hooks,
    control=Control(
        "hooks registered after backward freed the saved tensor",
        control_per_tensor_hooks_after_backward,
    ),
    devices=("cpu",),
    measures=("st-per-tensor-hooks-error", "st-per-tensor-hook-calls"),
)


CLAIMS = (
    DISABLE_NESTS_AND_RESTORES,
    DISABLE_IS_THREAD_LOCAL,
    DISABLE_ALLOWS_PER_TENSOR_HOOKS,
)
