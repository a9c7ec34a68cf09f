"""One expected output serves every device, without accepting wrong values."""

from __future__ import annotations

import pytest

from checker.doctest.output import OPTIONFLAGS, DeviceOutputChecker, last_digit_unit

CHECK = DeviceOutputChecker()


@pytest.mark.parametrize(
    ("want", "got"),
    [
        ("tensor([0.3793, 2.0000])\n", "tensor([0.3792, 2.0000], device='cuda:0')\n"),
        ("tensor([0.3793, 2.0000])\n", "tensor([0.3794, 2.0000])\n"),
        ("tensor(3.)\n", "tensor(3., device='cuda:0')\n"),
        ("tensor([1, 2])\n", "tensor([1, 2], device='cuda:0')\n"),
        ("1.5000e-05\n", "1.5001e-05\n"),
        ("(torch.float16, 2)\n", "(torch.float16, 2)\n"),
        ("tensor([0.1000,   2.5000])\n", "tensor([0.1000, 2.5000])\n"),
    ],
)
def test_accepts_device_suffix_and_last_digit_rounding(want: str, got: str) -> None:
    assert CHECK.check_output(want, got, OPTIONFLAGS)


@pytest.mark.parametrize(
    ("want", "got"),
    [
        ("tensor([0.3793, 2.0000])\n", "tensor([0.3795, 2.0000])\n"),
        ("400000000\n", "400000001\n"),
        ("(40, 4000)\n", "(40, 4001)\n"),
        ("tensor(3.)\n", "tensor(3.0001)\n"),
        ("torch.float16\n", "torch.bfloat16\n"),
        ("tensor([1, 2])\n", "tensor([1, 2], device='cpu', dtype=torch.int32)\n"),
        ("tensor(3.)\n", "tensor(3., device='cuda:0', requires_grad=True)\n"),
    ],
)
def test_rejects_wrong_values(want: str, got: str) -> None:
    assert not CHECK.check_output(want, got, OPTIONFLAGS)


@pytest.mark.parametrize(
    ("number", "unit"),
    [("0.3793", 1e-4), ("3.", 0.0), ("12", 0.0), ("1.50e-05", 1e-7), (" 2.0000", 1e-4)],
)
def test_last_digit_unit(number: str, unit: float) -> None:
    assert last_digit_unit(number) == pytest.approx(unit)
