"""What the translation checks add to checker.text.reading: idioms that are not negations,
numbers touching Japanese and Korean text, numbers spelled out in English."""

from __future__ import annotations

import pytest

from checker.text.reading import is_negated, numbers, polarity_markers, spelled_numbers
from checker.typing import Lang


@pytest.mark.parametrize(
    ("lang", "text", "negated"),
    [
        ("en", "It not only saves memory but also time.", False),
        ("ja", "勾配を保存しなければなりません。", False),  # must
        ("ja", "テンソルは1つしか保存されません。", False),  # only
        ("ja", "メモリが削減されるかもしれません。", False),  # maybe
        ("ja", "メモリだけでなく時間も節約します。", False),  # not only ... but also
        ("ja", "古い名前に過ぎません。", False),  # merely
        ("ja", "古い名前にすぎません。", False),  # merely, in kana
        ("ja", "メモリは削減されません。", True),
        ("ko", "뷰가 아닙니다.", True),  # is not
        ("ko", "복사본이 아닌 뷰를 반환합니다.", True),
        ("ko", "텐서 하나밖에 저장되지 않습니다.", False),  # only
        ("ko", "저장하지 않으면 안 됩니다.", False),  # must
        ("ko", "메모리뿐만 아니라 시간도 절약합니다.", False),  # not only ... but also
        ("ko", "그렇지 않으면 오류가 발생합니다.", False),  # otherwise
        ("en", "It raises the same error whether or not it ran inside the block.", False),
    ],
)
def test_negation_idioms(lang: Lang, text: str, negated: bool) -> None:
    assert is_negated(text, lang) is negated


def test_numbers_may_touch_japanese_and_korean_text() -> None:
    assert dict(numbers("要素あたり4バイト、1,000個で4000バイト")) == {"4": 1, "1000": 1, "4000": 1}
    assert dict(numbers("1,000개 요소는 4바이트")) == {"1000": 1, "4": 1}
    assert dict(numbers("float32 and v2 and x10")) == {}


def test_english_numbers_spelled_out() -> None:
    assert dict(spelled_numbers("four times, twice, and half of it", "en")) == {
        "4": 1,
        "2": 1,
        "0.5": 1,
    }
    assert dict(spelled_numbers("四倍", "ja")) == {}


@pytest.mark.parametrize(
    ("lang", "text", "markers"),
    [
        ("en", "Calling it without one raises TypeError.", ["without"]),
        ("en", "It runs without reducing memory.", ["without reduc"]),  # counted once
        ("ja", "それを渡さずに呼ぶと TypeError になります。", ["ずに"]),
        ("ja", "引数なしで呼ぶと TypeError になります。", ["なしで"]),
        ("ko", "이를 주지 않고 호출하면 TypeError가 발생합니다.", ["않"]),
        ("ko", "인수 없이 호출하면 TypeError가 발생합니다.", ["없이"]),
        ("ko", "코드와 관계없이 같은 오류가 발생합니다.", []),
    ],
)
def test_without_counts_in_every_language(lang: Lang, text: str, markers: list[str]) -> None:
    assert polarity_markers(text, lang) == markers
