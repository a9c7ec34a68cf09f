"""Claims of "Saving is by reference" (docs/topics/saved-tensors.md, ``(st-by-reference)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.measure import shares_storage, trace_memory
from checker.typing import Device


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


MYTH_SAVING_COPIES_TENSORS = Claim(
    id="saved-tensors/myth-saving-copies-tensors",
    statement="Saving a tensor for backward makes a copy of it, which costs memory and time.",
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
)


CLAIMS = (MYTH_SAVING_COPIES_TENSORS,)
