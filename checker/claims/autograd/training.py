"""Claims of "Losses, dropout and optimizer steps" (docs/topics/autograd-facts.md,
``(ag-training)=``): the defaults and rules of the pieces around backward in a training
step."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_loss_default_reduction(device: Device) -> Observation:
    return _reduction_rule(reduction=None)


def control_loss_sum_reduction(device: Device) -> Observation:
    return _reduction_rule(reduction="sum")


def _reduction_rule(reduction: str | None) -> Observation:
    import torch

    kwargs: dict[str, Any] = {} if reduction is None else {"reduction": reduction}
    logits = torch.tensor([[2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 3.0], [1.0, 1.0, 1.0]])
    target = torch.tensor([0, 2, 2, 1])
    prediction, wanted = torch.arange(4.0), torch.zeros(4)
    cross = torch.nn.CrossEntropyLoss(**kwargs)(logits, target)
    squared = torch.nn.MSELoss(**kwargs)(prediction, wanted)
    per_sample_cross = torch.nn.CrossEntropyLoss(reduction="none")(logits, target)
    per_sample_squared = torch.nn.MSELoss(reduction="none")(prediction, wanted)
    holds = bool(
        torch.allclose(cross, per_sample_cross.mean())
        and torch.allclose(squared, per_sample_squared.mean())
    )
    kind = "default" if reduction is None else reduction
    return Observation(
        holds=holds,
        rule="holds if CrossEntropyLoss and MSELoss"
        + ("" if reduction is None else f" with reduction='{reduction}'")
        + " of a batch of 4 equal the mean of the 4 per-sample losses",
        measurements=(
            Measurement(f"ag-loss-{kind}-cross-entropy", f"{float(cross):.4f}", "text"),
            Measurement(f"ag-loss-{kind}-mse", f"{float(squared):.4f}", "text"),
            Measurement(
                f"ag-loss-{kind}-per-sample-means",
                f"{float(per_sample_cross.mean()):.4f}, {float(per_sample_squared.mean()):.4f}",
                "text",
            ),
        ),
    )


LOSS_REDUCTION_DEFAULTS_TO_MEAN = Claim(
    id="autograd/loss-reduction-defaults-to-mean",
    statement="Loss modules such as CrossEntropyLoss and MSELoss average over the batch by "
    "default: their reduction is 'mean'.",
    expect=Expect.HOLDS,
    probe=probe_loss_default_reduction,
    control=Control(
        "the same losses with reduction='sum'",
        control_loss_sum_reduction,
        measures=("ag-loss-sum-cross-entropy", "ag-loss-sum-mse", "ag-loss-sum-per-sample-means"),
    ),
    devices=("cpu",),
    measures=(
        "ag-loss-default-cross-entropy",
        "ag-loss-default-mse",
        "ag-loss-default-per-sample-means",
    ),
    vocabulary=Vocabulary(
        subjects=("CrossEntropyLoss", "MSELoss", "NLLLoss", "L1Loss", "reduction"),
        predicates={
            "en": ("mean", "average"),
            "ja": ("平均", "mean"),
            "ko": ("평균", "mean"),
        },
        opposites={
            "en": ("sum over the batch", "sums over the batch", "sums the losses"),
            "ja": ("合計を返", "総和を返"),
            "ko": ("합계를 반환", "합을 반환"),
        },
        requires={
            "en": ("default",),
            "ja": ("デフォルト", "既定", "何も指定しない"),
            "ko": ("기본",),
        },
        unless={
            lang: ("reduction='sum'", 'reduction="sum"', "reduction='none'")
            for lang in ("en", "ja", "ko")
        },
        denies=False,
    ),
)


def probe_dropout_scaling(device: Device) -> Observation:
    return _dropout_rule(train=True)


def control_dropout_in_eval_mode(device: Device) -> Observation:
    return _dropout_rule(train=False)


def _dropout_rule(train: bool) -> Observation:
    import torch

    torch.manual_seed(0)
    layer = torch.nn.Dropout(0.8)
    layer.train(train)
    values = sorted({float(v) for v in layer(torch.ones(10000)).unique().tolist()})
    layer.eval()
    unchanged = bool(torch.equal(layer(torch.arange(5.0)), torch.arange(5.0)))
    kind = "train" if train else "eval"
    return Observation(
        holds=values == [0.0, 5.0] and unchanged,
        rule="holds if Dropout(0.8)"
        + ("" if train else ", put in eval mode before the first call,")
        + " turns a tensor of ones into the values 0 and 1 / (1 - 0.8) = 5, and returns its input "
        "unchanged in eval mode",
        measurements=(
            Measurement(f"ag-dropout-{kind}-values", str(values), "text"),
            Measurement(f"ag-dropout-{kind}-eval-unchanged", unchanged, "bool"),
        ),
    )


DROPOUT_SCALES_BY_INVERSE_KEEP = Claim(
    id="autograd/dropout-scales-by-inverse-keep",
    statement="In training mode, dropout multiplies the elements it keeps by 1 / (1 - p); in "
    "eval mode it returns its input unchanged.",
    expect=Expect.HOLDS,
    probe=probe_dropout_scaling,
    control=Control(
        "the same layer in eval mode from the start",
        control_dropout_in_eval_mode,
        measures=("ag-dropout-eval-values", "ag-dropout-eval-eval-unchanged"),
    ),
    devices=("cpu",),
    measures=("ag-dropout-train-values", "ag-dropout-train-eval-unchanged"),
    vocabulary=Vocabulary(
        subjects=("Dropout", "dropout", "ドロップアウト", "드롭아웃"),
        predicates={
            "en": ("1 / (1 - p)", "1/(1-p)", "1 / (1-p)", "scales … kept", "scaled up"),
            "ja": ("1 / (1 - p)", "1/(1-p)", "1 / (1-p)", "スケール"),
            "ko": ("1 / (1 - p)", "1/(1-p)", "1 / (1-p)", "스케일"),
        },
        denies=False,
    ),
)


def probe_frozen_parameter(device: Device) -> Observation:
    return _frozen_rule(freeze=True)


def control_nothing_frozen(device: Device) -> Observation:
    return _frozen_rule(freeze=False)


def _frozen_rule(freeze: bool) -> Observation:
    import torch

    torch.manual_seed(0)
    layer: Any = torch.nn.Linear(2, 1)
    if freeze:
        layer.weight.requires_grad_(False)
    layer(torch.ones(2)).sum().backward()
    kind = "frozen" if freeze else "trained"
    weight_has_grad, bias_has_grad = layer.weight.grad is not None, layer.bias.grad is not None
    return Observation(
        holds=not weight_has_grad and bias_has_grad,
        rule="holds if, after backward() through Linear(2, 1)"
        + (" whose weight has requires_grad=False" if freeze else "")
        + ", the weight's .grad is None and the bias's is set",
        measurements=(
            Measurement(f"ag-{kind}-weight-has-grad", weight_has_grad, "bool"),
            Measurement(f"ag-{kind}-bias-has-grad", bias_has_grad, "bool"),
        ),
    )


FROZEN_PARAMETER_GETS_NO_GRAD = Claim(
    id="autograd/frozen-parameter-gets-no-grad",
    statement="After backward(), a parameter set to requires_grad=False has no .grad, while the "
    "model's other parameters get one.",
    expect=Expect.HOLDS,
    probe=probe_frozen_parameter,
    control=Control(
        "the same layer with no parameter frozen",
        control_nothing_frozen,
        measures=("ag-trained-weight-has-grad", "ag-trained-bias-has-grad"),
    ),
    devices=("cpu",),
    measures=("ag-frozen-weight-has-grad", "ag-frozen-bias-has-grad"),
    vocabulary=Vocabulary(
        subjects=("requires_grad=False", "requires_grad_(False)"),
        predicates={
            "en": (
                "no .grad",
                "grad is None",
                "grad stays None",
                "not get a gradient",
                "no gradient",
            ),
            "ja": ("grad が None", "grad は None", "勾配が計算されな", "勾配は計算されな"),
            "ko": ("grad가 None", "grad는 None", "변화도가 계산되지 않", "기울기가 계산되지 않"),
        },
        requires={
            "en": ("parameter", "weight", "layer"),
            "ja": ("パラメータ", "重み", "層"),
            "ko": ("파라미터", "매개변수", "가중치", "레이어", "층"),
        },
        denies=False,
    ),
)


def probe_none_grad_skipped(device: Device) -> Observation:
    return _skip_rule(momentum=0.9)


def control_plain_sgd(device: Device) -> Observation:
    return _skip_rule(momentum=0.0)


def _skip_rule(momentum: float) -> Observation:
    import torch

    def moved(grad: Any) -> bool:
        param = torch.nn.Parameter(torch.ones(2))
        step = torch.optim.SGD([param], lr=0.1, momentum=momentum)
        param.grad = torch.ones(2)
        step.step()
        before = param.detach().clone()
        param.grad = grad
        step.step()
        return not torch.equal(param.detach(), before)

    none_moves, zero_moves = moved(None), moved(torch.zeros(2))
    kind = "momentum" if momentum else "plain"
    return Observation(
        holds=not none_moves and zero_moves,
        rule=f"holds if, after a first step, a second step of SGD(lr=0.1, momentum={momentum}) "
        "leaves a parameter whose .grad is None where it is and moves one whose .grad is zero",
        measurements=(
            Measurement(f"ag-sgd-{kind}-none-grad-moves", none_moves, "bool"),
            Measurement(f"ag-sgd-{kind}-zero-grad-moves", zero_moves, "bool"),
        ),
    )


OPTIMIZER_SKIPS_NONE_GRADIENTS = Claim(
    id="autograd/optimizer-skips-none-gradients",
    statement="An optimizer skips a parameter whose .grad is None, but steps one whose .grad is "
    "zero: with momentum, a zero gradient still moves it.",
    expect=Expect.HOLDS,
    probe=probe_none_grad_skipped,
    control=Control(
        "SGD without momentum",
        control_plain_sgd,
        measures=("ag-sgd-plain-none-grad-moves", "ag-sgd-plain-zero-grad-moves"),
    ),
    devices=("cpu",),
    measures=("ag-sgd-momentum-none-grad-moves", "ag-sgd-momentum-zero-grad-moves"),
    vocabulary=Vocabulary(
        subjects=("optimizer", "step()", "オプティマイザ", "옵티마이저"),
        predicates={
            "en": ("skip", "ignore", "still moves", "still updates"),
            "ja": ("スキップ", "無視", "更新されない", "更新しない", "それでも更新"),
            "ko": (
                "건너뛰",
                "건너뛴",
                "건너뜁",
                "무시",
                "업데이트하지 않",
                "갱신하지 않",
                "여전히 업데이트",
            ),
        },
        requires={
            "en": ("None",),
            "ja": ("None",),
            "ko": ("None",),
        },
        denies=False,
    ),
)


CLAIMS = (
    LOSS_REDUCTION_DEFAULTS_TO_MEAN,
    DROPOUT_SCALES_BY_INVERSE_KEEP,
    FROZEN_PARAMETER_GETS_NO_GRAD,
    OPTIMIZER_SKIPS_NONE_GRADIENTS,
)
