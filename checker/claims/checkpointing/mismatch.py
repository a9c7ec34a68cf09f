"""Claims of "When the recomputation differs: ``CheckpointError``"
(docs/topics/checkpointing.md, ``(ck-mismatch)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.checkpointing._variants import _CHECKPOINT
from checker.evidence import Measurement, Observation
from checker.measure import caught_warnings, error_text
from checker.typing import Device

#: What the checkpointed function reads from a global setting, and how it is changed between
#: forward and backward: the width of a slice (the saved tensors' shapes change) or a factor
#: (only their values change).
_CHANGES = {"width": 4, "scale": 2.0}


def _changed_between_passes(device: Device, setting: str, reentrant: bool) -> tuple[str, bool]:
    """Change ``setting`` between the forward pass of a checkpointed function and its
    backward: what backward raised (``"no error"``), and whether the input's gradient equals
    the one of the function without checkpointing and without the change."""
    import torch
    from torch.utils.checkpoint import checkpoint

    torch.manual_seed(0)
    weight = torch.randn(8, 8, device=device)
    x = torch.randn(4, 8, device=device, requires_grad=True)
    settings: dict[str, Any] = {"width": 8, "scale": 1.0}

    def function(t: Any) -> Any:
        width = settings["width"]
        hidden = torch.tanh(t[:, :width] @ weight[:width])
        return torch.sin(hidden * settings["scale"])

    (expected,) = torch.autograd.grad(function(x).sum(), x)
    out, _ = caught_warnings(lambda: checkpoint(function, x, use_reentrant=reentrant))
    settings[setting] = _CHANGES[setting]
    error = error_text(lambda: out.sum().backward())
    correct = error == "no error" and x.grad is not None and bool(torch.allclose(x.grad, expected))
    if error != "no error":
        error = error.split("\n", maxsplit=1)[0]
    return error, correct


def probe_metadata_mismatch_raises(device: Device) -> Observation:
    return _metadata_rule(device, reentrant=False)


def control_reentrant_metadata_mismatch(device: Device) -> Observation:
    return _metadata_rule(device, reentrant=True)


def _metadata_rule(device: Device, reentrant: bool) -> Observation:
    error, correct = _changed_between_passes(device, "width", reentrant)
    name = "reentrant" if reentrant else "nonreentrant"
    return Observation(
        holds=error.startswith("CheckpointError") and "different metadata" in error,
        rule="holds if backward raises CheckpointError about different metadata when a global "
        "setting that sets the width of a slice inside the checkpointed function changes "
        "between forward and backward, with "
        + ("use_reentrant=True" if reentrant else "use_reentrant=False"),
        measurements=(
            Measurement(f"ckpt-mismatch-{name}-error", error, "text"),
            Measurement(f"ckpt-mismatch-{name}-grad-correct", correct, "bool"),
        ),
    )


METADATA_MISMATCH_RAISES = Claim(
    id="checkpointing/metadata-mismatch-raises",
    statement="With use_reentrant=False, backward raises CheckpointError when the "
    "recomputation saves a tensor whose shape, dtype or device differs from the forward pass.",
    expect=Expect.HOLDS,
    probe=probe_metadata_mismatch_raises,
    measures=("ckpt-mismatch-nonreentrant-error", "ckpt-mismatch-nonreentrant-grad-correct"),
    control=Control(
        "use_reentrant=True",
        control_reentrant_metadata_mismatch,
        measures=("ckpt-mismatch-reentrant-error", "ckpt-mismatch-reentrant-grad-correct"),
    ),
    vocabulary=Vocabulary(
        subjects=("CheckpointError",),
        predicates={
            "en": ("shape", "dtype", "metadata"),
            "ja": ("形状", "dtype", "メタデータ"),
            "ko": ("형상", "모양", "dtype", "메타데이터"),
        },
    ),
)


def probe_recomputation_verified(device: Device) -> Observation:
    return _verified_rule(device, setting="scale")


def control_recomputation_shape_changed(device: Device) -> Observation:
    return _verified_rule(device, setting="width")


def _verified_rule(device: Device, setting: str) -> Observation:
    """The myth "checkpoint checks that the recomputation matches the forward pass": a global
    setting changed between the passes makes backward raise."""
    error, correct = _changed_between_passes(device, setting, reentrant=False)
    prefix = "ckpt-values" if setting == "scale" else "ckpt-shapes"
    return Observation(
        holds=error != "no error",
        rule="holds if, with use_reentrant=False, backward raises an error when a global "
        "setting read by the checkpointed function changes between forward and backward: "
        + (
            "a factor, which changes the values of the saved tensors only"
            if setting == "scale"
            else "the width of a slice, which changes the shapes of the saved tensors"
        ),
        measurements=(
            Measurement(f"{prefix}-error", error, "text"),
            Measurement(f"{prefix}-grad-correct", correct, "bool"),
        ),
    )


MYTH_RECOMPUTATION_VERIFIED = Claim(
    id="checkpointing/myth-recomputation-verified",
    statement="checkpoint checks that the recomputation reproduces the forward pass: a "
    "recomputation that computes other values raises an error.",
    expect=Expect.FAILS,
    probe=probe_recomputation_verified,
    measures=("ckpt-values-error", "ckpt-values-grad-correct"),
    control=Control(
        "a change of shape instead of values",
        control_recomputation_shape_changed,
        measures=("ckpt-shapes-error", "ckpt-shapes-grad-correct"),
    ),
    vocabulary=Vocabulary(
        subjects=_CHECKPOINT,
        predicates={
            "en": (
                "recomputation … differ … raise",
                "recomputed values … differ … error",
                "recomputation … differs … error",
                "checks that the recomputation",
                "verifies that the recomputation",
                "guarantees that the recomputation",
                "recomputation that computes other values raises",
            ),
            "ja": (
                "再計算 … 異なる … エラー",
                "再計算 … 違う … エラー",
                "再計算 … 一致することを確認",
                "再計算 … 一致するか確認",
                "再計算が順伝播を再現",
                "異なる値を計算する再計算 … エラー",
            ),
            "ko": (
                "재계산 … 다르면 … 오류",
                "재계산 … 달라지면 … 오류",
                "재계산 … 일치하는지 확인",
                "재계산이 순전파를 재현",
                "다른 값을 계산하는 재계산 … 오류",
            ),
        },
        denies=False,
    ),
)


CLAIMS = (
    METADATA_MISMATCH_RAISES,
    MYTH_RECOMPUTATION_VERIFIED,
)
