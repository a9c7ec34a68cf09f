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


#: Sharing and copying, as posts say them: in words, as the memory a result gets, or in the
#: terms of argument passing ("call by reference" for sharing, "call by value" for a copy).
_SHARE: dict[Lang, tuple[str, ...]] = {
    "en": ("share", "same memory", "no copy", "without copying", "call by reference"),
    "ja": (
        "共有",
        "コピーしない",
        "コピーせず",
        "コピーが不要",
        "コピーは不要",
        "コピー不要",
        "同じメモリ",
        "参照渡し",
        "call by reference",
    ),
    "ko": (
        "공유",
        "복사하지 않",
        "복사 없이",
        "복사가 필요 없",
        "복사할 필요가 없",
        "같은 메모리",
        "동일한 메모리",
        "참조에 의한 호출",
        "call by reference",
    ),
}
_COPY: dict[Lang, tuple[str, ...]] = {
    "en": ("copy", "copies", "new memory", "allocates new", "call by value"),
    "ja": (
        "コピー",
        "複製",
        "新しいメモリ",
        "新たなメモリ",
        "別のメモリ",
        "値渡し",
        "call by value",
    ),
    "ko": (
        "복사",
        "사본",
        "새 메모리",
        "새로운 메모리",
        "별도의 메모리",
        "새로 할당",
        "값에 의한 호출",
        "call by value",
    ),
}
_RAISE: dict[Lang, tuple[str, ...]] = {
    "en": ("raise", "error", "fail", "refuse"),
    "ja": ("エラー", "例外", "失敗"),
    "ko": ("에러", "오류", "예외", "실패"),
}
