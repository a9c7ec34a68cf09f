"""Claims of "Tensors outside the graph" (docs/topics/autograd-facts.md, ``(ag-leaving)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.autograd._graph import _error
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_numpy_refuses_requires_grad(device: Device) -> Observation:
    return _numpy_rule(requires_grad=True)


def control_numpy_of_plain_tensor(device: Device) -> Observation:
    return _numpy_rule(requires_grad=False)


def _numpy_rule(requires_grad: bool) -> Observation:
    import torch

    t = torch.tensor([1.0, 2.0], requires_grad=requires_grad)
    direct = _error(t.numpy)
    with torch.no_grad():
        under_no_grad = _error(t.numpy)
    array = t.detach().numpy()
    with torch.no_grad():
        t[0] = 5.0
    shares = float(array[0]) == 5.0
    kind = "requires-grad" if requires_grad else "plain"
    return Observation(
        holds=direct.startswith("RuntimeError") and under_no_grad == "no error" and shares,
        rule="holds if numpy() of a tensor "
        + ("that requires grad" if requires_grad else "that does not require grad")
        + " raises RuntimeError while grad mode is on, runs under torch.no_grad(), and "
        "detach().numpy() returns an array that sees a later write to the tensor",
        measurements=(
            Measurement(f"ag-numpy-{kind}-error", direct, "exception"),
            Measurement(f"ag-numpy-{kind}-no-grad-error", under_no_grad, "exception"),
            Measurement(f"ag-numpy-{kind}-detach-shares", shares, "bool"),
        ),
    )


NUMPY_REFUSES_REQUIRES_GRAD = Claim(
    id="autograd/numpy-refuses-requires-grad",
    statement="Tensor.numpy() raises an error for a tensor that requires grad, unless grad "
    "mode is off; detach().numpy() works and shares the tensor's memory.",
    expect=Expect.HOLDS,
    probe=probe_numpy_refuses_requires_grad,
    control=Control(
        "a tensor that does not require grad",
        control_numpy_of_plain_tensor,
        measures=(
            "ag-numpy-plain-error",
            "ag-numpy-plain-no-grad-error",
            "ag-numpy-plain-detach-shares",
        ),
    ),
    devices=("cpu",),
    measures=(
        "ag-numpy-requires-grad-error",
        "ag-numpy-requires-grad-no-grad-error",
        "ag-numpy-requires-grad-detach-shares",
    ),
    vocabulary=Vocabulary(
        subjects=("numpy()", ".numpy("),
        predicates={
            "en": ("error", "raise", "can't call", "cannot call"),
            "ja": ("エラー", "例外", "呼べない", "呼び出せない"),
            "ko": ("오류", "에러", "예외", "호출할 수 없"),
        },
        requires={
            "en": ("requires_grad", "requires grad", "gradient"),
            "ja": ("requires_grad", "勾配"),
            "ko": ("requires_grad", "변화도", "그래디언트", "기울기", "그라디언트"),
        },
        unless={lang: ("cuda", "GPU", "gpu") for lang in ("en", "ja", "ko")},
    ),
)


def probe_eval_disables_grad(device: Device) -> Observation:
    return _eval_rule(no_grad=False)


def control_eval_under_no_grad(device: Device) -> Observation:
    return _eval_rule(no_grad=True)


def _eval_rule(no_grad: bool) -> Observation:
    import contextlib

    import torch

    layer = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Dropout(0.5))
    layer.eval()
    with torch.no_grad() if no_grad else contextlib.nullcontext():
        out = layer(torch.ones(1, 2))
    kind = "no-grad" if no_grad else "eval"
    return Observation(
        holds=not out.requires_grad and out.grad_fn is None,
        rule="holds if the output of a model in eval mode"
        + (" computed under torch.no_grad()" if no_grad else "")
        + " does not require grad and has no grad_fn",
        measurements=(
            Measurement(f"ag-{kind}-output-requires-grad", bool(out.requires_grad), "bool"),
            Measurement(f"ag-{kind}-output-grad-fn", type(out.grad_fn).__name__, "text"),
        ),
    )


MYTH_EVAL_DISABLES_GRAD = Claim(
    id="autograd/myth-eval-disables-grad",
    statement="model.eval() turns off gradient computation: outputs computed after it do not "
    "require grad.",
    expect=Expect.FAILS,
    probe=probe_eval_disables_grad,
    control=Control(
        "the same forward under torch.no_grad()",
        control_eval_under_no_grad,
        measures=("ag-no-grad-output-requires-grad", "ag-no-grad-output-grad-fn"),
    ),
    devices=("cpu",),
    measures=("ag-eval-output-requires-grad", "ag-eval-output-grad-fn"),
    vocabulary=Vocabulary(
        subjects=("eval()", ".eval(", "model.eval"),
        predicates={
            "en": (
                "disable … grad",
                "disables … grad",
                "turn off … grad",
                "turns off … grad",
                "stop … gradient",
                "stops … gradient",
                "disable autograd",
                "disables autograd",
            ),
            "ja": (
                "勾配 … 無効",
                "勾配 … オフ",
                "勾配を計算しない",
                "勾配計算をしない",
                "autograd … 無効",
            ),
            "ko": (
                "기울기 … 끄",
                "기울기 … 비활성",
                "그래디언트 … 끄",
                "그래디언트 … 비활성",
                "autograd … 비활성",
                "autograd … 끄",
                "기울기를 계산하지 않",
                "변화도 … 끄",
                "변화도 … 비활성",
                "변화도를 계산하지 않",
                "변화도 … 끕",
                "기울기 … 끕",
                "그래디언트 … 끕",
            ),
        },
        unless={lang: ("no_grad", "inference_mode") for lang in ("en", "ja", "ko")},
    ),
)


def probe_inference_tensor_version(device: Device) -> Observation:
    return _version_rule(mode="inference_mode")


def control_no_grad_tensor_version(device: Device) -> Observation:
    return _version_rule(mode="no_grad")


def _version_rule(mode: str) -> Observation:
    import torch

    with getattr(torch, mode)():
        t = torch.ones(2)
    error = _error(lambda: t._version)
    kind = "inference" if mode == "inference_mode" else "no-grad"
    return Observation(
        holds=error.startswith("RuntimeError"),
        rule=f"holds if reading _version of a tensor created under torch.{mode}() raises "
        "RuntimeError",
        measurements=(Measurement(f"ag-{kind}-version-error", error, "exception"),),
    )


INFERENCE_TENSORS_HAVE_NO_VERSION_COUNTER = Claim(
    id="autograd/inference-tensors-have-no-version-counter",
    statement="A tensor created under torch.inference_mode() has no version counter: reading "
    "its _version raises an error.",
    expect=Expect.HOLDS,
    probe=probe_inference_tensor_version,
    control=Control(
        "a tensor created under torch.no_grad()",
        control_no_grad_tensor_version,
        measures=("ag-no-grad-version-error",),
    ),
    devices=("cpu",),
    measures=("ag-inference-version-error",),
    vocabulary=Vocabulary(
        subjects=(
            "inference_mode",
            "inference tensor",
            "Inference tensor",
            "推論テンソル",
            "추론 텐서",
        ),
        # the negation is part of each stem: "disables version counter bumps" is another fact
        predicates={
            "en": (
                "no version counter",
                "not have a version counter",
                "not track version counter",
                "not track a version counter",
                "without a version counter",
            ),
            "ja": (
                "バージョンカウンタを持たな",
                "バージョンカウンタを持ちません",
                "バージョンカウンタがな",
                "バージョンカウンタを追跡しな",
            ),
            "ko": ("버전 카운터를 갖지 않", "버전 카운터가 없", "버전 카운터를 추적하지 않"),
        },
        denies=False,
    ),
)


CLAIMS = (
    NUMPY_REFUSES_REQUIRES_GRAD,
    MYTH_EVAL_DISABLES_GRAD,
    INFERENCE_TENSORS_HAVE_NO_VERSION_COUNTER,
)
