"""Claims of "What it does not change" (docs/topics/saved-tensors.md, ``(st-disable-myths)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.saved_tensors._model import (
    _RULE_MARGIN,
    MESSAGE,
    _clear_grads,
    _compare,
    _error,
    _forward,
    _ratio,
    ffn_batch,
    ffn_model,
)
from checker.claims.saved_tensors.disable._block import _DISABLE
from checker.evidence import Measurement, Observation
from checker.measure import count_work
from checker.typing import Device


def probe_disable_stops_saving(device: Device) -> Observation:
    return _stops_saving_rule(device, "disable")


def control_no_grad_saves_nothing(device: Device) -> Observation:
    return _stops_saving_rule(device, "no-grad")


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


MYTH_DISABLE_STOPS_SAVING = Claim(
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


MYTH_DISABLE_BREAKS_GRADIENTS = Claim(
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


_REDUCE_MEMORY = Vocabulary(
    subjects=_DISABLE,
    predicates={
        "en": ("reduc", "save memory", "less memory", "lower memory"),
        "ja": ("メモリ使用量", "削減", "節約", "減ら", "抑え"),
        "ko": ("메모리", "줄이", "절약", "감소"),
    },
)


MYTH_DISABLE_REDUCES_MEMORY = Claim(
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
)


def probe_disable_reduces_compute(device: Device) -> Observation:
    return _compute_rule(device, "disable")


def control_no_grad_reduces_compute(device: Device) -> Observation:
    return _compute_rule(device, "no-grad")


#: A variant "takes less time" when its step takes less than this share of the default's.
_TIME_RATIO = 1 / 2


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
    import statistics

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
    # the time counts only as a ratio measured side by side: in each of eight rounds, the
    # two steps take turns, and the round's ratio is the variant's median over the default's
    ratios = []
    for round_ in range(8):
        order = ("default", variant) if round_ % 2 else (variant, "default")
        seconds = {n: _median_seconds(lambda n=n: _step(n, model, batch), 5) for n in order}
        ratios.append(seconds[variant] / seconds["default"])
    _clear_grads(model)
    time_ratio = round(statistics.median(ratios), 4)
    fewer = (
        step_variant.ops < step_default.ops
        or step_variant.flops < step_default.flops
        or loop_variant_work.ops < loop_default.ops
        or loop_variant_work.flops < loop_default.flops
        or max(ratios) < _TIME_RATIO
    )
    return Observation(
        holds=fewer,
        rule=f"holds if, under {variant}, a training step of the model or a loop of 50 "
        "grad-free matrix products runs fewer ATen operators or fewer FLOPs (as counted "
        "by the profiler) than outside, or the training step takes less than half of "
        "the time in each of eight rounds where the two steps take turns (median of five "
        "steps each): a busy machine slows both steps of a round alike, and a real saving, "
        "such as that of no_grad, is several-fold",
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


_REDUCE_COMPUTE = Vocabulary(
    subjects=_DISABLE,
    predicates={
        "en": ("compute", "faster", "speed"),
        "ja": ("計算コスト", "高速", "削減"),
        "ko": ("계산 비용", "연산", "빠르"),
    },
)


MYTH_DISABLE_REDUCES_COMPUTE = Claim(
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
)


CLAIMS = (
    MYTH_DISABLE_STOPS_SAVING,
    MYTH_DISABLE_BREAKS_GRADIENTS,
    MYTH_DISABLE_REDUCES_MEMORY,
    MYTH_DISABLE_REDUCES_COMPUTE,
)
