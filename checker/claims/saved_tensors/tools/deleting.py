"""Claims of "Deleting Python references" (docs/topics/saved-tensors.md, ``(st-del)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.saved_tensors._model import (
    _RULE_MARGIN,
    _clear_grads,
    _forward,
    _ratio,
    _trace_step,
    ffn_batch,
    ffn_model,
)
from checker.evidence import Measurement, Observation
from checker.measure import count_work, trace_memory
from checker.typing import Device


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


DEL_FREES_UNSAVED_INTERMEDIATE = Claim(
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


MYTH_DEL_FREES_SAVED_TENSOR = Claim(
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
)


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


DEL_REFERENCES_RETURNS_TO_DEFAULT = Claim(
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


MYTH_DEL_REDUCES_COMPUTE = Claim(
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
)


CLAIMS = (
    DEL_FREES_UNSAVED_INTERMEDIATE,
    MYTH_DEL_FREES_SAVED_TENSOR,
    DEL_REFERENCES_RETURNS_TO_DEFAULT,
    MYTH_DEL_REDUCES_COMPUTE,
)
