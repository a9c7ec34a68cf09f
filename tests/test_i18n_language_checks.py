"""Register, settled terms and English left: the gate on the examples issue 26 found.

Each example is a sentence the pages or the generated text showed: a plain-form claim
statement among polite ones, a -세요 among 하십시오, a term written two ways, an English
"and" or slug in a Japanese or Korean rule. Without the checks none of them is a finding.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checker.i18n import Check
from checker.i18n.checks import english, register, terms
from checker.i18n.generated import check_message
from checker.i18n.glossary import GlossaryError, load_glossary
from checker.i18n.message import Message
from checker.sphinx.messages import translate_text
from checker.text.po import Entry
from checker.text.values import tidy, translated_value
from checker.typing import Lang
from tests.helpers import ROOT

GLOSSARY = load_glossary(ROOT / "locales" / "glossary.toml")


def message(translation: str, lang: Lang, english_text: str = "English.") -> Message:
    entry = Entry(english_text, translation, msgstr_line=7)
    return Message("x.po", lang, "page", entry, translation, glossary=GLOSSARY)


# -- register ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "translation", "ending"),
    [
        # plain-form claim statements beside polite ones (amp.md, tensors-from-data.md)
        ("ja", "CPU の autocast が対応しているのは `bfloat16` だけである。", "だけである"),
        (
            "ja",
            "`torch.Tensor(a)` は `torch.tensor(a)` と同じように、NumPy 配列を常にコピーする。",
            "にコピーする",
        ),
        ("ko", "CPU autocast가 지원하는 것은 `bfloat16`뿐이다.", "뿐이다"),
        ("ko", "`torch.Tensor(a)`는 NumPy 배열을 항상 복사한다.", "복사한다"),
        # -세요 where every other page says 하십시오 (tensors-from-data.md, scanning.md:429)
        ("ko", "[스트라이드](#td-strides)를 참고하세요.", "참고하세요"),
        ("ko", "출처를 알 수 없는 글은 컨테이너 안에서 스캔하세요.", "스캔하세요"),
    ],
)
def test_a_sentence_in_another_register_is_an_error(
    lang: Lang, translation: str, ending: str
) -> None:
    [finding] = register.check(message(translation, lang))
    assert finding.check is Check.REGISTER and finding.is_error
    assert f"'…{ending}'" in finding.message


@pytest.mark.parametrize(
    ("lang", "translation"),
    [
        ("ja", "`unscale_` はそのスケールを戻し、スケーリング前の値にします。"),
        ("ja", "勾配は正しい値でした（{measured}`x`）。"),
        # a caption that ends in a noun, its last parenthesis set aside
        ("ja", "モデルの 1 ステップにかかる GPU のピークメモリ（方式別、CUDA の統計による）。"),
        # a heading or a label without a full stop; a quotation
        ("ja", "行列積と畳み込みは低精度で実行される"),
        ("ja", "「`float32` と同じ範囲」が正しいのは正規化数についてだけです。"),
        ("ko", "행렬 곱과 합성곱은 낮은 정밀도로 실행된다"),
        ("ko", "`scaler.state_dict()`를 저장하고, 재개할 때 불러오십시오."),
        # a noun that ends in 요 is no 해요체
        ("ko", "CUDA 필요: CUDA가 없으면 이 서술에 대해 아무것도 알 수 없음"),
        ("ko", "값은 1.5입니다(참고: 이렇다)."),
    ],
)
def test_polite_sentences_headings_and_nouns_pass(lang: Lang, translation: str) -> None:
    assert list(register.check(message(translation, lang))) == []


# -- settled terms -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "translation", "variant"),
    [
        (
            "ko",
            "깨끗한 스텝이 `growth_interval`번 이어지면 스케일을 두 배로 늘립니다.",
            "깨끗한 스텝",
        ),
        ("ko", "한 누적 구간의 손실은 한 번에 되돌려 나뉩니다.", "되돌려 나뉩"),
        ("ko", "블록은 선형 층과 GELU로 이루어집니다.", "선형 층"),
        ("ko", "클래스를 가리키는 폐기 예정 표기입니다.", "폐기 예정"),
        ("ko", "파라미터 같은 리프 텐서입니다.", "파라미터"),
        ("ko", "`copy.deepcopy`가 복사하는 것은 요소가 아니라 스토리지입니다.", "요소"),
        ("ko", "변화도가 필요한 텐서는 먼저 분리하십시오.", "변화도가 필요한 텐서"),
        (
            "ja",
            "新しいスケーラーで再開した学習は初期スケールからやり直しになります。",
            "スケーラー",
        ),
        ("ja", "反復ごとに作り直したスケーラは一度も更新しません。", "反復"),
        ("ja", "`float16` には、最小の正規数より小さい範囲もあります。", "正規数"),
    ],
)
def test_a_variant_of_a_settled_term_is_an_error_in_any_message(
    lang: Lang, translation: str, variant: str
) -> None:
    [finding] = terms.check(message(translation, lang))
    assert finding.check is Check.TERM and finding.is_error
    assert f"not {variant} " in finding.message


@pytest.mark.parametrize(
    ("lang", "translation"),
    [
        ("ko", "정상 스텝이 `growth_interval`번 이어지면 스케일을 두 배로 늘립니다."),
        ("ko", "`copy.deepcopy`가 복사하는 것은 원소가 아니라 스토리지입니다."),
        # "a gradient is needed" is not the attribute requires_grad
        ("ko", "변화도가 필요 없다면 계산 그래프를 만들지 마십시오."),
        ("ko", "변화도를 요구하는 텐서는 먼저 분리하십시오."),
        ("ja", "新しいスケーラで再開した学習は初期スケールからやり直しになります。"),
        ("ja", "`float32` の非正規化数の範囲では刻みが粗くなります。"),
    ],
)
def test_the_settled_words_pass(lang: Lang, translation: str) -> None:
    assert list(terms.check(message(translation, lang))) == []


def test_the_glossary_names_each_languages_register_and_its_settled_terms() -> None:
    assert set(GLOSSARY.register) == {"ja", "ko"}
    assert "です/ます" in GLOSSARY.register["ja"]
    assert "하십시오" in GLOSSARY.register["ko"]
    settled = {t.en for t in GLOSSARY.terms if t.enforce == "settled"}
    assert settled == {
        "unscale",
        "requires grad",
        "clean step",
        "linear layer",
        "deprecated",
        "element",
        "parameter",
        "scaler",
        "iteration",
        "normal number",
    }


def test_a_settled_term_without_variants_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "glossary.toml"
    path.write_text('[[term]]\nen = "scaler"\nja = "スケーラ"\nenforce = "settled"\n', "utf-8")
    with pytest.raises(GlossaryError, match="needs variants to avoid"):
        load_glossary(path)


# -- English left in generated text -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            "exp, tanh, sigmoid and relu がそれぞれちょうど 1 つのテンソルをパックすれば成立",
            ["and"],
        ),
        ("default の forward の後に保持されているメモリ", ["default"]),
        ("no-grad の下での forward の後に保持されるメモリ", ["no-grad"]),
        ("disable에서 만든 계산 그래프가 보유한 저장된 텐서의 수", ["disable"]),
        ("no error", ["no", "error"]),
        ("Search the docs ...", ["the", "docs"]),
        ("Link to this heading", ["to", "this", "heading"]),
    ],
)
def test_english_words_outside_code_are_found(text: str, words: list[str]) -> None:
    assert english.english_words(text) == words


@pytest.mark.parametrize(
    "text",
    [
        "torch.asarray(a list) には後から書き込んだ値が見え、copy=True では見えなければ成立",
        "関数定義で IndentationError（'expected an indented block'）が送出されれば成立",
        "exp の backward が保存した出力への唯一の Python 参照を削除すると解放されれば成立",
        "{device}、torch {torch} で測定",
        "float16 の autocast 下で、CUDA の GradScaler が 2**16 のスケールで始まれば成立",
    ],
)
def test_code_names_numbers_and_quoted_messages_are_no_english(text: str) -> None:
    assert english.english_words(text) == []


def test_the_gate_finds_english_a_register_and_a_term_in_generated_text() -> None:
    found = check_message(message("default の forward は成立する。スケーラーを使う。", "ja"))
    assert sorted(f.check.value for f in found) == ["english-left", "register", "term"]


# -- values of generated sentences --------------------------------------------------------------


def test_a_list_of_names_is_joined_the_way_each_language_joins_it() -> None:
    def own(value: str) -> str:
        return value

    value = "exp, tanh, sigmoid and relu"
    assert translated_value(value, "ja", own) == "exp、tanh、sigmoid、relu"
    assert translated_value(value, "ko", own) == "exp, tanh, sigmoid, relu"
    assert translated_value(value, "en", own) == value
    either = "resize_, set_ or transpose_"
    assert translated_value(either, "ja", own) == "resize_、set_、または transpose_"
    assert translated_value(either, "ko", own) == "resize_, set_ 또는 transpose_"
    # a shape and a phrase are no lists
    assert translated_value("(2, 3)", "ja", own) == "(2, 3)"
    assert translated_value("float16 autocast", "ja", own) == "float16 autocast"
    assert tidy("デフォルト の forward", "ja") == "デフォルトの forward"
    assert tidy("기본 forward", "ko") == "기본 forward"


@pytest.mark.parametrize(
    ("english_rule", "ja", "ko"),
    [
        (
            "holds if exp, tanh, sigmoid and relu each pack exactly one tensor, whose storage "
            "is their output's",
            "exp、tanh、sigmoid、relu がそれぞれ",
            "exp, tanh, sigmoid, relu",
        ),
        (
            "holds if the memory held after a forward under no-grad is less than 1% of what "
            "the default forward holds",
            "torch.no_grad() の下での forward",
            "torch.no_grad()에서",
        ),
        (
            "holds if the memory held after a default forward is within 1% of the bytes of the "
            "activations a default forward packs for backward (parameters and input batch left "
            "out)",
            "デフォルトの forward の後",
            "기본 forward 후",
        ),
    ],
)
def test_a_rule_shows_its_values_in_the_page_language(english_rule: str, ja: str, ko: str) -> None:
    assert ja in translate_text("ja", english_rule)
    assert ko in translate_text("ko", english_rule)
    for lang in ("ja", "ko"):
        assert english.english_words(translate_text(lang, english_rule)) == []


def _recorded_rules() -> set[str]:
    rules: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "rule" and isinstance(value, str):
                    rules.add(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in sorted((ROOT / "docs" / "_evidence").glob("*.json")):
        walk(json.loads(path.read_text(encoding="utf-8")))
    return rules


@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_every_recorded_rule_reads_without_english(lang: str) -> None:
    rules = _recorded_rules()
    assert len(rules) > 50
    left = {rule: english.english_words(translate_text(lang, rule)) for rule in rules}
    assert {rule: words for rule, words in left.items() if words} == {}


def test_why_a_probe_failed_is_shown_in_the_page_language() -> None:
    # a probe that ran past its time on a loaded machine showed "CPU: timed out after 60 s"
    assert translate_text("ja", "timed out after 60 s") == "60 秒でタイムアウト"
    assert translate_text("ko", "timed out after 60 s") == "60초 후 시간 초과"


def test_a_name_the_english_writes_stays_but_its_prose_words_do_not() -> None:
    english_text = "holds if cat of two float16 tensors returns float32"
    kept = "2 つの float16 テンソルの cat が float32 を返せば成立"
    assert check_message(message(kept, "ja", english_text)) == []
    left = "cat and stack が float32 を返せば成立"
    found = check_message(message(left, "ja", english_text + " and"))
    assert [f.message.split(";")[0] for f in found if f.check is Check.ENGLISH_LEFT] == [
        "English outside code: and, stack"
    ]
