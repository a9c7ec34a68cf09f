"""Negation, numbers and language detection in en, ja and ko, as the docs phrase things."""

from __future__ import annotations

import pytest

from checker.registry import load
from checker.text import reading
from checker.text.languages import detect
from checker.text.reading import is_negated, mentions, numbers, predicate_negated, sentences
from checker.typing import Lang


@pytest.mark.parametrize(
    ("lang", "text", "negated"),
    [
        ("en", "disable_saved_tensors_hooks reduces memory.", False),
        ("en", "disable_saved_tensors_hooks does not reduce memory.", True),
        ("en", "It doesn't change what autograd saves.", True),
        ("en", "It has no effect on memory.", True),
        ("en", "Use `torch.no_grad()` to save memory.", False),
        ("en", "Notably, a view shares memory.", False),
        ("en", "It is not true that it does not copy.", False),
        ("ja", "メモリ使用量を削減します。", False),
        ("ja", "メモリ使用量は削減されません。", True),
        ("ja", "メモリ使用量を削減しない。", True),
        ("ja", "保存されるテンソルは少ない。", False),
        ("ja", "勾配計算に使用できません。", True),
        ("ja", "メモリを減らさずに計算できる。", True),
        ("ko", "메모리 사용량을 줄입니다.", False),
        ("ko", "메모리 사용량을 줄이지 않습니다.", True),
        ("ko", "메모리를 공유하지 않는다.", True),
        ("ko", "복사본이 없다.", True),
        ("ko", "메모리를 공유합니다.", False),
    ],
)
def test_negation(lang: Lang, text: str, negated: bool) -> None:
    assert is_negated(text, lang) is negated


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("A view shares memory.", "en"),
        ("ビューはメモリを共有します。", "ja"),
        ("뷰는 메모리를 공유합니다.", "ko"),
        ("勾配", None),  # Han without kana: Chinese as much as Japanese
    ],
)
def test_detect(text: str, lang: Lang | None) -> None:
    assert detect(text) == lang


def test_numbers_are_normalised_and_code_is_ignored() -> None:
    found = numbers("4,000 バイトと １０００ 要素, 0.5 and 1e-8, but not `x[10]` or v2")
    assert dict(found) == {"4000": 1, "1000": 1, "0.5": 1, "1e-08": 1}


def test_sentences_keep_their_offsets() -> None:
    text = "First one. Second one! 三つ目です。四つ目。"
    for offset, sentence in sentences(text):
        assert text[offset:].startswith(sentence)
    assert [s for _, s in sentences(text)][-1] == "四つ目。"


def test_mentions_say_whether_a_sentence_asserts_or_denies() -> None:
    claims = list(load())
    [asserting] = [
        m
        for m in mentions("float32 takes 4 bytes per element.", "en", claims)
        if m.claim.id == "basics/float32-element-is-4-bytes"
    ]
    assert asserting.asserts
    [denying] = [
        m
        for m in mentions("float32 は 4バイトではない。", "ja", claims)
        if m.claim.id == "basics/float32-element-is-4-bytes"
    ]
    assert not denying.asserts


@pytest.mark.parametrize(
    ("text", "negated"),
    [
        # a negated relative clause describes the subject; the main verb carries the claim
        ("An in-place operation that does not raise during backward gives correct results.", False),
        ("An operation that never raises gives correct gradients.", False),
        ("Code which doesn't fail always gives correct gradients.", False),
        # the negation bears on the predicate itself
        ("Code that does not give correct gradients is rejected.", True),
        ("An operation that does not give the correct gradients raises.", True),
        ("In-place operations do not give correct gradients.", True),
    ],
)
def test_a_negated_english_relative_clause_does_not_deny_the_predicate(
    text: str, negated: bool
) -> None:
    assert predicate_negated(text, "en", ("correct",)) is negated


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "You can feed them to the classifier with no problem."),
        ("en", "It trains later without any issues."),
        ("ja", "そのまま学習に使っても問題ありません。"),
        ("ja", "学習に使って構わない。"),
        ("ko", "나중에 학습에 그대로 넣어도 문제없다."),
        ("ko", "학습에 써도 상관없습니다."),
    ],
)
def test_it_is_fine_is_no_negation(lang: Lang, text: str) -> None:
    """'No problem' and its Japanese and Korean kin say that something works: they do not deny
    the sentence's predicate."""
    assert not is_negated(text, lang)


def test_a_japanese_negation_that_ends_at_a_comma_belongs_to_its_clause() -> None:
    """ "コピーせず、" (without copying,): the ず is read with the comma that ends it."""
    text = "`expand()` はデータをコピーせず、ストライドを 0 にするだけです。"
    assert predicate_negated(text, "ja", ("コピー",))


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("it only takes an nn.Sequential", True),
        ("it only accepts a plain nn.Sequential", True),
        ("only a `torch.nn.Sequential`-like nn.Sequential", True),  # a dot inside a name
        ("only this, never an nn.Sequential", False),  # another clause
        ("only one thing. an nn.Sequential", False),  # another sentence
        ("only if the model you pass is built as an nn.Sequential", False),  # too far apart
    ],
)
def test_a_stem_gap_spans_a_few_words_of_one_clause(text: str, found: bool) -> None:
    assert bool(reading.stem_pattern("only … nn.Sequential").search(text)) is found


@pytest.mark.parametrize(
    ("lang", "sentence", "stem", "outside"),
    [
        ("ja", "`unscale_` を呼ばないと、勾配をクリップすることになる", "クリップ", 0),
        ("ja", "`unscale_` を呼ばなければ、勾配をクリップすることになる", "クリップ", 0),
        ("ja", "`unscale_` を呼ばないで勾配をクリップする", "クリップ", 1),
        ("ko", "`unscale_`를 호출하지 않으면 기울기를 클리핑하게 된다", "클리핑", 0),
        ("ko", "`unscale_`를 호출하지 않고 기울기를 클리핑한다", "클리핑", 1),
    ],
)
def test_a_negated_condition_before_the_predicate_does_not_deny_it(
    lang: Lang, sentence: str, stem: str, outside: int
) -> None:
    assert reading.negation_scope(sentence, lang, (stem,)) == (0, outside)
