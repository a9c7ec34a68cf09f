"""Claims of "Random numbers: dropout and ``preserve_rng_state``" (docs/topics/checkpointing.md,
``(ck-rng)=``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.typing import Device


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


RNG_STATE_RESTORED_FOR_DROPOUT = Claim(
    id="checkpointing/rng-state-restored-for-dropout",
    statement="With preserve_rng_state=True, the default, the recomputation draws the same "
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
)


def probe_mask_redrawn(device: Device) -> Observation:
    return _mask_rule(device, preserve=False)


def control_mask_preserved(device: Device) -> Observation:
    return _mask_rule(device, preserve=True)


def _mask_rule(device: Device, preserve: bool) -> Observation:
    """Dropout of a vector of ones under a non-reentrant checkpoint: the elements where the
    gradient (which follows the recomputation's mask) disagrees with the forward output's
    mask."""
    import torch
    from torch.utils.checkpoint import checkpoint

    size = 1000
    torch.manual_seed(0)
    a = torch.ones(size, device=device, requires_grad=True)
    out = checkpoint(
        torch.nn.functional.dropout,
        a,
        0.5,
        True,
        use_reentrant=False,
        preserve_rng_state=preserve,
    )
    out.sum().backward()
    forward_kept = out.detach() != 0
    backward_kept = a.grad != 0
    differ = int((forward_kept != backward_kept).sum())
    key = "ckpt-mask-kept" if preserve else "ckpt-mask-redrawn"
    return Observation(
        holds=differ > 0,
        rule="holds if, under checkpoint, the dropout mask that the gradient follows differs "
        "from the mask of the forward output in at least one of 1000 elements",
        measurements=(
            Measurement(f"{key}-differing", differ, "count"),
            Measurement(f"{key}-elements", size, "count"),
        ),
    )


NO_PRESERVE_RNG_REDRAWS_MASK = Claim(
    id="checkpointing/no-preserve-rng-redraws-mask",
    statement="With preserve_rng_state=False, the recomputation draws a new dropout mask: the "
    "gradients follow a mask that differs from the one of the forward pass.",
    expect=Expect.HOLDS,
    probe=probe_mask_redrawn,
    measures=("ckpt-mask-redrawn-differing", "ckpt-mask-redrawn-elements"),
    control=Control(
        "preserve_rng_state=True",
        control_mask_preserved,
        measures=("ckpt-mask-kept-differing",),
    ),
    vocabulary=Vocabulary(
        subjects=("preserve_rng_state=False",),
        predicates={
            "en": ("different mask", "new mask", "another mask", "different dropout"),
            "ja": ("別のマスク", "異なるマスク", "新しいマスク"),
            "ko": ("다른 마스크", "새 마스크", "새로운 마스크"),
        },
    ),
)


CLAIMS = (RNG_STATE_RESTORED_FOR_DROPOUT, NO_PRESERVE_RNG_REDRAWS_MASK)
