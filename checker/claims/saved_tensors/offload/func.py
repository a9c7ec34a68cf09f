"""Claims of "``save_on_cpu`` under ``torch.func``" (docs/topics/saved-tensors.md,
``(st-offload-func)=``): what ``save_on_cpu`` does around the function transforms, and the
ordinary autograd call that offloads where ``torch.func.grad`` refuses."""

from __future__ import annotations

from collections import Counter
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.saved_tensors._model import _error, ffn_batch, ffn_model
from checker.evidence import Measurement, Observation
from checker.typing import Device


def _counted_save_on_cpu() -> tuple[Any, list[tuple[int, ...]]]:
    """``save_on_cpu()`` whose pack hook records the shape of each tensor it packs."""
    from torch.autograd.graph import save_on_cpu

    hooks = save_on_cpu()
    pack = hooks.pack_hook
    shapes: list[tuple[int, ...]] = []

    def counting(t: Any) -> Any:
        shapes.append(tuple(t.shape))
        return pack(t)

    hooks.pack_hook = counting
    return hooks, shapes


def probe_save_on_cpu_offloads_func_grad(device: Device) -> Observation:
    return _func_grad_rule(device, through_func=True)


def control_autograd_grad_offloads(device: Device) -> Observation:
    return _func_grad_rule(device, through_func=False)


def _func_grad_rule(device: Device, through_func: bool) -> Observation:
    """The model's gradients as a function of its parameters, under ``save_on_cpu``: by
    ``torch.func.grad`` (and ``vjp``), or by ``functional_call`` and ``torch.autograd.grad``;
    both compared with ``torch.func.grad`` without hooks."""
    import torch

    model, batch = ffn_model(device), ffn_batch(device)
    params = dict(model.named_parameters())

    def loss(p: dict[str, Any]) -> Any:
        return torch.func.functional_call(model, p, (batch,)).mean()

    reference = torch.func.grad(loss)(params)
    hooks, shapes = _counted_save_on_cpu()
    got: dict[str, Any] = {}

    def by_func() -> None:
        with hooks:
            got["grads"] = torch.func.grad(loss)(params)

    def by_autograd() -> None:
        with hooks:
            value = loss(params)
        grads = torch.autograd.grad(value, list(params.values()))
        got["grads"] = dict(zip(params, grads, strict=True))

    error = _error(by_func if through_func else by_autograd)
    grads = got.get("grads")
    same = grads is not None and all(torch.equal(grads[k], reference[k]) for k in reference)
    key = "st-func-soc-grad" if through_func else "st-func-soc-autograd"
    measurements = [
        Measurement(f"{key}-error", error, "exception"),
        Measurement(f"{key}-packed", len(shapes), "count"),
        Measurement(f"{key}-same-gradients", same, "bool"),
    ]
    if through_func:
        vjp_hooks, _ = _counted_save_on_cpu()

        def by_vjp() -> None:
            with vjp_hooks:
                torch.func.vjp(loss, params)

        def inside() -> Any:
            def offloading_loss(p: dict[str, Any]) -> Any:
                inner, _ = _counted_save_on_cpu()
                with inner:
                    return loss(p)

            return torch.func.grad(offloading_loss)(params)

        measurements += [
            Measurement(f"{key}-vjp-error", _error(by_vjp), "exception"),
            Measurement(f"{key}-inside-error", _error(inside), "exception"),
        ]
    return Observation(
        holds=error == "no error" and len(shapes) > 0 and same,
        rule="holds if, under save_on_cpu, "
        + ("torch.func.grad" if through_func else "functional_call followed by torch.autograd.grad")
        + " runs, the pack hook of save_on_cpu receives the tensors saved for backward, and the "
        "gradients equal those of torch.func.grad without hooks",
        measurements=tuple(measurements),
    )


MYTH_SAVE_ON_CPU_OFFLOADS_FUNC_GRAD = Claim(
    id="saved-tensors/myth-save-on-cpu-offloads-func-grad",
    statement="Wrapped in save_on_cpu, torch.func.grad offloads the tensors it saves for "
    "backward to host memory.",
    expect=Expect.FAILS,
    probe=probe_save_on_cpu_offloads_func_grad,
    measures=(
        "st-func-soc-grad-error",
        "st-func-soc-grad-packed",
        "st-func-soc-grad-same-gradients",
        "st-func-soc-grad-vjp-error",
        "st-func-soc-grad-inside-error",
    ),
    control=Control(
        "functional_call followed by torch.autograd.grad",
        control_autograd_grad_offloads,
        measures=(
            "st-func-soc-autograd-error",
            "st-func-soc-autograd-packed",
            "st-func-soc-autograd-same-gradients",
        ),
    ),
    vocabulary=Vocabulary(
        subjects=("torch.func.grad",),
        predicates={
            "en": ("offload",),
            "ja": ("オフロード",),
            "ko": ("오프로드",),
        },
        requires={
            "en": ("save_on_cpu",),
            "ja": ("save_on_cpu",),
            "ko": ("save_on_cpu",),
        },
    ),
)


def probe_vmap_packs_the_whole_batch(device: Device) -> Observation:
    return _vmap_rule(device, per_sample="vmap")


def control_loop_packs_per_sample(device: Device) -> Observation:
    return _vmap_rule(device, per_sample="loop")


def _vmap_rule(device: Device, per_sample: str) -> Observation:
    """Per-sample losses of the model, by ``torch.func.vmap`` or by a Python loop over the
    batch, under ``save_on_cpu``, then ordinary backward; the tensors packed are compared
    with those of the model run on the whole batch."""
    import torch

    model, batch = ffn_model(device), ffn_batch(device)
    whole, whole_shapes = _counted_save_on_cpu()
    with whole:
        model(batch).mean(dim=1)
    hooks, shapes = _counted_save_on_cpu()

    def per_sample_losses() -> None:
        with hooks:
            if per_sample == "vmap":
                losses = torch.func.vmap(lambda row: model(row).mean())(batch)
            else:
                losses = torch.stack([model(row).mean() for row in batch])
        losses.sum().backward()

    # before torch 2.5, vmap refused saved-tensor hooks altogether
    error = _error(per_sample_losses)
    key = f"st-func-soc-{per_sample}"
    return Observation(
        holds=error == "no error" and Counter(shapes) == Counter(whole_shapes),
        rule="holds if the pack hook of save_on_cpu receives, "
        + ("under torch.func.vmap" if per_sample == "vmap" else "in a loop over the samples")
        + " with no error, tensors of the same number and shapes as for the model run on the "
        "whole batch",
        measurements=(
            Measurement(f"{key}-packed", len(shapes), "count"),
            Measurement(f"{key}-whole-batch-packed", len(whole_shapes), "count"),
            Measurement(f"{key}-error", error, "exception"),
        ),
    )


SAVE_ON_CPU_PACKS_VMAP_BATCH_ONCE = Claim(
    id="saved-tensors/save-on-cpu-packs-vmap-batch-once",
    statement="Around torch.func.vmap, save_on_cpu packs the same tensors as for the model run "
    "on the whole batch: each saved tensor once, with its batch dimension, not once per sample.",
    expect=Expect.HOLDS,
    probe=probe_vmap_packs_the_whole_batch,
    measures=(
        "st-func-soc-vmap-packed",
        "st-func-soc-vmap-whole-batch-packed",
        "st-func-soc-vmap-error",
    ),
    control=Control(
        "a Python loop over the samples",
        control_loop_packs_per_sample,
        measures=(
            "st-func-soc-loop-packed",
            "st-func-soc-loop-whole-batch-packed",
            "st-func-soc-loop-error",
        ),
    ),
    vocabulary=Vocabulary(
        subjects=("torch.func.vmap", "vmap"),
        predicates={
            "en": ("once for the whole batch", "not once per sample"),
            "ja": ("バッチ全体で 1 回", "サンプルごとではな"),
            "ko": ("배치 전체에 한 번", "샘플마다가 아니"),
        },
        requires={"en": ("save_on_cpu",), "ja": ("save_on_cpu",), "ko": ("save_on_cpu",)},
    ),
)


CLAIMS = (
    MYTH_SAVE_ON_CPU_OFFLOADS_FUNC_GRAD,
    SAVE_ON_CPU_PACKS_VMAP_BATCH_ONCE,
)
