"""What several sections of the tensors-from-data page use: the error a call raises, as text, and
the words their vocabularies share for sharing, copying and raising."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from checker.typing import Lang


def _error(call: Callable[[], Any]) -> str:
    """``"Type: message"`` of what ``call()`` raises (first line), or ``"no error"``."""
    try:
        call()
    except Exception as exc:
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}"
    return "no error"


_SHARE: dict[Lang, tuple[str, ...]] = {
    "en": ("share", "same memory", "no copy", "without copying"),
    "ja": ("共有", "コピーしない", "コピーせず"),
    "ko": ("공유", "복사하지 않", "복사 없이"),
}
_COPY: dict[Lang, tuple[str, ...]] = {
    "en": ("copy", "copies", "new memory"),
    "ja": ("コピー", "複製"),
    "ko": ("복사",),
}
_RAISE: dict[Lang, tuple[str, ...]] = {
    "en": ("raise", "error", "fail", "refuse"),
    "ja": ("エラー", "例外", "失敗"),
    "ko": ("에러", "오류", "예외", "실패"),
}
