"""Claims of "Parameters and their gradients stay float32" (docs/topics/amp.md,
``(amp-parameters-stay-float32)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.amp._precision import dtype_name
from checker.evidence import Measurement, Observation
from checker.measure import count_kernels
from checker.typing import Device


def probe_params_and_grads_float32(device: Device) -> Observation:
    return _params_rule(device, half_model=False)


def control_half_model(device: Device) -> Observation:
    return _params_rule(device, half_model=True)


def _params_rule(device: Device, half_model: bool) -> Observation:
    import torch
    from torch.nn import functional

    model = torch.nn.Linear(8, 4).to(device)
    x = torch.randn(16, 8, device=device)
    if half_model:
        model, x = model.half(), x.half()
    with torch.autocast(device, dtype=torch.float16):
        out = model(x)
        loss: Any = functional.mse_loss(out, torch.zeros_like(out))
    loss.backward()
    assert model.weight.grad is not None
    found = {
        "weight": dtype_name(model.weight.dtype),
        "out": dtype_name(out.dtype),
        "loss": dtype_name(loss.dtype),
        "grad": dtype_name(model.weight.grad.dtype),
    }
    return Observation(
        holds=found
        == {"weight": "float32", "out": "float16", "loss": "float32", "grad": "float32"},
        rule="holds if, with float16 autocast, a Linear layer's weight "
        + ("(converted with .half()) " if half_model else "")
        + "stays float32, its output is float16, the MSE loss is float32 and the weight's "
        ".grad is float32",
        measurements=(
            Measurement("amp-linear-weight-dtype", found["weight"], "dtype"),
            Measurement("amp-linear-output-dtype", found["out"], "dtype"),
            Measurement("amp-linear-loss-dtype", found["loss"], "dtype"),
            Measurement("amp-linear-grad-dtype", found["grad"], "dtype"),
        ),
    )


PARAMETERS_AND_GRADS_STAY_FLOAT32 = Claim(
    id="amp/parameters-and-grads-stay-float32",
    statement="Autocast leaves parameters in float32: a Linear layer's output is float16 "
    "under float16 autocast, but its weight and the weight's gradient stay float32.",
    expect=Expect.HOLDS,
    probe=probe_params_and_grads_float32,
    control=Control(
        "a model converted with .half()",
        control_half_model,
    ),
    measures=(
        "amp-linear-weight-dtype",
        "amp-linear-output-dtype",
        "amp-linear-loss-dtype",
        "amp-linear-grad-dtype",
    ),
    vocabulary=Vocabulary(
        subjects=("autocast",),
        predicates={
            "en": ("weights", "parameters", "master"),
            "ja": ("重み", "パラメータ"),
            "ko": ("가중치", "파라미터", "매개변수"),
        },
    ),
)


def probe_autocast_caches_weight_casts(device: Device) -> Observation:
    return _weight_casts(device, cache_enabled=True)


def control_autocast_without_cache(device: Device) -> Observation:
    return _weight_casts(device, cache_enabled=False)


def _weight_casts(device: Device, cache_enabled: bool) -> Observation:
    import torch

    low = torch.float16 if device == "cuda" else torch.bfloat16
    w = torch.randn(4, 4, device=device, requires_grad=True)
    a = torch.randn(4, 4, device=device).to(low)
    b = torch.randn(4, 4, device=device).to(low)

    def two_products() -> None:
        with torch.autocast(device, dtype=low, cache_enabled=cache_enabled):
            a @ w
            b @ w

    _, inside = count_kernels(two_products, ("_to_copy",))

    def two_regions() -> None:
        two_products()
        two_products()

    _, twice = count_kernels(two_regions, ("_to_copy",))

    def nested_regions() -> None:
        with torch.autocast(device, dtype=low, cache_enabled=cache_enabled):
            two_products()
            two_products()

    _, nested = count_kernels(nested_regions, ("_to_copy",))
    return Observation(
        holds=inside["_to_copy"] == 1 and twice["_to_copy"] == 2 and nested["_to_copy"] == 1,
        rule="holds if, with autocast's cache "
        + ("on (the default)" if cache_enabled else "off (cache_enabled=False)")
        + ", a float32 weight that requires grad is cast once for two matrix products in one "
        "region, once more in a second region, and once for two inner regions nested in an "
        "outer one (casts counted with a TorchDispatchMode)",
        measurements=(
            Measurement(
                f"amp-weight-casts-nested-cache-{cache_enabled}".lower(),
                nested["_to_copy"],
                "count",
            ),
            Measurement(
                f"amp-weight-casts-one-region-cache-{cache_enabled}".lower(),
                inside["_to_copy"],
                "count",
            ),
            Measurement(
                f"amp-weight-casts-two-regions-cache-{cache_enabled}".lower(),
                twice["_to_copy"],
                "count",
            ),
        ),
    )


AUTOCAST_CACHES_WEIGHT_CASTS = Claim(
    id="amp/autocast-caches-weight-casts",
    statement="Inside one autocast region, a float32 weight that requires grad is cast to "
    "the lower precision once and the copy is reused, in nested regions too; the copy is "
    "dropped only when the outermost region exits, so a new region casts it again.",
    expect=Expect.HOLDS,
    probe=probe_autocast_caches_weight_casts,
    measures=(
        "amp-weight-casts-nested-cache-true",
        "amp-weight-casts-one-region-cache-true",
        "amp-weight-casts-two-regions-cache-true",
    ),
    control=Control(
        "the same products with cache_enabled=False",
        control_autocast_without_cache,
        measures=("amp-weight-casts-one-region-cache-false",),
    ),
)


CLAIMS = (
    PARAMETERS_AND_GRADS_STAY_FLOAT32,
    AUTOCAST_CACHES_WEIGHT_CASTS,
)
