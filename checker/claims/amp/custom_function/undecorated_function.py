"""Claims of "Without the decorators, backward can fail" (docs/topics/amp.md,
``(amp-undecorated-function)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.amp._precision import matmul_function, matmul_inputs
from checker.claims.amp.custom_function._decorators import _decorated
from checker.evidence import Measurement, Observation
from checker.measure import error_text
from checker.typing import Device


def _undecorated_error(device: str, decorated: bool = False) -> str:
    """What backward of a matmul Function raises after a float16 forward: undecorated, or
    (``decorated``) with torch.amp's custom_fwd and custom_bwd."""
    import torch

    function, _ = _decorated(device) if decorated else matmul_function(device)
    a, b = matmul_inputs(device)
    with torch.autocast(device, dtype=torch.float16):
        out = function.apply(a, b)
    return error_text(lambda: out.float().sum().backward())


def probe_undecorated_function_fails(device: Device) -> Observation:
    return _undecorated_rule(device, decorated=False)


def control_decorated_function(device: Device) -> Observation:
    return _undecorated_rule(device, decorated=True)


def _undecorated_rule(device: Device, decorated: bool) -> Observation:
    error = _undecorated_error(device, decorated)
    return Observation(
        holds=error.startswith("RuntimeError") and "same dtype" in error,
        rule="holds if backward"
        + (" (custom_fwd and custom_bwd applied)" if decorated else "")
        + ", called after a forward under float16 autocast, raises a RuntimeError about "
        "mismatched dtypes",
        measurements=(
            Measurement(
                "amp-decorated-error" if decorated else "amp-undecorated-error", error, "exception"
            ),
        ),
    )


UNDECORATED_FUNCTION_FAILS_UNDER_AUTOCAST = Claim(
    id="amp/undecorated-function-fails-under-autocast",
    statement="A custom autograd Function without custom_fwd and custom_bwd, whose forward "
    "runs under autocast, can fail in backward with a dtype mismatch.",
    expect=Expect.HOLDS,
    probe=probe_undecorated_function_fails,
    control=Control(
        "the same Function with custom_fwd and custom_bwd",
        control_decorated_function,
    ),
    measures=("amp-undecorated-error",),
)


def probe_simple_function_needs_nothing(device: Device) -> Observation:
    return _simple_rule(device, decorated=False)


def control_simple_function_decorated(device: Device) -> Observation:
    return _simple_rule(device, decorated=True)


def _simple_rule(device: Device, decorated: bool) -> Observation:
    error = _undecorated_error(device, decorated)
    return Observation(
        holds=error == "no error",
        rule="holds if a Function made of one matrix product (and two in backward), "
        + ("with" if decorated else "without")
        + " custom_fwd and custom_bwd, completes forward under float16 autocast and backward",
        measurements=(Measurement("amp-one-line-function-error", error, "exception"),),
    )


MYTH_CUSTOM_BWD_ONLY_FOR_COMPLEX_GRADIENTS = Claim(
    id="amp/myth-custom-bwd-only-for-complex-gradients",
    statement="custom_fwd and custom_bwd are needed only for complex custom gradients; a "
    "simple custom Function works under autocast without them.",
    expect=Expect.FAILS,
    probe=probe_simple_function_needs_nothing,
    control=Control(
        "the same Function with custom_fwd and custom_bwd",
        control_simple_function_decorated,
    ),
    measures=("amp-one-line-function-error",),
    vocabulary=Vocabulary(
        subjects=("custom_bwd",),
        predicates={
            "en": ("only when", "only if", "only for", "only needed"),
            "ja": ("にのみ使", "だけ使", "のみ必要", "だけ必要", "にのみ用い", "場合のみ"),
            "ko": ("경우에만", "때만 사용", "에만 필요", "때만 쓰"),
        },
    ),
)


CLAIMS = (
    UNDECORATED_FUNCTION_FAILS_UNDER_AUTOCAST,
    MYTH_CUSTOM_BWD_ONLY_FOR_COMPLEX_GRADIENTS,
)
