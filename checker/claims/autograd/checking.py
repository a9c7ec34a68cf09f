"""Claims of "Checking and combining gradients" (docs/topics/autograd-facts.md,
``(ag-checking)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_summed_losses(device: Device) -> Observation:
    return _summed_rule(reset=False)


def control_gradient_reset_between_losses(device: Device) -> Observation:
    return _summed_rule(reset=True)


def _summed_rule(reset: bool) -> Observation:
    import torch

    x: Any = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    if reset:
        x.grad = None
    (3 * x).sum().backward()
    assert x.grad is not None
    separate = [float(v) for v in x.grad.tolist()]
    x.grad = None
    ((x * x).sum() + (3 * x).sum()).backward()
    assert x.grad is not None
    summed = [float(v) for v in x.grad.tolist()]
    kind = "reset" if reset else "kept"
    return Observation(
        holds=separate == summed,
        rule="holds if backward() of (x * x).sum() and then of (3 * x).sum()"
        + (", with x.grad set to None between them," if reset else "")
        + " leaves the same x.grad as one backward() of their sum",
        measurements=(
            Measurement(f"ag-losses-{kind}-separate-grad", str(separate), "text"),
            Measurement(f"ag-losses-{kind}-summed-grad", str(summed), "text"),
        ),
    )


SUMMED_LOSSES_GIVE_THE_SAME_GRADIENTS = Claim(
    id="autograd/summed-losses-give-the-same-gradients",
    statement="Adding two losses and calling backward() once leaves the same gradients as "
    "calling backward() on each loss in turn.",
    expect=Expect.HOLDS,
    probe=probe_summed_losses,
    control=Control(
        "the gradient reset between the two separate calls",
        control_gradient_reset_between_losses,
        measures=("ag-losses-reset-separate-grad", "ag-losses-reset-summed-grad"),
    ),
    devices=("cpu",),
    measures=("ag-losses-kept-separate-grad", "ag-losses-kept-summed-grad"),
    vocabulary=Vocabulary(
        subjects=("backward",),
        predicates={
            "en": ("same gradient",),
            "ja": ("同じ勾配",),
            "ko": ("같은 기울기", "같은 변화도", "같은 그래디언트"),
        },
        requires={"en": ("loss",), "ja": ("損失",), "ko": ("손실",)},
    ),
)


def probe_create_graph_keeps_graph(device: Device) -> Observation:
    return _kept_graph_rule(create_graph=True)


def control_backward_frees_graph(device: Device) -> Observation:
    return _kept_graph_rule(create_graph=False)


def _kept_graph_rule(create_graph: bool) -> Observation:
    import warnings

    import torch

    x: Any = torch.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    with warnings.catch_warnings():  # backward warns of the cycle create_graph makes
        warnings.simplefilter("ignore")
        loss.backward(create_graph=create_graph)
        try:
            loss.backward()
            second = "no error"
        except RuntimeError as exc:
            second = f"RuntimeError: {str(exc).splitlines()[0][:120]}"
    kind = "create-graph" if create_graph else "plain"
    return Observation(
        holds=second == "no error",
        rule="holds if, after loss.backward("
        + ("create_graph=True" if create_graph else "")
        + "), a second loss.backward() runs",
        measurements=(Measurement(f"ag-{kind}-second-backward", second, "exception"),),
    )


CREATE_GRAPH_KEEPS_THE_GRAPH = Claim(
    id="autograd/create-graph-keeps-the-graph",
    statement="backward(create_graph=True) keeps the graph as retain_graph=True does, since "
    "retain_graph defaults to the value of create_graph: a second backward() through it runs.",
    expect=Expect.HOLDS,
    probe=probe_create_graph_keeps_graph,
    control=Control(
        "backward() without create_graph",
        control_backward_frees_graph,
        measures=("ag-plain-second-backward",),
    ),
    devices=("cpu",),
    measures=("ag-create-graph-second-backward",),
    vocabulary=Vocabulary(
        subjects=("create_graph",),
        predicates={
            "en": ("retain_graph", "keeps the graph", "graph is kept", "twice", "second time"),
            "ja": ("retain_graph", "グラフを保持", "グラフが保持", "2回", "二回", "再度"),
            "ko": ("retain_graph", "그래프를 유지", "그래프가 유지", "두 번", "다시"),
        },
        # an explicit retain_graph=False frees it, and the leak is another claim's case
        unless={
            lang: ("retain_graph=False", "retain_graph = False", "leak", "リーク", "누수")
            for lang in ("en", "ja", "ko")
        },
    ),
)


def probe_create_graph_cycle(device: Device) -> Observation:
    return _cycle_rule(create_graph=True)


def control_backward_without_create_graph(device: Device) -> Observation:
    return _cycle_rule(create_graph=False)


def _cycle_rule(create_graph: bool) -> Observation:
    import gc
    import warnings
    import weakref

    import torch

    collecting = gc.isenabled()
    gc.disable()  # the collector runs only where the rule calls it
    try:
        p: Any = torch.nn.Parameter(torch.ones(3))
        alive = weakref.ref(p)
        with warnings.catch_warnings():  # backward warns of the cycle it makes
            warnings.simplefilter("ignore")
            (p * p).sum().backward(create_graph=create_graph)
        del p
        after_del = alive() is not None
        gc.collect()
        after_collect = alive() is not None
        if after_collect:
            kept = alive()
            assert kept is not None
            kept.grad = None  # breaks the cycle
            del kept
        after_reset = alive() is not None
    finally:
        if collecting:
            gc.enable()
    kind = "create-graph" if create_graph else "default"
    return Observation(
        holds=after_del and after_collect and not after_reset,
        rule="holds if, after (p * p).sum().backward("
        + ("create_graph=True" if create_graph else "")
        + ") on a parameter p, p stays alive after its last reference is deleted and after "
        "gc.collect(), and is freed once its .grad is set to None",
        measurements=(
            Measurement(f"ag-{kind}-alive-after-del", after_del, "bool"),
            Measurement(f"ag-{kind}-alive-after-collect", after_collect, "bool"),
            Measurement(f"ag-{kind}-alive-after-grad-reset", after_reset, "bool"),
        ),
    )


CREATE_GRAPH_KEEPS_PARAMETERS_ALIVE = Claim(
    id="autograd/create-graph-keeps-parameters-alive",
    statement="backward(create_graph=True) makes a reference cycle between a parameter and its "
    ".grad: the parameter outlives its last reference, even through gc.collect(), until its "
    ".grad is set to None.",
    expect=Expect.HOLDS,
    probe=probe_create_graph_cycle,
    control=Control(
        "backward() without create_graph",
        control_backward_without_create_graph,
        measures=(
            "ag-default-alive-after-del",
            "ag-default-alive-after-collect",
            "ag-default-alive-after-grad-reset",
        ),
    ),
    devices=("cpu",),
    measures=(
        "ag-create-graph-alive-after-del",
        "ag-create-graph-alive-after-collect",
        "ag-create-graph-alive-after-grad-reset",
    ),
    vocabulary=Vocabulary(
        subjects=("create_graph",),
        predicates={
            "en": ("leak", "reference cycle", "cycle"),
            "ja": ("リーク", "循環参照", "参照の循環"),
            "ko": ("누수", "순환 참조", "참조 순환"),
        },
        # torch.autograd.grad(..., create_graph=True) stores nothing in .grad
        unless={lang: ("autograd.grad",) for lang in ("en", "ja", "ko")},
    ),
)


def probe_create_graph_warns(device: Device) -> Observation:
    return _warning_rule(call="backward")


def control_autograd_grad_with_create_graph(device: Device) -> Observation:
    return _warning_rule(call="grad")


#: What a fresh interpreter runs, twice: the warning is shown once per process, so a probe
#: that ran after another backward(create_graph=True) in the same process would see none.
_WARNING_CHILD = """
import warnings, torch
layer = torch.nn.Linear(2, 1)
for _ in range(2):
    loss = layer(torch.ones(2)).sum()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if CALL == "backward":
            loss.backward(create_graph=True)
        else:
            torch.autograd.grad(loss, list(layer.parameters()), create_graph=True)
    print(sum("reference cycle" in str(w.message) for w in caught))
"""


def _warning_rule(call: str) -> Observation:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", f"CALL = {call!r}\n" + _WARNING_CHILD],
        capture_output=True,
        text=True,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    counts = [int(n) for n in lines[-2:] if n.isdigit()] if done.returncode == 0 else []
    first, again = counts if len(counts) == 2 else (-1, -1)
    expression = (
        "loss.backward(create_graph=True)"
        if call == "backward"
        else "torch.autograd.grad(loss, parameters, create_graph=True)"
    )
    return Observation(
        holds=first > 0,
        rule=f"holds if {expression}, run in a fresh process on the loss of a Linear(2, 1) layer, "
        "emits a warning that names a reference cycle",
        measurements=(
            Measurement(f"ag-{call}-cycle-warnings", first, "count"),
            Measurement(f"ag-{call}-cycle-warnings-again", again, "count"),
        ),
    )


CREATE_GRAPH_WARNS_OF_A_CYCLE = Claim(
    id="autograd/create-graph-warns-of-a-cycle",
    statement="backward(create_graph=True) warns that it creates a reference cycle between the "
    "parameters and their gradients; torch.autograd.grad(create_graph=True) does not.",
    expect=Expect.HOLDS,
    probe=probe_create_graph_warns,
    control=Control(
        "torch.autograd.grad with create_graph=True",
        control_autograd_grad_with_create_graph,
        measures=("ag-grad-cycle-warnings", "ag-grad-cycle-warnings-again"),
    ),
    devices=("cpu",),
    measures=("ag-backward-cycle-warnings", "ag-backward-cycle-warnings-again"),
    vocabulary=Vocabulary(
        subjects=("create_graph",),
        predicates={
            "en": ("warn", "warning"),
            "ja": ("警告",),
            "ko": ("경고",),
        },
        unless={lang: ("autograd.grad",) for lang in ("en", "ja", "ko")},
        # "calling backward(create_graph=True) warns" is the claim's own case, not a hypothesis
        conditions={
            "en": ("if you call", "when you call", "when called"),
            "ja": ("呼ぶと", "呼び出すと", "呼ぶたび"),
            "ko": ("호출하면", "호출할 때"),
        },
        denies=False,
    ),
)


CLAIMS = (
    SUMMED_LOSSES_GIVE_THE_SAME_GRADIENTS,
    CREATE_GRAPH_KEEPS_THE_GRAPH,
    CREATE_GRAPH_KEEPS_PARAMETERS_ALIVE,
    CREATE_GRAPH_WARNS_OF_A_CYCLE,
)
