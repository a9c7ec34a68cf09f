"""Undoing what publishing did to code (``checker.scan.typography``)."""

from __future__ import annotations

from checker.scan.typography import restore


def test_typographic_quotes_and_full_width_punctuation_become_ascii() -> None:
    source = "x = torch.ones(2, device=“cpu”)\nprint(x.device)\u3000# ‘cpu’\ny = x［0］："
    assert restore(source) == (
        "x = torch.ones(2, device=\"cpu\")\nprint(x.device) # 'cpu'\ny = x[0]:",
        "its typographic characters replaced",
    )


def test_line_numbers_counting_up_are_removed_and_indentation_kept() -> None:
    source = " 9  def f(x):\n10      return x + 1\n11\n12  print(f(1))"
    assert restore(source) == (
        "def f(x):\n    return x + 1\n\nprint(f(1))",
        "its line numbers removed",
    )


def test_numbers_that_are_code_stay() -> None:
    assert restore("1 + 1\n3 + 4") is None  # they do not count up by one
    assert restore("2  x = 1\nprint(x)") is None  # not every line is numbered
    assert restore("x = 1\nprint(x)") is None  # nothing to undo
