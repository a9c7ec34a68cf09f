"""Claims of "Claims checked for this review"
(docs/reviews/disable-saved-tensors-hooks-article.md, ``(st-review-claims)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.saved_tensors._model import _error, _ratio
from checker.evidence import Measurement, Observation
from checker.typing import Device


def _pool_task(t: Any) -> float:
    """A worker's job: the sum of ``t @ t`` (module level, so Pool can pickle it)."""
    import torch

    torch.set_num_threads(1)  # a forked child cannot use the parent's OpenMP threads
    return float(t.mm(t).sum())


def _pool_task_when(gate: str, t: Any) -> float:
    """The same job, finishing only once the file ``gate`` exists: the probe decides when,
    so no timing of the machine decides whether the job was done before the block ended."""
    import os
    import time

    while not os.path.exists(gate):
        time.sleep(0.01)
    return _pool_task(t)


def _pool_add_one(t: Any) -> float:
    """A worker's job: add 1 in place to ``t`` (a tensor or a NumPy array) and return its sum
    (module level, so Pool can pickle it)."""
    import torch

    torch.set_num_threads(1)  # a forked child cannot use the parent's OpenMP threads
    t += 1.0
    return float(t.sum())


def probe_unindented_with(device: Device) -> Observation:
    return _with_block_rule(
        "import contextlib\nwith contextlib.suppress(KeyError):\n# a comment\nvalue = 1\n"
    )


def control_indented_with(device: Device) -> Observation:
    return _with_block_rule(
        "import contextlib\nwith contextlib.suppress(KeyError):\n    # a comment\n    value = 1\n"
    )


def _with_block_rule(source: str) -> Observation:
    error = _error(lambda: compile(source, "<flattened>", "exec"))
    return Observation(
        holds=error.startswith(
            "IndentationError: expected an indented block after 'with' statement"
        ),
        rule="holds if compiling the with statement raises IndentationError (expected an "
        "indented block) before anything runs",
        measurements=(Measurement("st-flattened-with-error", error, "exception"),),
    )


FLATTENED_WITH_BLOCK_DOES_NOT_COMPILE = Claim(
    id="saved-tensors/flattened-with-block-does-not-compile",
    statement="A with statement whose body lost its indentation does not compile: "
    "Python raises IndentationError.",
    expect=Expect.HOLDS,
    probe=probe_unindented_with,
    control=Control(
        "the same block with its indentation",
        control_indented_with,
    ),
    devices=("cpu",),
    measures=("st-flattened-with-error",),
)


def probe_unindented_def(device: Device) -> Observation:
    return _def_block_rule("def double(value):\nreturn 2 * value\n")


def control_indented_def(device: Device) -> Observation:
    return _def_block_rule("def double(value):\n    return 2 * value\n")


def _def_block_rule(source: str) -> Observation:
    error = _error(lambda: compile(source, "<flattened>", "exec"))
    return Observation(
        holds=error.startswith(
            "IndentationError: expected an indented block after function definition"
        ),
        rule="holds if compiling the function definition raises IndentationError (expected "
        "an indented block)",
        measurements=(Measurement("st-flattened-def-error", error, "exception"),),
    )


FLATTENED_DEF_DOES_NOT_COMPILE = Claim(
    id="saved-tensors/flattened-def-does-not-compile",
    statement="A function definition whose body lost its indentation does not compile: "
    "Python raises IndentationError.",
    expect=Expect.HOLDS,
    probe=probe_unindented_def,
    control=Control(
        "the same definition with its indentation",
        control_indented_def,
    ),
    devices=("cpu",),
    measures=("st-flattened-def-error",),
)


def probe_rand_backward_after_del(device: Device) -> Observation:
    return _rand_backward_rule(device, requires_grad=False)


def control_rand_requiring_grad(device: Device) -> Observation:
    return _rand_backward_rule(device, requires_grad=True)


def _rand_backward_rule(device: Device, requires_grad: bool) -> Observation:
    import torch

    x = torch.rand(256, 256, device=device, requires_grad=requires_grad)
    y = x.mm(x)
    z = y.sum()
    del x, y
    error = _error(z.backward)
    return Observation(
        holds=error == "no error",
        rule=f"holds if z = torch.rand(..., requires_grad={requires_grad}) multiplied by "
        "itself and summed can be backpropagated after deleting x and y",
        measurements=(Measurement("st-rand-backward-after-del", error, "exception"),),
    )


MYTH_RAND_RESULT_BACKPROPAGATES = Claim(
    id="saved-tensors/myth-rand-result-backpropagates",
    statement="A sum computed from torch.rand tensors can be backpropagated after its inputs "
    "are deleted.",
    expect=Expect.FAILS,
    probe=probe_rand_backward_after_del,
    control=Control(
        "torch.rand(..., requires_grad=True)",
        control_rand_requiring_grad,
    ),
    devices=("cpu",),
    measures=("st-rand-backward-after-del",),
    vocabulary=Vocabulary(
        subjects=("torch.rand",),
        predicates={
            "en": ("gradient",),
            "ja": ("勾配計算に使用できます",),
            "ko": ("기울기 계산에 사용할 수 있", "변화도 계산에 사용할 수 있"),
        },
    ),
)


def probe_pool_shares_without_copy(device: Device) -> Observation:
    return _pool_copy_rule(already_shared=False)


def control_pool_preshared(device: Device) -> Observation:
    return _pool_copy_rule(already_shared=True)


def _pool_copy_rule(already_shared: bool) -> Observation:
    import multiprocessing

    import torch

    x: Any = torch.rand(256, 256)
    if already_shared:
        x.share_memory_()
    before = x.untyped_storage().data_ptr()
    with multiprocessing.get_context("fork").Pool(1) as pool:
        result = pool.apply(_pool_task, (x,))
    moved = x.untyped_storage().data_ptr() != before
    shared = x.is_shared()
    same = abs(result - float(x.mm(x).sum())) <= 1e-3 * abs(result)
    prefix = "st-pool-preshared" if already_shared else "st-pool"
    return Observation(
        holds=not moved and same,
        rule="holds if, after a Pool worker received the tensor and returned its result, the "
        "tensor's storage is still the block it had before (no copy was made)",
        measurements=(
            Measurement(f"{prefix}-storage-moved", moved, "bool"),
            Measurement(f"{prefix}-tensor-is-shared", shared, "bool"),
            Measurement(f"{prefix}-result-correct", same, "bool"),
        ),
    )


MYTH_POOL_SHARES_TENSOR_WITHOUT_COPY = Claim(
    id="saved-tensors/myth-pool-shares-tensor-without-copy",
    statement="Handing a CPU tensor that is not yet in shared memory to a multiprocessing.Pool "
    "worker lets the worker use the same memory, without a copy.",
    expect=Expect.FAILS,
    probe=probe_pool_shares_without_copy,
    devices=("cpu",),
    measures=("st-pool-storage-moved", "st-pool-tensor-is-shared", "st-pool-result-correct"),
    control=Control(
        "a tensor moved to shared memory with share_memory_() first",
        control_pool_preshared,
        measures=("st-pool-preshared-storage-moved",),
    ),
    vocabulary=Vocabulary(
        subjects=("multiprocessing", "Pool", "別のプロセス"),
        predicates={
            "en": ("reduc", "memory"),
            "ja": ("別のプロセス", "削減", "同じメモリ"),
            "ko": ("다른 프로세스", "줄이", "같은 메모리"),
        },
    ),
)


def probe_pool_worker_writes_reach_parent(device: Device) -> Observation:
    return _pool_write_rule(as_array=False)


def control_pool_numpy_array(device: Device) -> Observation:
    return _pool_write_rule(as_array=True)


def _pool_write_rule(as_array: bool) -> Observation:
    import multiprocessing

    import torch

    x: Any = torch.zeros(64)
    handed = x.numpy() if as_array else x
    with multiprocessing.get_context("fork").Pool(1) as pool:
        worker_sum = pool.apply(_pool_add_one, (handed,))
    reached = float(x.sum()) == worker_sum
    key = "st-pool-array" if as_array else "st-pool"
    return Observation(
        holds=reached,
        rule="holds if 1 added in place by a Pool worker to the "
        + ("NumPy array of a CPU tensor" if as_array else "CPU tensor")
        + " it received shows in the parent's tensor",
        measurements=(
            Measurement(f"{key}-worker-write-reaches-parent", reached, "bool"),
            Measurement(f"{key}-worker-sum", worker_sum, "count"),
        ),
    )


POOL_WORKER_WRITES_REACH_PARENT = Claim(
    id="saved-tensors/pool-worker-writes-reach-parent",
    statement="Once a CPU tensor is handed to a multiprocessing.Pool worker, the worker and "
    "the parent use the same shared memory: an in-place write in the worker reaches the "
    "parent's tensor.",
    expect=Expect.HOLDS,
    probe=probe_pool_worker_writes_reach_parent,
    devices=("cpu",),
    measures=("st-pool-worker-write-reaches-parent", "st-pool-worker-sum"),
    control=Control(
        "the tensor's NumPy array handed over instead",
        control_pool_numpy_array,
        measures=("st-pool-array-worker-write-reaches-parent",),
    ),
)


def probe_pool_result_after_with(device: Device) -> Observation:
    return _pool_result_rule(fetch_inside=False)


def control_pool_result_fetched_inside(device: Device) -> Observation:
    return _pool_result_rule(fetch_inside=True)


def _pool_result_rule(fetch_inside: bool) -> Observation:
    import multiprocessing
    import os
    import tempfile

    import torch

    x = torch.rand(64, 64)
    gate = os.path.join(tempfile.mkdtemp(), "finish")  # in the job's own TMPDIR
    pool_context = multiprocessing.get_context("fork")
    with pool_context.Pool(1) as pool:
        inside = pool.apply_async(_pool_task, (x,))
        inside_error = _error(inside.get)  # the harness's time limit bounds it
    with pool_context.Pool(1) as pool:
        pending = pool.apply_async(_pool_task_when, (gate, x))
        if fetch_inside:
            open(gate, "w").close()
            error = _error(pending.get)
    ready = pending.ready()
    if not fetch_inside:
        open(gate, "w").close()  # too late: leaving the block terminated the worker
        error = _error(lambda: pending.get(timeout=1))
    return Observation(
        holds=error == "no error",
        rule="holds if a job requested with apply_async inside `with Pool()`, which cannot "
        "finish before the probe lets it, can be fetched "
        + (
            "when it is let finish inside the block"
            if fetch_inside
            else "within 1 s when it is let finish after the block ends"
        ),
        measurements=(
            Measurement("st-pool-get-inside-with", inside_error, "text"),
            Measurement("st-pool-ready-after-with", ready, "bool"),
            Measurement("st-pool-get-after-with", error, "exception"),
        ),
    )


MYTH_POOL_RESULT_SURVIVES_WITH = Claim(
    id="saved-tensors/myth-pool-result-survives-with",
    statement="A result requested with apply_async inside with Pool() can still be fetched "
    "after the block ends.",
    expect=Expect.FAILS,
    probe=probe_pool_result_after_with,
    control=Control(
        "the result fetched inside the block",
        control_pool_result_fetched_inside,
    ),
    devices=("cpu",),
    measures=("st-pool-get-inside-with", "st-pool-ready-after-with", "st-pool-get-after-with"),
    vocabulary=Vocabulary(subjects=("apply_async",)),
)


def probe_numpy_rand_memory(device: Device) -> Observation:
    return _numpy_rand_rule(as_float32=False)


def control_numpy_rand_as_float32(device: Device) -> Observation:
    return _numpy_rand_rule(as_float32=True)


def _numpy_rand_rule(as_float32: bool) -> Observation:
    import numpy as np
    import torch

    a = np.random.default_rng(0).random((512, 512))
    legacy = np.random.rand(512, 512)
    if as_float32:
        legacy = legacy.astype(np.float32)
    t = torch.rand(512, 512)
    return Observation(
        holds=legacy.nbytes <= t.nbytes,
        rule="holds if np.random.rand(512, 512)"
        + (".astype(np.float32)" if as_float32 else "")
        + " takes no more bytes than torch.rand(512, 512)",
        measurements=(
            Measurement("st-numpy-rand-bytes", int(legacy.nbytes), "bytes"),
            Measurement("st-numpy-rand-dtype", str(legacy.dtype), "dtype"),
            Measurement("st-numpy-generator-dtype", str(a.dtype), "dtype"),
            Measurement("st-torch-rand-bytes", t.nbytes, "bytes"),
            Measurement("st-torch-rand-dtype", str(t.dtype), "dtype"),
            Measurement("st-numpy-torch-bytes-ratio", _ratio(legacy.nbytes, t.nbytes), "ratio"),
        ),
    )


MYTH_NUMPY_RAND_SAVES_MEMORY = Claim(
    id="saved-tensors/myth-numpy-rand-saves-memory",
    statement="Creating the same random matrix with NumPy instead of PyTorch uses less memory.",
    expect=Expect.FAILS,
    probe=probe_numpy_rand_memory,
    control=Control(
        "np.random.rand(...).astype(np.float32)",
        control_numpy_rand_as_float32,
    ),
    devices=("cpu",),
    measures=(
        "st-numpy-rand-bytes",
        "st-numpy-rand-dtype",
        "st-numpy-generator-dtype",
        "st-torch-rand-bytes",
        "st-torch-rand-dtype",
        "st-numpy-torch-bytes-ratio",
    ),
    vocabulary=Vocabulary(
        subjects=("NumPy", "numpy", "np."),
        predicates={
            "en": ("reduc", "less memory"),
            "ja": ("削減", "メモリ使用量"),
            "ko": ("줄이", "절약", "메모리를 덜"),
        },
    ),
)


CLAIMS = (
    FLATTENED_WITH_BLOCK_DOES_NOT_COMPILE,
    FLATTENED_DEF_DOES_NOT_COMPILE,
    MYTH_RAND_RESULT_BACKPROPAGATES,
    MYTH_POOL_SHARES_TENSOR_WITHOUT_COPY,
    POOL_WORKER_WRITES_REACH_PARENT,
    MYTH_POOL_RESULT_SURVIVES_WITH,
    MYTH_NUMPY_RAND_SAVES_MEMORY,
)
