"""Claims of the page "Activation checkpointing" (docs/topics/checkpointing.md).

The memory and recompute claims measure the comparison model of the saved-tensors page
(:func:`~checker.claims.saved_tensors.ffn_model`: four feed-forward blocks of Linear, GELU,
Linear) under one checkpointing variant each: nothing checkpointed, ``checkpoint_sequential``
with two segments, every block in its own checkpoint, the whole model in one checkpoint, and
every block with selective checkpointing that saves the matrix products. Recomputation is
counted, not estimated: a ``TorchDispatchMode`` counts the ``addmm`` (Linear) and ``gelu``
operators a training step really runs, and a variant's recomputed operators are what its step
runs beyond the step without checkpointing.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.saved_tensors import ffn_batch, ffn_model
from checker.evidence import Measurement, NotApplicable, Observation
from checker.measure import caught_warnings, count_kernels, error_text, trace_memory
from checker.typing import Device

#: The forward operators of a block: Linear -> addmm, GELU -> gelu. Backward runs neither.
_FORWARD_OPS = ("addmm", "gelu")

_CHECKPOINT = ("checkpoint", "チェックポイント", "체크포인트")


# -- shared pieces ---------------------------------------------------------------------------


def _loss(variant: str, model: Any, batch: Any) -> Any:
    """The model's loss under one checkpointing variant."""
    from torch.utils.checkpoint import checkpoint
    from torch.utils.checkpoint import checkpoint_sequential as untyped

    checkpoint_sequential: Any = untyped
    if variant == "none":
        return model(batch).mean()
    if variant == "half-batch":
        return model(batch[: batch.shape[0] // 2]).mean()
    if variant == "whole":
        return checkpoint(model, batch, use_reentrant=False).mean()
    if variant == "whole-reentrant":
        return checkpoint(model, batch.requires_grad_(), use_reentrant=True).mean()
    if variant.startswith("seq"):
        segments = int(variant[3:])
        return checkpoint_sequential(model, segments, batch, use_reentrant=False).mean()
    if variant in ("each", "selective", "selective-empty"):
        context = _selective_context(variant)
        hidden = batch
        for block in model:
            hidden = checkpoint(block, hidden, use_reentrant=False, **context)
        return hidden.mean()
    raise ValueError(f"unknown variant {variant!r}")


def _selective_context(variant: str) -> dict[str, Any]:
    """``checkpoint`` keyword arguments: none, or a selective policy saving ``addmm``."""
    if variant == "each":
        return {}
    import functools

    import torch
    import torch.utils.checkpoint as ckpt

    make = getattr(ckpt, "create_selective_checkpoint_contexts", None)
    if make is None:
        raise NotApplicable(
            f"torch {torch.__version__} has no torch.utils.checkpoint."
            "create_selective_checkpoint_contexts"
        )
    saved = [torch.ops.aten.addmm.default] if variant == "selective" else []
    return {"context_fn": functools.partial(make, saved)}


def _clear_grads(model: Any) -> None:
    for p in model.parameters():
        p.grad = None


def _step_ops(
    device: Device, variant: str, early_stop: bool = True
) -> tuple[dict[str, int], dict[str, int]]:
    """Forward operators run by one training step under ``variant`` beyond the step without
    checkpointing, and the operators of one plain forward pass; both by name."""
    from torch.utils.checkpoint import set_checkpoint_early_stop

    model, batch = ffn_model(device), ffn_batch(device)
    with set_checkpoint_early_stop(early_stop):
        _loss(variant, model, batch).backward()  # warm-up
    _clear_grads(model)
    _, forward = count_kernels(lambda: _loss("none", model, batch), _FORWARD_OPS)
    _, plain = count_kernels(lambda: _loss("none", model, batch).backward(), _FORWARD_OPS)
    _clear_grads(model)
    with set_checkpoint_early_stop(early_stop):
        _, step = count_kernels(lambda: _loss(variant, model, batch).backward(), _FORWARD_OPS)
    _clear_grads(model)
    return {name: step[name] - plain[name] for name in _FORWARD_OPS}, forward


def _held(device: Device, variant: str) -> tuple[int, int]:
    """Bytes held after the forward of one step under ``variant``, and the step's peak."""
    model, batch = ffn_model(device), ffn_batch(device)

    def step(mark: Callable[[str], None]) -> None:
        loss = _loss(variant, model, batch)
        mark("forward")
        loss.backward()

    step(lambda name: None)  # warm-up: lazy workspaces are allocated outside the trace
    _clear_grads(model)
    _, trace = trace_memory(step, device)
    _clear_grads(model)
    return trace.marks["forward"], trace.peak


def _ratio(a: int, b: int) -> float:
    return round(a / b, 4) if b else float("nan")


def _warnings_of(call: Callable[[], Any]) -> tuple[Any, list[str]]:
    """``call()``'s result and the messages of the warnings it emitted."""
    result, caught = caught_warnings(call)
    return result, [message for _, message in caught]


def _first_sentence(message: str) -> str:
    return message.split(". ", maxsplit=1)[0].rstrip(".") + "."


# -- use_reentrant ---------------------------------------------------------------------------


def probe_use_reentrant_omitted(device: Device) -> Observation:
    return _omitted_rule(device, explicit=False)


def control_use_reentrant_explicit(device: Device) -> Observation:
    return _omitted_rule(device, explicit=True)


def _omitted_rule(device: Device, explicit: bool) -> Observation:
    import torch
    from torch.utils.checkpoint import checkpoint
    from torch.utils.checkpoint import checkpoint_sequential as untyped

    checkpoint_sequential: Any = untyped
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.GELU()).to(device)
    x = torch.randn(8, 16, device=device, requires_grad=True)
    kwargs: dict[str, Any] = {"use_reentrant": True} if explicit else {}
    out, single = _warnings_of(lambda: checkpoint(model, x, **kwargs))
    _, sequential = _warnings_of(lambda: checkpoint_sequential(model, 2, x, **kwargs))
    about = [m for m in single if "use_reentrant" in m]
    about_sequential = [m for m in sequential if "use_reentrant" in m]
    grad_fn = type(out.grad_fn).__name__
    holds = bool(about) and bool(about_sequential) and grad_fn == "CheckpointFunctionBackward"
    prefix = "ckpt-explicit" if explicit else "ckpt-omitted"
    measurements = [
        Measurement(f"{prefix}-warnings", len(about) + len(about_sequential), "count"),
        Measurement(f"{prefix}-grad-fn", grad_fn, "text"),
    ]
    if not explicit:
        warning = _first_sentence(about[0]) if about else "no warning"
        measurements.append(Measurement("ckpt-omitted-warning", warning, "text"))
    return Observation(
        holds=holds,
        rule="holds if checkpoint and checkpoint_sequential each warn about use_reentrant and "
        "checkpoint's output comes from the reentrant variant (CheckpointFunctionBackward)",
        measurements=tuple(measurements),
    )


def probe_reentrant_input_without_grad(device: Device) -> Observation:
    return _input_without_grad_rule(device, reentrant=True)


def control_nonreentrant_input_without_grad(device: Device) -> Observation:
    return _input_without_grad_rule(device, reentrant=False)


def _input_without_grad_rule(device: Device, reentrant: bool) -> Observation:
    import torch
    from torch.utils.checkpoint import checkpoint

    torch.manual_seed(0)
    block = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.GELU(), torch.nn.Linear(16, 4))
    block = block.to(device)
    x = torch.randn(8, 16, device=device)  # a batch never requires grad
    out, caught = _warnings_of(lambda: checkpoint(block, x, use_reentrant=reentrant))
    with_grad = 0
    if out.requires_grad:
        out.sum().backward()
        with_grad = sum(p.grad is not None for p in block.parameters())
    name = "reentrant" if reentrant else "nonreentrant"
    measurements = [
        Measurement(f"ckpt-{name}-output-requires-grad", bool(out.requires_grad), "bool"),
        Measurement(f"ckpt-{name}-params-with-grad", with_grad, "count"),
    ]
    if reentrant:
        warning = next((m for m in caught if "requires_grad" in m), "no warning")
        measurements.append(Measurement("ckpt-reentrant-no-grad-warning", warning, "text"))
    return Observation(
        holds=not out.requires_grad and with_grad == 0,
        rule="holds if, for an input that does not require grad, the checkpointed block's "
        "output does not require grad and none of the block's parameters gets a gradient",
        measurements=tuple(measurements),
    )


# -- RNG state -------------------------------------------------------------------------------


def probe_rng_state_restored(device: Device) -> Observation:
    return _rng_rule(device, preserve=True)


def control_rng_state_not_preserved(device: Device) -> Observation:
    return _rng_rule(device, preserve=False)


def _rng_rule(device: Device, preserve: bool) -> Observation:
    import torch
    from torch.utils.checkpoint import checkpoint

    torch.manual_seed(0)
    block: Any = torch.nn.Sequential(
        torch.nn.Linear(64, 64), torch.nn.Dropout(0.5), torch.nn.Linear(64, 64)
    ).to(device)
    x = torch.randn(32, 64, device=device, requires_grad=True)

    def gradient(forward: Callable[[], Any]) -> Any:
        block.zero_grad()
        torch.manual_seed(3)
        forward().sum().backward()
        return block[0].weight.grad.clone()

    reference = gradient(lambda: block(x))
    equal = {}
    for reentrant in (True, False):

        def checkpointed(r: bool = reentrant) -> Any:
            return checkpoint(block, x, use_reentrant=r, preserve_rng_state=preserve)

        equal[reentrant] = bool(torch.equal(gradient(checkpointed), reference))
    prefix = "ckpt-rng" if preserve else "ckpt-no-rng"
    return Observation(
        holds=all(equal.values()),
        rule="holds if, from the same seed, a block with dropout gives exactly the gradients "
        "of the step without checkpointing under checkpoint with use_reentrant=True and with "
        "use_reentrant=False",
        measurements=(
            Measurement(f"{prefix}-reentrant-equal", equal[True], "bool"),
            Measurement(f"{prefix}-nonreentrant-equal", equal[False], "bool"),
        ),
    )


# -- what is recomputed ----------------------------------------------------------------------


def probe_whole_forward_recomputed(device: Device) -> Observation:
    return _whole_rule(device, early_stop=True)


def control_whole_forward_without_early_stop(device: Device) -> Observation:
    return _whole_rule(device, early_stop=False)


def _whole_rule(device: Device, early_stop: bool) -> Observation:
    extra, forward = _step_ops(device, "whole", early_stop)
    recomputed, forward_ops = sum(extra.values()), sum(forward.values())
    measurements: tuple[Measurement, ...]
    if early_stop:
        reentrant, _ = _step_ops(device, "whole-reentrant")
        measurements = (
            Measurement("ckpt-whole-forward-ops", forward_ops, "count"),
            Measurement("ckpt-whole-recomputed-ops", recomputed, "count"),
            Measurement("ckpt-whole-recomputed-addmm", extra["addmm"], "count"),
            Measurement("ckpt-whole-reentrant-recomputed-ops", sum(reentrant.values()), "count"),
        )
    else:
        key = "ckpt-whole-recomputed-ops-no-early-stop"
        measurements = (Measurement(key, recomputed, "count"),)
    return Observation(
        holds=recomputed == forward_ops,
        rule="holds if a training step with the whole model in one non-reentrant checkpoint "
        "runs as many addmm and gelu operators beyond the step without checkpointing as one "
        "forward pass runs",
        measurements=measurements,
    )


def probe_sequential_segments(device: Device) -> Observation:
    return _segments_rule(device, sequential=True)


def control_every_block_checkpointed(device: Device) -> Observation:
    return _segments_rule(device, sequential=False)


def _segments_rule(device: Device, sequential: bool) -> Observation:
    # With early stop off, every checkpointed block runs its GELU again, once.
    recomputed = {}
    for segments in (2, 4):
        variant = f"seq{segments}" if sequential else "each"
        extra, _ = _step_ops(device, variant, early_stop=False)
        recomputed[segments] = extra["gelu"]
    expected = {2: 2, 4: 3}  # segments of 4 // s blocks; all but the last checkpointed
    name = "seq" if sequential else "each"
    return Observation(
        holds=recomputed == expected,
        rule="holds if, with early stop off, a step over four blocks recomputes the GELU of "
        "exactly the blocks outside the last segment: 2 blocks with 2 segments, 3 blocks with "
        "4 segments",
        measurements=(
            Measurement(f"ckpt-{name}2-recomputed-blocks", recomputed[2], "count"),
            Measurement(f"ckpt-{name}4-recomputed-blocks", recomputed[4], "count"),
        ),
    )


def probe_sequential_takes_a_list(device: Device) -> Observation:
    return _sequence_rule(device, listed=True)


def control_sequential_given_one_module(device: Device) -> Observation:
    return _sequence_rule(device, listed=False)


def _sequence_rule(device: Device, listed: bool) -> Observation:
    import torch
    from torch import nn
    from torch.utils.checkpoint import checkpoint_sequential

    torch.manual_seed(0)
    first, last = nn.Linear(8, 8).to(device), nn.Linear(8, 8).to(device)
    x = torch.randn(4, 8, device=device, requires_grad=True)
    functions: Any = [first, torch.tanh, last] if listed else first
    expected = last(torch.tanh(first(x))) if listed else first(x)
    found: list[Any] = []

    def run() -> None:
        found.append(checkpoint_sequential(functions, 2, x, use_reentrant=False))  # type: ignore[no-untyped-call]

    error = error_text(run)
    same = bool(found) and bool(torch.allclose(found[0], expected))
    return Observation(
        holds=error == "no error" and same,
        rule="holds if checkpoint_sequential(functions, 2, x, use_reentrant=False) runs without "
        "error and gives the result of applying the functions in turn, with "
        + (
            "a list of two nn.Linear modules and torch.tanh as functions"
            if listed
            else "a lone nn.Linear module as functions"
        ),
        measurements=(
            Measurement(
                "ckpt-sequential-list-error" if listed else "ckpt-sequential-module-error",
                error,
                "exception",
            ),
        ),
    )


def probe_selective_saves_listed_ops(device: Device) -> Observation:
    return _selective_rule(device, "selective")


def control_selective_empty_list(device: Device) -> Observation:
    return _selective_rule(device, "selective-empty")


def _selective_rule(device: Device, variant: str) -> Observation:
    extra, _ = _step_ops(device, variant)
    measurements = [
        Measurement(f"ckpt-{variant}-recomputed-addmm", extra["addmm"], "count"),
        Measurement(f"ckpt-{variant}-recomputed-gelu", extra["gelu"], "count"),
    ]
    if variant == "selective":
        held, peak = _held(device, variant)
        measurements += [
            Measurement("ckpt-held-selective", held, "bytes"),
            Measurement("ckpt-peak-selective", peak, "bytes"),
            Measurement("ckpt-recomputed-selective", sum(extra.values()), "count"),
        ]
    return Observation(
        holds=extra["addmm"] == 0 and extra["gelu"] > 0,
        rule="holds if, with every block checkpointed under a selective policy listing "
        "aten.addmm.default, backward runs no addmm again but does run gelu again",
        measurements=tuple(measurements),
    )


# -- the trade ---------------------------------------------------------------------------------


def probe_halves_memory_for_free(device: Device) -> Observation:
    return _for_free_rule(device, "each")


def control_half_batch(device: Device) -> Observation:
    return _for_free_rule(device, "half-batch")


def _for_free_rule(device: Device, variant: str) -> Observation:
    default, _ = _held(device, "none")
    held, _ = _held(device, variant)
    extra, _ = _step_ops(device, variant)
    ratio, more = _ratio(held, default), sum(extra.values())
    return Observation(
        holds=ratio <= 0.5 + 0.01 and more == 0,
        rule="holds if the memory held after forward is at most half (within 1%) of what the "
        "step without checkpointing holds, and the step runs no addmm or gelu operator more "
        "than that step",
        measurements=(
            Measurement(f"ckpt-{variant}-held-ratio", ratio, "ratio"),
            Measurement(f"ckpt-{variant}-extra-ops", more, "count"),
        ),
    )


#: The variants of the trade, from nothing checkpointed to everything.
_TRADE = ("none", "seq2", "each", "whole")


def probe_trade(device: Device) -> Observation:
    return _trade_rule(device, ("none", "seq2", "each"))


def control_trade_half_batch(device: Device) -> Observation:
    return _trade_rule(device, ("none", "half-batch", "each"))


def _trade_rule(device: Device, order: tuple[str, ...]) -> Observation:
    variants = _TRADE if "seq2" in order else order
    held: dict[str, int] = {}
    peak: dict[str, int] = {}
    recomputed: dict[str, int] = {}
    for variant in variants:
        held[variant], peak[variant] = _held(device, variant)
        extra, _ = _step_ops(device, variant)
        recomputed[variant] = sum(extra.values())
    held_order = [held[v] for v in order]
    recomputed_order = [recomputed[v] for v in order]
    holds = all(a > b for a, b in itertools.pairwise(held_order)) and all(
        a < b for a, b in itertools.pairwise(recomputed_order)
    )
    shown = ("half-batch",) if "half-batch" in order else variants
    measurements = []
    for variant in shown:
        measurements += [
            Measurement(f"ckpt-held-{variant}", held[variant], "bytes"),
            Measurement(f"ckpt-peak-{variant}", peak[variant], "bytes"),
            Measurement(f"ckpt-recomputed-{variant}", recomputed[variant], "count"),
        ]
    return Observation(
        holds=holds,
        rule="holds if, from nothing checkpointed through checkpoint_sequential with two "
        "segments to every block checkpointed, each variant holds less memory after forward "
        "and recomputes more addmm and gelu operators than the one before",
        measurements=tuple(measurements),
    )


_SEQUENTIAL = ("checkpoint_sequential",)

CLAIMS = (
    # topics/checkpointing.md (ck-reentrant)
    Claim(
        id="checkpointing/use-reentrant-omitted-warns",
        statement="Called without use_reentrant, checkpoint and checkpoint_sequential warn "
        "that it should be passed explicitly, and run the reentrant variant.",
        expect=Expect.HOLDS,
        probe=probe_use_reentrant_omitted,
        devices=("cpu",),
        measures=("ckpt-omitted-warnings", "ckpt-omitted-grad-fn", "ckpt-omitted-warning"),
        control=Control(
            "use_reentrant=True passed explicitly",
            control_use_reentrant_explicit,
            measures=("ckpt-explicit-warnings", "ckpt-explicit-grad-fn"),
        ),
        vocabulary=Vocabulary(
            subjects=("use_reentrant",),
            predicates={
                "en": ("warn", "explicitly"),
                "ja": ("警告", "明示的"),
                "ko": ("경고", "명시적"),
            },
            opposites={  # "the default works and prints nothing"
                "en": ("prints nothing", "nothing is printed", "silently"),
                "ja": ("何も表示されない", "何も表示されません", "何も出力されない"),
                "ko": ("아무것도 출력되지 않", "아무 메시지도 나오지 않"),
            },
            conditions={  # "if you leave out use_reentrant, ..." is the claim's own case
                "en": ("if you leave out", "if you omit", "if you don't pass", "if … not passed"),
                "ja": ("もし省略", "もし指定しない"),
                "ko": ("만약 생략", "만약 지정하지 않"),
            },
        ),
    ),
    Claim(
        id="checkpointing/reentrant-input-without-grad",
        statement="With use_reentrant=True, a checkpointed block whose inputs do not require "
        "grad returns an output that does not require grad, and its parameters get no "
        "gradient.",
        expect=Expect.HOLDS,
        probe=probe_reentrant_input_without_grad,
        measures=(
            "ckpt-reentrant-output-requires-grad",
            "ckpt-reentrant-params-with-grad",
            "ckpt-reentrant-no-grad-warning",
        ),
        control=Control(
            "use_reentrant=False",
            control_nonreentrant_input_without_grad,
            measures=(
                "ckpt-nonreentrant-output-requires-grad",
                "ckpt-nonreentrant-params-with-grad",
            ),
        ),
        vocabulary=Vocabulary(
            subjects=("reentrant", "use_reentrant=True", "リエントラント", "재진입"),
            predicates={
                "en": ("gradient",),
                "ja": ("勾配が流れ", "勾配が計算されない", "勾配が得られない", "勾配が伝わら"),
                "ko": (
                    "변화도가 흐르지",
                    "기울기가 흐르지",
                    "변화도를 받지",
                    "기울기를 받지",
                    "변화도가 전달되지",
                    "기울기가 전달되지",
                ),
            },
            denies=True,  # "get no gradient"
        ),
    ),
    # topics/checkpointing.md (ck-recompute)
    Claim(
        id="checkpointing/myth-recomputes-whole-forward",
        statement="During backward, checkpoint runs the whole checkpointed forward again.",
        expect=Expect.FAILS,
        probe=probe_whole_forward_recomputed,
        devices=("cpu",),
        measures=(
            "ckpt-whole-forward-ops",
            "ckpt-whole-recomputed-ops",
            "ckpt-whole-recomputed-addmm",
            "ckpt-whole-reentrant-recomputed-ops",
        ),
        control=Control(
            "early stop off (set_checkpoint_early_stop(False))",
            control_whole_forward_without_early_stop,
            measures=("ckpt-whole-recomputed-ops-no-early-stop",),
        ),
        vocabulary=Vocabulary(
            subjects=_CHECKPOINT,
            predicates={
                "en": ("whole forward", "entire forward", "full forward"),
                "ja": ("順伝播全体", "順伝播をすべて", "フォワード全体"),
                "ko": ("순전파 전체", "순전파를 모두", "전체 순전파"),
            },
        ),
    ),
    # topics/checkpointing.md (ck-rng)
    Claim(
        id="checkpointing/rng-state-restored-for-dropout",
        statement="With preserve_rng_state=True, the default, checkpoint recomputes the same "
        "dropout mask, so the gradients equal those without checkpointing.",
        expect=Expect.HOLDS,
        probe=probe_rng_state_restored,
        measures=("ckpt-rng-reentrant-equal", "ckpt-rng-nonreentrant-equal"),
        control=Control(
            "preserve_rng_state=False",
            control_rng_state_not_preserved,
            measures=("ckpt-no-rng-reentrant-equal", "ckpt-no-rng-nonreentrant-equal"),
        ),
        vocabulary=Vocabulary(
            subjects=("preserve_rng_state",),
            predicates={
                "en": ("same dropout", "same mask", "same gradients", "deterministic"),
                "ja": ("同じマスク", "同じドロップアウト", "同じ勾配", "決定的"),
                "ko": ("같은 마스크", "같은 드롭아웃", "같은 변화도", "결정적"),
            },
        ),
    ),
    # topics/checkpointing.md (ck-sequential)
    Claim(
        id="checkpointing/sequential-takes-a-list",
        statement="checkpoint_sequential takes a list of modules or plain functions as well "
        "as an nn.Sequential: anything with len() and indexing.",
        expect=Expect.HOLDS,
        probe=probe_sequential_takes_a_list,
        devices=("cpu",),
        measures=("ckpt-sequential-list-error",),
        control=Control(
            "a lone nn.Linear module, which has no len()",
            control_sequential_given_one_module,
            measures=("ckpt-sequential-module-error",),
        ),
        vocabulary=Vocabulary(
            subjects=_SEQUENTIAL,
            predicates={
                "en": ("a list of modules", "list of functions", "a list of"),
                # "nn.Sequential以外のモデルには使えない": the negation is the sentence's
                "ja": (
                    "リストも",
                    "リストを渡せ",
                    "nn.Sequential以外",
                    "nn.Sequential 以外",
                ),
                "ko": ("리스트도", "리스트를 넘길 수"),
            },
            denies=False,
            opposites={
                "en": (
                    "only … nn.Sequential",
                    "must be an nn.Sequential",
                    "requires an nn.Sequential",
                ),
                "ja": (
                    "nn.Sequentialのみ",
                    "nn.Sequential のみ",
                    "nn.Sequentialだけ",
                    "nn.Sequential … しか",
                ),
                "ko": ("nn.Sequential만", "nn.Sequential에만", "nn.Sequential … 만 받"),
            },
        ),
    ),
    Claim(
        id="checkpointing/sequential-leaves-last-segment",
        statement="checkpoint_sequential cuts the functions into segments of "
        "len(functions) // segments, checkpoints every segment but the last, and runs the "
        "last one without checkpointing.",
        expect=Expect.HOLDS,
        probe=probe_sequential_segments,
        devices=("cpu",),
        measures=("ckpt-seq2-recomputed-blocks", "ckpt-seq4-recomputed-blocks"),
        control=Control(
            "checkpoint around every block, the last included",
            control_every_block_checkpointed,
            measures=("ckpt-each2-recomputed-blocks", "ckpt-each4-recomputed-blocks"),
        ),
        vocabulary=Vocabulary(
            subjects=_SEQUENTIAL,
            predicates={
                "en": ("last segment",),
                "ja": ("最後のセグメント",),
                "ko": ("마지막 세그먼트", "마지막 구간"),
            },
            denies=True,  # "runs the last one without checkpointing"
        ),
    ),
    # topics/checkpointing.md (ck-selective)
    Claim(
        id="checkpointing/selective-saves-listed-ops",
        statement="With create_selective_checkpoint_contexts and a list of operators, "
        "checkpoint saves the outputs of the listed operators and recomputes only the others.",
        expect=Expect.HOLDS,
        probe=probe_selective_saves_listed_ops,
        measures=(
            "ckpt-selective-recomputed-addmm",
            "ckpt-selective-recomputed-gelu",
            "ckpt-held-selective",
            "ckpt-peak-selective",
            "ckpt-recomputed-selective",
        ),
        control=Control(
            "an empty list of operators",
            control_selective_empty_list,
            measures=(
                "ckpt-selective-empty-recomputed-addmm",
                "ckpt-selective-empty-recomputed-gelu",
            ),
        ),
        vocabulary=Vocabulary(
            subjects=("create_selective_checkpoint_contexts", "selective", "選択的", "선택적"),
            predicates={
                "en": ("recompute only", "not recompute", "saves the output"),
                "ja": ("再計算しない", "だけを再計算", "出力を保存"),
                "ko": ("다시 계산하지 않", "만 다시 계산", "출력을 저장"),
            },
        ),
    ),
    # topics/checkpointing.md (ck-trade)
    Claim(
        id="checkpointing/less-held-more-recomputed",
        statement="The more of a model is checkpointed, the less memory it holds after "
        "forward and the more operators its backward runs again.",
        expect=Expect.HOLDS,
        probe=probe_trade,
        measures=tuple(
            f"ckpt-{what}-{variant}"
            for variant in _TRADE
            for what in ("held", "peak", "recomputed")
        ),
        control=Control(
            "half the batch in place of checkpoint_sequential",
            control_trade_half_batch,
            measures=("ckpt-held-half-batch", "ckpt-peak-half-batch", "ckpt-recomputed-half-batch"),
        ),
    ),
    Claim(
        id="checkpointing/myth-halves-memory-for-free",
        statement="Activation checkpointing halves training memory at no extra compute.",
        expect=Expect.FAILS,
        probe=probe_halves_memory_for_free,
        measures=("ckpt-each-held-ratio", "ckpt-each-extra-ops"),
        control=Control(
            "half the batch without checkpointing",
            control_half_batch,
            measures=("ckpt-half-batch-held-ratio", "ckpt-half-batch-extra-ops"),
        ),
        vocabulary=Vocabulary(
            subjects=(*_CHECKPOINT, "checkpointing", "チェックポインティング", "체크포인팅"),
            predicates={
                "en": (
                    "no extra compute",
                    "without extra compute",
                    "for free",
                    "no cost",
                    "no extra … operations",
                    "no additional compute",
                    "no overhead",
                ),
                "ja": (
                    "追加の計算なし",
                    "計算コストなし",
                    "無料で",
                    "タダで",
                    "追加の … 計算 … ない",
                    "追加の演算 … ない",
                    "計算量は増えない",
                ),
                "ko": (
                    "추가 계산 없이",
                    "계산 비용 없이",
                    "공짜로",
                    "추가 연산 … 없",
                    "추가 계산 … 없",
                    "연산량은 늘지 않",
                ),
            },
        ),
    ),
)
