"""Claims of "Two implementations: ``use_reentrant``" (docs/topics/checkpointing.md,
``(ck-reentrant)=``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.measure import caught_warnings
from checker.typing import Device


def _warnings_of(call: Callable[[], Any]) -> tuple[Any, list[str]]:
    """``call()``'s result and the messages of the warnings it emitted."""
    result, caught = caught_warnings(call)
    return result, [message for _, message in caught]


def probe_use_reentrant_omitted(device: Device) -> Observation:
    return _omitted_rule(device, explicit=False)


def control_use_reentrant_explicit(device: Device) -> Observation:
    return _omitted_rule(device, explicit=True)


def _first_sentence(message: str) -> str:
    return message.split(". ", maxsplit=1)[0].rstrip(".") + "."


def _omitted_rule(device: Device, explicit: bool) -> Observation:
    import torch
    from torch.utils.checkpoint import checkpoint
    from torch.utils.checkpoint import checkpoint_sequential as untyped

    checkpoint_sequential: Any = untyped
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.GELU()).to(device)
    x = torch.randn(8, 16, device=device, requires_grad=True)
    kwargs: dict[str, Any] = {"use_reentrant": True} if explicit else {}
    out, single = _warnings_of(lambda: checkpoint(model, x, **kwargs))
    _, sequential = _warnings_of(lambda: checkpoint_sequential(model, 2, x, **kwargs))
    about = [m for m in single if "use_reentrant" in m]
    about_sequential = [m for m in sequential if "use_reentrant" in m]
    grad_fn = type(out.grad_fn).__name__
    holds = bool(about) and bool(about_sequential) and grad_fn == "CheckpointFunctionBackward"
    prefix = "ckpt-explicit" if explicit else "ckpt-omitted"
    measurements = [
        Measurement(f"{prefix}-warnings", len(about) + len(about_sequential), "count"),
        Measurement(f"{prefix}-grad-fn", grad_fn, "text"),
    ]
    if not explicit:
        warning = _first_sentence(about[0]) if about else "no warning"
        measurements.append(Measurement("ckpt-omitted-warning", warning, "text"))
    return Observation(
        holds=holds,
        rule="holds if checkpoint and checkpoint_sequential each warn about use_reentrant and "
        "checkpoint's output comes from the reentrant variant (CheckpointFunctionBackward)",
        measurements=tuple(measurements),
    )


USE_REENTRANT_OMITTED_WARNS = Claim(
    id="checkpointing/use-reentrant-omitted-warns",
    statement="Without use_reentrant, checkpoint and checkpoint_sequential warn that it "
    "should be passed explicitly, and use the reentrant implementation.",
    expect=Expect.HOLDS,
    probe=probe_use_reentrant_omitted,
    devices=("cpu",),
    measures=("ckpt-omitted-warnings", "ckpt-omitted-grad-fn", "ckpt-omitted-warning"),
    control=Control(
        "use_reentrant=True passed explicitly",
        control_use_reentrant_explicit,
        measures=("ckpt-explicit-warnings", "ckpt-explicit-grad-fn"),
    ),
    vocabulary=Vocabulary(
        subjects=("use_reentrant",),
        predicates={
            "en": ("warn", "explicitly"),
            "ja": ("警告", "明示的"),
            "ko": ("경고", "명시적"),
        },
        opposites={  # "the default works and prints nothing"
            "en": ("prints nothing", "nothing is printed", "silently"),
            "ja": ("何も表示されない", "何も表示されません", "何も出力されない"),
            "ko": ("아무것도 출력되지 않", "아무 메시지도 나오지 않"),
        },
        conditions={  # "if you leave out use_reentrant, ..." is the claim's own case
            "en": ("if you leave out", "if you omit", "if you don't pass", "if … not passed"),
            "ja": ("もし省略", "もし指定しない"),
            "ko": ("만약 생략", "만약 지정하지 않"),
        },
    ),
)


def probe_reentrant_input_without_grad(device: Device) -> Observation:
    return _input_without_grad_rule(device, reentrant=True)


def control_nonreentrant_input_without_grad(device: Device) -> Observation:
    return _input_without_grad_rule(device, reentrant=False)


def _input_without_grad_rule(device: Device, reentrant: bool) -> Observation:
    import torch
    from torch.utils.checkpoint import checkpoint

    torch.manual_seed(0)
    block = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.GELU(), torch.nn.Linear(16, 4))
    block = block.to(device)
    x = torch.randn(8, 16, device=device)  # a batch never requires grad
    out, caught = _warnings_of(lambda: checkpoint(block, x, use_reentrant=reentrant))
    with_grad = 0
    if out.requires_grad:
        out.sum().backward()
        with_grad = sum(p.grad is not None for p in block.parameters())
    name = "reentrant" if reentrant else "nonreentrant"
    measurements = [
        Measurement(f"ckpt-{name}-output-requires-grad", bool(out.requires_grad), "bool"),
        Measurement(f"ckpt-{name}-params-with-grad", with_grad, "count"),
    ]
    if reentrant:
        warning = next((m for m in caught if "requires_grad" in m), "no warning")
        measurements.append(Measurement("ckpt-reentrant-no-grad-warning", warning, "text"))
    return Observation(
        holds=not out.requires_grad and with_grad == 0,
        rule="holds if, for an input that does not require grad, the checkpointed block's "
        "output does not require grad and none of the block's parameters gets a gradient",
        measurements=tuple(measurements),
    )


REENTRANT_INPUT_WITHOUT_GRAD = Claim(
    id="checkpointing/reentrant-input-without-grad",
    statement="With use_reentrant=True, a checkpointed block whose inputs do not require a "
    "gradient returns an output that does not require one, and its parameters get no gradient.",
    expect=Expect.HOLDS,
    probe=probe_reentrant_input_without_grad,
    measures=(
        "ckpt-reentrant-output-requires-grad",
        "ckpt-reentrant-params-with-grad",
        "ckpt-reentrant-no-grad-warning",
    ),
    control=Control(
        "use_reentrant=False",
        control_nonreentrant_input_without_grad,
        measures=(
            "ckpt-nonreentrant-output-requires-grad",
            "ckpt-nonreentrant-params-with-grad",
        ),
    ),
    vocabulary=Vocabulary(
        subjects=("reentrant", "use_reentrant=True", "リエントラント", "재진입"),
        predicates={
            "en": ("gradient",),
            "ja": ("勾配が流れ", "勾配が計算されない", "勾配が得られない", "勾配が伝わら"),
            "ko": (
                "변화도가 흐르지",
                "기울기가 흐르지",
                "변화도를 받지",
                "기울기를 받지",
                "변화도가 전달되지",
                "기울기가 전달되지",
            ),
        },
        denies=True,  # "get no gradient"
    ),
)


def probe_omitted_raises(device: Device) -> Observation:
    return _omitted_raises_rule(device, warnings_as_errors=False)


def control_warnings_as_errors(device: Device) -> Observation:
    return _omitted_raises_rule(device, warnings_as_errors=True)


def _omitted_raises_rule(device: Device, warnings_as_errors: bool) -> Observation:
    """The myth "leaving out use_reentrant raises an error (since 2.4)": the call's outcome, as
    the probe's value and not as its failure, so that a release that raises is recorded."""
    import warnings

    import torch
    from torch.utils.checkpoint import checkpoint

    torch.manual_seed(0)
    block = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.GELU()).to(device)
    x = torch.randn(8, 16, device=device, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error" if warnings_as_errors else "ignore")
        try:
            checkpoint(block, x).sum().backward()
            outcome = "no error"
        except Exception as exc:
            outcome = _first_sentence(f"{type(exc).__name__}: {exc}".splitlines()[0])
    key = "ckpt-omitted-as-errors-outcome" if warnings_as_errors else "ckpt-omitted-outcome"
    return Observation(
        holds=outcome != "no error",
        rule=(
            "holds if checkpoint called without use_reentrant raises an exception while "
            "warnings are turned into errors"
            if warnings_as_errors
            else "holds if checkpoint called without use_reentrant raises an exception"
        ),
        measurements=(Measurement(key, outcome, "text"),),
    )


MYTH_OMITTED_USE_REENTRANT_RAISES = Claim(
    id="checkpointing/myth-omitted-use-reentrant-raises",
    statement="Since PyTorch 2.4, calling checkpoint without use_reentrant raises an error.",
    expect=Expect.FAILS,
    probe=probe_omitted_raises,
    devices=("cpu",),
    measures=("ckpt-omitted-outcome",),
    control=Control(
        "warnings turned into errors",
        control_warnings_as_errors,
        measures=("ckpt-omitted-as-errors-outcome",),
    ),
    vocabulary=Vocabulary(
        subjects=("use_reentrant",),
        predicates={
            "en": ("raise", "error", "exception", "throw"),
            "ja": ("エラー", "例外"),
            "ko": ("오류", "에러", "예외"),
        },
        # a sentence about the warning ("raises a warning, not an error") is the other claim's
        unless={
            "en": ("warn",),
            "ja": ("警告",),
            "ko": ("경고",),
        },
        # the myth is about leaving the argument out, not any error near its name
        requires={
            "en": ("without use_reentrant", "omit", "leave out", "leaving out", "not passing"),
            "ja": ("省略", "指定しない", "指定せず", "渡さない", "渡さず"),
            "ko": ("생략", "지정하지 않", "전달하지 않", "넘기지 않"),
        },
        conditions={
            "en": ("if you leave out", "if you omit", "if you don't pass", "if … not passed"),
            "ja": ("もし省略", "もし指定しない"),
            "ko": ("만약 생략", "만약 지정하지 않"),
        },
    ),
)


CLAIMS = (
    USE_REENTRANT_OMITTED_WARNS,
    MYTH_OMITTED_USE_REENTRANT_RAISES,
    REENTRANT_INPUT_WITHOUT_GRAD,
)
