"""The order a sentence states (``checker.scan.order``): markers before the term in English,
after it in Japanese and Korean, read up to the next named term only."""

from __future__ import annotations

import pytest

from checker.scan.order import Order, stated_order
from checker.typing import Lang

CLIP = Order(("unscale_",), ("clip", "クリップ", "クリッピング", "클리핑"))


@pytest.mark.parametrize(
    ("sentence", "lang", "said"),
    [
        ("Call `scaler.unscale_(optimizer)` before `clip_grad_norm_`.", "en", True),
        ("Call `clip_grad_norm_` before `scaler.unscale_(optimizer)`.", "en", False),
        ("Before clipping, call `unscale_`.", "en", True),
        ("Clip the gradients after `unscale_`.", "en", True),
        ("Call `unscale_`, then clip the gradients.", "en", True),
        ("Clip first, then call `unscale_`.", "en", False),
        ("勾配クリッピングは `unscale_` の前に行います。", "ja", False),
        ("勾配クリッピングの前に `unscale_` を呼びます。", "ja", True),
        ("`unscale_` を呼んでからクリップします。", "ja", True),
        ("그래디언트 클리핑은 `unscale_` 전에 해야 합니다.", "ko", False),
        ("클리핑 전에 `unscale_`를 호출합니다.", "ko", True),
        ("`unscale_`를 호출한 뒤에 클리핑합니다.", "ko", True),
        # no marker, or only one of the two named: no order stated
        ("Gradient clipping and `unscale_` both touch the gradients.", "en", None),
        ("Clip the gradients before the step.", "en", None),
    ],
)
def test_the_stated_order(sentence: str, lang: Lang, said: bool | None) -> None:
    assert stated_order(sentence, lang, CLIP) is said


UPDATE = Order(("step",), ("update",))


@pytest.mark.parametrize(
    ("sentence", "lang", "said"),
    [
        ("Call `scaler.update()` before `scaler.step(optimizer)`.", "en", False),
        ("Call `scaler.step(optimizer)`, then `scaler.update()`.", "en", True),
        ("`scaler.update()` は `scaler.step()` の前に呼びます。", "ja", False),
        ("`scaler.update()`는 `scaler.step()` 다음에 호출합니다.", "ko", True),
    ],
)
def test_the_stated_order_of_step_and_update(sentence: str, lang: Lang, said: bool) -> None:
    assert stated_order(sentence, lang, UPDATE) is said
