"""Claims of "Claims checked for this review" (docs/reviews/copies-and-inplace-article.md,
``(vi-review-claims)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect
from checker.claims.views._tensors import _error, _values
from checker.evidence import Measurement, Observation
from checker.typing import Device


def probe_flattened_if(device: Device) -> Observation:
    # A function whose body kept one space of indentation, with an if statement whose body
    # is no deeper than the if: the shape of the article's first block.
    return _if_block_rule("def half(flag, t):\n if flag:\n t = t / 2\n return t\n")


def control_indented_if(device: Device) -> Observation:
    return _if_block_rule("def half(flag, t):\n if flag:\n  t = t / 2\n return t\n")


def _if_block_rule(source: str) -> Observation:
    error = _error(lambda: compile(source, "<flattened>", "exec"))
    return Observation(
        holds=error.startswith("IndentationError: expected an indented block after 'if'"),
        rule="holds if compiling the function with its if statement raises IndentationError "
        "('expected an indented block')",
        measurements=(Measurement("vi-flattened-if-error", error, "exception"),),
    )


FLATTENED_IF_DOES_NOT_COMPILE = Claim(
    id="inplace/flattened-if-does-not-compile",
    statement="An if statement whose body lost its extra indentation does not compile: "
    "Python raises IndentationError.",
    expect=Expect.HOLDS,
    probe=probe_flattened_if,
    control=Control(
        "the if body indented deeper",
        control_indented_if,
    ),
    devices=("cpu",),
    measures=("vi-flattened-if-error",),
)


def probe_indented_first_line(device: Device) -> Observation:
    return _first_line_rule("    total = 1\n    total += 1\n")


def control_first_line_at_margin(device: Device) -> Observation:
    return _first_line_rule("total = 1\ntotal += 1\n")


def _first_line_rule(source: str) -> Observation:
    error = _error(lambda: compile(source, "<indented>", "exec"))
    return Observation(
        holds=error.startswith("IndentationError: unexpected indent"),
        rule="holds if compiling the module raises IndentationError ('unexpected indent')",
        measurements=(Measurement("vi-indented-block-error", error, "exception"),),
    )


INDENTED_FIRST_LINE_DOES_NOT_COMPILE = Claim(
    id="inplace/indented-first-line-does-not-compile",
    statement="Code whose first line is indented does not compile: Python raises IndentationError.",
    expect=Expect.HOLDS,
    probe=probe_indented_first_line,
    control=Control(
        "the module starting at the margin",
        control_first_line_at_margin,
    ),
    devices=("cpu",),
    measures=("vi-indented-block-error",),
)


def probe_cuda_calls_without_gpu(device: Device) -> Observation:
    return _without_gpu_rule("synchronize")


def control_cuda_is_available_without_gpu(device: Device) -> Observation:
    return _without_gpu_rule("is_available")


def _without_gpu_rule(call: str) -> Observation:
    import torch

    if not torch.cuda.is_available():
        error = _error(getattr(torch.cuda, call))
        where = "this process: no CUDA device is available"
    else:  # the GPU is visible here: ask a process that cannot see it
        import os
        import subprocess
        import sys

        code = (
            "import torch\n"
            f"try:\n    torch.cuda.{call}()\nexcept Exception as e:\n"
            "    print(f'{type(e).__name__}: {e}')\nelse:\n    print('no error')\n"
        )
        env = {**os.environ, "CUDA_VISIBLE_DEVICES": ""}
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
        )
        lines = done.stdout.strip().splitlines()
        error = lines[-1] if lines else "no output"
        where = "a child process with CUDA_VISIBLE_DEVICES empty"
    return Observation(
        holds=error not in {"no error", "no output"},
        rule=f"holds if torch.cuda.{call}() raises where no CUDA device is available",
        measurements=(
            Measurement("vi-cuda-sync-without-gpu-error", error, "exception"),
            Measurement("vi-cuda-sync-without-gpu-where", where, "text"),
        ),
    )


CUDA_STATISTICS_NEED_A_GPU = Claim(
    id="inplace/cuda-statistics-need-a-gpu",
    statement="torch.cuda.synchronize() raises an error where no CUDA device is available, so "
    "code that measures memory with torch.cuda functions cannot run on a machine without a GPU.",
    expect=Expect.HOLDS,
    probe=probe_cuda_calls_without_gpu,
    control=Control(
        "torch.cuda.is_available(), which works without a GPU",
        control_cuda_is_available_without_gpu,
    ),
    devices=("cpu",),
    measures=("vi-cuda-sync-without-gpu-error", "vi-cuda-sync-without-gpu-where"),
)


def probe_linear_input_grad(device: Device) -> Observation:
    return _linear_grad_rule(device, squared=False)


def control_squared_output(device: Device) -> Observation:
    return _linear_grad_rule(device, squared=True)


def _linear_grad_rule(device: Device, squared: bool) -> Observation:
    import torch

    torch.manual_seed(0)
    layer = torch.nn.Linear(2, 1).to(device)
    x: Any = torch.tensor([1.0, 2.0], device=device, requires_grad=True)
    out = layer(x)
    (out.square() if squared else out).sum().backward()
    equal = bool(torch.equal(x.grad, layer.weight[0].detach()))
    return Observation(
        holds=equal,
        rule="holds if, for y = Linear(2, 1)(x) with a 1-D x, x.grad after "
        + ("y.square().backward()" if squared else "y.backward()")
        + " equals the layer's weight row exactly",
        measurements=(
            Measurement("vi-linear-input-grad-equals-weight", equal, "bool"),
            Measurement("vi-linear-input-grad-seed-0", _values(x.grad), "text"),
        ),
    )


LINEAR_INPUT_GRAD_EQUALS_WEIGHT = Claim(
    id="views/linear-input-grad-equals-weight",
    statement="For y = Linear(2, 1)(x) with a one-dimensional input, x.grad after "
    "y.backward() is the layer's weight row, so its values depend only on the initialization.",
    expect=Expect.HOLDS,
    probe=probe_linear_input_grad,
    control=Control(
        "the square of the output",
        control_squared_output,
    ),
    devices=("cpu",),
    measures=("vi-linear-input-grad-equals-weight", "vi-linear-input-grad-seed-0"),
)


CLAIMS = (
    FLATTENED_IF_DOES_NOT_COMPILE,
    INDENTED_FIRST_LINE_DOES_NOT_COMPILE,
    CUDA_STATISTICS_NEED_A_GPU,
    LINEAR_INPUT_GRAD_EQUALS_WEIGHT,
)
