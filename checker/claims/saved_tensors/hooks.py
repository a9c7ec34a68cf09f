"""Claims of "Default hooks: ``saved_tensors_hooks(pack, unpack)``"
(docs/topics/saved-tensors.md, ``(st-hooks)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.saved_tensors._model import (
    _RULE_MARGIN,
    _clear_grads,
    _ratio,
    _trace_step,
    ffn_batch,
    ffn_model,
)
from checker.evidence import Measurement, Observation
from checker.measure import trace_memory
from checker.typing import Device


def probe_pack_unpack_timing(device: Device) -> Observation:
    return _pack_unpack_rule(device, run_backward=True)


def control_pack_unpack_without_backward(device: Device) -> Observation:
    return _pack_unpack_rule(device, run_backward=False)


def _pack_unpack_rule(device: Device, run_backward: bool) -> Observation:
    import torch

    model, batch = ffn_model(device), ffn_batch(device)
    calls = {"pack": 0, "unpack": 0}

    def pack(t: Any) -> Any:
        calls["pack"] += 1
        return t.detach()

    def unpack(t: Any) -> Any:
        calls["unpack"] += 1
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        loss = model(batch).mean()
    after_forward = dict(calls)
    if run_backward:
        loss.backward()
    return Observation(
        holds=after_forward["pack"] > 0
        and after_forward["unpack"] == 0
        and calls["unpack"] == calls["pack"],
        rule="holds if pack ran during forward, unpack did not run before backward, and "
        "every packed tensor was unpacked once by the end"
        + ("" if run_backward else " (no backward is run)"),
        measurements=(
            Measurement("st-packs-after-forward", after_forward["pack"], "count"),
            Measurement("st-unpacks-after-forward", after_forward["unpack"], "count"),
            Measurement("st-unpacks-after-backward", calls["unpack"], "count"),
        ),
    )


PACK_IN_FORWARD_UNPACK_IN_BACKWARD = Claim(
    id="saved-tensors/pack-in-forward-unpack-in-backward",
    statement="A pack hook runs during forward for every tensor saved. The unpack hook runs "
    "only during backward, once for each packed tensor.",
    expect=Expect.HOLDS,
    probe=probe_pack_unpack_timing,
    control=Control(
        "the same forward without backward",
        control_pack_unpack_without_backward,
    ),
    measures=(
        "st-packs-after-forward",
        "st-unpacks-after-forward",
        "st-unpacks-after-backward",
    ),
    vocabulary=Vocabulary(subjects=("saved_tensors_hooks", "pack_hook", "unpack_hook")),
)


def probe_bf16_compression(device: Device) -> Observation:
    import torch

    return _compression_rule(device, torch.bfloat16)


def control_float32_hooks(device: Device) -> Observation:
    import torch

    return _compression_rule(device, torch.float32)


def _compression_rule(device: Device, dtype: Any) -> Observation:
    import torch

    model, batch = ffn_model(device), ffn_batch(device)
    keep = {t.untyped_storage().data_ptr() for t in [*model.parameters(), batch]}

    def compress(t: Any) -> Any:
        if t.untyped_storage().data_ptr() in keep:
            return t.detach()
        return (t.dtype, t.to(dtype).clone())

    def decompress(packed: Any) -> Any:
        if isinstance(packed, torch.Tensor):
            return packed
        dtype, t = packed
        return t.to(dtype)

    default = _trace_step("default", model, batch, device)
    model(batch).mean().backward()
    reference = [p.grad.clone() for p in model.parameters()]
    _clear_grads(model)

    def step(mark: Any) -> None:
        with torch.autograd.graph.saved_tensors_hooks(compress, decompress):
            loss = model(batch).mean()
        mark("forward")
        loss.backward()

    _, trace = trace_memory(step, device)
    error = max(
        float((p.grad - r).abs().max() / r.abs().max())
        for p, r in zip(model.parameters(), reference, strict=True)
    )
    ratio = _ratio(trace.marks["forward"], default.marks["forward"])
    return Observation(
        holds=ratio <= 0.5 + _RULE_MARGIN and error < 0.05,
        rule=f"holds if the memory held after forward with pack hooks storing {dtype} is at most "
        "51% of the default, and every gradient is within 5% of the float32 one "
        "(largest difference over largest value)",
        measurements=(
            Measurement("st-held-bf16-hooks", trace.marks["forward"], "bytes"),
            Measurement("st-bf16-held-ratio", ratio, "ratio"),
            Measurement("st-bf16-gradient-error", round(error, 5), "ratio"),
        ),
    )


BF16_HOOKS_HALVE_HELD_MEMORY = Claim(
    id="saved-tensors/bf16-hooks-halve-held-memory",
    statement="Pack hooks that store activations in bfloat16 halve the memory held "
    "after forward, at the cost of slightly different gradients.",
    expect=Expect.HOLDS,
    probe=probe_bf16_compression,
    control=Control(
        "pack hooks that store float32 copies",
        control_float32_hooks,
    ),
    measures=("st-held-bf16-hooks", "st-bf16-held-ratio", "st-bf16-gradient-error"),
)


CLAIMS = (
    PACK_IN_FORWARD_UNPACK_IN_BACKWARD,
    BF16_HOOKS_HALVE_HELD_MEMORY,
)
