"""Claims of "``torch.autograd.graph.save_on_cpu()``" (docs/topics/saved-tensors.md,
``(st-save-on-cpu)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.saved_tensors._model import _RULE_MARGIN, _compare, _ratio
from checker.evidence import Measurement, Observation
from checker.typing import Device


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


SAVE_ON_CPU_FREES_GPU_MEMORY = Claim(
    id="saved-tensors/save-on-cpu-frees-gpu-memory",
    statement="save_on_cpu moves the tensors saved for backward to host memory, so that after "
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
        # the sections on offloading in practice compare other hooks with it, say what it
        # offloads besides activations, and what it does under torch.func: other claims
        unless={
            "en": ("than `save_on_cpu`", "only the activations", "only activations", "torch.func"),
            "ja": (
                "`save_on_cpu` より",
                "アクティベーションだけ",
                "アクティベーションのみ",
                "torch.func",
            ),
            "ko": ("`save_on_cpu`보다", "활성값만", "torch.func"),
        },
    ),
)


def probe_save_on_cpu_cpu(device: Device) -> Observation:
    return _unchanged_on_cpu(device, "save-on-cpu")


def control_save_on_cpu_pinned(device: Device) -> Observation:
    return _unchanged_on_cpu(device, "save-on-cpu-pinned")


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


SAVE_ON_CPU_CHANGES_NOTHING_ON_CPU = Claim(
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
)


def probe_save_on_cpu_copies_inputs_and_params(device: Device) -> Observation:
    return _copies_rule(device, offload=True)


def control_default_saves_originals(device: Device) -> Observation:
    return _copies_rule(device, offload=False)


def _copies_rule(device: Device, offload: bool) -> Observation:
    """Two linear layers on a batch: the first saves the batch, the second its own weight (its
    input requires grad). Whether what backward gets back is a copy of each."""
    import contextlib

    import torch
    from torch.autograd.graph import save_on_cpu

    first = torch.nn.Linear(8, 8).to(device)
    second = torch.nn.Linear(8, 4).to(device)
    batch = torch.randn(16, 8, device=device)
    region = save_on_cpu(pin_memory=True) if offload else contextlib.nullcontext()
    with region:
        hidden: Any = first(batch)
        out: Any = second(hidden)
    saved_batch = hidden.grad_fn._saved_mat1
    saved_weight = out.grad_fn._saved_mat2
    batch_copied = saved_batch.untyped_storage().data_ptr() != batch.untyped_storage().data_ptr()
    weight_copied = (
        saved_weight.untyped_storage().data_ptr() != second.weight.untyped_storage().data_ptr()
    )
    key = "st-save-on-cpu" if offload else "st-default"
    return Observation(
        holds=batch_copied and weight_copied,
        rule="holds if, "
        + ("under save_on_cpu(pin_memory=True)" if offload else "with the default hooks")
        + ", the input batch saved by a first linear layer and the weight saved by a second "
        "come back to backward as copies, in storage of their own",
        measurements=(
            Measurement(f"{key}-copies-batch", batch_copied, "bool"),
            Measurement(f"{key}-copies-weight", weight_copied, "bool"),
        ),
    )


SAVE_ON_CPU_COPIES_INPUTS_AND_PARAMETERS = Claim(
    id="saved-tensors/save-on-cpu-copies-inputs-and-parameters",
    statement="save_on_cpu copies every tensor saved for backward, the input batch and the "
    "parameters included, although they stay in memory anyway.",
    expect=Expect.HOLDS,
    probe=probe_save_on_cpu_copies_inputs_and_params,
    measures=("st-save-on-cpu-copies-batch", "st-save-on-cpu-copies-weight"),
    control=Control(
        "the default hooks",
        control_default_saves_originals,
        measures=("st-default-copies-batch", "st-default-copies-weight"),
    ),
)


CLAIMS = (
    SAVE_ON_CPU_FREES_GPU_MEMORY,
    SAVE_ON_CPU_CHANGES_NOTHING_ON_CPU,
    SAVE_ON_CPU_COPIES_INPUTS_AND_PARAMETERS,
)
