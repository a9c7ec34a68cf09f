"""Claims of "``cast_inputs=torch.float32`` runs a Function in float32" (docs/topics/amp.md,
``(amp-cast-inputs)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.amp._precision import matmul_inputs
from checker.claims.amp.custom_function._decorators import _decorated
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_cast_inputs_float32(device: Device) -> Observation:
    import torch

    return _cast_inputs_rule(device, torch.float32)


def control_without_cast_inputs(device: Device) -> Observation:
    return _cast_inputs_rule(device, None)


def _cast_inputs_rule(device: Device, cast: Any) -> Observation:
    import torch

    function, log = _decorated(device, cast_inputs=cast)
    a, b = matmul_inputs(device)
    with torch.autocast(device, dtype=torch.float16):
        out = function.apply(a.half(), b.bfloat16())
    out.sum().backward()
    assert log.forward_state is not None and log.backward_state is not None
    inside_forward, inside_backward = log.forward_state[0], log.backward_state[0]
    inside = dict(log.forward_dtypes)
    grad_dtype = log.backward_dtypes["grad_a"]

    outside_function, outside_log = _decorated(device, cast_inputs=cast)
    a16, b16 = (t.detach().half() for t in matmul_inputs(device))
    outside_function.apply(a16, b16)
    outside = outside_log.forward_dtypes["a"]
    return Observation(
        holds=not inside_forward
        and not inside_backward
        and inside == {"a": "float32", "b": "float32", "out": "float32"}
        and grad_dtype == "float32"
        and outside == "float16",
        rule=f"holds if, with cast_inputs={cast} and inside float16 autocast, forward "
        "receives a float16 and a bfloat16 "
        "argument as float32, runs with autocast disabled and returns float32, backward also "
        "runs with autocast disabled and computes float32 gradients, and outside autocast a "
        "float16 argument stays float16",
        measurements=(
            Measurement("amp-cast-forward-enabled", inside_forward, "bool"),
            Measurement("amp-cast-input-dtype", inside["a"], "dtype"),
            Measurement("amp-cast-output-dtype", inside["out"], "dtype"),
            Measurement("amp-cast-backward-enabled", inside_backward, "bool"),
            Measurement("amp-cast-backward-dtype", grad_dtype, "dtype"),
            Measurement("amp-cast-outside-input-dtype", outside, "dtype"),
        ),
    )


CAST_INPUTS_FLOAT32_RUNS_IN_FLOAT32 = Claim(
    id="amp/cast-inputs-float32-runs-in-float32",
    statement="Inside an autocast region, custom_fwd(cast_inputs=torch.float32) casts a "
    "Function's float16 and bfloat16 inputs to float32 and runs its forward and backward with "
    "autocast disabled; outside autocast, it changes nothing.",
    expect=Expect.HOLDS,
    probe=probe_cast_inputs_float32,
    control=Control(
        "custom_fwd without cast_inputs",
        control_without_cast_inputs,
    ),
    measures=(
        "amp-cast-forward-enabled",
        "amp-cast-input-dtype",
        "amp-cast-output-dtype",
        "amp-cast-backward-enabled",
        "amp-cast-backward-dtype",
        "amp-cast-outside-input-dtype",
    ),
    vocabulary=Vocabulary(
        subjects=("cast_inputs",),
        predicates={"en": ("float32",), "ja": ("float32",), "ko": ("float32",)},
    ),
)


CLAIMS = (CAST_INPUTS_FLOAT32_RUNS_IN_FLOAT32,)
