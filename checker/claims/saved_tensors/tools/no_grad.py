"""Claims of "``torch.no_grad()`` and ``torch.inference_mode()``" (docs/topics/saved-tensors.md,
``(st-no-grad)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.saved_tensors._model import _RULE_MARGIN, _compare, _error, _ratio
from checker.evidence import Measurement, Observation
from checker.typing import Device, Lang


def _holds_nothing(variant: str, device: Device) -> Observation:
    default, other = _compare(variant, device)
    ratio = _ratio(other.marks["forward"], default.marks["forward"])
    return Observation(
        holds=ratio < _RULE_MARGIN,
        rule=f"holds if the memory held after a forward under {variant} is less than 1% of "
        "what the default forward holds",
        measurements=(
            Measurement(f"st-held-{variant}", other.marks["forward"], "bytes"),
            Measurement(f"st-peak-{variant}", other.peak, "bytes"),
            Measurement(f"st-{variant}-held-ratio", ratio, "ratio"),
        ),
    )


def control_disable_holds_everything(device: Device) -> Observation:
    return _holds_nothing("disable", device)


#: "Saves nothing for backward", as a region that records nothing (no_grad, inference_mode)
#: is described; the negations are part of the words.
_HOLDS_NOTHING: dict[Lang, tuple[str, ...]] = {
    "en": (
        "reduc",
        "save memory",
        "saving anything",
        "saves nothing",
        "nothing is saved",
        "holds no memory",
    ),
    "ja": (
        "削減",
        "節約",
        "何も保存しない",
        "何も保存されない",
        "メモリを保持しな",
        "メモリを保持しません",
    ),
    "ko": ("줄이", "절약", "아무것도 저장하지 않", "아무것도 저장되지 않", "메모리를 점유하지 않"),
}


def probe_no_grad(device: Device) -> Observation:
    return _holds_nothing("no-grad", device)


NO_GRAD_HOLDS_NOTHING = Claim(
    id="saved-tensors/no-grad-holds-nothing",
    statement="Under torch.no_grad(), a forward pass holds no memory for backward.",
    expect=Expect.HOLDS,
    probe=probe_no_grad,
    control=Control(
        "disable_saved_tensors_hooks, which saves what the default saves",
        control_disable_holds_everything,
    ),
    measures=("st-held-no-grad", "st-peak-no-grad", "st-no-grad-held-ratio"),
    vocabulary=Vocabulary(
        subjects=("no_grad",),
        predicates=_HOLDS_NOTHING,
    ),
)


def probe_inference_mode(device: Device) -> Observation:
    return _holds_nothing("inference-mode", device)


INFERENCE_MODE_HOLDS_NOTHING = Claim(
    id="saved-tensors/inference-mode-holds-nothing",
    statement="Under torch.inference_mode(), a forward pass holds no memory for backward.",
    expect=Expect.HOLDS,
    probe=probe_inference_mode,
    control=Control(
        "disable_saved_tensors_hooks, which saves what the default saves",
        control_disable_holds_everything,
    ),
    measures=(
        "st-held-inference-mode",
        "st-peak-inference-mode",
        "st-inference-mode-held-ratio",
    ),
    vocabulary=Vocabulary(
        subjects=("inference_mode",),
        predicates=_HOLDS_NOTHING,
    ),
)


def probe_inference_tensor_trains_later_myth(device: Device) -> Observation:
    return _trains_later_rule(device, "inference_mode")


def control_no_grad_tensor_trains_later(device: Device) -> Observation:
    return _trains_later_rule(device, "no_grad")


def _trains_later_rule(device: Device, mode: str) -> Observation:
    """The myth "a tensor made under inference_mode can be used for training later, even by
    an operation that saves it": a float tensor made under ``mode`` goes, after the region,
    through a linear layer whose weight requires grad and through a product with a tensor that
    requires grad (the gradient of each needs the tensor saved), then backward."""
    import torch

    with getattr(torch, mode)():
        feature = torch.ones(4, 3, device=device) * 2
    layer = torch.nn.Linear(3, 1).to(device)
    w: Any = torch.ones(4, 3, device=device, requires_grad=True)
    error = _error(lambda: layer(feature).sum().backward())
    product = _error(lambda: (w * feature).sum().backward())
    key = mode.replace("_", "-")
    return Observation(
        holds=error == "no error" and product == "no error",
        rule=f"holds if a tensor made under torch.{mode}() goes, after the region, through a "
        "linear layer and through a product with a tensor that requires grad, and backward "
        "without an error",
        measurements=(
            Measurement(f"st-trains-later-{key}-error", error, "exception"),
            Measurement(f"st-trains-later-{key}-product-error", product, "exception"),
        ),
    )


MYTH_INFERENCE_TENSORS_TRAIN_LATER = Claim(
    id="saved-tensors/myth-inference-tensors-train-later",
    statement="A tensor created under torch.inference_mode() can be used for training "
    "later, once the region is left, even by an operation that saves it for backward.",
    expect=Expect.FAILS,
    probe=probe_inference_tensor_trains_later_myth,
    control=Control(
        "a tensor created under torch.no_grad()",
        control_no_grad_tensor_trains_later,
        measures=("st-trains-later-no-grad-error",),
    ),
    measures=(
        "st-trains-later-inference-mode-error",
        "st-trains-later-inference-mode-product-error",
    ),
    vocabulary=Vocabulary(
        subjects=("inference_mode",),
        predicates={
            "en": ("for training", "in training", "train later", "trained later"),
            "ja": ("学習に", "訓練に", "学習で", "訓練で"),
            "ko": ("학습에", "훈련에", "학습할 때"),
        },
        opposites={
            "en": ("saved for backward", "raise", "error"),
            "ja": ("エラー", "例外", "保存できない"),
            "ko": ("오류", "에러", "예외", "저장할 수 없"),
        },
    ),
)


def probe_inference_tensor_feeds_unsaving_ops(device: Device) -> Observation:
    return _unsaving_ops_rule(device, "inference_mode")


def control_no_grad_tensor_in_saving_op(device: Device) -> Observation:
    return _unsaving_ops_rule(device, "no_grad")


def _unsaving_ops_rule(device: Device, mode: str) -> Observation:
    """After the region, a tensor made under ``mode`` feeds operations that do not save it
    (an addition, a concatenation) and one that does (a product), each with a tensor that
    requires grad, then backward."""
    import torch

    with getattr(torch, mode)():
        feature = torch.ones(4, 3, device=device) * 2
    w: Any = torch.ones(4, 3, device=device, requires_grad=True)
    added = _error(lambda: (w + feature).sum().backward())
    cat: Any = torch.cat
    joined = _error(lambda: cat([w, feature]).sum().backward())
    product = _error(lambda: (w * feature).sum().backward())
    key = mode.replace("_", "-")
    return Observation(
        holds=added == joined == "no error" and product != "no error",
        rule=f"holds if, after the region, a tensor made under torch.{mode}() trains through "
        "w + t and torch.cat([w, t]), and w * t raises in backward",
        measurements=(
            Measurement(f"st-{key}-tensor-add-error", added, "exception"),
            Measurement(f"st-{key}-tensor-cat-error", joined, "exception"),
            Measurement(f"st-{key}-tensor-mul-error", product, "exception"),
        ),
    )


INFERENCE_TENSOR_FEEDS_UNSAVING_OPS = Claim(
    id="saved-tensors/inference-tensor-feeds-unsaving-ops",
    statement="After the region, an inference tensor can still feed an operation that does not "
    "save it for backward, such as an addition; only an operation that saves it raises.",
    expect=Expect.HOLDS,
    probe=probe_inference_tensor_feeds_unsaving_ops,
    control=Control(
        "a tensor created under torch.no_grad()",
        control_no_grad_tensor_in_saving_op,
        measures=("st-no-grad-tensor-mul-error",),
    ),
    measures=(
        "st-inference-mode-tensor-add-error",
        "st-inference-mode-tensor-cat-error",
        "st-inference-mode-tensor-mul-error",
    ),
)


CLAIMS = (
    NO_GRAD_HOLDS_NOTHING,
    INFERENCE_MODE_HOLDS_NOTHING,
    MYTH_INFERENCE_TENSORS_TRAIN_LATER,
    INFERENCE_TENSOR_FEEDS_UNSAVING_OPS,
)
