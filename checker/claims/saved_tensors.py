"""Claims of the page "What autograd saves for backward" (docs/topics/saved-tensors.md) and of
the review of an article about ``disable_saved_tensors_hooks``
(docs/reviews/disable-saved-tensors-hooks-article.md).

Most memory claims measure the same small model (:func:`ffn_model`, four feed-forward blocks)
under one variant each: default autograd, ``disable_saved_tensors_hooks``, ``no_grad``,
``inference_mode``, ``save_on_cpu``, non-reentrant checkpointing, and keeping or deleting
Python references. A variant's probe measures the default too, and reports its own values
and their ratio to the default, so that every rule can be checked against the numbers shown.
"""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.measure import (
    MemoryTrace,
    count_kernels,
    count_work,
    saved_bytes,
    shares_storage,
    trace_memory,
)
from checker.typing import Device, Lang

#: The message the probes give ``disable_saved_tensors_hooks``.
MESSAGE = "saved tensor hooks are off here"

_RULE_MARGIN = 0.01
#: A variant "takes less time" when its step takes less than this share of the default's.
_TIME_RATIO = 1 / 2


# -- the comparison model ---------------------------------------------------------------------

#: Shape of the comparison model: blocks of Linear(width, hidden), GELU, Linear(hidden, width).
FFN_BLOCKS = 4
FFN_WIDTH = 128
FFN_HIDDEN = 512
FFN_ROWS = 256


def ffn_model(device: str) -> Any:
    """The comparison model: :data:`FFN_BLOCKS` feed-forward blocks, seeded."""
    import torch

    torch.manual_seed(0)
    blocks = [
        torch.nn.Sequential(
            torch.nn.Linear(FFN_WIDTH, FFN_HIDDEN),
            torch.nn.GELU(),
            torch.nn.Linear(FFN_HIDDEN, FFN_WIDTH),
        )
        for _ in range(FFN_BLOCKS)
    ]
    return torch.nn.Sequential(*blocks).to(device)


def ffn_batch(device: str) -> Any:
    """A batch of :data:`FFN_ROWS` inputs for :func:`ffn_model`."""
    import torch

    generator = torch.Generator().manual_seed(1)
    return torch.randn(FFN_ROWS, FFN_WIDTH, generator=generator).to(device)


# -- shared pieces ---------------------------------------------------------------------------


def _error(call: Any) -> str:
    """``"Type: message"`` of what ``call()`` raises, or ``"no error"``."""
    try:
        call()
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return "no error"


def _forward(variant: str, model: Any, batch: Any) -> Any:  # noqa: PLR0911 (one per variant)
    """The model's loss under one variant."""
    import torch
    from torch.autograd.graph import disable_saved_tensors_hooks, save_on_cpu

    if variant == "default":
        return model(batch).mean()
    if variant == "disable":
        with disable_saved_tensors_hooks(MESSAGE):
            return model(batch).mean()
    if variant == "no-grad":
        with torch.no_grad():
            return model(batch).mean()
    if variant == "inference-mode":
        with torch.inference_mode():
            return model(batch).mean()
    if variant == "save-on-cpu":
        with save_on_cpu():
            return model(batch).mean()
    if variant == "save-on-cpu-pinned":
        with save_on_cpu(pin_memory=True):
            return model(batch).mean()
    if variant == "checkpoint":
        from torch.utils.checkpoint import checkpoint

        hidden = batch
        for block in model:
            hidden = checkpoint(block, hidden, use_reentrant=False)
        return hidden.mean()
    raise ValueError(f"unknown variant {variant!r}")


def _clear_grads(model: Any) -> None:
    for p in model.parameters():
        p.grad = None


def _trace_step(variant: str, model: Any, batch: Any, device: Device) -> MemoryTrace:
    """Memory of one forward (mark ``forward``) and backward (mark ``backward``), warmed up."""

    def step(mark: Any) -> None:
        loss = _forward(variant, model, batch)
        mark("forward")
        if loss.requires_grad:
            loss.backward()
        mark("backward")

    step(lambda name: None)  # warm-up: lazy workspaces are allocated once, outside the trace
    _clear_grads(model)
    _, trace = trace_memory(step, device)
    _clear_grads(model)
    return trace


def _compare(variant: str, device: Device) -> tuple[MemoryTrace, MemoryTrace]:
    """Traces of the default and of ``variant`` on the same model and batch."""
    model, batch = ffn_model(device), ffn_batch(device)
    default = _trace_step("default", model, batch, device)
    other = _trace_step(variant, model, batch, device)
    return default, other


def _ratio(a: int, b: int) -> float:
    return round(a / b, 4) if b else float("nan")


# -- what autograd saves ---------------------------------------------------------------------


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


def _saves(op: Any, x: Any) -> tuple[Any, Any]:
    """Run ``op(x)`` under pack hooks; the result and the storages packed."""
    import torch

    packed: list[int] = []

    def pack(t: Any) -> Any:
        packed.append(t.untyped_storage().data_ptr())
        return t.detach()

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = op(x)
    return out, packed


def _output_ops() -> dict[str, Any]:
    import torch

    return {"exp": torch.exp, "tanh": torch.tanh, "sigmoid": torch.sigmoid, "relu": torch.relu}


def _input_ops() -> dict[str, Any]:
    import torch

    return {"sin": torch.sin, "gelu": torch.nn.functional.gelu, "pow": lambda t: t.pow(2)}


def probe_output_savers(device: Device) -> Observation:
    return _output_saver_rule(device, _output_ops())


def control_input_savers_as_output_savers(device: Device) -> Observation:
    return _output_saver_rule(device, _input_ops())


def _output_saver_rule(device: Device, ops: dict[str, Any]) -> Observation:
    import torch

    x = torch.randn(256, 256, device=device, requires_grad=True)
    found = {}
    for name, op in ops.items():
        out, packed = _saves(op, x)
        found[name] = packed == [out.untyped_storage().data_ptr()]
    return Observation(
        holds=all(found.values()),
        rule=f"holds if {', '.join(ops)} each pack exactly one tensor, whose storage is their "
        "output's",
        measurements=tuple(
            Measurement(f"st-{name}-saves-output", ok, "bool") for name, ok in found.items()
        ),
    )


def probe_input_savers(device: Device) -> Observation:
    return _input_saver_rule(device, _input_ops())


def control_output_savers_as_input_savers(device: Device) -> Observation:
    return _input_saver_rule(device, _output_ops())


def _input_saver_rule(device: Device, ops: dict[str, Any]) -> Observation:
    import torch

    x = torch.randn(256, 256, device=device, requires_grad=True)
    found = {}
    for name, op in ops.items():
        _, packed = _saves(op, x)
        found[name] = packed == [x.untyped_storage().data_ptr()]
    return Observation(
        holds=all(found.values()),
        rule=f"holds if {', '.join(ops)} each pack exactly one tensor, whose storage is their "
        "input's",
        measurements=tuple(
            Measurement(f"st-{name}-saves-input", ok, "bool") for name, ok in found.items()
        ),
    )


def probe_saves_what_backward_needs(device: Device) -> Observation:
    return _needs_rule(device, c_requires_grad=False)


def control_constant_requires_grad(device: Device) -> Observation:
    return _needs_rule(device, c_requires_grad=True)


def _needs_rule(device: Device, c_requires_grad: bool) -> Observation:
    import torch

    x = torch.randn(128, 128, device=device, requires_grad=True)
    w = torch.randn(128, 128, device=device, requires_grad=True)
    c = torch.randn(128, 128, device=device, requires_grad=c_requires_grad)
    ptr = {id(t): t.untyped_storage().data_ptr() for t in (x, w, c)}
    _, add = _saves(lambda t: t + w, x)
    _, mul_both = _saves(lambda t: t * w, x)
    _, mul_one = _saves(lambda t: t * c, x)
    _, mm_both = _saves(lambda t: t.mm(w), x)
    _, mm_one = _saves(lambda t: t.mm(c), x)
    holds = (
        add == []
        and sorted(mul_both) == sorted([ptr[id(x)], ptr[id(w)]])
        and mul_one == [ptr[id(c)]]
        and sorted(mm_both) == sorted([ptr[id(x)], ptr[id(w)]])
        and mm_one == [ptr[id(c)]]
    )
    return Observation(
        holds=holds,
        rule="holds if x + w packs nothing, x * w and x.mm(w) pack x and w, and x * c and "
        f"x.mm(c) (c requires grad: {c_requires_grad}) pack only c",
        measurements=(
            Measurement("st-add-packs", len(add), "count"),
            Measurement("st-mul-packs-both-require-grad", len(mul_both), "count"),
            Measurement("st-mul-packs-one-requires-grad", len(mul_one), "count"),
            Measurement("st-mm-packs-both-require-grad", len(mm_both), "count"),
            Measurement("st-mm-packs-one-requires-grad", len(mm_one), "count"),
        ),
    )


def probe_saving_copies(device: Device) -> Observation:
    return _copies_rule(device, cloning_hooks=False)


def control_cloning_pack_hooks(device: Device) -> Observation:
    return _copies_rule(device, cloning_hooks=True)


def _copies_rule(device: Device, cloning_hooks: bool) -> Observation:
    import contextlib

    import torch

    def hooks() -> Any:
        if cloning_hooks:
            return torch.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t)
        return contextlib.nullcontext()

    def run(mark: Any) -> tuple[bool, bool, int]:
        x = torch.randn(256, 256, device=device, requires_grad=True)
        mark("input")
        with hooks():
            y: Any = x.exp()  # saves its output
        mark("exp")
        with hooks():
            s: Any = x.sin()  # saves its input
        return (
            shares_storage(y.grad_fn._saved_result, y),
            shares_storage(s.grad_fn._saved_self, x),
            x.nbytes,
        )

    (output_shared, input_shared, nbytes), trace = trace_memory(run, device)
    allocated = trace.marks["exp"] - trace.marks["input"]
    return Observation(
        holds=not output_shared or not input_shared or allocated > nbytes,
        rule="holds if a saved tensor does not share storage with the tensor saved, or if "
        "x.exp() allocates more than its own output while saving it"
        + (" (pack hooks clone what is saved)" if cloning_hooks else ""),
        measurements=(
            Measurement("st-saved-output-shares-storage", output_shared, "bool"),
            Measurement("st-saved-input-shares-storage", input_shared, "bool"),
            Measurement("st-exp-allocated-bytes", allocated, "bytes"),
            Measurement("st-exp-output-bytes", nbytes, "bytes"),
        ),
    )


def probe_saves_every_intermediate(device: Device) -> Observation:
    return _every_intermediate_rule(device, all_sin=False)


def control_chain_of_sines(device: Device) -> Observation:
    return _every_intermediate_rule(device, all_sin=True)


def _every_intermediate_rule(device: Device, all_sin: bool) -> Observation:
    import torch

    x = torch.randn(512, 512, device=device)
    w1 = torch.randn(512, 512, device=device, requires_grad=True)
    w2 = torch.randn(512, 512, device=device, requires_grad=True)
    packed: set[int] = set()

    def pack(t: Any) -> Any:
        packed.add(t.untyped_storage().data_ptr())
        return t.detach()

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        h1 = x.mm(w1)
        a1 = h1.sin() if all_sin else h1.relu()
        h2 = a1.mm(w2)
        a2 = h2.sin() if all_sin else h2.sigmoid()
        (a2.sin() if all_sin else a2).sum()
    intermediates = (h1, a1, h2, a2)
    saved = [t for t in intermediates if t.untyped_storage().data_ptr() in packed]
    return Observation(
        holds=len(saved) == len(intermediates),
        rule="holds if every intermediate of "
        + (
            "x.mm(w1).sin().mm(w2).sin().sin().sum()"
            if all_sin
            else "x.mm(w1).relu().mm(w2).sigmoid().sum()"
        )
        + " is among the storages packed for backward",
        measurements=(
            Measurement("st-chain-intermediates", len(intermediates), "count"),
            Measurement("st-chain-intermediates-saved", len(saved), "count"),
            Measurement(
                "st-chain-intermediate-bytes", sum(t.nbytes for t in intermediates), "bytes"
            ),
            Measurement("st-chain-saved-bytes", sum(t.nbytes for t in saved), "bytes"),
        ),
    )


def probe_backward_frees_saved(device: Device) -> Observation:
    return _backward_frees_rule(device, retain_graph=False)


def control_backward_retains_graph(device: Device) -> Observation:
    return _backward_frees_rule(device, retain_graph=True)


def _backward_frees_rule(device: Device, retain_graph: bool) -> Observation:
    model, batch = ffn_model(device), ffn_batch(device)
    _trace_step("default", model, batch, device)  # warm-up
    holder: dict[str, Any] = {}

    def step(mark: Any) -> None:
        loss = _forward("default", model, batch)
        mark("forward")
        loss.backward(retain_graph=retain_graph)
        mark("backward")
        holder["loss"] = loss  # the graph object stays referenced

    _, trace = trace_memory(step, device)
    grad_bytes = sum(p.grad.nbytes for p in model.parameters())
    node = holder["loss"].grad_fn.next_functions[0][0]  # MeanBackward0 -> AddmmBackward0
    error = _error(lambda: node._saved_mat1)
    extra = trace.marks["backward"] - grad_bytes
    held = trace.marks["forward"]
    return Observation(
        holds=0 <= extra < _RULE_MARGIN * held and error.startswith("RuntimeError"),
        rule="holds if, with the loss and its graph still referenced, the memory left after "
        f"backward (retain_graph={retain_graph}) exceeds the gradients' bytes by less than 1% "
        "of what forward held, "
        "and reading a saved tensor afterwards raises RuntimeError",
        measurements=(
            Measurement("st-held-before-backward", held, "bytes"),
            Measurement("st-held-after-backward", trace.marks["backward"], "bytes"),
            Measurement("st-gradient-bytes", grad_bytes, "bytes"),
            Measurement("st-saved-after-backward-error", error, "exception"),
        ),
    )


# -- measuring -------------------------------------------------------------------------------


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


def probe_cuda_workspace(device: Device) -> Observation:
    return _workspace_rule(device, warm=False)


def control_cuda_workspace_after_warm_up(device: Device) -> Observation:
    return _workspace_rule(device, warm=True)


def _workspace_rule(device: Device, warm: bool) -> Observation:
    import torch

    a = torch.randn(256, 256, device=device)
    b = torch.randn(256, 256, device=device)

    def extra() -> int:
        torch.cuda.synchronize()
        before = torch.cuda.memory_allocated()
        product = a.mm(b)
        torch.cuda.synchronize()
        return torch.cuda.memory_allocated() - before - product.untyped_storage().nbytes()

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


# -- saved_tensors_hooks ---------------------------------------------------------------------


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


# -- disable_saved_tensors_hooks -------------------------------------------------------------


def _block(message: str, real: bool) -> Any:
    """``disable_saved_tensors_hooks(message)``, or (``real`` False) a block that does nothing:
    the controls of the claims about the block run the same code without it."""
    import contextlib

    from torch.autograd.graph import disable_saved_tensors_hooks

    return disable_saved_tensors_hooks(message) if real else contextlib.nullcontext()


def probe_disable_requires_message(device: Device) -> Observation:
    return _requires_message_rule(with_message=False)


def control_disable_with_message(device: Device) -> Observation:
    return _requires_message_rule(with_message=True)


def _requires_message_rule(with_message: bool) -> Observation:
    from torch.autograd.graph import disable_saved_tensors_hooks

    error = _error(
        (lambda: disable_saved_tensors_hooks(MESSAGE))
        if with_message
        else disable_saved_tensors_hooks
    )
    return Observation(
        holds=error.startswith("TypeError") and "'error_message'" in error,
        rule="holds if calling disable_saved_tensors_hooks("
        + ("MESSAGE" if with_message else "")
        + ") raises a TypeError that names the missing argument error_message",
        measurements=(Measurement("st-disable-without-message", error, "exception"),),
    )


def probe_disable_context_and_decorator(device: Device) -> Observation:
    return _context_rule(device, real=True)


def control_context_without_block(device: Device) -> Observation:
    return _context_rule(device, real=False)


def _context_rule(device: Device, real: bool) -> Observation:
    import torch
    from torch.autograd.graph import disable_saved_tensors_hooks, saved_tensors_hooks

    def register() -> None:
        with saved_tensors_hooks(lambda t: t, lambda t: t):
            pass

    with _block(MESSAGE, real):
        inside_with = _error(register)

    def body() -> str:
        return _error(register)

    decorated = disable_saved_tensors_hooks("decorated")(body) if real else body
    inside_decorated = decorated()
    after = _error(register)
    x = torch.ones(2, device=device, requires_grad=True)
    with _block(MESSAGE, real):
        y = (x * x).sum()
    return Observation(
        holds=inside_with == f"RuntimeError: {MESSAGE}"
        and inside_decorated == "RuntimeError: decorated"
        and after == "no error"
        and y.grad_fn is not None,
        rule="holds if, used in a with statement and as a decorator, registering hooks "
        "inside raises RuntimeError with the given message, registering after it works, "
        "and operations inside still record a graph",
        measurements=(
            Measurement("st-hooks-in-with-block", inside_with, "exception"),
            Measurement("st-hooks-in-decorated-function", inside_decorated, "exception"),
            Measurement("st-hooks-after-block", after, "text"),
        ),
    )


def probe_disable_forbids_default_hooks(device: Device) -> Observation:
    return _forbids_hooks_rule(device, real=True)


def control_hooks_without_block(device: Device) -> Observation:
    return _forbids_hooks_rule(device, real=False)


def _forbids_hooks_rule(device: Device, real: bool) -> Observation:
    import torch
    from torch.autograd.graph import save_on_cpu, saved_tensors_hooks

    x = torch.randn(8, 8, device=device, requires_grad=True)

    def with_hooks() -> None:
        with saved_tensors_hooks(lambda t: t, lambda t: t):
            x.exp()

    def with_save_on_cpu() -> None:
        with save_on_cpu():
            x.exp()

    with _block(MESSAGE, real):
        hooks = _error(with_hooks)
        offload = _error(with_save_on_cpu)
    expected = f"RuntimeError: {MESSAGE}"
    return Observation(
        holds=hooks == expected and offload == expected,
        rule="holds if entering saved_tensors_hooks and save_on_cpu inside the block both "
        "raise RuntimeError whose message is exactly the block's error_message",
        measurements=(
            Measurement("st-saved-tensors-hooks-in-disable", hooks, "exception"),
            Measurement("st-save-on-cpu-in-disable", offload, "exception"),
        ),
    )


def probe_disable_forbids_checkpoint(device: Device) -> Observation:
    return _forbids_checkpoint_rule(device, real=True)


def control_checkpoint_without_block(device: Device) -> Observation:
    return _forbids_checkpoint_rule(device, real=False)


def _forbids_checkpoint_rule(device: Device, real: bool) -> Observation:
    import torch
    from torch.utils.checkpoint import checkpoint

    x = torch.randn(8, 8, device=device, requires_grad=True)

    def block(t: Any) -> Any:
        return t.sin().exp()

    with _block(MESSAGE, real):
        non_reentrant = _error(lambda: checkpoint(block, x, use_reentrant=False).sum().backward())
        reentrant = _error(lambda: checkpoint(block, x, use_reentrant=True).sum().backward())
    return Observation(
        holds=non_reentrant == f"RuntimeError: {MESSAGE}" and reentrant == "no error",
        rule="holds if checkpoint(use_reentrant=False) inside the block raises RuntimeError "
        "with the block's message, while checkpoint(use_reentrant=True) runs",
        measurements=(
            Measurement("st-nonreentrant-checkpoint-in-disable", non_reentrant, "exception"),
            Measurement("st-reentrant-checkpoint-in-disable", reentrant, "text"),
        ),
    )


def probe_disable_inside_active_hooks(device: Device) -> Observation:
    return _inside_hooks_rule(device, hooks_active=True)


def control_disable_without_active_hooks(device: Device) -> Observation:
    return _inside_hooks_rule(device, hooks_active=False)


def _inside_hooks_rule(device: Device, hooks_active: bool) -> Observation:
    import contextlib

    import torch
    from torch.autograd.graph import disable_saved_tensors_hooks, saved_tensors_hooks

    def enter() -> None:
        active = (
            saved_tensors_hooks(lambda t: t, lambda t: t)
            if hooks_active
            else contextlib.nullcontext()
        )
        with active, disable_saved_tensors_hooks(MESSAGE):
            pass

    error = _error(enter)

    def register() -> None:
        x = torch.ones(4, device=device, requires_grad=True)
        with saved_tensors_hooks(lambda t: t, lambda t: t):
            x.exp()

    after = _error(register)
    return Observation(
        holds=error == f"RuntimeError: {MESSAGE}" and after == "no error",
        rule="holds if entering the block while saved_tensors_hooks is active raises "
        "RuntimeError with the block's message, and hooks can be registered afterwards",
        measurements=(
            Measurement("st-disable-inside-hooks", error, "exception"),
            Measurement("st-hooks-after-failed-entry", after, "text"),
        ),
    )


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


def _saved_in_graph(root: Any) -> tuple[int, int]:
    """Saved tensors reachable from ``root``: how many, and the bytes of distinct storages."""
    import torch

    seen: set[int] = set()
    count = 0
    storages: dict[int, int] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        for name in dir(node):
            if name.startswith("_saved_"):
                value = getattr(node, name)
                if isinstance(value, torch.Tensor):
                    count += 1
                    storage = value.untyped_storage()
                    storages[storage.data_ptr()] = storage.nbytes()
        stack.extend(fn for fn, _ in node.next_functions)
    return count, sum(storages.values())


def probe_disable_stops_saving(device: Device) -> Observation:
    return _stops_saving_rule(device, "disable")


def control_no_grad_saves_nothing(device: Device) -> Observation:
    return _stops_saving_rule(device, "no-grad")


def _stops_saving_rule(device: Device, variant: str) -> Observation:
    model, batch = ffn_model(device), ffn_batch(device)
    count_default, bytes_default = _saved_in_graph(_forward("default", model, batch).grad_fn)
    count_variant, bytes_variant = _saved_in_graph(_forward(variant, model, batch).grad_fn)
    return Observation(
        holds=count_variant < count_default or bytes_variant < bytes_default,
        rule=f"holds if the graph built under {variant} holds fewer saved tensors, or fewer "
        "bytes of them, than the same forward outside (read through grad_fn._saved_*)",
        measurements=(
            Measurement("st-graph-saved-tensors-default", count_default, "count"),
            Measurement(f"st-graph-saved-tensors-{variant}", count_variant, "count"),
            Measurement("st-graph-saved-bytes-default", bytes_default, "bytes"),
            Measurement(f"st-graph-saved-bytes-{variant}", bytes_variant, "bytes"),
        ),
    )


def probe_disable_breaks_gradients(device: Device) -> Observation:
    return _breaks_gradients_rule(device, "disable")


def control_no_grad_breaks_gradients(device: Device) -> Observation:
    return _breaks_gradients_rule(device, "no-grad")


def _breaks_gradients_rule(device: Device, variant: str) -> Observation:
    import torch

    model, batch = ffn_model(device), ffn_batch(device)
    model(batch).mean().backward()
    reference = [p.grad.clone() for p in model.parameters()]
    _clear_grads(model)
    error = _error(lambda: _forward(variant, model, batch).backward())
    pairs = list(zip(model.parameters(), reference, strict=True))
    equal = error == "no error" and all(torch.equal(p.grad, r) for p, r in pairs)
    close = error == "no error" and all(
        torch.allclose(p.grad, r, rtol=1e-6, atol=0.0) for p, r in pairs
    )
    return Observation(
        holds=error != "no error" or not close,
        rule=f"holds if backward through a loss computed under {variant} raises, or gives "
        "gradients that differ from the ones computed outside by more than 1e-6 relative",
        measurements=(
            Measurement(f"st-backward-after-{variant}", error, "text"),
            Measurement(f"st-gradients-equal-with-{variant}", equal, "bool"),
        ),
    )


def probe_disable_reduces_memory(device: Device) -> Observation:
    return _reduces_memory_rule(device, "disable")


def control_checkpoint_reduces_memory(device: Device) -> Observation:
    return _reduces_memory_rule(device, "checkpoint")


def _reduces_memory_rule(device: Device, variant: str) -> Observation:
    default, disable = _compare(variant, device)
    held = _ratio(disable.marks["forward"], default.marks["forward"])
    peak = _ratio(disable.peak, default.peak)
    return Observation(
        holds=held < 1 - _RULE_MARGIN or peak < 1 - _RULE_MARGIN,
        rule="holds if, on the same model, the memory held after forward or the peak over "
        f"forward and backward is at least 1% lower under {variant} than with the default",
        measurements=(
            Measurement(f"st-held-{variant}", disable.marks["forward"], "bytes"),
            Measurement(f"st-peak-{variant}", disable.peak, "bytes"),
            Measurement(f"st-{variant}-held-ratio", held, "ratio"),
            Measurement(f"st-{variant}-peak-ratio", peak, "ratio"),
        ),
    )


def _article_loop(steps: int, device: Device) -> None:
    """Repeated small products on tensors that don't require grad."""
    import torch

    for _ in range(steps):
        x = torch.rand(64, 64, device=device)
        x.mm(x).sum()


def _variant_context(variant: str) -> Any:
    import torch
    from torch.autograd.graph import disable_saved_tensors_hooks

    if variant == "disable":
        return disable_saved_tensors_hooks(MESSAGE)
    if variant == "no-grad":
        return torch.no_grad()
    raise ValueError(f"unknown variant {variant!r}")


def _step(variant: str, model: Any, batch: Any) -> None:
    loss = _forward(variant, model, batch)
    if loss.requires_grad:
        loss.backward()


def _median_seconds(fn: Any, repeats: int) -> float:
    import statistics
    import time

    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _compute_rule(device: Device, variant: str) -> Observation:
    """Whether ``variant`` lowers the work of a training step and of a grad-free loop."""
    model, batch = ffn_model(device), ffn_batch(device)
    _step("default", model, batch)  # warm-up
    _article_loop(1, device)
    _clear_grads(model)
    _, step_default = count_work(lambda: _step("default", model, batch))
    _clear_grads(model)
    _, step_variant = count_work(lambda: _step(variant, model, batch))

    def loop_variant() -> None:
        with _variant_context(variant):
            _article_loop(50, device)

    _, loop_default = count_work(lambda: _article_loop(50, device))
    _, loop_variant_work = count_work(loop_variant)
    seconds: dict[str, list[float]] = {"default": [], variant: []}
    for round_ in range(8):  # interleaved, in turns, so that a busy machine slows both alike
        order = ("default", variant) if round_ % 2 else (variant, "default")
        for name in order:
            seconds[name].append(_median_seconds(lambda n=name: _step(n, model, batch), 5))
    _clear_grads(model)
    time_ratio = _ratio(int(1e9 * min(seconds[variant])), int(1e9 * min(seconds["default"])))
    fewer = (
        step_variant.ops < step_default.ops
        or step_variant.flops < step_default.flops
        or loop_variant_work.ops < loop_default.ops
        or loop_variant_work.flops < loop_default.flops
        or time_ratio < _TIME_RATIO
    )
    return Observation(
        holds=fewer,
        rule=f"holds if, under {variant}, a training step of the model or a loop of 50 "
        "grad-free matrix products runs fewer ATen operators or fewer FLOPs (as counted "
        "by the profiler) than outside, or the training step takes less than half of "
        "the time (best of eight medians of five, interleaved; timings on a shared machine "
        "vary by tens of percent, a real saving such as that of no_grad is several-fold)",
        measurements=(
            Measurement(f"st-step-ops-{variant}", step_variant.ops, "count"),
            Measurement(f"st-step-flops-{variant}", step_variant.flops, "count"),
            Measurement(f"st-loop-ops-{variant}", loop_variant_work.ops, "count"),
            Measurement(f"st-loop-flops-{variant}", loop_variant_work.flops, "count"),
            Measurement(f"st-step-time-ratio-{variant}", time_ratio, "ratio"),
            Measurement("st-step-ops-default", step_default.ops, "count"),
            Measurement("st-step-flops-default", step_default.flops, "count"),
            Measurement("st-loop-ops-default", loop_default.ops, "count"),
            Measurement("st-loop-flops-default", loop_default.flops, "count"),
        ),
    )


def probe_disable_reduces_compute(device: Device) -> Observation:
    return _compute_rule(device, "disable")


def control_no_grad_reduces_compute(device: Device) -> Observation:
    return _compute_rule(device, "no-grad")


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


def probe_func_forward_transforms_allow_hooks(device: Device) -> Observation:
    return _transforms_allow_hooks(device, ("jacfwd", "vmap"))


def control_func_grad_refuses_hooks(device: Device) -> Observation:
    return _transforms_allow_hooks(device, ("grad", "vjp"))


def _saves_result(device: Device, tensor_exponent: bool) -> Observation:
    import torch

    x = torch.rand(3, device=device, requires_grad=True)
    exponent: Any = torch.rand(3, device=device, requires_grad=True) if tensor_exponent else 2.0
    y = x**exponent
    node = y.grad_fn
    saved = sorted(
        name[len("_saved_") :]
        for name in dir(node)
        if name.startswith("_saved_") and isinstance(getattr(node, name), torch.Tensor)
    )
    result = getattr(node, "_saved_result", None)
    is_output = result is not None and result.untyped_storage().data_ptr() == (
        y.untyped_storage().data_ptr()
    )
    kind = "tensor" if tensor_exponent else "scalar"
    return Observation(
        holds=is_output and "self" in saved,
        rule=f"holds if x ** exponent with a {kind} exponent saves its result (the output "
        "itself) as well as x",
        measurements=(
            Measurement(f"st-pow-{kind}-node", type(node).__name__, "text"),
            Measurement(f"st-pow-{kind}-saved", ", ".join(saved), "text"),
            Measurement(f"st-pow-{kind}-saves-result", is_output, "bool"),
        ),
    )


def probe_pow_tensor_exponent_saves_result(device: Device) -> Observation:
    return _saves_result(device, tensor_exponent=True)


def control_pow_scalar_exponent(device: Device) -> Observation:
    return _saves_result(device, tensor_exponent=False)


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

    def packed(fn: Any) -> list[Any]:
        seen: list[Any] = []

        def pack(t: Any) -> Any:
            seen.append(t)
            return t

        with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            out = fn()
        seen.append(out)  # keeps the graph alive while the caller looks
        return seen

    dropout = packed(lambda: functional.dropout(x, 0.5, training=True))
    stats = packed(lambda: norm(x))
    pooled = packed(lambda: functional.max_pool2d(x, 2))
    custom = packed(lambda: Keep.apply(x))  # type: ignore[no-untyped-call]
    mask_seen = any(t.shape == x.shape and t is not x for t in dropout[:-1])
    stats_seen = sum(1 for t in stats[:-1] if t.shape == (3,)) >= 2
    indices_seen = any(t.dtype == torch.int64 for t in pooled[:-1])
    kept_seen = len(custom) - 1 > 0 and any(t.shape == x.shape for t in custom[:-1])
    return Observation(
        holds=mask_seen and stats_seen and indices_seen and not kept_seen,
        rule="holds if pack hooks see dropout's mask, batch norm's saved statistics and max "
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


def probe_hooks_miss_ctx_attributes(device: Device) -> Observation:
    return _packed_buffers(device, ctx_attribute=True)


def control_hooks_see_save_for_backward(device: Device) -> Observation:
    return _packed_buffers(device, ctx_attribute=False)


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


# -- tools that reduce memory ----------------------------------------------------------------


def _holds_nothing(variant: str, device: Device) -> Observation:
    default, other = _compare(variant, device)
    ratio = _ratio(other.marks["forward"], default.marks["forward"])
    return Observation(
        holds=ratio < _RULE_MARGIN,
        rule=f"holds if the memory held after a forward under {variant} is less than 1% of "
        "what the default forward holds",
        measurements=(
            Measurement(f"st-held-{variant}", other.marks["forward"], "bytes"),
            Measurement(f"st-peak-{variant}", other.peak, "bytes"),
            Measurement(f"st-{variant}-held-ratio", ratio, "ratio"),
        ),
    )


def probe_no_grad(device: Device) -> Observation:
    return _holds_nothing("no-grad", device)


def probe_inference_mode(device: Device) -> Observation:
    return _holds_nothing("inference-mode", device)


def control_disable_holds_everything(device: Device) -> Observation:
    return _holds_nothing("disable", device)


def probe_inference_tensor_trains_later_myth(device: Device) -> Observation:
    return _trains_later_rule(device, "inference_mode")


def control_no_grad_tensor_trains_later(device: Device) -> Observation:
    return _trains_later_rule(device, "no_grad")


def _trains_later_rule(device: Device, mode: str) -> Observation:
    """The myth "a tensor made under inference_mode can be used for training later": a
    float tensor made under ``mode`` goes, after the region, through a linear layer whose
    weight requires grad (its gradient needs the input saved), then backward."""
    import torch

    with getattr(torch, mode)():
        feature = torch.ones(4, 3, device=device) * 2
    layer = torch.nn.Linear(3, 1).to(device)
    error = _error(lambda: layer(feature).sum().backward())
    return Observation(
        holds=error == "no error",
        rule=f"holds if a tensor made under torch.{mode}() goes through a linear layer, "
        "after the region, and backward without an error",
        measurements=(
            Measurement(f"st-trains-later-{mode.replace('_', '-')}-error", error, "exception"),
        ),
    )


def probe_save_on_cpu_gpu(device: Device) -> Observation:
    return _offload_rule(device, "save-on-cpu")


def control_disable_keeps_gpu_memory(device: Device) -> Observation:
    return _offload_rule(device, "disable")


def _offload_rule(device: Device, variant: str) -> Observation:
    default, offload = _compare(variant, device)
    held = _ratio(offload.marks["forward"], default.marks["forward"])
    return Observation(
        holds=held < 0.05,
        rule=f"holds if the GPU memory held after forward under {variant} is less than 5% "
        "of the default's",
        measurements=(
            Measurement(f"st-gpu-held-{variant}", offload.marks["forward"], "bytes"),
            Measurement(f"st-gpu-peak-{variant}", offload.peak, "bytes"),
            Measurement(f"st-{variant}-gpu-held-ratio", held, "ratio"),
            Measurement(
                f"st-{variant}-gpu-peak-ratio", _ratio(offload.peak, default.peak), "ratio"
            ),
        ),
    )


def _unchanged_on_cpu(device: Device, variant: str) -> Observation:
    default, offload = _compare(variant, device)
    held = _ratio(offload.marks["forward"], default.marks["forward"])
    return Observation(
        holds=abs(held - 1) < _RULE_MARGIN,
        rule=f"holds if, for a model on the CPU, the memory held after forward under "
        f"{variant} is within 1% of the default's",
        measurements=(
            Measurement(f"st-held-{variant}", offload.marks["forward"], "bytes"),
            Measurement(f"st-peak-{variant}", offload.peak, "bytes"),
            Measurement(f"st-{variant}-held-ratio", held, "ratio"),
        ),
    )


def probe_save_on_cpu_cpu(device: Device) -> Observation:
    return _unchanged_on_cpu(device, "save-on-cpu")


def control_save_on_cpu_pinned(device: Device) -> Observation:
    return _unchanged_on_cpu(device, "save-on-cpu-pinned")


def probe_checkpoint_memory(device: Device) -> Observation:
    return _checkpoint_memory_rule(device, "checkpoint")


def control_disable_checkpoint_memory(device: Device) -> Observation:
    return _checkpoint_memory_rule(device, "disable")


def _checkpoint_memory_rule(device: Device, variant: str) -> Observation:
    default, ckpt = _compare(variant, device)
    held = _ratio(ckpt.marks["forward"], default.marks["forward"])
    peak = _ratio(ckpt.peak, default.peak)
    return Observation(
        holds=held < 0.25 and peak < 1,
        rule=f"holds if, under {variant}, the memory held after forward is under 25% of the "
        "default's and the peak over forward and backward is lower",
        measurements=(
            Measurement(f"st-held-{variant}", ckpt.marks["forward"], "bytes"),
            Measurement(f"st-peak-{variant}", ckpt.peak, "bytes"),
            Measurement(f"st-{variant}-held-ratio", held, "ratio"),
            Measurement(f"st-{variant}-peak-ratio", peak, "ratio"),
        ),
    )


#: The operators of a feed-forward block's forward: Linear -> addmm, GELU -> gelu.
_FORWARD_OPS = ("addmm", "gelu")


def _recomputed(device: Device, variant: str, early_stop: bool) -> tuple[dict[str, int], int]:
    """Forward operators a training step under ``variant`` runs beyond the default step's,
    with checkpointing's early stop on or off; and how many one plain forward runs."""
    from torch.utils.checkpoint import set_checkpoint_early_stop

    model, batch = ffn_model(device), ffn_batch(device)
    _forward(variant, model, batch).backward()  # warm-up
    _clear_grads(model)
    _, forward = count_kernels(lambda: _forward("default", model, batch), _FORWARD_OPS)
    _, default = count_kernels(lambda: _forward("default", model, batch).backward(), _FORWARD_OPS)
    _clear_grads(model)
    with set_checkpoint_early_stop(early_stop):
        _, step = count_kernels(lambda: _forward(variant, model, batch).backward(), _FORWARD_OPS)
    _clear_grads(model)
    extra = {name: step[name] - default[name] for name in _FORWARD_OPS}
    return extra, sum(forward.values())


def _recompute_rule(device: Device, variant: str) -> Observation:
    full, forward = _recomputed(device, variant, early_stop=False)
    early, _ = _recomputed(device, variant, early_stop=True)
    full_total, early_total = sum(full.values()), sum(early.values())
    return Observation(
        holds=full_total == forward and 0 < early_total < full_total,
        rule="holds if, counted with a TorchDispatchMode, a training step runs exactly one "
        "forward pass of addmm and gelu operators more than the default step with "
        "checkpointing's early stop off, and some but fewer with early stop on (the default)",
        measurements=(
            Measurement(f"st-{variant}-forward-ops", forward, "count"),
            Measurement(f"st-{variant}-recomputed-ops-full", full_total, "count"),
            Measurement(f"st-{variant}-recomputed-ops-early-stop", early_total, "count"),
            Measurement(f"st-{variant}-recomputed-addmm-early-stop", early["addmm"], "count"),
            Measurement(f"st-{variant}-recomputed-gelu-early-stop", early["gelu"], "count"),
        ),
    )


def probe_checkpoint_recomputes(device: Device) -> Observation:
    return _recompute_rule(device, "checkpoint")


def control_checkpoint_recomputes(device: Device) -> Observation:
    return _recompute_rule(device, "default")


def probe_del_unsaved(device: Device) -> Observation:
    return _del_unsaved_rule(device, saved=False)


def control_del_saved_output(device: Device) -> Observation:
    return _del_unsaved_rule(device, saved=True)


def _del_unsaved_rule(device: Device, saved: bool) -> Observation:
    import torch

    def run(mark: Any) -> int:
        x = torch.randn(512, 512, device=device, requires_grad=True)
        # exp's output is saved by ExpBackward0; the product's output by nobody
        y = x.exp() if saved else x.mm(x.detach())
        z: Any = y.sum()
        mark("before")
        nbytes = y.nbytes
        del y
        mark("after")
        z.backward()
        return nbytes

    nbytes, trace = trace_memory(run, device)
    freed = trace.marks["before"] - trace.marks["after"]
    return Observation(
        holds=freed >= nbytes,
        rule="holds if deleting the only Python reference to an output "
        + ("that exp's backward saved" if saved else "no backward node saved")
        + " frees at least its bytes",
        measurements=(
            Measurement("st-del-unsaved-bytes", nbytes, "bytes"),
            Measurement("st-del-unsaved-freed", freed, "bytes"),
        ),
    )


def probe_del_saved(device: Device) -> Observation:
    return _del_saved_rule(device, output_saved=True)


def control_del_unsaved_output(device: Device) -> Observation:
    return _del_saved_rule(device, output_saved=False)


def _del_saved_rule(device: Device, output_saved: bool) -> Observation:
    import torch

    def run(mark: Any) -> int:
        x = torch.randn(512, 512, device=device, requires_grad=True)
        y = x.exp() if output_saved else x.mm(x.detach())  # ExpBackward0 saves y
        s = y.sum()
        mark("output")
        nbytes = y.nbytes
        del y
        mark("output-deleted")
        a = torch.randn(512, 512, device=device, requires_grad=True)
        b = a.sin()  # SinBackward0 saves a; the graph keeps the leaf a
        t: Any = b.sum()
        mark("input")
        del a
        mark("input-deleted")
        (s + t).backward()
        return nbytes

    nbytes, trace = trace_memory(run, device)
    output_freed = trace.marks["output"] - trace.marks["output-deleted"]
    input_freed = trace.marks["input"] - trace.marks["input-deleted"]
    return Observation(
        holds=output_freed >= nbytes // 2 or input_freed >= nbytes // 2,
        rule="holds if deleting the Python name of "
        + ("a saved output (of exp)" if output_saved else "an output nobody saved (of mm)")
        + " or of a saved leaf input (of sin) before backward frees at least half of its bytes",
        measurements=(
            Measurement("st-del-saved-tensor-bytes", nbytes, "bytes"),
            Measurement("st-del-saved-output-freed", output_freed, "bytes"),
            Measurement("st-del-saved-input-freed", input_freed, "bytes"),
        ),
    )


def _forward_keeping_references(model: Any, batch: Any, keep: bool = True) -> tuple[Any, list[Any]]:
    """The default forward, with a list that references every module's output (or, without
    ``keep``, an empty list)."""
    outputs = []
    hidden = batch
    for block in model:
        for layer in block:
            hidden = layer(hidden)
            if keep:
                outputs.append(hidden)
    return hidden.mean(), outputs


def probe_del_references(device: Device) -> Observation:
    return _del_references_rule(device, keep=True)


def control_del_empty_list(device: Device) -> Observation:
    return _del_references_rule(device, keep=False)


def _del_references_rule(device: Device, keep: bool) -> Observation:
    model, batch = ffn_model(device), ffn_batch(device)
    default = _trace_step("default", model, batch, device)

    def keeping(mark: Any) -> None:
        loss, outputs = _forward_keeping_references(model, batch, keep)
        mark("forward")
        loss.backward()
        del outputs

    def deleting(mark: Any) -> None:
        loss, outputs = _forward_keeping_references(model, batch, keep)
        mark("forward")
        del outputs
        mark("deleted")
        loss.backward()

    keeping(lambda name: None)
    _clear_grads(model)
    _, kept = trace_memory(keeping, device)
    _clear_grads(model)
    _, deleted = trace_memory(deleting, device)
    _clear_grads(model)
    ratio = _ratio(deleted.marks["deleted"], default.marks["forward"])
    return Observation(
        holds=kept.marks["forward"] > deleted.marks["deleted"]
        and abs(ratio - 1) < _RULE_MARGIN
        and kept.peak > deleted.peak,
        rule="holds if deleting a list that references "
        + ("every module's output" if keep else "nothing")
        + " before backward "
        "lowers the held memory and the peak, but only back to within 1% of what the "
        "default forward holds",
        measurements=(
            Measurement("st-held-keep-references", kept.marks["forward"], "bytes"),
            Measurement("st-held-after-del", deleted.marks["deleted"], "bytes"),
            Measurement("st-peak-keep-references", kept.peak, "bytes"),
            Measurement("st-peak-del-references", deleted.peak, "bytes"),
            Measurement("st-del-references-held-ratio", ratio, "ratio"),
        ),
    )


def probe_del_reduces_compute(device: Device) -> Observation:
    return _del_compute_rule(device, cut_graph=False)


def control_first_block_without_grad(device: Device) -> Observation:
    return _del_compute_rule(device, cut_graph=True)


def _del_compute_rule(device: Device, cut_graph: bool) -> Observation:
    import torch

    model, batch = ffn_model(device), ffn_batch(device)
    _forward("default", model, batch).backward()  # warm-up
    _clear_grads(model)
    loss, outputs = _forward_keeping_references(model, batch)
    _, kept = count_work(loss.backward)
    _clear_grads(model)
    if cut_graph:  # the first block runs without a graph: backward has less to do
        with torch.no_grad():
            first = model[0](batch)
        loss, outputs = _forward_keeping_references(model[1:], first)
    else:
        loss, outputs = _forward_keeping_references(model, batch)
    del outputs
    _, deleted = count_work(loss.backward)
    return Observation(
        holds=deleted.ops < kept.ops or deleted.flops < kept.flops,
        rule="holds if backward runs fewer ATen operators or FLOPs after the references to "
        "the intermediates were deleted than with them kept"
        + (" (the first block ran under torch.no_grad())" if cut_graph else ""),
        measurements=(
            Measurement("st-backward-ops-kept", kept.ops, "count"),
            Measurement("st-backward-ops-deleted", deleted.ops, "count"),
            Measurement("st-backward-flops-kept", kept.flops, "count"),
            Measurement("st-backward-flops-deleted", deleted.flops, "count"),
        ),
    )


# -- the article's code, reproduced with our own minimal code (review page) --------------------


def probe_unindented_with(device: Device) -> Observation:
    return _with_block_rule(
        "import contextlib\nwith contextlib.suppress(KeyError):\n# a comment\nvalue = 1\n"
    )


def control_indented_with(device: Device) -> Observation:
    return _with_block_rule(
        "import contextlib\nwith contextlib.suppress(KeyError):\n    # a comment\n    value = 1\n"
    )


def _with_block_rule(source: str) -> Observation:
    error = _error(lambda: compile(source, "<flattened>", "exec"))
    return Observation(
        holds=error.startswith(
            "IndentationError: expected an indented block after 'with' statement"
        ),
        rule="holds if compiling the with statement raises IndentationError (expected an "
        "indented block) before anything runs",
        measurements=(Measurement("st-flattened-with-error", error, "exception"),),
    )


def probe_unindented_def(device: Device) -> Observation:
    return _def_block_rule("def double(value):\nreturn 2 * value\n")


def control_indented_def(device: Device) -> Observation:
    return _def_block_rule("def double(value):\n    return 2 * value\n")


def _def_block_rule(source: str) -> Observation:
    error = _error(lambda: compile(source, "<flattened>", "exec"))
    return Observation(
        holds=error.startswith(
            "IndentationError: expected an indented block after function definition"
        ),
        rule="holds if compiling the function definition raises IndentationError (expected "
        "an indented block)",
        measurements=(Measurement("st-flattened-def-error", error, "exception"),),
    )


def probe_rand_backward_after_del(device: Device) -> Observation:
    return _rand_backward_rule(device, requires_grad=False)


def control_rand_requiring_grad(device: Device) -> Observation:
    return _rand_backward_rule(device, requires_grad=True)


def _rand_backward_rule(device: Device, requires_grad: bool) -> Observation:
    import torch

    x = torch.rand(256, 256, device=device, requires_grad=requires_grad)
    y = x.mm(x)
    z = y.sum()
    del x, y
    error = _error(z.backward)
    return Observation(
        holds=error == "no error",
        rule=f"holds if z = torch.rand(..., requires_grad={requires_grad}) multiplied by "
        "itself and summed can be backpropagated after deleting x and y",
        measurements=(Measurement("st-rand-backward-after-del", error, "exception"),),
    )


def _pool_task(t: Any, delay_s: float = 0.0) -> float:
    """A worker's job: wait ``delay_s``, then sum ``t @ t`` (module level, so Pool can pickle
    it)."""
    import time

    import torch

    torch.set_num_threads(1)  # a forked child cannot use the parent's OpenMP threads
    time.sleep(delay_s)
    return float(t.mm(t).sum())


def _pool_copy_rule(already_shared: bool) -> Observation:
    import multiprocessing

    import torch

    x: Any = torch.rand(256, 256)
    if already_shared:
        x.share_memory_()
    before = x.untyped_storage().data_ptr()
    with multiprocessing.get_context("fork").Pool(1) as pool:
        result = pool.apply(_pool_task, (x,))
    moved = x.untyped_storage().data_ptr() != before
    shared = x.is_shared()
    same = abs(result - float(x.mm(x).sum())) <= 1e-3 * abs(result)
    prefix = "st-pool-preshared" if already_shared else "st-pool"
    return Observation(
        holds=not moved and same,
        rule="holds if, after a Pool worker received the tensor and returned its result, the "
        "tensor's storage is still the block it had before (no copy was made)",
        measurements=(
            Measurement(f"{prefix}-storage-moved", moved, "bool"),
            Measurement(f"{prefix}-tensor-is-shared", shared, "bool"),
            Measurement(f"{prefix}-result-correct", same, "bool"),
        ),
    )


def probe_pool_shares_without_copy(device: Device) -> Observation:
    return _pool_copy_rule(already_shared=False)


def control_pool_preshared(device: Device) -> Observation:
    return _pool_copy_rule(already_shared=True)


def probe_pool_result_after_with(device: Device) -> Observation:
    return _pool_result_rule(fetch_inside=False)


def control_pool_result_fetched_inside(device: Device) -> Observation:
    return _pool_result_rule(fetch_inside=True)


def _pool_result_rule(fetch_inside: bool) -> Observation:
    import multiprocessing

    import torch

    x = torch.rand(64, 64)
    pool_context = multiprocessing.get_context("fork")
    with pool_context.Pool(1) as pool:
        inside = pool.apply_async(_pool_task, (x, 0.1))
        inside_error = _error(lambda: inside.get(timeout=5))
    with pool_context.Pool(1) as pool:
        pending = pool.apply_async(_pool_task, (x, 0.1))
        if fetch_inside:
            error = _error(lambda: pending.get(timeout=5))
    ready = pending.ready()
    if not fetch_inside:
        error = _error(lambda: pending.get(timeout=1))
    return Observation(
        holds=error == "no error",
        rule="holds if a job that takes 0.1 s, requested with apply_async inside `with "
        "Pool()`, can be fetched "
        + ("inside the block" if fetch_inside else "within 1 s after the block ends"),
        measurements=(
            Measurement("st-pool-get-inside-with", inside_error, "text"),
            Measurement("st-pool-ready-after-with", ready, "bool"),
            Measurement("st-pool-get-after-with", error, "exception"),
        ),
    )


def probe_numpy_rand_memory(device: Device) -> Observation:
    return _numpy_rand_rule(as_float32=False)


def control_numpy_rand_as_float32(device: Device) -> Observation:
    return _numpy_rand_rule(as_float32=True)


def _numpy_rand_rule(as_float32: bool) -> Observation:
    import numpy as np
    import torch

    a = np.random.default_rng(0).random((512, 512))
    legacy = np.random.rand(512, 512)
    if as_float32:
        legacy = legacy.astype(np.float32)
    t = torch.rand(512, 512)
    return Observation(
        holds=legacy.nbytes <= t.nbytes,
        rule="holds if np.random.rand(512, 512)"
        + (".astype(np.float32)" if as_float32 else "")
        + " takes no more bytes than torch.rand(512, 512)",
        measurements=(
            Measurement("st-numpy-rand-bytes", int(legacy.nbytes), "bytes"),
            Measurement("st-numpy-rand-dtype", str(legacy.dtype), "dtype"),
            Measurement("st-numpy-generator-dtype", str(a.dtype), "dtype"),
            Measurement("st-torch-rand-bytes", t.nbytes, "bytes"),
            Measurement("st-torch-rand-dtype", str(t.dtype), "dtype"),
            Measurement("st-numpy-torch-bytes-ratio", _ratio(legacy.nbytes, t.nbytes), "ratio"),
        ),
    )


# -- vocabulary ------------------------------------------------------------------------------

_DISABLE = ("disable_saved_tensors_hooks",)
_REDUCE_MEMORY = Vocabulary(
    subjects=_DISABLE,
    predicates={
        "en": ("reduc", "save memory", "less memory", "lower memory"),
        "ja": ("メモリ使用量", "削減", "節約", "減ら", "抑え"),
        "ko": ("메모리", "줄이", "절약", "감소"),
    },
)
_REDUCE_COMPUTE = Vocabulary(
    subjects=_DISABLE,
    predicates={
        "en": ("compute", "faster", "speed"),
        "ja": ("計算コスト", "高速", "削減"),
        "ko": ("계산 비용", "연산", "빠르"),
    },
)


#: "Saves nothing for backward", as a region that records nothing (no_grad, inference_mode)
#: is described; the negations are part of the words.
_HOLDS_NOTHING: dict[Lang, tuple[str, ...]] = {
    "en": (
        "reduc",
        "save memory",
        "saving anything",
        "saves nothing",
        "nothing is saved",
        "holds no memory",
    ),
    "ja": (
        "削減",
        "節約",
        "何も保存しない",
        "何も保存されない",
        "メモリを保持しな",
        "メモリを保持しません",
    ),
    "ko": ("줄이", "절약", "아무것도 저장하지 않", "아무것도 저장되지 않", "메모리를 점유하지 않"),
}

CLAIMS = (
    # topics/saved-tensors.md (st-what-is-saved)
    Claim(
        id="saved-tensors/graph-needs-requires-grad",
        statement="Autograd records an operation only when one of its inputs requires grad; "
        "otherwise nothing is saved and backward raises the same error with or "
        "without disable_saved_tensors_hooks.",
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
    ),
    Claim(
        id="saved-tensors/some-ops-save-their-output",
        statement="exp, tanh, sigmoid and relu save their output for backward, not their input.",
        expect=Expect.HOLDS,
        probe=probe_output_savers,
        control=Control(
            "sin, gelu and pow, which save their input",
            control_input_savers_as_output_savers,
        ),
        measures=(
            "st-exp-saves-output",
            "st-tanh-saves-output",
            "st-sigmoid-saves-output",
            "st-relu-saves-output",
        ),
        vocabulary=Vocabulary(
            subjects=("sigmoid", "tanh", "relu", "exp(", "`exp`"),
            predicates={
                "en": (
                    "saves its output",
                    "save their output",
                    "saves the output",
                    "keeps its output",
                    "stores its output",
                ),
                "ja": ("出力を保存",),
                "ko": ("출력을 저장",),
            },
            denies=False,
            opposites={
                "en": (
                    "saves its input",
                    "save their input",
                    "saves the input",
                    "keeps its input",
                    "stores its input",
                ),
                "ja": ("入力を保存",),
                "ko": ("입력을 저장",),
            },
        ),
    ),
    Claim(
        id="saved-tensors/some-ops-save-their-input",
        statement="sin, gelu and pow save their input for backward, not their output.",
        expect=Expect.HOLDS,
        probe=probe_input_savers,
        control=Control(
            "exp, tanh, sigmoid and relu, which save their output",
            control_output_savers_as_input_savers,
        ),
        measures=("st-sin-saves-input", "st-gelu-saves-input", "st-pow-saves-input"),
    ),
    Claim(
        id="saved-tensors/pow-tensor-exponent-saves-result",
        statement="x ** y with a tensor exponent y saves its result for backward, as well as "
        "its inputs.",
        expect=Expect.HOLDS,
        probe=probe_pow_tensor_exponent_saves_result,
        measures=(
            "st-pow-tensor-node",
            "st-pow-tensor-saved",
            "st-pow-tensor-saves-result",
        ),
        control=Control(
            "a scalar exponent, which saves no result",
            control_pow_scalar_exponent,
            measures=("st-pow-scalar-saved",),
        ),
    ),
    Claim(
        id="saved-tensors/saves-only-what-backward-needs",
        statement="An operation saves only what its backward formula needs: add saves no "
        "tensor; mul and mm save the other operand of each input that requires "
        "grad.",
        expect=Expect.HOLDS,
        probe=probe_saves_what_backward_needs,
        control=Control(
            "c requiring grad too",
            control_constant_requires_grad,
        ),
        measures=(
            "st-add-packs",
            "st-mul-packs-both-require-grad",
            "st-mul-packs-one-requires-grad",
            "st-mm-packs-both-require-grad",
            "st-mm-packs-one-requires-grad",
        ),
    ),
    Claim(
        id="saved-tensors/myth-saving-copies-tensors",
        statement="Saving a tensor for backward copies it, which costs memory and time.",
        expect=Expect.FAILS,
        probe=probe_saving_copies,
        control=Control(
            "pack hooks that clone what is saved",
            control_cloning_pack_hooks,
        ),
        measures=(
            "st-saved-output-shares-storage",
            "st-saved-input-shares-storage",
            "st-exp-allocated-bytes",
            "st-exp-output-bytes",
        ),
        vocabulary=Vocabulary(
            subjects=("autograd", "grad_fn"),
            predicates={
                "en": ("copies it", "copies the", "saves a copy", "stores a copy", "copy of"),
                "ja": ("コピーして保存", "複製して保存", "のコピーを保存", "のコピーを作"),
                "ko": ("복사해 저장", "복사하여 저장", "복사본을 저장", "복사본을 만"),
            },
        ),
    ),
    Claim(
        id="saved-tensors/myth-autograd-saves-every-intermediate",
        statement="Autograd keeps every intermediate tensor of the forward pass for backward.",
        expect=Expect.FAILS,
        probe=probe_saves_every_intermediate,
        control=Control(
            "a chain of sines, whose every intermediate is saved",
            control_chain_of_sines,
        ),
        measures=(
            "st-chain-intermediates",
            "st-chain-intermediates-saved",
            "st-chain-intermediate-bytes",
            "st-chain-saved-bytes",
        ),
        vocabulary=Vocabulary(
            subjects=("autograd", "computational graph", "計算グラフ", "계산 그래프"),
            predicates={
                "en": ("every intermediate", "all intermediate", "all tensors"),
                "ja": ("すべてのテンソル", "中間結果を含む"),
                "ko": ("모든 텐서", "모든 중간"),
            },
        ),
    ),
    Claim(
        id="saved-tensors/backward-frees-saved-tensors",
        statement="Backward frees the saved tensors it used, even while the graph is still "
        "referenced; reading one afterwards raises an error.",
        expect=Expect.HOLDS,
        probe=probe_backward_frees_saved,
        control=Control(
            "backward(retain_graph=True), which keeps the saved tensors",
            control_backward_retains_graph,
        ),
        measures=(
            "st-held-before-backward",
            "st-held-after-backward",
            "st-gradient-bytes",
            "st-saved-after-backward-error",
        ),
        vocabulary=Vocabulary(
            subjects=("backward(",),
            predicates={
                "en": ("frees the saved", "frees saved", "second time raises", "twice raises"),
                "ja": (
                    "2回目はエラー",
                    "二度目はエラー",
                    "2回呼ぶとエラー",
                    "保存されたテンソルを解放",
                ),
                "ko": ("두 번 호출하면 오류", "두 번째 호출은 오류", "저장된 텐서를 해제"),
            },
            # "a second backward just accumulates the gradient again" denies it
            opposites={
                "en": (
                    "accumulates the gradient again",
                    "accumulates again",
                    "can be called twice",
                    "can call backward twice",
                    "frees nothing",
                ),
                "ja": ("勾配がもう一度加算", "2回呼べ", "二度呼べ", "何度でも呼べ"),
                "ko": ("두 번 호출할 수 있", "여러 번 호출할 수 있", "변화도가 다시 누적"),
            },
            unless={"en": ("retain_graph",), "ja": ("retain_graph",), "ko": ("retain_graph",)},
        ),
    ),
    # topics/saved-tensors.md (st-measure)
    Claim(
        id="saved-tensors/pack-hooks-miss-ctx-attributes",
        statement="Pack hooks see the masks, statistics and indices that dropout, batch norm "
        "and max pooling keep for backward, but not a tensor a custom Function keeps as a "
        "ctx attribute.",
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
    ),
    Claim(
        id="saved-tensors/held-memory-is-the-saved-activations",
        statement="After forward, the memory a model holds is the activations its operations "
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
    ),
    Claim(
        id="saved-tensors/cuda-first-matmul-keeps-workspace",
        statement="On CUDA, the first matrix product leaves a cuBLAS workspace allocated beyond "
        "its result; later products allocate only their result.",
        expect=Expect.HOLDS,
        probe=probe_cuda_workspace,
        control=Control(
            "the same products after one unmeasured product",
            control_cuda_workspace_after_warm_up,
        ),
        devices=("cuda",),
        measures=("st-cuda-first-mm-extra-bytes", "st-cuda-second-mm-extra-bytes"),
    ),
    # topics/saved-tensors.md (st-hooks)
    Claim(
        id="saved-tensors/pack-in-forward-unpack-in-backward",
        statement="A pack hook runs in forward for every tensor saved; the unpack hook runs "
        "only in backward, once per packed tensor.",
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
    ),
    Claim(
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
    ),
    # topics/saved-tensors.md (st-disable)
    Claim(
        id="saved-tensors/disable-requires-error-message",
        statement="disable_saved_tensors_hooks has a required argument, error_message: "
        "calling it without one raises TypeError.",
        expect=Expect.HOLDS,
        probe=probe_disable_requires_message,
        control=Control(
            "the call with a message",
            control_disable_with_message,
        ),
        devices=("cpu",),
        measures=("st-disable-without-message",),
        vocabulary=Vocabulary(
            subjects=_DISABLE,
            predicates={
                "en": ("argument", "error_message"),
                "ja": ("引数", "error_message"),
                "ko": ("인수", "인자", "error_message"),
            },
        ),
    ),
    Claim(
        id="saved-tensors/disable-is-a-context-manager",
        statement="disable_saved_tensors_hooks(message) works as a context manager and as a "
        "decorator; operations inside still record a graph.",
        expect=Expect.HOLDS,
        probe=probe_disable_context_and_decorator,
        control=Control(
            "the same code without the block",
            control_context_without_block,
        ),
        devices=("cpu",),
        measures=(
            "st-hooks-in-with-block",
            "st-hooks-in-decorated-function",
            "st-hooks-after-block",
        ),
        vocabulary=Vocabulary(
            subjects=_DISABLE,
            predicates={
                "en": ("context manager", "decorator"),
                "ja": ("コンテキストマネージャ", "デコレータ"),
                "ko": ("컨텍스트 매니저", "데코레이터"),
            },
        ),
    ),
    Claim(
        id="saved-tensors/disable-forbids-default-hooks",
        statement="Inside disable_saved_tensors_hooks, entering saved_tensors_hooks or "
        "save_on_cpu raises RuntimeError with the given error_message.",
        expect=Expect.HOLDS,
        probe=probe_disable_forbids_default_hooks,
        control=Control(
            "the same hooks without the block",
            control_hooks_without_block,
        ),
        measures=("st-saved-tensors-hooks-in-disable", "st-save-on-cpu-in-disable"),
        vocabulary=Vocabulary(
            subjects=_DISABLE,
            predicates={
                "en": ("raise", "error", "forbid"),
                "ja": ("エラー", "禁止"),
                "ko": ("오류", "에러", "금지"),
            },
        ),
    ),
    Claim(
        id="saved-tensors/disable-forbids-nonreentrant-checkpoint",
        statement="Inside disable_saved_tensors_hooks, checkpoint(use_reentrant=False) raises "
        "the block's RuntimeError; checkpoint(use_reentrant=True) still runs.",
        expect=Expect.HOLDS,
        probe=probe_disable_forbids_checkpoint,
        control=Control(
            "the same checkpoints without the block",
            control_checkpoint_without_block,
        ),
        measures=("st-nonreentrant-checkpoint-in-disable", "st-reentrant-checkpoint-in-disable"),
        vocabulary=Vocabulary(subjects=(*_DISABLE, "checkpoint")),
    ),
    Claim(
        id="saved-tensors/disable-fails-inside-active-hooks",
        statement="Entering disable_saved_tensors_hooks while saved_tensors_hooks are active "
        "raises RuntimeError with its error_message.",
        expect=Expect.HOLDS,
        probe=probe_disable_inside_active_hooks,
        control=Control(
            "entering the block with no hooks active",
            control_disable_without_active_hooks,
        ),
        measures=("st-disable-inside-hooks", "st-hooks-after-failed-entry"),
    ),
    Claim(
        id="saved-tensors/disable-nests-and-restores",
        statement="Nested disable_saved_tensors_hooks blocks apply the innermost message and "
        "restore the outer one on exit.",
        expect=Expect.HOLDS,
        probe=probe_disable_nesting,
        control=Control(
            "the inner block replaced by a plain block",
            control_nesting_without_inner_block,
        ),
        devices=("cpu",),
        measures=("st-nested-inner-error", "st-nested-outer-error", "st-after-nested-blocks"),
    ),
    Claim(
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
    ),
    Claim(
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
    ),
    Claim(
        id="saved-tensors/func-transforms-forbid-hooks",
        statement="torch.func.grad disables saved tensor hooks while it runs: it raises "
        "inside saved_tensors_hooks, and so does registering hooks inside it.",
        expect=Expect.HOLDS,
        probe=probe_func_forbids_hooks,
        control=Control(
            "torch.autograd.grad, which is not a transform",
            control_autograd_grad_allows_hooks,
        ),
        devices=("cpu",),
        measures=("st-func-grad-in-hooks", "st-hooks-in-func-grad"),
        vocabulary=Vocabulary(subjects=(*_DISABLE, "torch.func")),
    ),
    Claim(
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
    ),
    Claim(
        id="saved-tensors/myth-disable-stops-saving",
        statement="Inside disable_saved_tensors_hooks, autograd stops saving intermediate "
        "results for backward.",
        expect=Expect.FAILS,
        probe=probe_disable_stops_saving,
        control=Control(
            "torch.no_grad(), which saves nothing",
            control_no_grad_saves_nothing,
        ),
        measures=(
            "st-graph-saved-tensors-default",
            "st-graph-saved-tensors-disable",
            "st-graph-saved-bytes-default",
            "st-graph-saved-bytes-disable",
        ),
        vocabulary=Vocabulary(
            subjects=_DISABLE,
            predicates={
                "en": ("not saved", "stops saving", "no intermediate"),
                "ja": ("保存されません", "保存されない", "無効化"),
                "ko": ("저장되지", "비활성화"),
            },
        ),
    ),
    Claim(
        id="saved-tensors/myth-disable-breaks-gradients",
        statement="Results computed inside disable_saved_tensors_hooks cannot be used to "
        "compute gradients.",
        expect=Expect.FAILS,
        probe=probe_disable_breaks_gradients,
        control=Control(
            "torch.no_grad(), which leaves nothing to backpropagate",
            control_no_grad_breaks_gradients,
        ),
        measures=("st-backward-after-disable", "st-gradients-equal-with-disable"),
        vocabulary=Vocabulary(
            subjects=_DISABLE,
            predicates={
                "en": ("cannot be used", "gradient"),
                "ja": ("勾配計算に使用できない", "勾配計算に使用できません"),
                "ko": ("기울기", "변화도", "사용할 수 없"),
            },
        ),
    ),
    Claim(
        id="saved-tensors/myth-disable-reduces-memory",
        statement="Running a model inside disable_saved_tensors_hooks reduces the memory "
        "autograd uses.",
        expect=Expect.FAILS,
        probe=probe_disable_reduces_memory,
        control=Control(
            "activation checkpointing",
            control_checkpoint_reduces_memory,
        ),
        measures=(
            "st-held-disable",
            "st-peak-disable",
            "st-disable-held-ratio",
            "st-disable-peak-ratio",
        ),
        vocabulary=_REDUCE_MEMORY,
    ),
    Claim(
        id="saved-tensors/myth-disable-reduces-compute",
        statement="Running code inside disable_saved_tensors_hooks reduces its compute cost.",
        expect=Expect.FAILS,
        probe=probe_disable_reduces_compute,
        measures=(
            "st-step-ops-default",
            "st-step-ops-disable",
            "st-step-flops-default",
            "st-step-flops-disable",
            "st-loop-ops-default",
            "st-loop-ops-disable",
            "st-loop-flops-default",
            "st-loop-flops-disable",
            "st-step-time-ratio-disable",
        ),
        vocabulary=_REDUCE_COMPUTE,
        control=Control("no_grad, which skips backward", control_no_grad_reduces_compute),
    ),
    # topics/saved-tensors.md (st-tools)
    Claim(
        id="saved-tensors/no-grad-holds-nothing",
        statement="Under torch.no_grad(), a forward pass holds no memory for backward.",
        expect=Expect.HOLDS,
        probe=probe_no_grad,
        control=Control(
            "disable_saved_tensors_hooks, which saves what the default saves",
            control_disable_holds_everything,
        ),
        measures=("st-held-no-grad", "st-peak-no-grad", "st-no-grad-held-ratio"),
        vocabulary=Vocabulary(
            subjects=("no_grad",),
            predicates=_HOLDS_NOTHING,
        ),
    ),
    Claim(
        id="saved-tensors/inference-mode-holds-nothing",
        statement="Under torch.inference_mode(), a forward pass holds no memory for backward.",
        expect=Expect.HOLDS,
        probe=probe_inference_mode,
        control=Control(
            "disable_saved_tensors_hooks, which saves what the default saves",
            control_disable_holds_everything,
        ),
        measures=(
            "st-held-inference-mode",
            "st-peak-inference-mode",
            "st-inference-mode-held-ratio",
        ),
        vocabulary=Vocabulary(
            subjects=("inference_mode",),
            predicates=_HOLDS_NOTHING,
        ),
    ),
    Claim(
        id="saved-tensors/myth-inference-tensors-train-later",
        statement="A tensor created under torch.inference_mode() can be used for training "
        "later, once the region is left.",
        expect=Expect.FAILS,
        probe=probe_inference_tensor_trains_later_myth,
        control=Control(
            "a tensor created under torch.no_grad()",
            control_no_grad_tensor_trains_later,
            measures=("st-trains-later-no-grad-error",),
        ),
        measures=("st-trains-later-inference-mode-error",),
        vocabulary=Vocabulary(
            subjects=("inference_mode",),
            predicates={
                "en": ("for training", "in training", "train later", "trained later"),
                "ja": ("学習に", "訓練に", "学習で", "訓練で"),
                "ko": ("학습에", "훈련에", "학습할 때"),
            },
            opposites={
                "en": ("saved for backward", "raise", "error"),
                "ja": ("エラー", "例外", "保存できない"),
                "ko": ("오류", "에러", "예외", "저장할 수 없"),
            },
        ),
    ),
    Claim(
        id="saved-tensors/save-on-cpu-frees-gpu-memory",
        statement="save_on_cpu moves the tensors saved for backward to host memory: after "
        "forward they no longer occupy the GPU.",
        expect=Expect.HOLDS,
        probe=probe_save_on_cpu_gpu,
        control=Control(
            "disable_saved_tensors_hooks, which keeps the saved tensors on the GPU",
            control_disable_keeps_gpu_memory,
        ),
        devices=("cuda",),
        measures=(
            "st-gpu-held-save-on-cpu",
            "st-gpu-peak-save-on-cpu",
            "st-save-on-cpu-gpu-held-ratio",
            "st-save-on-cpu-gpu-peak-ratio",
        ),
        vocabulary=Vocabulary(
            subjects=("save_on_cpu",),
            predicates={
                "en": ("reduc", "offload"),
                "ja": ("削減", "オフロード"),
                "ko": ("줄이", "오프로드"),
            },
        ),
    ),
    Claim(
        id="saved-tensors/save-on-cpu-changes-nothing-on-cpu",
        statement="For a model that already runs on the CPU, save_on_cpu with its default "
        "pin_memory=False does not change the memory held for backward.",
        expect=Expect.HOLDS,
        probe=probe_save_on_cpu_cpu,
        devices=("cpu",),
        measures=("st-held-save-on-cpu", "st-peak-save-on-cpu", "st-save-on-cpu-held-ratio"),
        control=Control(
            "save_on_cpu(pin_memory=True), which copies",
            control_save_on_cpu_pinned,
            measures=("st-save-on-cpu-pinned-held-ratio",),
        ),
    ),
    Claim(
        id="saved-tensors/checkpoint-holds-only-block-inputs",
        statement="Non-reentrant activation checkpointing keeps each block's input instead of "
        "its activations after forward, and lowers the peak of forward and backward.",
        expect=Expect.HOLDS,
        probe=probe_checkpoint_memory,
        control=Control(
            "disable_saved_tensors_hooks, which saves what the default saves",
            control_disable_checkpoint_memory,
        ),
        measures=(
            "st-held-checkpoint",
            "st-peak-checkpoint",
            "st-checkpoint-held-ratio",
            "st-checkpoint-peak-ratio",
        ),
        vocabulary=Vocabulary(
            subjects=("checkpoint",),
            predicates={
                "en": ("reduc", "save memory"),
                "ja": ("削減", "節約"),
                "ko": ("줄이", "절약"),
            },
        ),
    ),
    Claim(
        id="saved-tensors/checkpoint-recomputes-forward",
        statement="Activation checkpointing pays for its memory saving by running each "
        "checkpointed forward again during backward, up to the last tensor backward needs "
        "(early stop), or in full with early stop off.",
        expect=Expect.HOLDS,
        probe=probe_checkpoint_recomputes,
        devices=("cpu",),
        measures=(
            "st-checkpoint-forward-ops",
            "st-checkpoint-recomputed-ops-full",
            "st-checkpoint-recomputed-ops-early-stop",
            "st-checkpoint-recomputed-addmm-early-stop",
            "st-checkpoint-recomputed-gelu-early-stop",
        ),
        control=Control("no checkpointing", control_checkpoint_recomputes),
        vocabulary=Vocabulary(
            subjects=("checkpoint", "チェックポイント", "체크포인트"),
            predicates={
                "en": ("recompute", "forward again", "runs the forward"),
                "ja": ("再計算", "もう一度実行", "計算し直"),
                "ko": ("다시 계산", "재계산", "다시 실행"),
            },
            opposites={
                "en": ("compute stays the same", "no extra compute", "costs no compute"),
                "ja": ("計算量はそのまま", "計算量は同じ"),
                "ko": ("계산량은 그대로", "계산량이 그대로", "계산량은 같"),
            },
        ),
    ),
    Claim(
        id="saved-tensors/del-frees-unsaved-intermediate",
        statement="Deleting the last Python reference to an intermediate that no backward "
        "node saved frees its memory at once.",
        expect=Expect.HOLDS,
        probe=probe_del_unsaved,
        control=Control(
            "an output that exp's backward saved",
            control_del_saved_output,
        ),
        measures=("st-del-unsaved-bytes", "st-del-unsaved-freed"),
        vocabulary=Vocabulary(
            subjects=("del ", "明示的に削除"),
            predicates={"en": ("free", "reduc"), "ja": ("削除", "削減"), "ko": ("삭제", "줄이")},
            denies=False,  # "that no backward node saved" qualifies the subject
        ),
    ),
    Claim(
        id="saved-tensors/myth-del-frees-saved-tensor",
        statement="Deleting a tensor with del before backward frees its memory, even if "
        "autograd saved it.",
        expect=Expect.FAILS,
        probe=probe_del_saved,
        control=Control(
            "an output nobody saved",
            control_del_unsaved_output,
        ),
        measures=(
            "st-del-saved-tensor-bytes",
            "st-del-saved-output-freed",
            "st-del-saved-input-freed",
        ),
        vocabulary=Vocabulary(
            subjects=("del ", "`del`", "明示的に削除", "del로", "del을", "delで"),
            predicates={
                "en": (
                    "saved tensor",
                    "saved for backward",
                    "saved activation",
                    "even if … saved",
                    "autograd saved it",
                ),
                "ja": (
                    "保存されたテンソル",
                    "保存された中間",
                    "保存済み",
                    "保存されていても",
                    "保存したテンソルであっても",
                ),
                "ko": (
                    "저장된 텐서",
                    "저장된 중간",
                    "저장되어 있어도",
                    "저장했더라도",
                    "저장한 텐서라도",
                ),
            },
        ),
    ),
    Claim(
        id="saved-tensors/del-references-returns-to-default",
        statement="Deleting your own references to a model's intermediates before backward "
        "brings memory back to the default level, not below it.",
        expect=Expect.HOLDS,
        probe=probe_del_references,
        control=Control(
            "deleting an empty list",
            control_del_empty_list,
        ),
        measures=(
            "st-held-keep-references",
            "st-held-after-del",
            "st-peak-keep-references",
            "st-peak-del-references",
            "st-del-references-held-ratio",
        ),
    ),
    Claim(
        id="saved-tensors/myth-del-reduces-compute",
        statement="Deleting intermediates with del before backward reduces the compute cost "
        "of backward.",
        expect=Expect.FAILS,
        probe=probe_del_reduces_compute,
        control=Control(
            "the first block run under torch.no_grad()",
            control_first_block_without_grad,
        ),
        measures=(
            "st-backward-ops-kept",
            "st-backward-ops-deleted",
            "st-backward-flops-kept",
            "st-backward-flops-deleted",
        ),
        vocabulary=Vocabulary(
            subjects=("del ", "明示的に削除"),
            predicates={
                "en": ("compute", "faster"),
                "ja": ("計算コスト", "高速"),
                "ko": ("계산 비용", "빠르"),
            },
        ),
    ),
    # reviews/disable-saved-tensors-hooks-article.md (st-review-claims)
    Claim(
        id="saved-tensors/flattened-with-block-does-not-compile",
        statement="A with statement whose body lost its indentation does not compile: "
        "Python raises IndentationError.",
        expect=Expect.HOLDS,
        probe=probe_unindented_with,
        control=Control(
            "the same block with its indentation",
            control_indented_with,
        ),
        devices=("cpu",),
        measures=("st-flattened-with-error",),
    ),
    Claim(
        id="saved-tensors/flattened-def-does-not-compile",
        statement="A function definition whose body lost its indentation does not compile: "
        "Python raises IndentationError.",
        expect=Expect.HOLDS,
        probe=probe_unindented_def,
        control=Control(
            "the same definition with its indentation",
            control_indented_def,
        ),
        devices=("cpu",),
        measures=("st-flattened-def-error",),
    ),
    Claim(
        id="saved-tensors/myth-rand-result-backpropagates",
        statement="A sum computed from torch.rand tensors can be backpropagated after the "
        "inputs are deleted.",
        expect=Expect.FAILS,
        probe=probe_rand_backward_after_del,
        control=Control(
            "torch.rand(..., requires_grad=True)",
            control_rand_requiring_grad,
        ),
        devices=("cpu",),
        measures=("st-rand-backward-after-del",),
        vocabulary=Vocabulary(
            subjects=("torch.rand",),
            predicates={
                "en": ("gradient",),
                "ja": ("勾配計算に使用できます",),
                "ko": ("기울기 계산에 사용할 수 있", "변화도 계산에 사용할 수 있"),
            },
        ),
    ),
    Claim(
        id="saved-tensors/myth-pool-shares-tensor-without-copy",
        statement="Handing a CPU tensor to a multiprocessing.Pool worker lets the worker use "
        "the same memory, without a copy.",
        expect=Expect.FAILS,
        probe=probe_pool_shares_without_copy,
        devices=("cpu",),
        measures=("st-pool-storage-moved", "st-pool-tensor-is-shared", "st-pool-result-correct"),
        control=Control(
            "a tensor moved to shared memory with share_memory_() first",
            control_pool_preshared,
            measures=("st-pool-preshared-storage-moved",),
        ),
        vocabulary=Vocabulary(
            subjects=("multiprocessing", "Pool", "別のプロセス"),
            predicates={
                "en": ("reduc", "memory"),
                "ja": ("別のプロセス", "削減"),
                "ko": ("다른 프로세스", "줄이"),
            },
        ),
    ),
    Claim(
        id="saved-tensors/myth-pool-result-survives-with",
        statement="A result requested with apply_async inside `with Pool()` can still be "
        "fetched after the block ends.",
        expect=Expect.FAILS,
        probe=probe_pool_result_after_with,
        control=Control(
            "the result fetched inside the block",
            control_pool_result_fetched_inside,
        ),
        devices=("cpu",),
        measures=("st-pool-get-inside-with", "st-pool-ready-after-with", "st-pool-get-after-with"),
        vocabulary=Vocabulary(subjects=("apply_async",)),
    ),
    Claim(
        id="saved-tensors/myth-numpy-rand-saves-memory",
        statement="Creating the same random matrix with NumPy instead of PyTorch uses less memory.",
        expect=Expect.FAILS,
        probe=probe_numpy_rand_memory,
        control=Control(
            "np.random.rand(...).astype(np.float32)",
            control_numpy_rand_as_float32,
        ),
        devices=("cpu",),
        measures=(
            "st-numpy-rand-bytes",
            "st-numpy-rand-dtype",
            "st-numpy-generator-dtype",
            "st-torch-rand-bytes",
            "st-torch-rand-dtype",
            "st-numpy-torch-bytes-ratio",
        ),
        vocabulary=Vocabulary(
            subjects=("NumPy", "numpy", "np."),
            predicates={
                "en": ("reduc", "less memory"),
                "ja": ("削減", "メモリ使用量"),
                "ko": ("줄이", "절약", "메모리를 덜"),
            },
        ),
    ),
)
