"""Claims of "Calls that do not exist" (docs/topics/amp.md, ``(amp-nonexistent-calls)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.measure import caught_warnings, error_text
from checker.typing import Device


def probe_custom_bwd_takes_args(device: Device) -> Observation:
    return _takes_args_rule(as_article=True)


def control_custom_bwd_as_decorator(device: Device) -> Observation:
    return _takes_args_rule(as_article=False)


def _takes_args_rule(as_article: bool) -> Observation:
    import torch

    cuda_amp: Any = torch.cuda.amp  # the article's calls below are wrong on purpose
    amp: Any = torch.amp
    x = torch.ones(3)
    y = x * 2

    def backward(ctx: Any, grad: Any) -> Any:
        return grad

    if as_article:
        deprecated = error_text(
            lambda: caught_warnings(lambda: cuda_amp.custom_bwd(x, y, args=(x,)))
        )
        current = error_text(lambda: amp.custom_bwd(x, y, args=(x,), device_type="cpu"))
    else:
        deprecated = error_text(lambda: caught_warnings(lambda: cuda_amp.custom_bwd(backward)))
        current = error_text(lambda: amp.custom_bwd(backward, device_type="cpu"))
    return Observation(
        holds=deprecated == "no error",
        rule="holds if torch.cuda.amp.custom_bwd accepts "
        + ("two tensors and an args keyword" if as_article else "a backward function")
        + " without raising",
        measurements=(
            Measurement("amp-custom-bwd-args-error", deprecated, "exception"),
            Measurement("amp-amp-custom-bwd-args-error", current, "exception"),
        ),
    )


MYTH_CUSTOM_BWD_TAKES_ARGS_OUTPUTS_INPUTS = Claim(
    id="amp/myth-custom-bwd-takes-args-outputs-inputs",
    statement="torch.cuda.amp.custom_bwd is called with inputs, outputs and an args keyword.",
    expect=Expect.FAILS,
    probe=probe_custom_bwd_takes_args,
    control=Control(
        "custom_bwd applied to a backward function",
        control_custom_bwd_as_decorator,
    ),
    devices=("cpu",),
    measures=("amp-custom-bwd-args-error", "amp-amp-custom-bwd-args-error"),
    vocabulary=Vocabulary(
        subjects=("custom_bwd",),
        predicates={
            "en": ("takes", "accepts", "called with", "args keyword"),
            "ja": ("引数を取", "引数を受け取", "を引数に", "を渡して呼び出"),
            "ko": ("인수를 받", "인자를 받", "인수로 받", "인자로 받", "와 함께 호출"),
        },
    ),
)


def probe_custom_bwd_returns_grads(device: Device) -> Observation:
    return _returns_grads_rule(custom_bwd=True)


def control_autograd_grad_returns_grads(device: Device) -> Observation:
    return _returns_grads_rule(custom_bwd=False)


def _returns_grads_rule(custom_bwd: bool) -> Observation:
    import torch

    cuda_amp: Any = torch.cuda.amp  # the call below is wrong on purpose
    x = torch.ones(3, requires_grad=True)
    if custom_bwd:
        result, _ = caught_warnings(lambda: cuda_amp.custom_bwd(x))
    else:
        result = torch.autograd.grad((x * 2).sum(), x)
    is_gradient = isinstance(result, torch.Tensor) or (
        isinstance(result, tuple) and all(isinstance(r, torch.Tensor) for r in result)
    )
    return Observation(
        holds=is_gradient,
        rule="holds if "
        + ("torch.cuda.amp.custom_bwd" if custom_bwd else "torch.autograd.grad")
        + " applied to a tensor returns a tensor or a tuple of tensors",
        measurements=(
            Measurement("amp-custom-bwd-result-type", type(result).__name__, "text"),
            Measurement("amp-custom-bwd-result-name", getattr(result, "__name__", "?"), "text"),
            Measurement(
                "amp-custom-bwd-result-call-error",
                error_text(lambda: result(x)) if callable(result) else "not callable",
                "exception",
            ),
        ),
    )


MYTH_CUSTOM_BWD_RETURNS_GRADIENTS = Claim(
    id="amp/myth-custom-bwd-returns-gradients",
    statement="Calling custom_bwd returns gradients.",
    expect=Expect.FAILS,
    probe=probe_custom_bwd_returns_grads,
    control=Control(
        "torch.autograd.grad, which does return gradients",
        control_autograd_grad_returns_grads,
    ),
    devices=("cpu",),
    measures=(
        "amp-custom-bwd-result-type",
        "amp-custom-bwd-result-name",
        "amp-custom-bwd-result-call-error",
    ),
    vocabulary=Vocabulary(
        subjects=("custom_bwd",),
        predicates={
            "en": ("returns",),
            "ja": ("返し", "返す"),
            "ko": ("반환",),
        },
    ),
)


def probe_amp_backward_exists(device: Device) -> Observation:
    return _has_attribute_rule("backward")


def control_amp_autocast_exists(device: Device) -> Observation:
    return _has_attribute_rule("autocast")


def _has_attribute_rule(name: str) -> Observation:
    import torch

    in_cuda_amp = hasattr(torch.cuda.amp, name)
    in_amp = hasattr(torch.amp, name)
    return Observation(
        holds=in_cuda_amp or in_amp,
        rule=f"holds if torch.cuda.amp or torch.amp has an attribute named {name}",
        measurements=(
            Measurement(f"amp-cuda-amp-has-{name}", in_cuda_amp, "bool"),
            Measurement(f"amp-amp-has-{name}", in_amp, "bool"),
            Measurement(
                f"amp-cuda-amp-{name}-error",
                error_text(lambda: getattr(torch.cuda.amp, name)),
                "exception",
            ),
        ),
    )


MYTH_AMP_BACKWARD_EXISTS = Claim(
    id="amp/myth-amp-backward-exists",
    statement="AMP provides a function amp.backward(loss) that computes gradients.",
    expect=Expect.FAILS,
    probe=probe_amp_backward_exists,
    control=Control(
        "the attribute autocast, which exists",
        control_amp_autocast_exists,
    ),
    devices=("cpu",),
    measures=(
        "amp-cuda-amp-has-backward",
        "amp-amp-has-backward",
        "amp-cuda-amp-backward-error",
    ),
    vocabulary=Vocabulary(subjects=("amp.backward",)),
)


def probe_gradscaler_has_unscale(device: Device) -> Observation:
    return _scaler_method_rule("unscale")


def control_gradscaler_has_unscale_underscore(device: Device) -> Observation:
    return _scaler_method_rule("unscale_")


def _scaler_method_rule(name: str) -> Observation:
    import torch

    scaler: Any = torch.amp.GradScaler("cpu")
    found = hasattr(scaler, name)
    return Observation(
        holds=found,
        rule=f"holds if a GradScaler has a method named {name}",
        measurements=(
            Measurement("amp-scaler-has-unscale", found, "bool"),
            Measurement("amp-scaler-has-unscale-underscore", hasattr(scaler, "unscale_"), "bool"),
            Measurement(
                "amp-scaler-unscale-error", error_text(lambda: getattr(scaler, name)), "exception"
            ),
        ),
    )


MYTH_GRADSCALER_HAS_UNSCALE = Claim(
    id="amp/myth-gradscaler-has-unscale",
    statement="GradScaler has a method unscale(optimizer).",
    expect=Expect.FAILS,
    probe=probe_gradscaler_has_unscale,
    control=Control(
        "the method unscale_, which exists",
        control_gradscaler_has_unscale_underscore,
    ),
    devices=("cpu",),
    measures=(
        "amp-scaler-has-unscale",
        "amp-scaler-has-unscale-underscore",
        "amp-scaler-unscale-error",
    ),
    vocabulary=Vocabulary(subjects=("scaler.unscale(",)),
)


def probe_autograd_grad_takes_args(device: Device) -> Observation:
    return _grad_parameter_rule("args")


def control_autograd_grad_takes_inputs(device: Device) -> Observation:
    return _grad_parameter_rule("inputs")


def _grad_parameter_rule(name: str) -> Observation:
    import inspect

    import torch

    x = torch.ones(3, requires_grad=True)
    y = (x * 2).sum()
    grad: Any = torch.autograd.grad  # the call below is wrong on purpose
    parameters = inspect.signature(grad).parameters
    return Observation(
        holds=name in parameters,
        rule=f"holds if torch.autograd.grad has a parameter named {name}",
        measurements=(
            Measurement(f"amp-grad-has-{name}", name in parameters, "bool"),
            Measurement(
                "amp-grad-args-error",
                error_text(lambda: grad(y, x, args=(x,))),
                "exception",
            ),
        ),
    )


MYTH_AUTOGRAD_GRAD_TAKES_ARGS = Claim(
    id="amp/myth-autograd-grad-takes-args",
    statement="torch.autograd.grad accepts an args keyword argument.",
    expect=Expect.FAILS,
    probe=probe_autograd_grad_takes_args,
    control=Control(
        "the parameter inputs, which exists",
        control_autograd_grad_takes_inputs,
    ),
    devices=("cpu",),
    measures=("amp-grad-has-args", "amp-grad-args-error"),
    vocabulary=Vocabulary(subjects=("torch.autograd.grad",)),
)


CLAIMS = (
    MYTH_CUSTOM_BWD_TAKES_ARGS_OUTPUTS_INPUTS,
    MYTH_CUSTOM_BWD_RETURNS_GRADIENTS,
    MYTH_AMP_BACKWARD_EXISTS,
    MYTH_GRADSCALER_HAS_UNSCALE,
    MYTH_AUTOGRAD_GRAD_TAKES_ARGS,
)
