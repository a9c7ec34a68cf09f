"""Claims of "Not every intermediate is saved" (docs/topics/saved-tensors.md,
``(st-not-every-intermediate)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.measure import packed
from checker.typing import Device


def probe_saves_every_intermediate(device: Device) -> Observation:
    return _every_intermediate_rule(device, all_sin=False)


def control_chain_of_sines(device: Device) -> Observation:
    return _every_intermediate_rule(device, all_sin=True)


def _every_intermediate_rule(device: Device, all_sin: bool) -> Observation:
    import torch

    x = torch.randn(512, 512, device=device)
    w1 = torch.randn(512, 512, device=device, requires_grad=True)
    w2 = torch.randn(512, 512, device=device, requires_grad=True)

    def forward() -> tuple[Any, ...]:
        h1 = x.mm(w1)
        a1 = h1.sin() if all_sin else h1.relu()
        h2 = a1.mm(w2)
        a2 = h2.sin() if all_sin else h2.sigmoid()
        (a2.sin() if all_sin else a2).sum()
        return h1, a1, h2, a2

    intermediates, tensors = packed(forward)
    storages = {t.untyped_storage().data_ptr() for t in tensors}
    saved = [t for t in intermediates if t.untyped_storage().data_ptr() in storages]
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


MYTH_AUTOGRAD_SAVES_EVERY_INTERMEDIATE = Claim(
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
)


CLAIMS = (MYTH_AUTOGRAD_SAVES_EVERY_INTERMEDIATE,)
