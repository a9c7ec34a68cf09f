"""Claims of "Pinned copies and synchronisation" (docs/topics/saved-tensors.md,
``(st-offload-pinned)=``): what ``pin_memory=True`` changes in ``save_on_cpu``'s hooks, on a
machine without CUDA and on a GPU.

The probes call the pair's hooks directly (``save_on_cpu(...).pack_hook`` and
``.unpack_hook``), which is what autograd calls for each saved tensor."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.saved_tensors._model import _error
from checker.evidence import Measurement, NotApplicable, Observation
from checker.measure import storage_ptr
from checker.typing import Device

#: Clock cycles ``torch.cuda._sleep`` keeps the GPU's stream busy for: about half a second on
#: a current GPU, so that a copy that does not wait returns long before the stream is idle.
_BUSY_CYCLES = 2**30


def probe_pinned_falls_back_without_cuda(device: Device) -> Observation:
    return _without_cuda_rule(device, through_save_on_cpu=True)


def control_pinned_allocation_without_cuda(device: Device) -> Observation:
    return _without_cuda_rule(device, through_save_on_cpu=False)


def _without_cuda_rule(device: Device, through_save_on_cpu: bool) -> Observation:
    import torch
    from torch.autograd.graph import save_on_cpu

    if torch.cuda.is_available():
        raise NotApplicable(
            "needs a machine without CUDA: where CUDA is available, save_on_cpu pins its "
            "copies, as the statement says"
        )
    saved = torch.randn(64, 64, device=device)
    result: dict[str, Any] = {}

    def run() -> None:
        if through_save_on_cpu:
            _, result["copy"] = save_on_cpu(pin_memory=True).pack_hook(saved)
        else:
            result["copy"] = torch.empty(64, 64, pin_memory=True)

    error = _error(run)
    copy = result.get("copy")
    pinned = bool(copy is not None and copy.is_pinned())
    key = "st-pin-soc" if through_save_on_cpu else "st-pin-empty"
    measurements = [
        Measurement(f"{key}-error", error, "exception"),
        Measurement(f"{key}-pinned", pinned, "bool"),
    ]
    if through_save_on_cpu:
        copied = copy is not None and storage_ptr(copy) != storage_ptr(saved)
        measurements.append(Measurement(f"{key}-copied", copied, "bool"))
    return Observation(
        holds=error == "no error" and copy is not None and not pinned,
        rule="holds if, on a machine without CUDA, "
        + (
            "the pack hook of save_on_cpu(pin_memory=True)"
            if through_save_on_cpu
            else "torch.empty(64, 64, pin_memory=True)"
        )
        + " runs without error and gives host memory that is not pinned",
        measurements=tuple(measurements),
    )


SAVE_ON_CPU_PIN_MEMORY_FALLS_BACK_WITHOUT_CUDA = Claim(
    id="saved-tensors/save-on-cpu-pin-memory-falls-back-without-cuda",
    statement="On a machine without CUDA, save_on_cpu(pin_memory=True) falls back to ordinary "
    "host memory: its copies are not pinned, while torch.empty(..., pin_memory=True) raises.",
    expect=Expect.HOLDS,
    probe=probe_pinned_falls_back_without_cuda,
    devices=("cpu",),
    measures=("st-pin-soc-error", "st-pin-soc-pinned", "st-pin-soc-copied"),
    control=Control(
        "torch.empty(..., pin_memory=True), which allocates pinned memory itself",
        control_pinned_allocation_without_cuda,
        measures=("st-pin-empty-error", "st-pin-empty-pinned"),
    ),
    vocabulary=Vocabulary(
        subjects=("save_on_cpu",),
        predicates={
            "en": ("falls back", "not pinned", "unpinned"),
            "ja": ("フォールバック", "ピン留めされない", "ピン留めされていない"),
            "ko": ("대체", "고정되지 않"),
        },
        requires={
            "en": ("without CUDA", "without a GPU"),
            "ja": ("CUDA がない", "CUDA のない", "GPU がない", "GPU のない"),
            "ko": ("CUDA가 없는", "GPU가 없는"),
        },
    ),
)


def probe_pinned_copies_do_not_wait(device: Device) -> Observation:
    return _pinned_rule(device, pin_memory=True)


def control_pageable_copies_wait(device: Device) -> Observation:
    return _pinned_rule(device, pin_memory=False)


def _pinned_rule(device: Device, pin_memory: bool) -> Observation:
    """Each hook is called while a sleeping kernel keeps the stream busy: a copy that waits for
    the GPU returns with the stream idle, one that is only queued returns while it is busy."""
    import torch
    from torch.autograd.graph import save_on_cpu

    sleep: Any = torch.cuda._sleep
    hooks = save_on_cpu(pin_memory=pin_memory)
    saved = torch.randn(1024, 1024, device=device)
    stream = torch.cuda.current_stream()
    torch.cuda.synchronize()
    sleep(_BUSY_CYCLES)
    packed = hooks.pack_hook(saved)
    pack_returned_early = not stream.query()
    torch.cuda.synchronize()
    pinned = bool(packed[1].is_pinned())
    sleep(_BUSY_CYCLES)
    back = hooks.unpack_hook(packed)
    unpack_returned_early = not stream.query()
    torch.cuda.synchronize()
    same = bool(torch.equal(back, saved))
    key = "st-pinned" if pin_memory else "st-pageable"
    return Observation(
        holds=pinned and unpack_returned_early and same,
        rule=f"holds if, on CUDA, the copy made by save_on_cpu(pin_memory={pin_memory}) is "
        "pinned, its copy back to the GPU returns while the stream is still busy, and the values "
        "come back unchanged",
        measurements=(
            Measurement(f"{key}-copy-pinned", pinned, "bool"),
            Measurement(f"{key}-unpack-returned-early", unpack_returned_early, "bool"),
            Measurement(f"{key}-pack-returned-early", pack_returned_early, "bool"),
            Measurement(f"{key}-values-unchanged", same, "bool"),
        ),
    )


SAVE_ON_CPU_PINNED_COPIES_DO_NOT_WAIT = Claim(
    id="saved-tensors/save-on-cpu-pinned-copies-do-not-wait",
    statement="On CUDA, save_on_cpu(pin_memory=True) keeps its copies in pinned memory, and "
    "backward's copy back to the GPU is queued without waiting for the GPU.",
    expect=Expect.HOLDS,
    probe=probe_pinned_copies_do_not_wait,
    devices=("cuda",),
    measures=(
        "st-pinned-copy-pinned",
        "st-pinned-unpack-returned-early",
        "st-pinned-pack-returned-early",
        "st-pinned-values-unchanged",
    ),
    control=Control(
        "the default pin_memory=False",
        control_pageable_copies_wait,
        measures=(
            "st-pageable-copy-pinned",
            "st-pageable-unpack-returned-early",
            "st-pageable-pack-returned-early",
            "st-pageable-values-unchanged",
        ),
    ),
    vocabulary=Vocabulary(
        subjects=("save_on_cpu",),
        predicates={
            "en": ("pinned memory", "without waiting"),
            "ja": ("ピン留めされたメモリ", "待たず"),
            "ko": ("고정 메모리", "기다리지 않"),
        },
        requires={"en": ("CUDA", "GPU"), "ja": ("CUDA", "GPU"), "ko": ("CUDA", "GPU")},
    ),
)


CLAIMS = (
    SAVE_ON_CPU_PIN_MEMORY_FALLS_BACK_WITHOUT_CUDA,
    SAVE_ON_CPU_PINNED_COPIES_DO_NOT_WAIT,
)
