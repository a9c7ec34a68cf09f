"""Claims of "What breaks an accumulation window" (docs/topics/gradscaler.md,
``(gs-window)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.scaler._model import _SCALER, _batch, _model, _same
from checker.evidence import Measurement, Observation
from checker.measure import error_text
from checker.typing import Device

#: Micro-batches in a window.
_MICRO = 4


def probe_unscale_once_per_update(device: Device) -> Observation:
    return _unscale_twice_rule(device, per_micro_batch=True)


def control_unscale_once_per_window(device: Device) -> Observation:
    return _unscale_twice_rule(device, per_micro_batch=False)


def _unscale_twice_rule(device: Device, per_micro_batch: bool) -> Observation:
    """Two windows of four micro-batches. ``unscale_`` after every micro-batch (to clip or
    inspect them), or once at the end of each window before ``step`` and ``update``."""
    import torch

    model = _model(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler(device)
    calls, error = 0, "no error"
    for window in range(2):
        opt.zero_grad()
        for i in range(_MICRO):
            x = _batch(device, seed=window * _MICRO + i)
            scaler.scale(model(x).pow(2).mean() / _MICRO).backward()
            if per_micro_batch or i == _MICRO - 1:
                calls += 1
                error = error_text(lambda: scaler.unscale_(opt))
                if error != "no error":
                    break
        if error != "no error":
            break
        scaler.step(opt)
        scaler.update()
    key = "per-micro-batch" if per_micro_batch else "per-window"
    return Observation(
        holds=error.startswith("RuntimeError") and "already been called" in error,
        rule="holds if, over two windows of four micro-batches with unscale_ called "
        + ("after every micro-batch" if per_micro_batch else "once at the end of each window")
        + ", an unscale_ call raised RuntimeError saying it had already been called since the "
        "last update()",
        measurements=(
            Measurement(f"scaler-unscale-{key}-error", error, "text"),
            Measurement(f"scaler-unscale-{key}-calls", calls, "count"),
        ),
    )


UNSCALE_ONCE_PER_UPDATE = Claim(
    id="scaler/unscale-once-per-update",
    statement="unscale_ can be called only once per optimizer between two updates: called "
    "again, it raises a RuntimeError, so a window unscales its gradients once, after its last "
    "micro-batch.",
    expect=Expect.HOLDS,
    probe=probe_unscale_once_per_update,
    measures=("scaler-unscale-per-micro-batch-error", "scaler-unscale-per-micro-batch-calls"),
    control=Control(
        "unscale_ once at the end of each window",
        control_unscale_once_per_window,
        measures=("scaler-unscale-per-window-error", "scaler-unscale-per-window-calls"),
    ),
    vocabulary=Vocabulary(
        subjects=("unscale_",),
        predicates={
            "en": ("only once", "once per", "twice", "second call", "called again"),
            "ja": ("1回だけ", "一度だけ", "1 回だけ", "2回", "二度"),
            "ko": ("한 번만", "두 번", "다시 호출"),
        },
    ),
)


def probe_update_per_micro_batch_myth(device: Device) -> Observation:
    return _update_per_micro_batch_rule(device, per_micro_batch=True)


def control_update_per_window(device: Device) -> Observation:
    return _update_per_micro_batch_rule(device, per_micro_batch=False)


def _update_per_micro_batch_rule(device: Device, per_micro_batch: bool) -> Observation:
    """The myth "``scaler.update()`` may follow every micro-batch": called alone it has no
    inf check to read; after ``unscale_`` it lets the next micro-batch's scaled gradient join
    gradients already unscaled, which the next ``unscale_`` divides again."""
    import torch

    batches = [_batch(device, seed) for seed in range(_MICRO)]

    def window(scaled: bool, per_micro: bool, unscale: bool = True) -> tuple[list[Any], str]:
        """The window's gradients after the ``unscale_`` that ends it, and what the first
        ``update()`` inside it raised; with ``unscale``, each ``update()`` inside the window
        follows an ``unscale_`` of its own."""
        model = _model(device)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        scaler = torch.amp.GradScaler(device)
        error = "no error"
        for i, x in enumerate(batches):
            loss = model(x).pow(2).mean() / _MICRO
            if not scaled:
                loss.backward()
                continue
            scaler.scale(loss).backward()
            if per_micro and i < _MICRO - 1 and error == "no error":
                if unscale:
                    scaler.unscale_(opt)
                error = error_text(scaler.update)
        if scaled:
            scaler.unscale_(opt)  # the window's end, as scaler.step would
        return [p.grad.detach().clone() for p in model.parameters()], error

    reference, _ = window(scaled=False, per_micro=False)
    accumulated, _ = window(scaled=True, per_micro=per_micro_batch)
    _, alone = window(scaled=True, per_micro=per_micro_batch, unscale=False)
    model = _model(device)
    (model(batches[-1]).pow(2).mean() / _MICRO).backward()
    last = [p.grad.detach() for p in model.parameters()]
    same = _same(accumulated, reference)
    ratio = float(accumulated[0].norm() / reference[0].norm())
    last_only = all(
        torch.allclose(a, b, rtol=1e-3, atol=1e-6) for a, b in zip(accumulated, last, strict=True)
    )
    key = "per-micro-batch" if per_micro_batch else "per-window"
    return Observation(
        holds=same and alone == "no error",
        rule="holds if, with scaler.update() called "
        + (
            "after each micro-batch but the last of a window of four"
            if per_micro_batch
            else "only after a window of four micro-batches"
        )
        + " (in one run after unscale_, in another alone), the gradient unscaled at the end "
        "of the window equals the one accumulated without a scaler, and no update() raised",
        measurements=(
            Measurement(f"scaler-update-{key}-equal", same, "bool"),
            Measurement(f"scaler-update-{key}-grad-ratio", round(ratio, 4), "count"),
            Measurement(f"scaler-update-{key}-last-micro-batch-only", last_only, "bool"),
            Measurement(f"scaler-update-{key}-alone-error", alone, "text"),
        ),
    )


MYTH_UPDATE_PER_MICRO_BATCH = Claim(
    id="scaler/myth-update-per-micro-batch",
    statement="With gradient accumulation, scaler.update() can be called after every "
    "micro-batch: the accumulated gradient comes out the same.",
    expect=Expect.FAILS,
    probe=probe_update_per_micro_batch_myth,
    measures=(
        "scaler-update-per-micro-batch-equal",
        "scaler-update-per-micro-batch-grad-ratio",
        "scaler-update-per-micro-batch-last-micro-batch-only",
        "scaler-update-per-micro-batch-alone-error",
    ),
    control=Control(
        "scaler.update() only after the window",
        control_update_per_window,
        measures=("scaler-update-per-window-equal", "scaler-update-per-window-alone-error"),
    ),
    vocabulary=Vocabulary(
        subjects=(*_SCALER, "update()", "scaler.update"),
        predicates={
            "en": ("every micro-batch", "each micro-batch", "per micro-batch"),
            "ja": ("マイクロバッチごと", "各マイクロバッチ", "マイクロバッチのたび"),
            "ko": ("마이크로 배치마다", "각 마이크로 배치", "마이크로배치마다"),
        },
    ),
)


CLAIMS = (UNSCALE_ONCE_PER_UPDATE, MYTH_UPDATE_PER_MICRO_BATCH)
