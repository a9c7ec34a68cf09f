"""Claims of "``custom_fwd`` records the autocast state, ``custom_bwd`` restores it"
(docs/topics/amp.md, ``(amp-custom-bwd)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.amp._precision import matmul_inputs
from checker.claims.amp.custom_function._decorators import _decorated
from checker.evidence import Measurement, Observation
from checker.typing import Device


def _decorated_run(device: str, autocast: bool = True) -> tuple[Any, Any, Any]:
    """Forward under float16 autocast (or outside it) and backward outside, with both
    decorators."""
    import torch

    function, log = _decorated(device)
    a, b = matmul_inputs(device)
    with torch.autocast(device, dtype=torch.float16, enabled=autocast):
        out = function.apply(a, b)
    out.float().sum().backward()
    return log, a, b


def probe_custom_bwd_reuses_state(device: Device) -> Observation:
    return _reuses_state_rule(device, autocast=True)


def control_forward_outside_autocast(device: Device) -> Observation:
    return _reuses_state_rule(device, autocast=False)


def _reuses_state_rule(device: Device, autocast: bool) -> Observation:
    log, _, _ = _decorated_run(device, autocast)
    return Observation(
        holds=log.forward_state == log.backward_state == (True, "float16")
        and log.backward_dtypes["grad_a"] == "float16",
        rule="holds if forward and backward both run with autocast enabled at float16 and the "
        "products computed in backward are float16"
        + ("" if autocast else " (forward called outside autocast)"),
        measurements=(
            Measurement("amp-forward-autocast-enabled", log.forward_state[0], "bool"),
            Measurement("amp-forward-autocast-dtype", log.forward_state[1], "dtype"),
            Measurement("amp-backward-autocast-enabled", log.backward_state[0], "bool"),
            Measurement("amp-backward-autocast-dtype", log.backward_state[1], "dtype"),
            Measurement("amp-backward-product-dtype", log.backward_dtypes["grad_a"], "dtype"),
        ),
    )


CUSTOM_BWD_REUSES_FORWARD_AUTOCAST_STATE = Claim(
    id="amp/custom-bwd-reuses-forward-autocast-state",
    statement="custom_bwd runs backward with the autocast state and dtype that forward ran "
    "with, as recorded by custom_fwd.",
    expect=Expect.HOLDS,
    probe=probe_custom_bwd_reuses_state,
    control=Control(
        "the same Function called outside autocast",
        control_forward_outside_autocast,
    ),
    measures=(
        "amp-forward-autocast-enabled",
        "amp-forward-autocast-dtype",
        "amp-backward-autocast-enabled",
        "amp-backward-autocast-dtype",
        "amp-backward-product-dtype",
    ),
    vocabulary=Vocabulary(
        subjects=("custom_bwd",),
        predicates={"en": ("same",), "ja": ("同じ",), "ko": ("같은", "동일")},
    ),
)


def probe_custom_bwd_higher_precision(device: Device) -> Observation:
    import torch

    log, a, b = _decorated_run(device)
    low_error = relative_error(a.grad, _reference_grad_a(b))

    function, _ = _decorated(device, cast_inputs=torch.float32)
    a32, b32 = matmul_inputs(device)
    with torch.autocast(device, dtype=torch.float16):
        out = function.apply(a32, b32)
    out.sum().backward()
    float32_error = relative_error(a32.grad, _reference_grad_a(b32))
    found = _backward_precision_rule(log.backward_dtypes["grad_a"], cast=False)
    return Observation(
        found.holds,
        found.rule,
        (
            *found.measurements,
            Measurement("amp-custom-bwd-grad-error", f"{low_error:.2e}", "text"),
            Measurement("amp-cast-inputs-grad-error", f"{float32_error:.2e}", "text"),
        ),
    )


def control_cast_inputs_backward(device: Device) -> Observation:
    import torch

    function, log = _decorated(device, cast_inputs=torch.float32)
    a, b = matmul_inputs(device)
    with torch.autocast(device, dtype=torch.float16):
        out = function.apply(a, b)
    out.sum().backward()
    return _backward_precision_rule(log.backward_dtypes["grad_a"], cast=True)


def relative_error(approx: Any, exact: Any) -> float:
    """``max |approx - exact| / max |exact|``, computed in float64."""
    exact64 = exact.double()
    return float(((approx.double() - exact64).abs().max() / exact64.abs().max()).item())


def _reference_grad_a(b: Any) -> Any:
    """The exact gradient of ``(a @ b).sum()`` with respect to ``a``, in float64."""
    import torch

    b64 = b.detach().double()
    return torch.ones(b64.shape[0], b64.shape[1], dtype=torch.float64, device=b.device) @ b64.T


def _backward_precision_rule(grad_dtype: str, cast: bool) -> Observation:
    return Observation(
        holds=grad_dtype == "float32",
        rule="holds if the gradients that backward computes under custom_bwd, after a float16 "
        "forward" + (" with cast_inputs=torch.float32" if cast else "") + ", are float32",
        measurements=(
            Measurement(
                "amp-cast-inputs-bwd-grad-dtype" if cast else "amp-custom-bwd-grad-dtype",
                grad_dtype,
                "dtype",
            ),
        ),
    )


MYTH_CUSTOM_BWD_RECOMPUTES_IN_HIGHER_PRECISION = Claim(
    id="amp/myth-custom-bwd-recomputes-in-higher-precision",
    statement="custom_bwd recomputes the gradient of a low-precision operation in higher "
    "precision.",
    expect=Expect.FAILS,
    probe=probe_custom_bwd_higher_precision,
    control=Control(
        "custom_fwd with cast_inputs=torch.float32",
        control_cast_inputs_backward,
    ),
    measures=(
        "amp-custom-bwd-grad-dtype",
        "amp-custom-bwd-grad-error",
        "amp-cast-inputs-grad-error",
    ),
    vocabulary=Vocabulary(
        subjects=("custom_bwd",),
        predicates={
            "en": ("higher precision", "high precision", "recompute", "in float32"),
            "ja": ("高精度", "計算し直", "float32で"),
            "ko": ("고정밀", "높은 정밀도", "다시 계산", "float32로"),
        },
    ),
)


CLAIMS = (
    CUSTOM_BWD_REUSES_FORWARD_AUTOCAST_STATE,
    MYTH_CUSTOM_BWD_RECOMPUTES_IN_HIGHER_PRECISION,
)
