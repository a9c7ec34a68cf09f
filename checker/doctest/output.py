"""Comparing a snippet's output with the page: strict on values, tolerant of devices.

Built on pytest-doctestplus's ``FLOAT_CMP`` checker, with two changes:

* a ``device='cuda:0'`` argument in a tensor's repr is ignored, so the same expected output
  serves CPU and CUDA;
* a floating-point number matches when it differs from the expected one by at most one unit
  in the last digit the page prints (``0.3793`` accepts ``0.3792`` and ``0.3794``, not
  ``0.3795``), or by the relative tolerance, whichever is larger. Integers (byte counts,
  shapes) must match exactly.
"""

from __future__ import annotations

import doctest
import math
import re

from pytest_doctestplus.output_checker import FLOAT_CMP, OutputChecker

#: The flags every snippet runs with.
OPTIONFLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE | FLOAT_CMP

_DEVICE_ARG = re.compile(r",\s*device='cuda(?::\d+)?'")
_FLOAT = re.compile(r"^[+-]?(?P<int>\d*)(?:\.(?P<frac>\d*))?(?:e(?P<exp>[+-]?\d+))?$", re.I)


class DeviceOutputChecker(OutputChecker):  # type: ignore[misc]
    """An output checker that serves every device from one expected output."""

    rtol = 1e-6
    atol = 0.0

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        return bool(super().check_output(want, strip_device(got), optionflags))

    def output_difference(self, example: doctest.Example, got: str, optionflags: int) -> str:
        return str(super().output_difference(example, strip_device(got), optionflags))

    def equal_floats(self, a: str, b: str) -> bool:
        """``a`` is the number printed by the run, ``b`` the one on the page."""
        got, want = float(a), float(b)
        if math.isnan(got) or math.isnan(want):
            return math.isnan(got) and math.isnan(want)
        tolerance = max(self.atol, self.rtol * abs(want), last_digit_unit(b))
        return abs(got - want) <= tolerance * (1 + 1e-9)  # absorb binary rounding of the unit


def strip_device(text: str) -> str:
    """Remove ``device='cuda:N'`` arguments from tensor reprs."""
    return _DEVICE_ARG.sub("", text)


def last_digit_unit(number: str) -> float:
    """The value of one unit in the last printed digit: ``"0.3793"`` gives ``0.0001``.

    Numbers printed without a fractional part (``"3."``, ``"12"``) get no tolerance.
    """
    match = _FLOAT.match(number.strip())
    if not match or not match["frac"]:
        return 0.0
    exponent = int(match["exp"] or 0)
    return float(10.0 ** (exponent - len(match["frac"])))
