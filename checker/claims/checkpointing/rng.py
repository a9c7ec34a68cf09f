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


CLAIMS = (RNG_STATE_RESTORED_FOR_DROPOUT,)
