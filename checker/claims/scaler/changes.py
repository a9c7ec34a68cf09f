"""Claims of "What the scaler changes" (docs/topics/gradscaler.md, ``(gs-changes)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.scaler._model import _SCALER, _batch, _model
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_scaler_runs_in_float16(device: Device) -> Observation:
    return _compute_dtype_rule(device, autocast=False)


def control_autocast_float16(device: Device) -> Observation:
    return _compute_dtype_rule(device, autocast=True)


def _compute_dtype_rule(device: Device, autocast: bool) -> Observation:
    import contextlib

    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    mode_base: Any = TorchDispatchMode
    dtypes: set[str] = set()

    class Record(mode_base):  # type: ignore[misc]
        def __torch_dispatch__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            out = func(*args, **(kwargs or {}))
            if func.overloadpacket.__name__ in ("addmm", "mm", "matmul"):
                dtypes.add(str(out.dtype).removeprefix("torch."))
            return out

    model, x = _model(device), _batch(device)
    scaler = torch.amp.GradScaler(device)
    region = torch.autocast(device, dtype=torch.float16) if autocast else contextlib.nullcontext()
    with Record():
        with region:
            loss = model(x).float().pow(2).mean()
        scaled = scaler.scale(loss)
        scaled.backward()
    shown = ", ".join(sorted(dtypes))
    measurements = [
        Measurement(f"scaler-{'autocast-' if autocast else ''}matmul-dtypes", shown, "text")
    ]
    if not autocast:
        measurements += [
            Measurement(
                "scaler-scaled-loss-dtype", str(scaled.dtype).removeprefix("torch."), "dtype"
            ),
            Measurement("scaler-scaled-loss-ratio", round(scaled.item() / loss.item()), "count"),
        ]
    return Observation(
        holds="float16" in dtypes,
        rule="holds if a matrix product of a training step whose loss went through "
        "GradScaler.scale ran in float16, in forward or in backward",
        measurements=tuple(measurements),
    )


MYTH_SCALER_COMPUTES_IN_FLOAT16 = Claim(
    id="scaler/myth-scaler-computes-in-float16",
    statement="GradScaler makes the model's operations run in float16.",
    expect=Expect.FAILS,
    probe=probe_scaler_runs_in_float16,
    measures=("scaler-matmul-dtypes", "scaler-scaled-loss-dtype", "scaler-scaled-loss-ratio"),
    control=Control(
        "the same step under torch.autocast with float16",
        control_autocast_float16,
        measures=("scaler-autocast-matmul-dtypes",),
    ),
    vocabulary=Vocabulary(
        subjects=_SCALER,
        predicates={
            "en": (
                "run in float16",
                "runs in float16",
                "compute in float16",
                "computes in float16",
                "compute dtype to float16",
            ),
            "ja": (
                "float16で計算",
                "float16で実行",
                "半精度で計算",
                "半精度で実行",
                "dtypeをfloat16に変更",
                "dtype を float16 に変更",
            ),
            "ko": (
                "float16로 계산",
                "float16으로 계산",
                "float16로 실행",
                "반정밀도로 계산",
                "dtype을 float16으로 바꾼",
                "dtype을 float16으로 변경",
            ),
        },
    ),
)


def probe_scaler_backward_in_float32_myth(device: Device) -> Observation:
    return _backward_dtype_rule(device, autocast=True)


def control_backward_without_autocast(device: Device) -> Observation:
    return _backward_dtype_rule(device, autocast=False)


def _backward_dtype_rule(device: Device, autocast: bool) -> Observation:
    """The myth "GradScaler runs backward in float32": the gradient that reaches the output
    of a linear layer run in float16 (under autocast) arrives in float32 when the loss is
    scaled."""
    import contextlib

    import torch

    model, x = _model(device), _batch(device)
    scaler = torch.amp.GradScaler(device)
    seen: list[str] = []
    region = torch.autocast(device, dtype=torch.float16) if autocast else contextlib.nullcontext()
    with region:
        out = model(x)
    out.register_hook(lambda grad: seen.append(str(grad.dtype).removeprefix("torch.")))
    scaler.scale(out.float().pow(2).mean()).backward()
    key = "autocast" if autocast else "plain"
    return Observation(
        holds=seen == ["float32"],
        rule="holds if, with a scaled loss, the gradient reaching the output of a linear layer "
        + ("run under float16 autocast" if autocast else "run without autocast")
        + " is float32",
        measurements=(
            Measurement(
                f"scaler-{key}-output-dtype", str(out.dtype).removeprefix("torch."), "dtype"
            ),
            Measurement(f"scaler-{key}-output-grad-dtype", ", ".join(seen), "dtype"),
        ),
    )


MYTH_SCALER_BACKWARD_IN_FLOAT32 = Claim(
    id="scaler/myth-scaler-backward-in-float32",
    statement="GradScaler runs backward in float32: the gradients that flow back through "
    "float16 operations become float32.",
    expect=Expect.FAILS,
    probe=probe_scaler_backward_in_float32_myth,
    measures=("scaler-autocast-output-dtype", "scaler-autocast-output-grad-dtype"),
    control=Control(
        "the same step without autocast",
        control_backward_without_autocast,
        measures=("scaler-plain-output-grad-dtype",),
    ),
    vocabulary=Vocabulary(
        subjects=_SCALER,
        predicates={
            "en": (
                "backward in float32",
                "backward pass in float32",
                "backward pass to float32",
                "gradients to float32",
                "gradients in float32",
                "backward in fp32",
                "to fp32",
            ),
            "ja": ("FP32に", "fp32に", "float32に", "FP32で", "float32で", "単精度で逆伝播"),
            "ko": ("FP32로", "fp32로", "float32로", "FP32에서", "float32에서"),
        },
    ),
)


def probe_scaled_zero_dim_loss_float32(device: Device) -> Observation:
    return _scaled_loss_dtype_rule(device, shape=())


def control_scaled_one_dim_loss(device: Device) -> Observation:
    return _scaled_loss_dtype_rule(device, shape=(1,))


def _scaled_loss_dtype_rule(device: Device, shape: tuple[int, ...]) -> Observation:
    """The scale is a 0-dim float32 tensor: type promotion widens a 0-dim float16 or bfloat16
    loss to float32 and leaves a loss with a dimension in its own dtype."""
    import torch

    scaler = torch.amp.GradScaler(device)
    key = "0d" if not shape else "1d"
    dtypes = {}
    for dtype in (torch.float16, torch.bfloat16):
        loss = torch.full(shape, 0.5, dtype=dtype, device=device, requires_grad=True)
        dtypes[str(dtype).removeprefix("torch.")] = str(scaler.scale(loss).dtype).removeprefix(
            "torch."
        )
    return Observation(
        holds=set(dtypes.values()) == {"float32"},
        rule="holds if GradScaler.scale returned float32 for a "
        + ("0-dim" if not shape else "1-element 1-D")
        + " float16 loss and for one of bfloat16",
        measurements=tuple(
            Measurement(f"scaler-scaled-{key}-{name}-loss-dtype", result, "dtype")
            for name, result in dtypes.items()
        ),
    )


SCALED_ZERO_DIM_LOSS_FLOAT32 = Claim(
    id="scaler/scaled-zero-dim-loss-float32",
    statement="scaler.scale(loss) returns a 0-dim float16 or bfloat16 loss as float32; a loss "
    "with a dimension keeps its dtype.",
    expect=Expect.HOLDS,
    probe=probe_scaled_zero_dim_loss_float32,
    measures=("scaler-scaled-0d-float16-loss-dtype", "scaler-scaled-0d-bfloat16-loss-dtype"),
    control=Control(
        "losses of shape (1,)",
        control_scaled_one_dim_loss,
        measures=("scaler-scaled-1d-float16-loss-dtype", "scaler-scaled-1d-bfloat16-loss-dtype"),
    ),
    vocabulary=Vocabulary(
        subjects=("scaler.scale", "GradScaler.scale"),
        predicates={
            "en": ("as float32", "returns float32", "comes back float32"),
            "ja": ("float32で返",),
            "ko": ("float32로 반환",),
        },
    ),
)


CLAIMS = (
    SCALED_ZERO_DIM_LOSS_FLOAT32,
    MYTH_SCALER_COMPUTES_IN_FLOAT16,
    MYTH_SCALER_BACKWARD_IN_FLOAT32,
)
