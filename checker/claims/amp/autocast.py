"""Claims of "What ``torch.autocast`` does" (docs/topics/amp.md, ``(amp-autocast)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.amp._precision import dtype_name
from checker.evidence import Measurement, NotApplicable, Observation
from checker.measure import caught_warnings
from checker.typing import Device


def _cpu_autocast_product(name: str) -> tuple[str, bool]:
    """The dtype of a matrix product inside ``torch.autocast("cpu", dtype=torch.<name>)``,
    and whether opening the region warned that the dtype is not supported."""
    import torch

    a = torch.ones(4, 4)

    def product() -> str:
        with torch.autocast("cpu", dtype=getattr(torch, name)):
            return dtype_name((a @ a).dtype)

    result, caught = caught_warnings(product)
    return result, any("not supported" in message for _, message in caught)


def probe_default_dtype(device: Device) -> Observation:
    return _default_dtype_rule(device, explicit=False)


def control_explicit_other_dtype(device: Device) -> Observation:
    return _default_dtype_rule(device, explicit=True)


def _default_dtype_rule(device: Device, explicit: bool) -> Observation:
    import torch

    default = dtype_name(torch.get_autocast_dtype(device))
    a = torch.ones(4, 4, device=device)
    other = torch.float16 if device == "cpu" else torch.bfloat16
    with torch.autocast(device, dtype=other) if explicit else torch.autocast(device):
        product = dtype_name((a @ a).dtype)
    expected = {"cpu": "bfloat16", "cuda": "float16"}[device]
    return Observation(
        holds=default == expected and product == expected,
        rule="holds if get_autocast_dtype and the dtype of a matrix product inside "
        + (
            "torch.autocast(device, dtype=<the other one>)"
            if explicit
            else "torch.autocast(device)"
        )
        + " are bfloat16 on CPU and float16 on CUDA",
        measurements=(
            Measurement("amp-default-dtype", default, "dtype"),
            Measurement("amp-default-mm-dtype", product, "dtype"),
        ),
    )


DEFAULT_DTYPE_PER_DEVICE = Claim(
    id="amp/default-dtype-per-device",
    statement="Without a dtype argument, torch.autocast uses bfloat16 on the CPU and float16 "
    "on CUDA.",
    expect=Expect.HOLDS,
    probe=probe_default_dtype,
    control=Control(
        "a region opened with the other lower-precision dtype",
        control_explicit_other_dtype,
    ),
    measures=("amp-default-dtype", "amp-default-mm-dtype"),
    vocabulary=Vocabulary(
        subjects=("autocast",),
        predicates={
            # what autocast picks by itself, not any sentence naming a dtype
            "en": ("default", "uses bfloat16", "uses float16", "picks", "chooses"),
            "ja": ("デフォルト", "既定"),
            "ko": ("기본",),
        },
        # the dtype a thread's own region takes: amp/thread-region-takes-the-default-dtype
        unless={"en": ("thread",), "ja": ("スレッド",), "ko": ("스레드",)},
    ),
)


def probe_cpu_autocast_dtypes(device: Device) -> Observation:
    return _cpu_autocast_dtypes_rule(accepted=("float16", "bfloat16"), refused=("float64",))


def control_cpu_autocast_float64_as_accepted(device: Device) -> Observation:
    return _cpu_autocast_dtypes_rule(accepted=("float64", "bfloat16"), refused=("float16",))


def _cpu_autocast_dtypes_rule(accepted: tuple[str, ...], refused: tuple[str, ...]) -> Observation:
    """Which lower-precision dtypes a CPU autocast region takes."""
    found = {name: _cpu_autocast_product(name) for name in accepted + refused}
    ok = all(found[n] == (n, False) for n in accepted) and all(
        found[n] == ("float32", True) for n in refused
    )
    return Observation(
        holds=ok,
        rule="holds if a matrix product inside torch.autocast('cpu', dtype=D) comes out in D "
        + (
            "without a warning for D in float16, bfloat16, while for D = float64"
            if "float16" in accepted
            else "without a warning for D in float64, bfloat16, while for D = float16"
        )
        + " autocast warns that the dtype is not supported and the product stays float32",
        measurements=tuple(
            measurement
            for name, (result, warned) in found.items()
            for measurement in (
                Measurement(f"amp-cpu-autocast-{name}", result, "dtype"),
                Measurement(f"amp-cpu-autocast-{name}-warned", warned, "bool"),
            )
        ),
    )


CPU_AUTOCAST_TAKES_FLOAT16_AND_BFLOAT16 = Claim(
    id="amp/cpu-autocast-takes-float16-and-bfloat16",
    statement="CPU autocast takes float16 as well as bfloat16; any other dtype turns the "
    "region off with a warning.",
    expect=Expect.HOLDS,
    probe=probe_cpu_autocast_dtypes,
    control=Control(
        "float64 in place of float16 among the accepted dtypes",
        control_cpu_autocast_float64_as_accepted,
    ),
    devices=("cpu",),
    measures=(
        "amp-cpu-autocast-float16",
        "amp-cpu-autocast-bfloat16",
        "amp-cpu-autocast-float64",
    ),
    vocabulary=Vocabulary(
        subjects=("autocast",),
        predicates={
            "en": ("CPU autocast supports float16", "float16 on the CPU", "float16 on CPU"),
            "ja": ("CPU でも float16", "CPU の autocast は float16"),
            "ko": ("CPU에서도 float16", "CPU autocast는 float16"),
        },
    ),
)


def probe_cpu_autocast_bfloat16_only(device: Device) -> Observation:
    return _cpu_autocast_refuses_rule("float16")


def control_cpu_autocast_refuses_float64(device: Device) -> Observation:
    return _cpu_autocast_refuses_rule("float64")


def _cpu_autocast_refuses_rule(name: str) -> Observation:
    result, warned = _cpu_autocast_product(name)
    return Observation(
        holds=warned and result == "float32",
        rule="holds if torch.autocast('cpu', dtype=torch."
        + ("float16" if name == "float16" else "float64")
        + ") warns that the dtype is not supported and a matrix product inside stays float32",
        measurements=(
            Measurement(f"amp-cpu-autocast-refuses-{name}", result, "dtype"),
            Measurement(f"amp-cpu-autocast-refuses-{name}-warned", warned, "bool"),
        ),
    )


MYTH_CPU_AUTOCAST_BFLOAT16_ONLY = Claim(
    id="amp/myth-cpu-autocast-bfloat16-only",
    statement="CPU autocast supports only bfloat16.",
    expect=Expect.FAILS,
    probe=probe_cpu_autocast_bfloat16_only,
    control=Control("float64 in place of float16", control_cpu_autocast_refuses_float64),
    devices=("cpu",),
    measures=("amp-cpu-autocast-refuses-float16",),
    vocabulary=Vocabulary(
        subjects=("autocast",),
        predicates={
            "en": (
                "only bfloat16",
                "only supports bfloat16",
                "bfloat16 only",
                "only lower-precision",
                "only low-precision",
                "only reduced-precision",
                "only lower precision",
                "only low precision",
                "only reduced precision",
            ),
            "ja": (
                "bfloat16 のみ",
                "bfloat16 だけ",
                "bfloat16のみ",
                "bfloat16だけ",
                "唯一の低精度",
            ),
            "ko": ("bfloat16만", "bfloat16 만", "bfloat16 외에는", "유일한 저정밀도"),
        },
        # a statement about autocast in general is not this one: on CUDA, float16 is the default
        requires={"en": ("cpu",), "ja": ("cpu",), "ko": ("cpu",)},
    ),
)


def probe_other_device_autocast(device: Device) -> Observation:
    return _autocast_lowers(device, "cuda" if device == "cpu" else "cpu")


def control_same_device_autocast(device: Device) -> Observation:
    return _autocast_lowers(device, device)


def _autocast_lowers(device: Device, region: str) -> Observation:
    """Whether a float32 product on ``device`` comes out in lower precision in an autocast
    region opened for ``region``; raises :class:`NotApplicable` where that region cannot be
    active (CUDA autocast without CUDA), since the rule would then measure nothing."""
    import torch

    low = torch.float16 if region == "cuda" else torch.bfloat16
    if region == "cuda" and not torch.cuda.is_available():
        raise NotApplicable(
            "needs CUDA: without it torch.autocast('cuda') disables itself, so CPU tensors "
            "inside it would show nothing about the statement"
        )
    a = torch.ones(4, 4, device=device)

    def run() -> tuple[bool, Any]:
        with torch.autocast(region, dtype=low):
            return torch.is_autocast_enabled(region), a @ a

    (enabled, product), _ = caught_warnings(run)
    key = "other" if region != device else "same"
    return Observation(
        holds=product.dtype != torch.float32,
        rule="holds if a matrix product of float32 tensors on this device comes out in lower "
        f"precision inside an active autocast region opened for {region!r}",
        measurements=(
            Measurement(f"amp-{key}-autocast-device", region, "text"),
            Measurement(f"amp-{key}-autocast-enabled", enabled, "bool"),
            Measurement(f"amp-{key}-autocast-mm-dtype", dtype_name(product.dtype), "dtype"),
        ),
    )


MYTH_AUTOCAST_COVERS_EVERY_DEVICE = Claim(
    id="amp/myth-autocast-covers-every-device",
    statement="An autocast region opened for one device type also lowers the precision of "
    "operations on tensors of another device.",
    expect=Expect.FAILS,
    probe=probe_other_device_autocast,
    measures=(
        "amp-other-autocast-device",
        "amp-other-autocast-enabled",
        "amp-other-autocast-mm-dtype",
    ),
    control=Control(
        "a region opened for the tensors' own device",
        control_same_device_autocast,
    ),
    vocabulary=Vocabulary(
        subjects=("autocast", "torch.cuda.amp"),
        predicates={
            "en": (
                "another device",
                "other device",
                "every device",
                "all devices",
                "CPU operations too",
                "on the CPU as well",
            ),
            "ja": (
                "他のデバイス",
                "別のデバイス",
                "すべてのデバイス",
                "CPU上の演算にも",
                "CPUの演算にも",
            ),
            "ko": ("다른 장치", "모든 장치", "CPU 연산에도", "CPU에서도"),
        },
    ),
)


def probe_cuda_autocast_needs_cuda(device: Device) -> Observation:
    return _cuda_autocast_rule(requested=True)


def control_cuda_autocast_switched_off(device: Device) -> Observation:
    return _cuda_autocast_rule(requested=False)


def _cuda_autocast_rule(requested: bool) -> Observation:
    import torch

    available = torch.cuda.is_available()

    def run() -> bool:
        with torch.autocast("cuda", dtype=torch.float16, enabled=requested):
            return torch.is_autocast_enabled("cuda")

    enabled, caught = caught_warnings(run)
    message = next((m for c, m in caught if c == "UserWarning"), "no warning")
    return Observation(
        holds=enabled == available and (available or "CUDA is not available" in message),
        rule=f"holds if CUDA autocast (enabled={requested}) is enabled exactly when CUDA is "
        "available, and warns that CUDA is not available when it disables itself",
        measurements=(
            Measurement("amp-cuda-available", available, "bool"),
            Measurement("amp-cuda-autocast-enabled", enabled, "bool"),
            Measurement("amp-cuda-autocast-warning", message, "text"),
        ),
    )


CUDA_AUTOCAST_NEEDS_CUDA = Claim(
    id="amp/cuda-autocast-needs-cuda",
    statement='torch.autocast("cuda") is active only where CUDA is available. Without CUDA, '
    "it warns and disables itself.",
    expect=Expect.HOLDS,
    probe=probe_cuda_autocast_needs_cuda,
    control=Control(
        "torch.autocast('cuda', enabled=False), which stays off without a warning",
        control_cuda_autocast_switched_off,
    ),
    devices=("cpu",),
    measures=(
        "amp-cuda-available",
        "amp-cuda-autocast-enabled",
        "amp-cuda-autocast-warning",
    ),
)


def probe_autocast_thread_local(device: Device) -> Observation:
    return _thread_rule(device, other_thread=True)


def control_autocast_same_thread(device: Device) -> Observation:
    return _thread_rule(device, other_thread=False)


def _thread_rule(device: Device, other_thread: bool) -> Observation:
    """A matrix product inside an autocast region, run in a thread started inside the region
    or, with ``other_thread`` False, in the thread that opened it."""
    import threading

    import torch

    low = torch.float16 if device == "cuda" else torch.bfloat16
    a = torch.ones(4, 4, device=device)
    seen: dict[str, Any] = {}

    def product() -> None:
        seen["dtype"] = dtype_name((a @ a).dtype)
        seen["enabled"] = torch.is_autocast_enabled(device)

    with torch.autocast(device, dtype=low):
        if other_thread:
            worker = threading.Thread(target=product)
            worker.start()
            worker.join()
        else:
            product()
    key = "amp-thread" if other_thread else "amp-same-thread"
    return Observation(
        holds=seen["dtype"] == "float32" and not seen["enabled"],
        rule="holds if, inside an autocast region, a matrix product of float32 tensors run "
        + ("in a thread started inside the region" if other_thread else "in the region's thread")
        + " returns float32, autocast being disabled there",
        measurements=(
            Measurement(f"{key}-mm-dtype", seen["dtype"], "dtype"),
            Measurement(f"{key}-autocast-enabled", seen["enabled"], "bool"),
        ),
    )


AUTOCAST_STATE_IS_THREAD_LOCAL = Claim(
    id="amp/autocast-state-is-thread-local",
    statement="Autocast's state belongs to a thread: a thread started inside an autocast "
    "region runs its operations without autocast.",
    expect=Expect.HOLDS,
    probe=probe_autocast_thread_local,
    control=Control(
        "the product in the thread that opened the region",
        control_autocast_same_thread,
        measures=("amp-same-thread-mm-dtype",),
    ),
    measures=("amp-thread-mm-dtype", "amp-thread-autocast-enabled"),
)


CLAIMS = (
    DEFAULT_DTYPE_PER_DEVICE,
    CPU_AUTOCAST_TAKES_FLOAT16_AND_BFLOAT16,
    MYTH_CPU_AUTOCAST_BFLOAT16_ONLY,
    MYTH_AUTOCAST_COVERS_EVERY_DEVICE,
    AUTOCAST_STATE_IS_THREAD_LOCAL,
    CUDA_AUTOCAST_NEEDS_CUDA,
)
