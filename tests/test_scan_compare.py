"""Comparing what ran with what an article shows (``checker.scan.compare``): tracebacks."""

from __future__ import annotations

import pytest

from checker.scan.compare import brief, matches, shown_exception

DOCTEST = "Traceback (most recent call last):\n  ...\nRuntimeError: shape '[-1, 2]' is invalid ..."
IPYTHON = (
    "---------------------------------------------------------------------------\n"
    "RuntimeError                              Traceback (most recent call last)\n"
    "Cell In[2], line 1\n"
    "----> 1 torch.ones(3).view(-1, 2)\n"
    "\n"
    "RuntimeError: shape '[-1, 2]' is invalid for input of size 3"
)
RAN = (
    "Traceback (most recent call last):\n  ...\n"
    "RuntimeError: shape '[-1, 2]' is invalid for input of size 3"
)


def test_a_shown_traceback_names_its_exception() -> None:
    assert shown_exception(DOCTEST) == ("RuntimeError", "shape '[-1, 2]' is invalid ...")
    assert shown_exception(IPYTHON) == (
        "RuntimeError",
        "shape '[-1, 2]' is invalid for input of size 3",
    )
    assert shown_exception("tensor([1., 2.])") is None
    assert shown_exception("RuntimeError: printed, not raised") is None
    assert brief(IPYTHON) == "RuntimeError: shape '[-1, 2]' is invalid for input of size 3"


@pytest.mark.parametrize(
    ("shown", "ran", "same"),
    [
        (DOCTEST, RAN, True),  # "..." stands for the rest of the message
        (IPYTHON, RAN, True),
        (DOCTEST.replace("RuntimeError", "ValueError"), RAN, False),  # another exception
        (DOCTEST, "tensor([2., 2.])", False),  # it did not raise
        ("Traceback (most recent call last):\n  ...\nRuntimeError: other", RAN, False),
    ],
)
def test_a_shown_traceback_matches_the_same_exception_raised(
    shown: str, ran: str, same: bool
) -> None:
    assert matches(shown, ran) is same
