"""Claims of "What ``save_on_cpu`` copies per step" (docs/topics/saved-tensors.md,
``(st-offload-amount)=``) and "Keeping the parameters on the device"
(``(st-offload-keep-parameters)=``): the bytes each pair of hooks sends to host memory, by
kind of tensor, and a pair that leaves the parameters and the batch on their device."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.saved_tensors._model import _clear_grads, ffn_batch, ffn_model
from checker.evidence import Measurement, Observation
from checker.typing import Device


@dataclass(frozen=True)
class Offloaded:
    """What one forward of the model sent to host memory through a pair of hooks."""

    #: Tensors the pack hook received.
    packed: int
    #: Bytes sent to host memory, by kind: ``parameters``, ``batch``, ``activations``.
    parameters: int
    batch: int
    activations: int
    #: Whether every gradient equals the default step's, bit for bit.
    same_gradients: bool

    @property
    def total(self) -> int:
        return self.parameters + self.batch + self.activations


def _offload(device: Device, hooks: str) -> Offloaded:
    """One step of the model under ``hooks``: ``save-on-cpu``, ``keep`` (a pair that leaves the
    parameters and the batch in place and moves the rest to host memory) or ``keep-none``
    (the same pair with nothing left in place). A packed value that is a tuple went to host
    memory; a tensor stayed where it was."""
    import torch
    from torch.autograd.graph import save_on_cpu, saved_tensors_hooks

    model, batch = ffn_model(device), ffn_batch(device)
    params = list(model.parameters())
    kinds = {p.untyped_storage().data_ptr(): "parameters" for p in params}
    kinds[batch.untyped_storage().data_ptr()] = "batch"
    kept = kinds if hooks == "keep" else {}

    def to_host_unless_kept(t: Any) -> Any:
        if t.untyped_storage().data_ptr() in kept:
            return t.detach()
        return t.device, t.detach().cpu()

    def back_to_device(packed: Any) -> Any:
        if isinstance(packed, torch.Tensor):
            return packed
        where, t = packed
        return t.to(where)

    pair = (
        save_on_cpu()
        if hooks == "save-on-cpu"
        else saved_tensors_hooks(to_host_unless_kept, back_to_device)
    )
    pack = pair.pack_hook
    sent = {"parameters": 0, "batch": 0, "activations": 0}
    count = 0

    def sizing(t: Any) -> Any:
        nonlocal count
        count += 1
        packed = pack(t)
        if isinstance(packed, tuple):
            sent[kinds.get(t.untyped_storage().data_ptr(), "activations")] += t.nbytes
        return packed

    pair.pack_hook = sizing
    model(batch).mean().backward()
    reference = [p.grad.clone() for p in params]
    _clear_grads(model)
    with pair:
        loss = model(batch).mean()
    loss.backward()
    same = all(torch.equal(p.grad, r) for p, r in zip(params, reference, strict=True))
    _clear_grads(model)
    return Offloaded(count, sent["parameters"], sent["batch"], sent["activations"], same)


def probe_save_on_cpu_offloads_only_activations(device: Device) -> Observation:
    return _only_activations_rule(device, "save-on-cpu")


def control_hooks_that_keep_parameters(device: Device) -> Observation:
    return _only_activations_rule(device, "keep")


def _only_activations_rule(device: Device, hooks: str) -> Observation:
    sent = _offload(device, hooks)
    key = "st-offload-soc" if hooks == "save-on-cpu" else "st-offload-keep"
    measurements = [
        Measurement(f"{key}-parameter-bytes", sent.parameters, "bytes"),
        Measurement(f"{key}-batch-bytes", sent.batch, "bytes"),
    ]
    if hooks == "save-on-cpu":
        measurements += [
            Measurement(f"{key}-packed", sent.packed, "count"),
            Measurement(f"{key}-activation-bytes", sent.activations, "bytes"),
            Measurement(f"{key}-bytes", sent.total, "bytes"),
        ]
    return Observation(
        holds=sent.activations > 0 and sent.parameters == 0 and sent.batch == 0,
        rule="holds if, over one forward of the model, "
        + (
            "the pack hook of save_on_cpu"
            if hooks == "save-on-cpu"
            else "the pack hook of a pair that leaves the parameters and the batch in place"
        )
        + " sends activations to host memory and no parameter nor the input batch",
        measurements=tuple(measurements),
    )


MYTH_SAVE_ON_CPU_OFFLOADS_ONLY_ACTIVATIONS = Claim(
    id="saved-tensors/myth-save-on-cpu-offloads-only-activations",
    statement="save_on_cpu offloads only the activations: the parameters and the input batch "
    "stay on their device.",
    expect=Expect.FAILS,
    probe=probe_save_on_cpu_offloads_only_activations,
    measures=(
        "st-offload-soc-parameter-bytes",
        "st-offload-soc-batch-bytes",
        "st-offload-soc-packed",
        "st-offload-soc-activation-bytes",
        "st-offload-soc-bytes",
    ),
    control=Control(
        "a pair of hooks that leaves the parameters and the batch in place",
        control_hooks_that_keep_parameters,
        measures=("st-offload-keep-parameter-bytes", "st-offload-keep-batch-bytes"),
    ),
    vocabulary=Vocabulary(
        subjects=("save_on_cpu",),
        predicates={
            "en": ("only the activations", "only activations"),
            "ja": ("アクティベーションだけ", "アクティベーションのみ"),
            "ko": ("활성값만",),
        },
    ),
)


def probe_keeping_hooks_offload_less(device: Device) -> Observation:
    return _keeping_rule(device, "keep")


def control_hooks_keeping_nothing(device: Device) -> Observation:
    return _keeping_rule(device, "keep-none")


def _keeping_rule(device: Device, hooks: str) -> Observation:
    everything = _offload(device, "save-on-cpu")
    sent = _offload(device, hooks)
    key = "st-offload-kept" if hooks == "keep" else "st-offload-none-kept"
    return Observation(
        holds=sent.total < everything.total and sent.same_gradients,
        rule="holds if the pair of hooks "
        + (
            "that leaves the parameters and the batch in place"
            if hooks == "keep"
            else "that leaves nothing in place"
        )
        + " sends fewer bytes to host memory than save_on_cpu over one forward of the model, "
        "and the gradients equal the default step's bit for bit",
        measurements=(
            Measurement(f"{key}-bytes", sent.total, "bytes"),
            Measurement(f"{key}-ratio", round(sent.total / everything.total, 4), "ratio"),
            Measurement(f"{key}-same-gradients", sent.same_gradients, "bool"),
        ),
    )


HOOKS_CAN_KEEP_PARAMETERS_ON_DEVICE = Claim(
    id="saved-tensors/offload-hooks-can-keep-parameters",
    statement="A pair of saved-tensor hooks that leaves the parameters and the input batch in "
    "place offloads fewer bytes than save_on_cpu, and gives identical gradients.",
    expect=Expect.HOLDS,
    probe=probe_keeping_hooks_offload_less,
    measures=(
        "st-offload-kept-bytes",
        "st-offload-kept-ratio",
        "st-offload-kept-same-gradients",
    ),
    control=Control(
        "the same pair, leaving nothing in place",
        control_hooks_keeping_nothing,
        measures=(
            "st-offload-none-kept-bytes",
            "st-offload-none-kept-ratio",
            "st-offload-none-kept-same-gradients",
        ),
    ),
    vocabulary=Vocabulary(
        subjects=("saved_tensors_hooks", "saved-tensor hooks", "フックの組", "훅 쌍"),
        predicates={
            "en": ("fewer bytes", "less memory"),
            "ja": ("バイト数が少な", "少ないバイト"),
            "ko": ("더 적은 바이트", "바이트가 적"),
        },
    ),
)


CLAIMS = (
    MYTH_SAVE_ON_CPU_OFFLOADS_ONLY_ACTIVATIONS,
    HOOKS_CAN_KEEP_PARAMETERS_ON_DEVICE,
)
