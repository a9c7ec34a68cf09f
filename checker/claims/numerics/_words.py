"""What several sections of the numerics page use: a float as text, the error a call raises,
and the names posts give the two 16-bit formats."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _g(value: float) -> str:
    """A float as text: ``repr`` when it is short (``65504.0``), else six significant digits."""
    exact = repr(float(value))
    return exact if len(exact) <= 16 else f"{value:.6g}"


def _error(call: Callable[[], Any]) -> str:
    """``"Type: message"`` of what ``call()`` raises (first line, shortened), or
    ``"no error"``."""
    try:
        call()
    except Exception as exc:
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:120]}"
    return "no error"


#: How posts name float16 and bfloat16 (code names, abbreviations; the CJK words for "half
#: precision" name float16).
FLOAT16 = ("float16", "fp16", "FP16", "torch.half", "半精度", "반정밀도")
BFLOAT16 = ("bfloat16", "bf16", "BF16")
