"""Claims of "BatchNorm: running statistics updated twice" (docs/topics/checkpointing.md,
``(ck-batchnorm)=``)."""

from __future__ import annotations

import math
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.typing import Device

#: The layer's momentum in the step without checkpointing, and the one whose two updates
#: equal one update with it: (1 - m') ** 2 == 1 - m.
_MOMENTUM = 0.1
_ADJUSTED = 1 - math.sqrt(1 - _MOMENTUM)


def _bn_step(device: Device, where: str, reentrant: bool, momentum: float) -> dict[str, Any]:
    """One training step of Linear, BatchNorm1d, GELU: ``where`` is ``"none"`` (no
    checkpointing), ``"block"`` (the whole block in one checkpoint) or ``"outside"`` (the
    Linear and the GELU checkpointed, the BatchNorm layer between them not). Returns the
    layer's buffers and the Linear's weight gradient."""
    import torch
    from torch.utils.checkpoint import checkpoint

    torch.manual_seed(0)
    block: Any = torch.nn.Sequential(
        torch.nn.Linear(16, 16), torch.nn.BatchNorm1d(16, momentum=momentum), torch.nn.GELU()
    ).to(device)
    x = (torch.randn(32, 16, device=device) * 3 + 1).requires_grad_()
    if where == "none":
        out = block(x)
    elif where == "block":
        out = checkpoint(block, x, use_reentrant=reentrant)
    elif where == "outside":
        hidden = checkpoint(block[0], x, use_reentrant=reentrant)
        out = checkpoint(block[2], block[1](hidden), use_reentrant=reentrant)
    else:
        raise ValueError(f"unknown placement {where!r}")
    out.pow(2).mean().backward()
    norm = block[1]
    return {
        "batches": int(norm.num_batches_tracked),
        "mean": norm.running_mean.clone(),
        "var": norm.running_var.clone(),
        "grad": block[0].weight.grad.clone(),
    }


def _same_statistics(a: dict[str, Any], b: dict[str, Any]) -> bool:
    import torch

    return all(torch.allclose(a[k], b[k], rtol=1e-5, atol=1e-6) for k in ("mean", "var"))


def probe_batchnorm_statistics_unchanged(device: Device) -> Observation:
    return _statistics_rule(device, where="block")


def control_batchnorm_outside_checkpoint(device: Device) -> Observation:
    return _statistics_rule(device, where="outside")


def _statistics_rule(device: Device, where: str) -> Observation:
    """The myth "checkpointing leaves BatchNorm's running statistics as they are": after one
    step, num_batches_tracked, running_mean and running_var equal the step's without
    checkpointing, under both implementations."""
    reference = _bn_step(device, "none", reentrant=False, momentum=_MOMENTUM)
    found = {
        name: _bn_step(device, where, reentrant=reentrant, momentum=_MOMENTUM)
        for name, reentrant in (("reentrant", True), ("nonreentrant", False))
    }
    same = {
        name: step["batches"] == reference["batches"] and _same_statistics(step, reference)
        for name, step in found.items()
    }
    prefix = "ckpt-bn" if where == "block" else "ckpt-bn-outside"
    measurements = [
        Measurement(f"{prefix}-{name}-batches", step["batches"], "count")
        for name, step in found.items()
    ] + [Measurement(f"{prefix}-{name}-same", same[name], "bool") for name in found]
    if where == "block":
        import torch

        grads_equal = all(
            torch.allclose(step["grad"], reference["grad"], rtol=1e-5, atol=1e-6)
            for step in found.values()
        )
        measurements += [
            Measurement("ckpt-bn-reference-batches", reference["batches"], "count"),
            Measurement("ckpt-bn-grads-equal", bool(grads_equal), "bool"),
        ]
    return Observation(
        holds=all(same.values()),
        rule="holds if, after one training step, the BatchNorm layer's num_batches_tracked, "
        "running_mean and running_var equal those of the step without checkpointing, with "
        "use_reentrant=True and with use_reentrant=False, "
        + (
            "the layer inside the checkpointed function"
            if where == "block"
            else "the layer outside the checkpointed functions"
        ),
        measurements=tuple(measurements),
    )


MYTH_BATCHNORM_STATISTICS_UNCHANGED = Claim(
    id="checkpointing/myth-batchnorm-statistics-unchanged",
    statement="Checkpointing a block that holds a BatchNorm layer leaves the layer's running "
    "statistics as they are without checkpointing.",
    expect=Expect.FAILS,
    probe=probe_batchnorm_statistics_unchanged,
    measures=(
        "ckpt-bn-reentrant-batches",
        "ckpt-bn-nonreentrant-batches",
        "ckpt-bn-reentrant-same",
        "ckpt-bn-nonreentrant-same",
        "ckpt-bn-reference-batches",
        "ckpt-bn-grads-equal",
    ),
    control=Control(
        "the BatchNorm layer outside the checkpointed functions",
        control_batchnorm_outside_checkpoint,
        measures=(
            "ckpt-bn-outside-reentrant-batches",
            "ckpt-bn-outside-nonreentrant-batches",
            "ckpt-bn-outside-reentrant-same",
            "ckpt-bn-outside-nonreentrant-same",
        ),
    ),
    vocabulary=Vocabulary(
        subjects=("BatchNorm", "バッチ正規化", "배치 정규화"),
        requires={
            "en": ("checkpoint",),
            "ja": ("チェックポイント", "checkpoint"),
            "ko": ("체크포인트", "체크포인팅", "checkpoint"),
        },
        predicates={
            "en": (
                "running statistics … unchanged",
                "running statistics … the same",
                "running stats … the same",
                "running stats … unchanged",
                "does not change … running",
                "doesn't change … running",
            ),
            "ja": ("移動統計量 … 同じ", "移動統計量 … 変わりません", "移動統計量 … 変わらない"),
            "ko": ("이동 통계 … 같", "이동 통계 … 달라지지 않", "이동 통계 … 변하지 않"),
        },
        opposites={  # "the running statistics are updated twice"
            "en": (
                "running statistics … updated twice",
                "running stats … updated twice",
                "updates … running … twice",
                "num_batches_tracked … twice",
            ),
            "ja": ("移動統計量 … 2 回更新", "num_batches_tracked … 2 回"),
            "ko": ("이동 통계 … 두 번 갱신", "num_batches_tracked … 두 번"),
        },
        denies=False,
    ),
)


def probe_batchnorm_momentum_adjusted(device: Device) -> Observation:
    return _momentum_rule(device, adjusted=True)


def control_batchnorm_momentum_kept(device: Device) -> Observation:
    return _momentum_rule(device, adjusted=False)


def _momentum_rule(device: Device, adjusted: bool) -> Observation:
    """The workaround: a momentum m' with (1 - m')² = 1 - m makes the recomputation's second
    update bring the running statistics where one update with m brings them."""
    reference = _bn_step(device, "none", reentrant=False, momentum=_MOMENTUM)
    momentum = _ADJUSTED if adjusted else _MOMENTUM
    found = [
        _bn_step(device, "block", reentrant=reentrant, momentum=momentum)
        for reentrant in (True, False)
    ]
    same = all(_same_statistics(step, reference) for step in found)
    prefix = "ckpt-bn-adjusted" if adjusted else "ckpt-bn-unadjusted"
    return Observation(
        holds=same,
        rule="holds if, under checkpoint with use_reentrant=True and with use_reentrant=False "
        "and a BatchNorm momentum of "
        + ("1 - sqrt(1 - 0.1)" if adjusted else "0.1")
        + ", running_mean and running_var after one step equal those of the step without "
        "checkpointing with momentum 0.1",
        measurements=(
            Measurement(f"{prefix}-same", bool(same), "bool"),
            Measurement(f"{prefix}-batches", max(step["batches"] for step in found), "count"),
        ),
    )


BATCHNORM_MOMENTUM_WORKAROUND = Claim(
    id="checkpointing/batchnorm-momentum-workaround",
    statement="With its momentum set to 1 - sqrt(1 - momentum), a checkpointed BatchNorm "
    "layer's two updates give the running mean and variance of one update without "
    "checkpointing, but num_batches_tracked still counts two batches.",
    expect=Expect.HOLDS,
    probe=probe_batchnorm_momentum_adjusted,
    measures=("ckpt-bn-adjusted-same", "ckpt-bn-adjusted-batches"),
    control=Control(
        "momentum left at 0.1",
        control_batchnorm_momentum_kept,
        measures=("ckpt-bn-unadjusted-same", "ckpt-bn-unadjusted-batches"),
    ),
    vocabulary=Vocabulary(
        subjects=("momentum", "モーメンタム", "모멘텀"),
        requires={
            "en": ("checkpoint",),
            "ja": ("チェックポイント", "checkpoint"),
            "ko": ("체크포인트", "체크포인팅", "checkpoint"),
        },
        predicates={  # "two updates give one's statistics", "compensates for the second update"
            "en": ("sqrt", "two updates", "compensat"),
            "ja": ("sqrt", "2 回の更新", "補正"),
            "ko": ("sqrt", "두 번의 갱신", "보정"),
        },
        conditions={  # "if you set the momentum to …" is the claim's own case
            "en": ("if you set", "if the momentum is set"),
            "ja": ("にすると", "に設定すると"),
            "ko": ("으로 하면", "로 하면", "으로 설정하면", "로 설정하면"),
        },
    ),
)


CLAIMS = (
    MYTH_BATCHNORM_STATISTICS_UNCHANGED,
    BATCHNORM_MOMENTUM_WORKAROUND,
)
