"""Claims of "Keyword arguments and tensors inside containers" (docs/topics/checkpointing.md,
``(ck-call-arguments)=``)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.checkpointing._variants import _CHECKPOINT
from checker.evidence import Measurement, Observation
from checker.measure import caught_warnings
from checker.typing import Device


def _outcome(call: Callable[[], Any]) -> tuple[Any, str]:
    """``call()``'s result and ``"no error"``, or ``None`` and the error's type and first
    line."""
    try:
        result, _ = caught_warnings(call)
    except Exception as exc:
        return None, f"{type(exc).__name__}: {exc}".splitlines()[0]
    return result, "no error"


def probe_keyword_arguments(device: Device) -> Observation:
    return _keyword_rule(device, with_keyword=True)


def control_without_keyword(device: Device) -> Observation:
    return _keyword_rule(device, with_keyword=False)


def _keyword_rule(device: Device, with_keyword: bool) -> Observation:
    """``checkpoint(block, x, shift=s)`` under each implementation: whether it runs and passes
    ``shift`` on (its output equals ``block(x, shift=s)``), or the error it raises."""
    import torch
    from torch.utils.checkpoint import checkpoint as untyped

    checkpoint: Any = untyped
    torch.manual_seed(0)
    x = torch.randn(8, 16, device=device, requires_grad=True)
    shift = torch.full((16,), 3.0, device=device)

    def block(t: Any, shift: Any = None) -> Any:
        return torch.tanh(t) + (0 if shift is None else shift)

    kwargs = {"shift": shift} if with_keyword else {}
    expected = block(x, **kwargs)
    passed: dict[bool, bool] = {}
    error: dict[bool, str] = {}
    for reentrant in (False, True):
        out, error[reentrant] = _outcome(
            functools.partial(checkpoint, block, x, use_reentrant=reentrant, **kwargs)
        )
        passed[reentrant] = out is not None and bool(torch.equal(out, expected))
    prefix = "ckpt-kwargs" if with_keyword else "ckpt-no-kwargs"
    return Observation(
        holds=passed[False] and error[True].startswith("ValueError"),
        rule=(
            "holds if checkpoint(block, x, shift=s) with use_reentrant=False returns "
            "block(x, shift=s) and with use_reentrant=True raises ValueError"
            if with_keyword
            else "holds if checkpoint(block, x) with use_reentrant=False returns block(x) and "
            "with use_reentrant=True raises ValueError"
        ),
        measurements=(
            Measurement(f"{prefix}-nonreentrant-passed", passed[False], "bool"),
            Measurement(f"{prefix}-reentrant-error", error[True], "text"),
        ),
    )


NONREENTRANT_ACCEPTS_KEYWORD_ARGUMENTS = Claim(
    id="checkpointing/nonreentrant-accepts-keyword-arguments",
    statement="Only with use_reentrant=False does checkpoint pass keyword arguments on to the "
    "function; with use_reentrant=True, a keyword argument raises a ValueError.",
    expect=Expect.HOLDS,
    probe=probe_keyword_arguments,
    measures=("ckpt-kwargs-nonreentrant-passed", "ckpt-kwargs-reentrant-error"),
    control=Control(
        "the same call without a keyword argument",
        control_without_keyword,
        measures=("ckpt-no-kwargs-nonreentrant-passed", "ckpt-no-kwargs-reentrant-error"),
    ),
    vocabulary=Vocabulary(
        subjects=(*_CHECKPOINT, "use_reentrant"),
        predicates={
            "en": ("keyword argument", "kwargs"),
            "ja": ("キーワード引数", "kwargs"),
            "ko": ("키워드 인자", "키워드 인수", "kwargs"),
        },
    ),
)


def probe_reentrant_container(device: Device) -> Observation:
    return _container_rule(device, reentrant=True)


def control_nonreentrant_container(device: Device) -> Observation:
    return _container_rule(device, reentrant=False)


def _container_rule(device: Device, reentrant: bool) -> Observation:
    """A tensor that requires a gradient, passed inside a dict and inside a list, with no
    other input that requires one: whether the output requires a gradient and the tensor gets
    one; and, beside an input that requires one, the gradient the tensor in the dict gets."""
    import torch
    from torch.utils.checkpoint import checkpoint as untyped

    checkpoint: Any = untyped
    name = "reentrant" if reentrant else "nonreentrant"
    tracked: dict[str, bool] = {}
    grads: dict[str, bool] = {}
    for kind in ("dict", "list"):
        w = torch.ones(4, device=device, requires_grad=True)
        container: Any = {"w": w} if kind == "dict" else [w]
        key: Any = "w" if kind == "dict" else 0

        def scaled(c: Any, key: Any = key) -> Any:
            return c[key] * 3

        out, _ = _outcome(functools.partial(checkpoint, scaled, container, use_reentrant=reentrant))
        tracked[kind] = bool(out is not None and out.requires_grad)
        if tracked[kind]:
            out.sum().backward()
        grads[kind] = w.grad is not None and bool(torch.equal(w.grad, torch.full_like(w, 3.0)))
    w = torch.ones(4, device=device, requires_grad=True)
    x = torch.ones(4, device=device, requires_grad=True)
    beside, _ = _outcome(
        lambda: checkpoint(lambda t, c: t * c["w"] * 3, x, {"w": w}, use_reentrant=reentrant)
    )
    beside.sum().backward()
    beside_grad = w.grad is not None and bool(torch.equal(w.grad, torch.full_like(w, 3.0)))
    return Observation(
        holds=not any(tracked.values()) and not any(grads.values()),
        rule="holds if a tensor that requires a gradient, passed to checkpoint inside a dict or "
        "a list with no other input that requires one, gives an output that does not "
        "require a gradient and gets no gradient itself",
        measurements=(
            Measurement(f"ckpt-{name}-dict-output-requires-grad", tracked["dict"], "bool"),
            Measurement(f"ckpt-{name}-list-output-requires-grad", tracked["list"], "bool"),
            Measurement(f"ckpt-{name}-dict-grad-correct", grads["dict"], "bool"),
            Measurement(f"ckpt-{name}-dict-beside-input-grad-correct", beside_grad, "bool"),
        ),
    )


REENTRANT_IGNORES_TENSORS_IN_CONTAINERS = Claim(
    id="checkpointing/reentrant-ignores-tensors-in-containers",
    statement="With use_reentrant=True, a tensor passed inside a dict or a list is not an input "
    "of the checkpoint: if no other input requires a gradient, the output does not require one "
    "and the tensor gets no gradient; use_reentrant=False tracks it.",
    expect=Expect.HOLDS,
    probe=probe_reentrant_container,
    measures=(
        "ckpt-reentrant-dict-output-requires-grad",
        "ckpt-reentrant-list-output-requires-grad",
        "ckpt-reentrant-dict-grad-correct",
        "ckpt-reentrant-dict-beside-input-grad-correct",
    ),
    control=Control(
        "use_reentrant=False",
        control_nonreentrant_container,
        measures=(
            "ckpt-nonreentrant-dict-output-requires-grad",
            "ckpt-nonreentrant-list-output-requires-grad",
            "ckpt-nonreentrant-dict-grad-correct",
        ),
    ),
    vocabulary=Vocabulary(
        subjects=("reentrant", "use_reentrant=True", "リエントラント", "재진입"),
        # what the implementation does with such a tensor, in a sentence about dicts or lists
        predicates={
            "en": ("ignore", "not tracked", "untracked", "not treated as an input"),
            "ja": ("無視", "追跡されない", "追跡されず", "入力として扱われ"),
            "ko": ("무시", "추적되지 않", "입력으로 취급되지 않", "입력으로 간주되지 않"),
        },
        denies=False,
        requires={
            "en": ("dict", "list"),
            "ja": ("辞書", "リスト"),
            "ko": ("딕셔너리", "리스트"),
        },
    ),
)


CLAIMS = (
    NONREENTRANT_ACCEPTS_KEYWORD_ARGUMENTS,
    REENTRANT_IGNORES_TENSORS_IN_CONTAINERS,
)
