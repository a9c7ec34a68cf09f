"""Claims of "backward() and the graph" (docs/topics/autograd-facts.md, ``(ag-backward)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.autograd._graph import _error, leaf_and_loss
from checker.evidence import Measurement, Observation
from checker.typing import Device

#: Phrases that put a sentence about calling backward twice in the case where the graph was
#: kept (or freed on purpose): that is another claim's case.
_RETAIN_CASES = ("retain_graph=True", "retain_graph = True", "retain_graph=False")


def probe_second_backward_raises(device: Device) -> Observation:
    return _raises_rule(retain=False)


def control_second_backward_retained(device: Device) -> Observation:
    return _raises_rule(retain=True)


def _raises_rule(retain: bool) -> Observation:
    _, loss = leaf_and_loss()
    loss.backward(retain_graph=retain)
    error = _error(loss.backward)
    kind = "retained" if retain else "default"
    return Observation(
        holds=error.startswith("RuntimeError"),
        rule="holds if a second loss.backward() raises RuntimeError after a first "
        + ("loss.backward(retain_graph=True)" if retain else "loss.backward()"),
        measurements=(Measurement(f"ag-second-backward-{kind}", error, "exception"),),
    )


SECOND_BACKWARD_RAISES = Claim(
    id="autograd/second-backward-raises",
    statement="Calling backward() a second time through the same graph raises an error: the "
    "first call freed the tensors the graph saved.",
    expect=Expect.HOLDS,
    probe=probe_second_backward_raises,
    control=Control(
        "a first call with retain_graph=True",
        control_second_backward_retained,
        measures=("ag-second-backward-retained",),
    ),
    devices=("cpu",),
    measures=("ag-second-backward-default",),
    vocabulary=Vocabulary(
        subjects=("backward",),
        predicates={
            "en": (
                "second time … error",
                "second time … raise",
                "second time … fail",
                "twice … error",
                "twice … raise",
                "twice … fail",
            ),
            "ja": (
                "2回 … エラー",
                "二回 … エラー",
                "2度 … エラー",
                "二度 … エラー",
                "再度 … エラー",
                "もう一度 … エラー",
            ),
            "ko": (
                "두 번 … 오류",
                "두 번 … 에러",
                "두 번째 … 오류",
                "두 번째 … 에러",
                "다시 … 오류",
                "다시 … 에러",
            ),
        },
        unless={lang: _RETAIN_CASES for lang in ("en", "ja", "ko")},
    ),
)


def probe_gradients_accumulate(device: Device) -> Observation:
    return _accumulate_rule(reset=False)


def control_gradient_reset(device: Device) -> Observation:
    return _accumulate_rule(reset=True)


def _accumulate_rule(reset: bool) -> Observation:
    x, loss = leaf_and_loss()
    loss.backward()
    if reset:
        x.grad = None  # what optimizer.zero_grad() does by default
    (x * x).sum().backward()
    assert x.grad is not None
    grad = [float(v) for v in x.grad.tolist()]
    kind = "reset" if reset else "kept"
    return Observation(
        holds=grad == [4.0, 8.0],
        rule="holds if two backward() calls of (x * x).sum(), each through a new graph"
        + (" and with x.grad set to None between them" if reset else "")
        + ", leave twice the gradient of one, [4.0, 8.0], in x.grad",
        measurements=(Measurement(f"ag-grad-after-two-{kind}", str(grad), "text"),),
    )


GRADIENTS_ACCUMULATE = Claim(
    id="autograd/gradients-accumulate",
    statement="backward() adds the new gradients to what .grad already holds instead of "
    "replacing it, so two backward passes leave the sum of their gradients.",
    expect=Expect.HOLDS,
    probe=probe_gradients_accumulate,
    control=Control(
        ".grad set to None between the two passes",
        control_gradient_reset,
        measures=("ag-grad-after-two-reset",),
    ),
    devices=("cpu",),
    measures=("ag-grad-after-two-kept",),
    vocabulary=Vocabulary(
        subjects=("backward", ".grad"),
        predicates={
            "en": ("accumulat", "add up", "adds up", "are added", "summed"),
            "ja": ("累積", "蓄積", "加算され", "足し合わ", "足され"),
            "ko": ("누적", "축적", "더해"),
        },
        unless={lang: ("zero_grad", "zero_()", "set_to_none") for lang in ("en", "ja", "ko")},
    ),
)


def probe_zero_grad_sets_none(device: Device) -> Observation:
    return _zero_grad_rule(set_to_none=True)


def control_zero_grad_fills_zeros(device: Device) -> Observation:
    return _zero_grad_rule(set_to_none=False)


def _zero_grad_rule(set_to_none: bool) -> Observation:
    import torch

    layer = torch.nn.Linear(2, 1)
    optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
    layer(torch.ones(1, 2)).sum().backward()
    if set_to_none:
        optimizer.zero_grad()
    else:
        optimizer.zero_grad(set_to_none=False)
    grad = layer.weight.grad
    shown = "None" if grad is None else str([float(v) for v in grad.flatten().tolist()])
    kind = "default" if set_to_none else "zeros"
    return Observation(
        holds=grad is None,
        rule="holds if the weight's .grad is None after optimizer.zero_grad("
        + ("" if set_to_none else "set_to_none=False")
        + ")",
        measurements=(Measurement(f"ag-zero-grad-{kind}", shown, "text"),),
    )


ZERO_GRAD_SETS_NONE = Claim(
    id="autograd/zero-grad-sets-none",
    statement="optimizer.zero_grad() sets the gradients to None by default instead of filling "
    "them with zeros.",
    expect=Expect.HOLDS,
    probe=probe_zero_grad_sets_none,
    control=Control(
        "zero_grad(set_to_none=False)",
        control_zero_grad_fills_zeros,
        measures=("ag-zero-grad-zeros",),
    ),
    devices=("cpu",),
    measures=("ag-zero-grad-default",),
    vocabulary=Vocabulary(
        subjects=("zero_grad",),
        predicates={lang: ("None", "set_to_none") for lang in ("en", "ja", "ko")},
    ),
)


def probe_zero_grad_allows_second_backward(device: Device) -> Observation:
    return _zero_grad_backward_rule(retain=False)


def control_zero_grad_after_retained_graph(device: Device) -> Observation:
    return _zero_grad_backward_rule(retain=True)


def _zero_grad_backward_rule(retain: bool) -> Observation:
    import torch

    x, loss = leaf_and_loss()
    optimizer = torch.optim.SGD([x], lr=0.1)
    loss.backward(retain_graph=retain)
    optimizer.zero_grad()
    error = _error(loss.backward)
    kind = "retained" if retain else "default"
    return Observation(
        holds=error == "no error",
        rule="holds if, after loss.backward("
        + ("retain_graph=True" if retain else "")
        + ") and optimizer.zero_grad(), a second loss.backward() runs",
        measurements=(Measurement(f"ag-zero-grad-then-backward-{kind}", error, "exception"),),
    )


MYTH_ZERO_GRAD_ALLOWS_SECOND_BACKWARD = Claim(
    id="autograd/myth-zero-grad-allows-second-backward",
    statement="Calling optimizer.zero_grad() lets backward() run a second time through a graph "
    "that was already backpropagated.",
    expect=Expect.FAILS,
    probe=probe_zero_grad_allows_second_backward,
    control=Control(
        "a first call with retain_graph=True",
        control_zero_grad_after_retained_graph,
        measures=("ag-zero-grad-then-backward-retained",),
    ),
    devices=("cpu",),
    measures=("ag-zero-grad-then-backward-default",),
    vocabulary=Vocabulary(
        subjects=("zero_grad",),
        predicates={
            "en": ("backward … second time", "backward … twice", "graph a second time"),
            "ja": ("backward … 2回", "backward … 二回", "backward … 再度", "2回目 … backward"),
            "ko": ("backward … 두 번", "두 번째 … backward", "backward … 다시 호출"),
        },
        unless={lang: ("retain_graph",) for lang in ("en", "ja", "ko")},
    ),
)


def probe_backward_needs_scalar(device: Device) -> Observation:
    return _scalar_rule(summed=False)


def control_backward_of_sum(device: Device) -> Observation:
    return _scalar_rule(summed=True)


def _scalar_rule(summed: bool) -> Observation:
    x, _ = leaf_and_loss()
    y = x * 2
    out = y.sum() if summed else y
    error = _error(out.backward)
    kind = "scalar" if summed else "vector"
    return Observation(
        holds=error.startswith("RuntimeError"),
        rule="holds if backward() without arguments raises RuntimeError on "
        + ("(x * 2).sum(), a scalar" if summed else "x * 2, a tensor of 2 elements"),
        measurements=(Measurement(f"ag-backward-{kind}-error", error, "exception"),),
    )


BACKWARD_NEEDS_A_SCALAR = Claim(
    id="autograd/backward-needs-a-scalar",
    statement="backward() without a gradient argument works only on a scalar: on a tensor of "
    "several elements it raises an error.",
    expect=Expect.HOLDS,
    probe=probe_backward_needs_scalar,
    control=Control(
        "the sum of the same tensor",
        control_backward_of_sum,
        measures=("ag-backward-scalar-error",),
    ),
    devices=("cpu",),
    measures=("ag-backward-vector-error",),
    vocabulary=Vocabulary(
        subjects=("backward()", ".backward("),
        predicates={
            "en": ("scalar",),
            "ja": ("スカラー",),
            "ko": ("스칼라",),
        },
        unless={
            "en": ("gradient=", "grad_tensors", "gradient argument"),
            "ja": ("gradient=", "grad_tensors", "gradient引数", "gradient 引数"),
            "ko": ("gradient=", "grad_tensors", "gradient 인자"),
        },
    ),
)


def probe_anomaly_misses_inf(device: Device) -> Observation:
    return _anomaly_rule(second="inf")


def control_anomaly_two_nans(device: Device) -> Observation:
    return _anomaly_rule(second="nan")


def _anomaly_rule(second: str) -> Observation:
    import warnings

    import torch

    def run(value: float) -> str:
        x = torch.tensor([value], requires_grad=True)
        with warnings.catch_warnings():  # anomaly mode announces itself and its traceback
            warnings.simplefilter("ignore")
            with torch.autograd.detect_anomaly():
                return _error(x.sqrt().sum().backward)

    nan = run(-1.0)  # the gradient of sqrt at -1 is nan
    other = run(0.0 if second == "inf" else -4.0)  # at 0 it is inf
    return Observation(
        holds=nan.startswith("RuntimeError") and other == "no error",
        rule="holds if, under torch.autograd.detect_anomaly(), backward of sqrt at -1 (a nan "
        "gradient) raises RuntimeError and backward of sqrt at "
        + ("0 (an inf gradient)" if second == "inf" else "-4 (a nan gradient)")
        + " runs",
        measurements=(
            Measurement(f"ag-anomaly-{second}-nan-error", nan, "exception"),
            Measurement(f"ag-anomaly-{second}-other-error", other, "exception"),
        ),
    )


ANOMALY_DETECTION_MISSES_INF = Claim(
    id="autograd/anomaly-detection-misses-inf",
    statement="Anomaly detection raises when backward produces a nan gradient, but not when "
    "it produces inf.",
    expect=Expect.HOLDS,
    probe=probe_anomaly_misses_inf,
    control=Control(
        "a second nan gradient in place of the inf one",
        control_anomaly_two_nans,
        measures=("ag-anomaly-nan-nan-error", "ag-anomaly-nan-other-error"),
    ),
    devices=("cpu",),
    measures=("ag-anomaly-inf-nan-error", "ag-anomaly-inf-other-error"),
    vocabulary=Vocabulary(
        subjects=("detect_anomaly", "set_detect_anomaly"),
        predicates={
            "en": ("inf",),
            "ja": ("inf", "無限大"),
            "ko": ("inf", "무한대"),
        },
        denies=True,
    ),
)


def probe_saved_output_is_another_object(device: Device) -> Observation:
    return _unpacked_rule(saved="output")


def control_saved_input_is_the_same_object(device: Device) -> Observation:
    return _unpacked_rule(saved="input")


def _unpacked_rule(saved: str) -> Observation:
    import torch

    x: Any = torch.tensor([1.0, 2.0], requires_grad=True)
    original: Any
    if saved == "output":
        original = x.exp()
        unpacked = original.grad_fn._saved_result  # exp saves its output
    else:
        original = x
        unpacked = (x * torch.ones(2, requires_grad=True)).grad_fn._saved_self
    same = unpacked is original
    shares = unpacked.untyped_storage().data_ptr() == original.untyped_storage().data_ptr()
    return Observation(
        holds=not same and shares and bool(torch.equal(unpacked, original)),
        rule="holds if the tensor autograd saved as "
        + (
            "the output of x.exp() (grad_fn._saved_result)"
            if saved == "output"
            else "the input x of x * w (grad_fn._saved_self)"
        )
        + " is another Python object than the original, with the same values over the same "
        "memory",
        measurements=(
            Measurement(f"ag-saved-{saved}-same-object", same, "bool"),
            Measurement(f"ag-saved-{saved}-shares-memory", shares, "bool"),
        ),
    )


SAVED_OUTPUT_IS_ANOTHER_OBJECT = Claim(
    id="autograd/saved-output-is-another-object",
    statement="A tensor that autograd saved as the output of an operation, such as "
    "grad_fn._saved_result of x.exp(), is another Python object than the output, over the "
    "same memory.",
    expect=Expect.HOLDS,
    probe=probe_saved_output_is_another_object,
    control=Control(
        "a saved input, which comes back as the same object",
        control_saved_input_is_the_same_object,
        measures=("ag-saved-input-same-object", "ag-saved-input-shares-memory"),
    ),
    devices=("cpu",),
    measures=("ag-saved-output-same-object", "ag-saved-output-shares-memory"),
    vocabulary=Vocabulary(
        subjects=("_saved_result",),
        predicates={
            "en": ("different object", "another object", "new object", "separate object"),
            "ja": ("別のオブジェクト", "異なるオブジェクト", "別オブジェクト"),
            "ko": ("다른 객체", "별개의 객체", "별도의 객체"),
        },
        opposites={
            "en": ("same object", "same python object"),
            "ja": ("同じオブジェクト",),
            "ko": ("같은 객체",),
        },
    ),
)


def probe_reentrant_refuses_grad(device: Device) -> Observation:
    return _checkpoint_rule(call="torch.autograd.grad")


def control_reentrant_with_backward(device: Device) -> Observation:
    return _checkpoint_rule(call="backward()")


def _checkpoint_rule(call: str) -> Observation:
    import torch
    from torch.utils.checkpoint import checkpoint

    weight = torch.randn(3, 3, generator=torch.Generator().manual_seed(0), requires_grad=True)

    def run(reentrant: bool) -> str:
        inp = torch.ones(2, 3, requires_grad=True)
        out = checkpoint(lambda a: (a @ weight).relu(), inp, use_reentrant=reentrant)
        if call == "backward()":
            return _error(out.sum().backward)
        return _error(lambda: torch.autograd.grad(out.sum(), inp))

    reentrant, plain = run(True), run(False)
    kind = "grad" if call != "backward()" else "backward"
    return Observation(
        holds=reentrant.startswith("RuntimeError") and plain == "no error",
        rule=f"holds if {call} through checkpoint(..., use_reentrant=True) raises RuntimeError "
        "and through checkpoint(..., use_reentrant=False) runs",
        measurements=(
            Measurement(f"ag-reentrant-{kind}-error", reentrant, "exception"),
            Measurement(f"ag-non-reentrant-{kind}-error", plain, "exception"),
        ),
    )


REENTRANT_CHECKPOINT_REFUSES_AUTOGRAD_GRAD = Claim(
    id="autograd/reentrant-checkpoint-refuses-autograd-grad",
    statement="torch.autograd.grad raises an error through a checkpoint with "
    "use_reentrant=True; with use_reentrant=False it works.",
    expect=Expect.HOLDS,
    probe=probe_reentrant_refuses_grad,
    control=Control(
        "backward() in place of torch.autograd.grad",
        control_reentrant_with_backward,
        measures=("ag-reentrant-backward-error", "ag-non-reentrant-backward-error"),
    ),
    devices=("cpu",),
    measures=("ag-reentrant-grad-error", "ag-non-reentrant-grad-error"),
    vocabulary=Vocabulary(
        subjects=("autograd.grad",),
        predicates={
            "en": ("error", "raise", "incompatible", "not supported", "not compatible"),
            "ja": ("エラー", "非対応", "使えない", "サポートされていない", "動作しない"),
            "ko": ("오류", "에러", "지원하지 않", "지원되지 않", "사용할 수 없", "동작하지 않"),
        },
        requires={
            "en": ("checkpoint",),
            "ja": ("checkpoint", "チェックポイント"),
            "ko": ("checkpoint", "체크포인트"),
        },
        unless={lang: ("use_reentrant=False", "non-reentrant") for lang in ("en", "ja", "ko")},
    ),
)


CLAIMS = (
    SECOND_BACKWARD_RAISES,
    GRADIENTS_ACCUMULATE,
    ZERO_GRAD_SETS_NONE,
    MYTH_ZERO_GRAD_ALLOWS_SECOND_BACKWARD,
    BACKWARD_NEEDS_A_SCALAR,
    ANOMALY_DETECTION_MISSES_INF,
    SAVED_OUTPUT_IS_ANOTHER_OBJECT,
    REENTRANT_CHECKPOINT_REFUSES_AUTOGRAD_GRAD,
)
