"""Claims of "Elements, bytes and storage" (docs/basics.md)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.measure import shares_storage
from checker.typing import Device


def probe_float32_element_size(device: Device) -> Observation:
    import torch

    return _element_size_rule(device, torch.float32)


def control_float64_element_size(device: Device) -> Observation:
    import torch

    return _element_size_rule(device, torch.float64)


def _element_size_rule(device: Device, dtype: Any) -> Observation:
    import torch

    x = torch.zeros(1000, dtype=dtype, device=device)
    return Observation(
        holds=x.element_size() == 4 and x.nbytes == 4 * x.numel(),
        rule=f"holds if element_size() is 4 and nbytes is 4 × numel() for a {dtype} tensor",
        measurements=(
            Measurement("float32-element-size", x.element_size(), "bytes"),
            Measurement("float32-1000-nbytes", x.nbytes, "bytes"),
        ),
    )


FLOAT32_ELEMENT_IS_4_BYTES = Claim(
    id="basics/float32-element-is-4-bytes",
    statement="A float32 tensor takes 4 bytes per element, so its nbytes is four times its "
    "numel().",
    expect=Expect.HOLDS,
    probe=probe_float32_element_size,
    control=Control(
        "a float64 tensor",
        control_float64_element_size,
    ),
    measures=("float32-element-size", "float32-1000-nbytes"),
    vocabulary=Vocabulary(
        subjects=("float32", "element_size"),
        predicates={
            "en": ("4 bytes", "four bytes"),
            "ja": ("4 バイト", "4バイト"),
            "ko": ("4바이트", "4 바이트"),
        },
    ),
)


def probe_slice_shares_storage(device: Device) -> Observation:
    return _slice_rule(device, copy=False)


def control_cloned_slice(device: Device) -> Observation:
    return _slice_rule(device, copy=True)


def _slice_rule(device: Device, copy: bool) -> Observation:
    import torch

    x = torch.zeros(1000, device=device)
    s = x[:10].clone() if copy else x[:10]
    shared = shares_storage(s, x)
    return Observation(
        holds=shared and s._base is x,
        rule="holds if the slice's untyped storage is the base tensor's and s._base is x"
        + (" (the slice is cloned)" if copy else ""),
        measurements=(
            Measurement("slice-shares-storage", shared, "bool"),
            Measurement("slice-nbytes", s.nbytes, "bytes"),
            Measurement("slice-storage-nbytes", s.untyped_storage().nbytes(), "bytes"),
        ),
    )


SLICE_SHARES_STORAGE = Claim(
    id="basics/slice-shares-storage",
    statement="A basic slice such as x[:10] is a view: it shares the storage of the tensor it "
    "was taken from.",
    expect=Expect.HOLDS,
    probe=probe_slice_shares_storage,
    control=Control(
        "a cloned slice",
        control_cloned_slice,
    ),
    measures=("slice-shares-storage", "slice-nbytes", "slice-storage-nbytes"),
)


CLAIMS = (
    FLOAT32_ELEMENT_IS_4_BYTES,
    SLICE_SHARES_STORAGE,
)
