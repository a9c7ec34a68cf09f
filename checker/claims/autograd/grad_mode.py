"""Claims of "Grad mode" (docs/topics/autograd-facts.md, ``(ag-grad-mode)=``): what
``torch.no_grad()`` reaches, as a decorator, across threads and for new parameters."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_no_grad_decorator(device: Device) -> Observation:
    return _decorator_rule(decorated=True)


def control_undecorated_function(device: Device) -> Observation:
    return _decorator_rule(decorated=False)


def _decorator_rule(decorated: bool) -> Observation:
    import torch

    def doubled(t: Any) -> Any:
        return t * 2

    function = torch.no_grad()(doubled) if decorated else doubled
    out = function(torch.ones(3, requires_grad=True))
    kind = "decorated" if decorated else "undecorated"
    return Observation(
        holds=not out.requires_grad and out.grad_fn is None,
        rule="holds if "
        + ("a function decorated with @torch.no_grad()" if decorated else "a plain function")
        + " that returns t * 2, called on a tensor that requires grad, returns a tensor that "
        "does not require grad and has no grad_fn",
        measurements=(
            Measurement(f"ag-{kind}-result-requires-grad", bool(out.requires_grad), "bool"),
            Measurement(f"ag-{kind}-result-grad-fn", type(out.grad_fn).__name__, "text"),
        ),
    )


NO_GRAD_WORKS_AS_A_DECORATOR = Claim(
    id="autograd/no-grad-works-as-a-decorator",
    statement="torch.no_grad() also works as a decorator: a function decorated with it returns "
    "results that do not require grad.",
    expect=Expect.HOLDS,
    probe=probe_no_grad_decorator,
    control=Control(
        "the same function without the decorator",
        control_undecorated_function,
        measures=("ag-undecorated-result-requires-grad", "ag-undecorated-result-grad-fn"),
    ),
    devices=("cpu",),
    measures=("ag-decorated-result-requires-grad", "ag-decorated-result-grad-fn"),
    vocabulary=Vocabulary(
        subjects=("no_grad",),
        predicates={
            "en": ("decorator", "decorate"),
            "ja": ("デコレータ", "デコレーター"),
            "ko": ("데코레이터",),
        },
        unless={lang: ("enable_grad", "inference_mode") for lang in ("en", "ja", "ko")},
        denies=False,
    ),
)


def probe_no_grad_in_a_thread(device: Device) -> Observation:
    return _thread_rule(thread_enters=False)


def control_thread_that_enters_no_grad(device: Device) -> Observation:
    return _thread_rule(thread_enters=True)


def _thread_rule(thread_enters: bool) -> Observation:
    import contextlib
    import threading

    import torch

    x = torch.ones(3, requires_grad=True)
    seen: dict[str, bool] = {}

    def work() -> None:
        with torch.no_grad() if thread_enters else contextlib.nullcontext():
            seen["thread"] = bool((x * 2).requires_grad)

    with torch.no_grad():
        worker = threading.Thread(target=work)
        worker.start()
        worker.join()
        here = bool((x * 2).requires_grad)
    kind = "own-no-grad" if thread_enters else "plain"
    return Observation(
        holds=seen["thread"] and not here,
        rule="holds if x * 2 computed in a thread started inside torch.no_grad()"
        + (" (the thread entering torch.no_grad() itself)" if thread_enters else "")
        + " requires grad, while x * 2 computed in the block does not",
        measurements=(
            Measurement(f"ag-thread-{kind}-requires-grad", seen["thread"], "bool"),
            Measurement(f"ag-thread-{kind}-block-requires-grad", here, "bool"),
        ),
    )


NO_GRAD_IS_THREAD_LOCAL = Claim(
    id="autograd/no-grad-is-thread-local",
    statement="torch.no_grad() affects only the thread that enters it: a thread started inside "
    "the block still records the graph.",
    expect=Expect.HOLDS,
    probe=probe_no_grad_in_a_thread,
    control=Control(
        "a thread that enters torch.no_grad() itself",
        control_thread_that_enters_no_grad,
        measures=(
            "ag-thread-own-no-grad-requires-grad",
            "ag-thread-own-no-grad-block-requires-grad",
        ),
    ),
    devices=("cpu",),
    measures=("ag-thread-plain-requires-grad", "ag-thread-plain-block-requires-grad"),
    vocabulary=Vocabulary(
        subjects=("no_grad",),
        predicates={
            "en": ("thread-local", "thread local", "per thread", "other thread", "another thread"),
            "ja": ("スレッドローカル", "スレッドごと", "別のスレッド", "他のスレッド"),
            "ko": ("스레드 로컬", "스레드별", "다른 스레드", "스레드마다"),
        },
        denies=False,
    ),
)


def probe_parameter_under_no_grad(device: Device) -> Observation:
    return _new_under_no_grad_rule(parameter=True)


def control_result_under_no_grad(device: Device) -> Observation:
    return _new_under_no_grad_rule(parameter=False)


def _new_under_no_grad_rule(parameter: bool) -> Observation:
    import torch

    source = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        made = torch.nn.Parameter(torch.ones(2)) if parameter else source * 2
    kind = "parameter" if parameter else "result"
    return Observation(
        holds=bool(made.requires_grad),
        rule="holds if "
        + (
            "an nn.Parameter created under torch.no_grad()"
            if parameter
            else "x * 2 computed under torch.no_grad() from a tensor x that requires grad"
        )
        + " requires grad",
        measurements=(
            Measurement(f"ag-no-grad-{kind}-requires-grad", bool(made.requires_grad), "bool"),
        ),
    )


NO_GRAD_PARAMETER_REQUIRES_GRAD = Claim(
    id="autograd/no-grad-parameter-requires-grad",
    statement="An nn.Parameter created under torch.no_grad() still requires grad.",
    expect=Expect.HOLDS,
    probe=probe_parameter_under_no_grad,
    control=Control(
        "the result of an operation under torch.no_grad()",
        control_result_under_no_grad,
        measures=("ag-no-grad-result-requires-grad",),
    ),
    devices=("cpu",),
    measures=("ag-no-grad-parameter-requires-grad",),
    vocabulary=Vocabulary(
        subjects=("Parameter",),
        predicates={
            "en": ("requires grad", "requires_grad=True", "requires_grad is True"),
            "ja": ("勾配を必要と", "requires_grad=True", "requires_grad が True"),
            "ko": ("변화도가 필요", "변화도를 요구", "requires_grad=True", "requires_grad가 True"),
        },
        requires={lang: ("no_grad",) for lang in ("en", "ja", "ko")},
        denies=False,
    ),
)


CLAIMS = (
    NO_GRAD_WORKS_AS_A_DECORATOR,
    NO_GRAD_IS_THREAD_LOCAL,
    NO_GRAD_PARAMETER_REQUIRES_GRAD,
)
