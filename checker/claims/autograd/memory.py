"""Claims of "What the graph and the optimizer hold" (docs/topics/autograd-facts.md,
``(ag-memory)=``): when the saved tensors of a graph go, which operations save nothing, and
the bytes of Adam's state. Each counts tensors and their bytes, never the process's memory."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_graph_freed_with_loss(device: Device) -> Observation:
    return _freed_rule(keep_intermediate=False)


def control_intermediate_kept(device: Device) -> Observation:
    return _freed_rule(keep_intermediate=True)


def _freed_rule(keep_intermediate: bool) -> Observation:
    import weakref

    import torch

    class Held:
        def __init__(self, tensor: Any) -> None:
            self.tensor = tensor

    holders: list[Any] = []

    def pack(t: Any) -> Held:
        holder = Held(t.detach())
        holders.append(weakref.ref(holder))
        return holder

    x = torch.ones(1000, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda h: h.tensor):
        hidden = x.exp()
        loss: Any = hidden.tanh().sum()
    if not keep_intermediate:
        del hidden
    saved = len(holders)
    alive_with_loss = sum(r() is not None for r in holders)
    del loss
    alive_after = sum(r() is not None for r in holders)
    kind = "kept" if keep_intermediate else "alone"
    return Observation(
        holds=saved > 0 and alive_with_loss == saved and alive_after == 0,
        rule="holds if every tensor that loss = x.exp().tanh().sum() saved for backward is alive "
        "while loss is referenced and none is after del loss, without backward()"
        + (", the intermediate x.exp() still being referenced" if keep_intermediate else ""),
        measurements=(
            Measurement(f"ag-freed-{kind}-saved", saved, "count"),
            Measurement(f"ag-freed-{kind}-alive-with-loss", alive_with_loss, "count"),
            Measurement(f"ag-freed-{kind}-alive-after-del", alive_after, "count"),
        ),
    )


GRAPH_FREED_WITH_LAST_LOSS_REFERENCE = Claim(
    id="autograd/graph-freed-with-last-loss-reference",
    statement="Without backward(), the graph and the tensors it saved are freed as soon as the "
    "last reference to the loss is gone.",
    expect=Expect.HOLDS,
    probe=probe_graph_freed_with_loss,
    control=Control(
        "an intermediate result still referenced",
        control_intermediate_kept,
        measures=(
            "ag-freed-kept-saved",
            "ag-freed-kept-alive-with-loss",
            "ag-freed-kept-alive-after-del",
        ),
    ),
    devices=("cpu",),
    measures=(
        "ag-freed-alone-saved",
        "ag-freed-alone-alive-with-loss",
        "ag-freed-alone-alive-after-del",
    ),
    vocabulary=Vocabulary(
        subjects=("loss", "損失", "손실"),
        predicates={
            "en": ("freed", "released", "garbage collected"),
            "ja": ("解放",),
            "ko": ("해제",),
        },
        requires={
            "en": ("graph", "saved tensor", "activation"),
            "ja": ("グラフ", "保存されたテンソル", "アクティベーション"),
            "ko": ("그래프", "저장된 텐서", "활성화"),
        },
        denies=False,
    ),
)


def probe_scalar_multiplication_saves_nothing(device: Device) -> Observation:
    return _scalar_rule(tensor_factor=False)


def control_tensor_factor(device: Device) -> Observation:
    return _scalar_rule(tensor_factor=True)


def _scalar_rule(tensor_factor: bool) -> Observation:
    import torch

    packed: list[int] = []

    def pack(t: Any) -> Any:
        packed.append(t.nbytes)
        return t

    x = torch.ones(1000, requires_grad=True)
    factor: Any = torch.full((1000,), 10.0) if tensor_factor else 10.0
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        y = x * factor
    y.sum().backward()
    assert x.grad is not None
    kind = "tensor" if tensor_factor else "number"
    return Observation(
        holds=len(packed) == 0 and float(x.grad[0]) == 10.0,
        rule="holds if, for a leaf x of 1000 elements, x * "
        + ("torch.full((1000,), 10.0)" if tensor_factor else "10")
        + " saves no tensor for backward and still gives x.grad = 10",
        measurements=(
            Measurement(f"ag-mul-{kind}-saved", len(packed), "count"),
            Measurement(f"ag-mul-{kind}-saved-bytes", sum(packed), "bytes"),
        ),
    )


SCALAR_MULTIPLICATION_SAVES_NO_TENSOR = Claim(
    id="autograd/scalar-multiplication-saves-no-tensor",
    statement="Multiplying a tensor by a Python number saves no tensor for backward: the "
    "gradient only needs the number.",
    expect=Expect.HOLDS,
    probe=probe_scalar_multiplication_saves_nothing,
    control=Control(
        "the same product with torch.full((1000,), 10.0)",
        control_tensor_factor,
        measures=("ag-mul-tensor-saved", "ag-mul-tensor-saved-bytes"),
    ),
    devices=("cpu",),
    measures=("ag-mul-number-saved", "ag-mul-number-saved-bytes"),
    vocabulary=Vocabulary(
        subjects=(
            "scalar",
            "Python number",
            "スカラー",
            "Python の数値",
            "스칼라",
            "Python 숫자",
        ),
        predicates={
            "en": ("saves no", "save no", "saves nothing", "not save"),
            "ja": ("保存されな", "保存しな", "保存されません", "保存しません"),
            "ko": ("저장되지 않", "저장하지 않"),
        },
        requires={
            "en": ("multipl",),
            "ja": ("掛け", "乗算"),
            "ko": ("곱",),
        },
        denies=False,
    ),
)


def probe_adam_state_bytes(device: Device) -> Observation:
    return _state_rule(optimizer="Adam")


def control_sgd_momentum_state_bytes(device: Device) -> Observation:
    return _state_rule(optimizer="SGD")


def _state_rule(optimizer: str) -> Observation:
    import torch

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 32), torch.nn.Linear(32, 8))
    params = list(model.parameters())
    opt: Any = (
        torch.optim.Adam(params)
        if optimizer == "Adam"
        else torch.optim.SGD(params, lr=0.1, momentum=0.9)
    )
    model(torch.ones(4, 64)).sum().backward()
    opt.step()
    param_bytes = sum(p.nbytes for p in params)
    per_param = [
        [t for t in opt.state[p].values() if torch.is_tensor(t) and t.shape == p.shape]
        for p in params
    ]
    buffers = {len(tensors) for tensors in per_param}
    state_bytes = sum(t.nbytes for tensors in per_param for t in tensors)
    kind = "adam" if optimizer == "Adam" else "sgd"
    return Observation(
        holds=buffers == {2} and state_bytes == 2 * param_bytes,
        rule="holds if, after one step of torch.optim."
        + ("Adam" if optimizer == "Adam" else "SGD(momentum=0.9)")
        + " on a model of two Linear layers, each parameter has two state tensors of its "
        "shape, which hold twice the parameters' bytes",
        measurements=(
            Measurement(f"ag-{kind}-param-bytes", param_bytes, "bytes"),
            Measurement(f"ag-{kind}-state-bytes", state_bytes, "bytes"),
            Measurement(f"ag-{kind}-state-ratio", round(state_bytes / param_bytes, 3), "ratio"),
            Measurement(f"ag-{kind}-buffers-per-param", max(buffers), "count"),
        ),
    )


ADAM_STATE_DOUBLES_PARAMETER_MEMORY = Claim(
    id="autograd/adam-state-doubles-parameter-memory",
    statement="After its first step, Adam keeps two tensors of each parameter's size, exp_avg "
    "and exp_avg_sq: twice the parameters' memory.",
    expect=Expect.HOLDS,
    probe=probe_adam_state_bytes,
    control=Control(
        "SGD with momentum",
        control_sgd_momentum_state_bytes,
        measures=(
            "ag-sgd-param-bytes",
            "ag-sgd-state-bytes",
            "ag-sgd-state-ratio",
            "ag-sgd-buffers-per-param",
        ),
    ),
    devices=("cpu",),
    measures=(
        "ag-adam-param-bytes",
        "ag-adam-state-bytes",
        "ag-adam-state-ratio",
        "ag-adam-buffers-per-param",
    ),
    vocabulary=Vocabulary(
        subjects=("Adam", "exp_avg"),
        predicates={
            "en": ("twice", "two times", "2x", "2×", "double"),
            "ja": ("2倍", "２倍", "2 倍"),
            "ko": ("2배", "두 배", "2 배"),
        },
        requires={
            "en": ("memory", "parameter"),
            "ja": ("メモリ", "パラメータ"),
            "ko": ("메모리", "파라미터", "매개변수"),
        },
        unless={lang: ("AdamW8bit", "8-bit", "8bit") for lang in ("en", "ja", "ko")},
        denies=False,
    ),
)


CLAIMS = (
    GRAPH_FREED_WITH_LAST_LOSS_REFERENCE,
    SCALAR_MULTIPLICATION_SAVES_NO_TENSOR,
    ADAM_STATE_DOUBLES_PARAMETER_MEMORY,
)
