"""Claims of "Measuring saved memory in bytes" (docs/topics/saved-tensors.md, ``(st-measure)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect
from checker.claims.saved_tensors._model import (
    _RULE_MARGIN,
    _forward,
    _trace_step,
    ffn_batch,
    ffn_model,
)
from checker.evidence import Measurement, Observation
from checker.measure import cuda_memory, packed, saved_bytes
from checker.typing import Device


def probe_hooks_miss_ctx_attributes(device: Device) -> Observation:
    return _packed_buffers(device, ctx_attribute=True)


def control_hooks_see_save_for_backward(device: Device) -> Observation:
    return _packed_buffers(device, ctx_attribute=False)


def _packed_buffers(device: Device, ctx_attribute: bool) -> Observation:
    """Which tensors kept for backward reach pack hooks: dropout's mask, batch norm's
    statistics, max pooling's indices, and a custom Function's tensor kept as a ``ctx``
    attribute (or, with ``ctx_attribute`` False, through ``save_for_backward``)."""
    import torch
    from torch.nn import functional

    x = torch.randn(4, 3, 8, 8, device=device, requires_grad=True)
    norm = torch.nn.BatchNorm2d(3).to(device)

    class Keep(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, a: Any) -> Any:
            kept = a * 2
            if ctx_attribute:
                ctx.kept = kept
            else:
                ctx.save_for_backward(kept)
            return a.sin()

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            kept = ctx.kept if ctx_attribute else ctx.saved_tensors[0]
            return grad * kept

    def seen(fn: Any) -> list[Any]:
        out, tensors = packed(fn)
        return [*tensors, out]  # the output keeps the graph alive while the caller looks

    dropout = seen(lambda: functional.dropout(x, 0.5, training=True))
    stats = seen(lambda: norm(x))
    pooled = seen(lambda: functional.max_pool2d(x, 2))
    custom = seen(lambda: Keep.apply(x))  # type: ignore[no-untyped-call]
    mask_seen = any(t.shape == x.shape and t is not x for t in dropout[:-1])
    stats_seen = _batch_statistics_seen(stats[:-1], x, norm)
    indices_seen = any(t.dtype == torch.int64 for t in pooled[:-1])
    kept_seen = len(custom) - 1 > 0 and any(t.shape == x.shape for t in custom[:-1])
    return Observation(
        holds=mask_seen and stats_seen and indices_seen and not kept_seen,
        rule="holds if pack hooks see dropout's mask, batch norm's saved batch mean and inverse "
        "standard deviation (apart from its weight and running buffers) and max "
        "pooling's indices, but not the tensor a custom Function keeps through "
        + ("a ctx attribute" if ctx_attribute else "save_for_backward"),
        measurements=(
            Measurement("st-hooks-see-dropout-mask", mask_seen, "bool"),
            Measurement("st-hooks-see-norm-statistics", stats_seen, "bool"),
            Measurement("st-hooks-see-pool-indices", indices_seen, "bool"),
            Measurement(
                "st-hooks-see-ctx-attribute"
                if ctx_attribute
                else "st-hooks-see-saved-for-backward",
                kept_seen,
                "bool",
            ),
        ),
    )


def _batch_statistics_seen(tensors: list[Any], x: Any, norm: Any) -> bool:
    """Whether ``tensors`` (what pack hooks saw of ``norm(x)``) hold the batch's own mean and
    inverse standard deviation per channel, apart from the layer's parameters and running
    buffers."""
    import torch

    own = {t.untyped_storage().data_ptr() for t in (*norm.parameters(), *norm.buffers())}
    batch = x.detach()
    mean = batch.mean((0, 2, 3))
    invstd = (batch.var((0, 2, 3), unbiased=False) + norm.eps).rsqrt()
    apart = [
        t.detach().float()
        for t in tensors
        if t.untyped_storage().data_ptr() not in own and t.shape == mean.shape
    ]

    def among(value: Any) -> bool:
        return any(torch.allclose(t, value, rtol=1e-4, atol=1e-5) for t in apart)

    return among(mean) and among(invstd)


PACK_HOOKS_MISS_CTX_ATTRIBUTES = Claim(
    id="saved-tensors/pack-hooks-miss-ctx-attributes",
    statement="Pack hooks see the masks, statistics and indices that dropout, batch norm and "
    "max pooling keep for backward, but not a tensor that a custom Function keeps as a ctx "
    "attribute.",
    expect=Expect.HOLDS,
    probe=probe_hooks_miss_ctx_attributes,
    measures=(
        "st-hooks-see-dropout-mask",
        "st-hooks-see-norm-statistics",
        "st-hooks-see-pool-indices",
        "st-hooks-see-ctx-attribute",
    ),
    control=Control(
        "the same Function with save_for_backward",
        control_hooks_see_save_for_backward,
        measures=("st-hooks-see-saved-for-backward",),
    ),
)


def probe_held_equals_saved_activations(device: Device) -> Observation:
    return _held_equals_saved_rule(device, "default")


def control_held_under_checkpoint(device: Device) -> Observation:
    return _held_equals_saved_rule(device, "checkpoint")


def _held_equals_saved_rule(device: Device, variant: str) -> Observation:
    model, batch = ffn_model(device), ffn_batch(device)
    params = list(model.parameters())
    _, saved = saved_bytes(lambda: _forward("default", model, batch), exclude=[*params, batch])
    trace = _trace_step(variant, model, batch, device)
    held = trace.marks["forward"]
    return Observation(
        holds=abs(held - saved.bytes) <= _RULE_MARGIN * saved.bytes,
        rule=f"holds if the memory held after a {variant} forward is within 1% of the bytes of "
        "the activations a default forward packs for backward (parameters and input batch "
        "left out)",
        measurements=(
            Measurement("st-saved-packs", saved.packs, "count"),
            Measurement("st-saved-activation-bytes", saved.bytes, "bytes"),
            Measurement("st-saved-all-bytes", saved.all_bytes, "bytes"),
            Measurement(f"st-held-{variant}", held, "bytes"),
            Measurement(f"st-peak-{variant}", trace.peak, "bytes"),
        ),
    )


HELD_MEMORY_IS_THE_SAVED_ACTIVATIONS = Claim(
    id="saved-tensors/held-memory-is-the-saved-activations",
    statement="After forward, the memory the model holds is the activations its operations "
    "saved for backward, as counted by pack hooks.",
    expect=Expect.HOLDS,
    probe=probe_held_equals_saved_activations,
    control=Control(
        "a checkpointed forward, which holds less than it would save",
        control_held_under_checkpoint,
    ),
    measures=(
        "st-saved-packs",
        "st-saved-activation-bytes",
        "st-saved-all-bytes",
        "st-held-default",
        "st-peak-default",
    ),
)


def probe_cuda_workspace(device: Device) -> Observation:
    return _workspace_rule(device, warm=False)


def control_cuda_workspace_after_warm_up(device: Device) -> Observation:
    return _workspace_rule(device, warm=True)


def _workspace_rule(device: Device, warm: bool) -> Observation:
    import torch

    a = torch.randn(256, 256, device=device)
    b = torch.randn(256, 256, device=device)

    def extra() -> int:
        product, memory = cuda_memory(lambda: a.mm(b))
        return memory.allocated - int(product.untyped_storage().nbytes())

    if warm:
        extra()
    first = extra()
    second = extra()
    return Observation(
        holds=first > 0 and second == 0,
        rule="holds if the first matrix product measured"
        + (" (after one unmeasured product)" if warm else " in a process")
        + " leaves more memory allocated than its result, and the second leaves exactly its "
        "result",
        measurements=(
            Measurement("st-cuda-first-mm-extra-bytes", first, "bytes"),
            Measurement("st-cuda-second-mm-extra-bytes", second, "bytes"),
        ),
    )


CUDA_FIRST_MATMUL_KEEPS_WORKSPACE = Claim(
    id="saved-tensors/cuda-first-matmul-keeps-workspace",
    statement="On CUDA, the first matrix product leaves more memory allocated than its "
    "result: a cuBLAS workspace that stays allocated. Later products allocate only their result.",
    expect=Expect.HOLDS,
    probe=probe_cuda_workspace,
    control=Control(
        "the same products after one unmeasured product",
        control_cuda_workspace_after_warm_up,
    ),
    devices=("cuda",),
    measures=("st-cuda-first-mm-extra-bytes", "st-cuda-second-mm-extra-bytes"),
)


def probe_cuda_workspace_per_stream(device: Device) -> Observation:
    return _stream_workspace_rule(device, other_stream=True)


def control_cuda_workspace_same_stream(device: Device) -> Observation:
    return _stream_workspace_rule(device, other_stream=False)


def _stream_workspace_rule(device: Device, other_stream: bool) -> Observation:
    """After a product on the current stream (unmeasured), two products on ``other_stream``
    (a new stream) or on the current one again: what each leaves beyond its result."""
    import torch

    a = torch.randn(256, 256, device=device)
    b = torch.randn(256, 256, device=device)
    a.mm(b)  # the current stream's workspace, before anything is measured
    torch.cuda.synchronize()
    new_stream: Any = torch.cuda.Stream
    stream = new_stream() if other_stream else torch.cuda.current_stream()

    def extra() -> int:
        with torch.cuda.stream(stream):
            product, memory = cuda_memory(lambda: a.mm(b))
        return memory.allocated - int(product.untyped_storage().nbytes())

    first = extra()
    second = extra()
    key = "st-cuda-new-stream" if other_stream else "st-cuda-same-stream"
    return Observation(
        holds=first > 0 and second == 0,
        rule="holds if, after a product on the current stream, the first product "
        + ("on a new stream" if other_stream else "on the same stream again")
        + " leaves more memory allocated than its result, and the second leaves exactly its "
        "result",
        measurements=(
            Measurement(f"{key}-first-mm-extra-bytes", first, "bytes"),
            Measurement(f"{key}-second-mm-extra-bytes", second, "bytes"),
        ),
    )


CUDA_WORKSPACE_PER_STREAM = Claim(
    id="saved-tensors/cuda-workspace-per-stream",
    statement="On CUDA, the cuBLAS workspace belongs to a stream: the first matrix product on "
    "another stream leaves a workspace allocated again.",
    expect=Expect.HOLDS,
    probe=probe_cuda_workspace_per_stream,
    control=Control(
        "the products on the same stream again",
        control_cuda_workspace_same_stream,
        measures=("st-cuda-same-stream-first-mm-extra-bytes",),
    ),
    devices=("cuda",),
    measures=(
        "st-cuda-new-stream-first-mm-extra-bytes",
        "st-cuda-new-stream-second-mm-extra-bytes",
    ),
)


CLAIMS = (
    PACK_HOOKS_MISS_CTX_ATTRIBUTES,
    HELD_MEMORY_IS_THE_SAVED_ACTIVATIONS,
    CUDA_FIRST_MATMUL_KEEPS_WORKSPACE,
    CUDA_WORKSPACE_PER_STREAM,
)
