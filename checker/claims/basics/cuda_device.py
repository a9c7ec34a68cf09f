"""Claims of "Memory on a CUDA device" (docs/basics.md)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect
from checker.evidence import Measurement, NotApplicable, Observation
from checker.measure import cuda_memory
from checker.typing import Device


def probe_cuda_rounds_small_allocations(device: Device) -> Observation:
    return _rounding_rule(device, 1)


def control_cuda_multiple_of_512(device: Device) -> Observation:
    return _rounding_rule(device, 512)


def _rounding_rule(device: Device, floats: int) -> Observation:
    import torch

    if torch.cuda.memory.get_allocator_backend() != "native":
        raise NotApplicable(
            "needs PyTorch's native caching allocator: the allocator backend is set to CUDA's "
            "own (cudaMallocAsync), which rounds differently"
        )
    one, memory = cuda_memory(lambda: torch.ones(floats, device=device))
    return Observation(
        holds=memory.allocated == 512 and one.nbytes < 512,
        rule=f"holds if a tensor of {floats} float32 values, fewer than 512 bytes, raises "
        "memory_allocated() by exactly 512 bytes",
        measurements=(
            Measurement("cuda-one-float-nbytes", one.nbytes, "bytes"),
            Measurement("cuda-one-float-allocated", memory.allocated, "bytes"),
        ),
    )


CUDA_ALLOCATIONS_ROUNDED_TO_512_BYTES = Claim(
    id="basics/cuda-allocations-rounded-to-512-bytes",
    statement="On CUDA, PyTorch's native caching allocator, the default one, rounds a small "
    "tensor's allocation up to 512 bytes.",
    expect=Expect.HOLDS,
    probe=probe_cuda_rounds_small_allocations,
    control=Control(
        "a 2048-byte tensor, already a multiple of 512",
        control_cuda_multiple_of_512,
    ),
    devices=("cuda",),
    measures=("cuda-one-float-nbytes", "cuda-one-float-allocated"),
)


CLAIMS = (CUDA_ALLOCATIONS_ROUNDED_TO_512_BYTES,)
