"""Claims of "Worker threads need a region of their own" (docs/topics/amp.md,
``(amp-scope-threads)=``).

The section builds on ``amp/autocast-state-is-thread-local`` (shown in "What ``torch.autocast``
does"): here, the threads of a ``ThreadPoolExecutor``, the dtype a thread's own region takes,
and the threads ``DataParallel`` starts.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.amp._precision import dtype_name
from checker.evidence import Measurement, NotApplicable, Observation
from checker.typing import Device


def _non_default_dtype(device: Device) -> Any:
    """The lower-precision dtype that is not the device's default for autocast."""
    import torch

    return torch.float16 if device == "cpu" else torch.bfloat16


def _in_pool(call: Callable[[], Any]) -> Any:
    """``call()`` run by a worker of a ``ThreadPoolExecutor``."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call).result()


def probe_pool_worker_without_region(device: Device) -> Observation:
    return _pool_worker_rule(device, own_region=False)


def control_pool_worker_with_region(device: Device) -> Observation:
    return _pool_worker_rule(device, own_region=True)


def _pool_worker_rule(device: Device, own_region: bool) -> Observation:
    """A product that a pool worker computes for code inside an autocast region; with
    ``own_region``, the worker's function opens a region of its own with the same dtype."""
    import torch

    low = torch.get_autocast_dtype(device)
    a = torch.ones(4, 4, device=device)

    def product() -> str:
        if own_region:
            with torch.autocast(device, dtype=low):
                return dtype_name((a @ a).dtype)
        return dtype_name((a @ a).dtype)

    with torch.autocast(device, dtype=low):
        found = _in_pool(product)
    key = "amp-pool-own-region-mm-dtype" if own_region else "amp-pool-mm-dtype"
    return Observation(
        holds=found == dtype_name(low),
        rule="holds if a matrix product of float32 tensors that a ThreadPoolExecutor worker "
        "computes for code inside an autocast region comes out in the region's dtype",
        measurements=(
            Measurement(key, found, "dtype"),
            Measurement("amp-pool-region-dtype", dtype_name(low), "dtype"),
        ),
    )


MYTH_POOL_WORKERS_RUN_UNDER_THE_REGION = Claim(
    id="amp/myth-pool-workers-run-under-the-region",
    statement="Work submitted to a ThreadPoolExecutor from inside an autocast region runs under "
    "that region.",
    expect=Expect.FAILS,
    probe=probe_pool_worker_without_region,
    control=Control(
        "a worker function that opens its own region with the same dtype",
        control_pool_worker_with_region,
        measures=("amp-pool-own-region-mm-dtype",),
    ),
    measures=("amp-pool-mm-dtype", "amp-pool-region-dtype"),
    vocabulary=Vocabulary(
        subjects=("ThreadPoolExecutor",),
        predicates={
            "en": (
                "under autocast",
                "under the region",
                "under that region",
                "inherit",
                "autocast applies",
                "autocast too",
                "autocast as well",
            ),
            "ja": (
                "autocast のもとで",
                "領域のもとで",
                "引き継",
                "autocast が効",
                "autocast が適用",
            ),
            "ko": ("autocast 아래", "영역 아래", "이어받", "물려받", "autocast가 적용"),
        },
        requires={"en": ("autocast",), "ja": ("autocast",), "ko": ("autocast",)},
    ),
)


def probe_thread_region_dtype(device: Device) -> Observation:
    return _region_without_dtype_rule(device, other_thread=True)


def control_nested_region_dtype(device: Device) -> Observation:
    return _region_without_dtype_rule(device, other_thread=False)


def _region_without_dtype_rule(device: Device, other_thread: bool) -> Observation:
    """Inside a region opened with the device's non-default lower-precision dtype, a region
    opened without a dtype, in a pool worker or, with ``other_thread`` False, nested in the
    same thread."""
    import torch

    outer = _non_default_dtype(device)
    default = torch.get_autocast_dtype(device)
    a = torch.ones(4, 4, device=device)

    def product() -> str:
        with torch.autocast(device):
            return dtype_name((a @ a).dtype)

    with torch.autocast(device, dtype=outer):
        found = _in_pool(product) if other_thread else product()
    key = "amp-thread-region" if other_thread else "amp-nested-region"
    return Observation(
        holds=found == dtype_name(default) and found != dtype_name(outer),
        rule="holds if a region opened without a dtype inside a region of the other "
        "lower-precision dtype computes a matrix product in the device's default dtype",
        measurements=(
            Measurement(f"{key}-mm-dtype", found, "dtype"),
            Measurement("amp-thread-outer-dtype", dtype_name(outer), "dtype"),
            Measurement("amp-thread-default-dtype", dtype_name(default), "dtype"),
        ),
    )


THREAD_REGION_TAKES_THE_DEFAULT_DTYPE = Claim(
    id="amp/thread-region-takes-the-default-dtype",
    statement="The autocast dtype is kept per thread too: a region that a worker thread opens "
    "without a dtype uses the device's default, not the dtype of the region that started the "
    "thread.",
    expect=Expect.HOLDS,
    probe=probe_thread_region_dtype,
    control=Control(
        "the same region nested in the thread that opened the outer one",
        control_nested_region_dtype,
        measures=("amp-nested-region-mm-dtype",),
    ),
    measures=("amp-thread-region-mm-dtype", "amp-thread-outer-dtype", "amp-thread-default-dtype"),
    vocabulary=Vocabulary(
        subjects=("autocast",),
        predicates={
            "en": ("default dtype",),
            "ja": ("デフォルトの dtype", "デフォルトのdtype", "デフォルト"),
            "ko": ("기본 dtype", "기본"),
        },
        opposites={
            "en": ("outer region's dtype", "dtype of the outer region"),
            "ja": ("外側の領域の dtype",),
            "ko": ("바깥 영역의 dtype",),
        },
        # the region's own case: opened without a dtype
        conditions={
            "en": ("without a dtype", "without dtype"),
            "ja": ("指定せずに", "指定しないで", "渡さずに"),
            "ko": ("지정하지 않고", "없이"),
        },
        requires={"en": ("thread",), "ja": ("スレッド",), "ko": ("스레드",)},
    ),
)


def probe_data_parallel_dtype(device: Device) -> Observation:
    return _parallel_apply_rule(device, "bfloat16")


def control_data_parallel_float16(device: Device) -> Observation:
    return _parallel_apply_rule(device, "float16")


def _parallel_apply_rule(device: Device, region: str) -> Observation:
    """The dtype of two replicas' outputs when ``DataParallel``'s ``parallel_apply`` runs them
    in two threads inside a CUDA autocast region of dtype ``region``."""
    import torch
    from torch.nn.parallel import parallel_apply

    if not torch.cuda.is_available():
        raise NotApplicable("needs CUDA: parallel_apply runs its replicas on an accelerator")
    layer = torch.nn.Linear(4, 4).to(device)
    x = torch.ones(2, 4, device=device)
    index = torch.cuda.current_device()
    with torch.autocast(device, dtype=getattr(torch, region)):
        outputs = parallel_apply([layer, layer], [(x,), (x,)], devices=[index, index])
    found = sorted({dtype_name(out.dtype) for out in outputs})
    return Observation(
        holds=found != [region],
        rule="holds if the replicas that parallel_apply runs in its threads inside a CUDA "
        "autocast region return a dtype other than the region's",
        measurements=(Measurement(f"amp-data-parallel-{region}-region", ", ".join(found), "text"),),
    )


DATA_PARALLEL_THREADS_USE_THE_DEFAULT_DTYPE = Claim(
    id="amp/data-parallel-threads-use-the-default-dtype",
    statement="DataParallel's threads reopen autocast with the region's on/off state but the "
    "default dtype: inside a bfloat16 CUDA region, its replicas compute in float16.",
    expect=Expect.HOLDS,
    probe=probe_data_parallel_dtype,
    control=Control(
        "a float16 region, the default dtype",
        control_data_parallel_float16,
        measures=("amp-data-parallel-float16-region",),
    ),
    devices=("cuda",),
    measures=("amp-data-parallel-bfloat16-region",),
    vocabulary=Vocabulary(
        subjects=("DataParallel", "parallel_apply"),
        # "float16" alone is in "bfloat16" too
        predicates={
            "en": ("in float16", "to float16", "default dtype"),
            "ja": ("デフォルト",),
            "ko": ("기본",),
        },
        requires={"en": ("bfloat16",), "ja": ("bfloat16",), "ko": ("bfloat16",)},
    ),
)


CLAIMS = (
    MYTH_POOL_WORKERS_RUN_UNDER_THE_REGION,
    THREAD_REGION_TAKES_THE_DEFAULT_DTYPE,
    DATA_PARALLEL_THREADS_USE_THE_DEFAULT_DTYPE,
)
