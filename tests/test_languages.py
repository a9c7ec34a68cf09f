"""The language registry (``checker.text.languages``): one list of languages, English first;
every language fills every field of the interface; ``detect`` names a text's language."""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Mapping

import pytest

import checker.typing
from checker.text.languages import LANGS, LANGUAGES, SOURCE, TRANSLATED, detect, language
from checker.text.languages.base import NEVER, Language
from tests.helpers import ROOT

HINTS = typing.get_type_hints(Language)
CHARACTER_FIELDS = (
    "letters",
    "shared_letters",
    "spaced_word_letters",
    "spaced_stops",
    "sentence_openers",
    "closed_stops",
)


def _conforms(value: object, hint: object) -> bool:
    """Whether ``value`` is of the type ``hint`` names (the hints :class:`Language` uses)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Literal:
        return value in args
    if origin in (typing.Union, types.UnionType):
        return any(_conforms(value, arg) for arg in args)
    if origin is Mapping:
        items = value.items() if isinstance(value, Mapping) else [(None, None)]
        return all(isinstance(k, str) and isinstance(v, float) for k, v in items)
    if origin is not None:  # re.Pattern[str], tuple[str, ...], frozenset[str]
        inside = [value.pattern] if isinstance(value, re.Pattern) else value
        return isinstance(value, origin) and all(isinstance(v, str) for v in inside)
    assert isinstance(hint, type), hint
    return isinstance(value, hint) and (hint is bool or not isinstance(value, bool))


def test_the_registry_lists_three_languages_english_first() -> None:
    assert LANGS == ("en", "ja", "ko")
    assert SOURCE is LANGUAGES[0] and SOURCE.code == "en"
    assert TRANSLATED == ("ja", "ko")
    assert [language(code) for code in LANGS] == list(LANGUAGES)


def test_the_translated_languages_are_those_with_catalogs() -> None:
    # noxfile.py, which runs without the project installed, reads them from locales/
    with_catalogs = sorted(p.parent.name for p in (ROOT / "locales").glob("*/LC_MESSAGES"))
    assert tuple(with_catalogs) == TRANSLATED


def test_the_type_checkers_literal_names_the_registry() -> None:
    assert typing.get_args(checker.typing.Lang) == LANGS
    assert checker.typing.LANGS == LANGS


def test_an_unknown_code_is_refused_with_the_known_ones() -> None:
    with pytest.raises(KeyError, match="en, ja, ko"):
        language("zh_CN")


@pytest.mark.parametrize("lang", LANGUAGES, ids=LANGS)
def test_every_language_fills_every_field(lang: Language) -> None:
    fields = dataclasses.fields(Language)
    assert len(fields) == 45
    for field in fields:
        assert _conforms(getattr(lang, field.name), HINTS[field.name]), field.name
    for name in CHARACTER_FIELDS:  # the inside of a character class, or nothing
        ranges = getattr(lang, name)
        assert ranges == "" or re.compile(f"[{ranges}]").groups == 0, name
    # what every language has: the rest may say "none" (NEVER, "", empty)
    assert lang.spaced_stops or lang.closed_stops
    for name in (
        "negation",
        "without",
        "clause_bound",
        "contrast",
        "order_before",
        "order_after",
        "demonstrative",
        "example_marker",
        "reason_opener",
        "hedge",
        "heading_predicate",
        "indirect",
        "partial_negation",
        "says_deprecated",
        "says_raises",
        "says_runs",
        "says_maybe",
    ):
        assert getattr(lang, name) is not NEVER, name
    assert lang.yes_marks and lang.no_marks and not lang.yes_marks & lang.no_marks
    for template in (lang.marked_statement, lang.marked_denial):
        assert template.format(subject="S", predicate="P").count("S") == 1
        assert "P" in template.format(subject="S", predicate="P")


def test_a_language_with_a_construction_fills_the_fields_it_needs() -> None:
    """English bounds clauses on both sides and reads relative clauses; Japanese and Korean
    end a clause with the predicate and relate terms with particles after them."""
    english, japanese, korean = LANGUAGES
    assert not english.verb_final and not english.postpositions
    assert english.relative_pronouns and english.relative_negation is not NEVER
    assert english.number_words["twice"] == 2.0
    for lang in (japanese, korean):
        assert lang.verb_final and lang.postpositions
        assert lang.condition is not NEVER and lang.adnominal is not NEVER
        assert lang.consequence is not NEVER and lang.letters


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Slicing a tensor returns a view that shares its storage.", "en"),
        ("テンソルをスライスすると、同じストレージを共有するビューが返ります。", "ja"),
        ("텐서를 슬라이싱하면 같은 저장소를 공유하는 뷰가 반환됩니다.", "ko"),
        # a few Japanese words quoted on an English page
        ("The Japanese docs write 表 where the English ones write table, in every page.", "en"),
        ("", "en"),
        ("`tensor.view()` のドキュメントを読んでください。", "ja"),
        ("자동 혼합 정밀도(自動混合精度)를 사용하면 메모리가 줄어듭니다.", "ko"),  # Hangul and Han
    ],
)
def test_detect(text: str, lang: str) -> None:
    assert detect(text) == lang


@pytest.mark.parametrize(
    "text",
    [
        "切片操作返回的视图与原张量共享同一块存储。",
        "调用 `detach()` 得到的张量不会记录梯度。",
        "自動混合精度",  # a Japanese heading in Han alone says no more than Chinese would
    ],
)
def test_han_without_kana_is_no_language_we_read(text: str) -> None:
    assert detect(text) is None


def test_a_language_that_writes_only_shared_letters_takes_the_text_that_holds_nothing_else() -> (
    None
):
    """What registering Chinese would do: Han alone is Chinese, Han with kana stays Japanese."""
    chinese = dataclasses.replace(SOURCE, code="zh_CN", letters="", shared_letters="\u4e00-\u9fff")
    among = (*LANGUAGES, chinese)
    assert detect("切片操作返回的视图与原张量共享同一块存储。", among) == "zh_CN"
    assert detect("スライスはビューを返し、元のテンソルと記憶域を共有する。", among) == "ja"
    assert detect("슬라이스는 뷰를 반환합니다.", among) == "ko"


@pytest.mark.parametrize(
    ("text", "lang", "partial"),
    [
        ("autocast does not convert everything to float16", "en", True),
        ("a reshape is not always a view", "en", True),
        ("add_ does not allocate at all", "en", False),
        ("detach does not copy the data", "en", False),
        ("reshape は常にビューを返すとは限らない", "ja", True),
        ("すべてを float16 にするわけではありません", "ja", True),
        ("detach はデータをコピーしない", "ja", False),
        # "it is not that" without a word of all denies what it follows
        ("チェックポイントは計算なしでメモリを減らせるわけではない", "ja", False),
        ("체크포인트가 계산 없이 메모리를 줄이는 것은 아니다", "ko", False),
        ("모든 연산을 float16으로 바꾸는 것은 아니다", "ko", True),
        ("reshape가 항상 뷰를 반환하지는 않는다", "ko", True),
        ("detach는 데이터를 복사하지 않는다", "ko", False),
    ],
)
def test_a_negation_that_bears_on_a_quantifier_is_partial(
    text: str, lang: str, partial: bool
) -> None:
    assert bool(language(lang).partial_negation.search(text)) is partial  # type: ignore[arg-type]
