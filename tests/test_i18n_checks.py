"""The checks of one translated message, in the situations translators meet."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker.claim import Claim
from checker.i18n import Check
from checker.i18n.checks import TRANSLATION_CHECKS
from checker.i18n.checks.glossary import check as glossary_check
from checker.i18n.glossary import Glossary, GlossaryError, Term, load_glossary
from checker.i18n.message import Message
from checker.text.po import Entry
from checker.typing import Lang
from tests.fixtures.claims_i18n import CLAIMS

GLOSSARY = Glossary(
    Path("glossary.toml"),
    (Term("storage", {"ja": ("ストレージ",), "ko": ("스토리지",)}, {"ja": ("記憶領域",)}, 3),),
)


def findings(
    english: str, translation: str, lang: Lang = "ja", claim: Claim | None = None
) -> list[tuple[str, str]]:
    """``(check, message)`` of every finding for one message."""
    message = Message(
        "x.po",
        lang,
        "page",
        Entry(english, translation, msgstr_line=7),
        translation,
        claim.id if claim else None,
        claim,
        GLOSSARY,
    )
    return [(f.check.value, f.message) for check in TRANSLATION_CHECKS for f in check(message)]


def checks(
    english: str, translation: str, lang: Lang = "ja", claim: Claim | None = None
) -> list[str]:
    return [name for name, _ in findings(english, translation, lang, claim)]


@pytest.mark.parametrize(
    ("english", "translation"),
    [
        # a cross-reference's title and a link's text are translated, targets kept
        ("See {ref}`the guide <guide>`.", "{ref}`ガイド <guide>` を参照。"),
        (
            "Read [the docs](https://pytorch.org/docs).",
            "[ドキュメント](https://pytorch.org/docs) を読んでください。",
        ),
        # roles, code and numbers may move; CJK text may touch digits and roles
        ("It takes {measured}`k` for `x`, 4 bytes.", "`x` には4バイト、{measured}`k` が必要です。"),
        # a number the English spells out may be written in digits
        ("It is four times its `numel()`.", "`numel()` の4倍です。"),
        # full-width digits are digits
        ("It has 1,000 elements.", "要素は１０００個です。"),
        # emphasis next to CJK text parses when no full-width punctuation touches it
        ("A *view* shares **storage**.", "*ビュー*は**ストレージ**を共有します。"),
        # a statement left in English is fine
        ("`torch.exp`", "`torch.exp`"),
    ],
)
def test_faithful_translations_pass(english: str, translation: str) -> None:
    assert findings(english, translation) == []


@pytest.mark.parametrize(
    ("english", "translation", "expected"),
    [
        ("See {ref}`the guide <guide>`.", "{ref}`guide` を参照。", ["role"]),
        ("Value {measured}`a`.", "値 {measured} `a`。", ["code-literal", "role"]),
        (
            "Read [the docs](https://pytorch.org/docs).",
            "[ドキュメント](https://pytorch.org/api) を読んでください。",
            ["link"],
        ),
        ("Read [the docs](#a).", "[ドキュメント](#a) と [別](#b) を読んでください。", ["link"]),
        (
            "Use {{ version }} here.",
            "ここでは {{ release }} を使います。",
            ["substitution", "substitution"],
        ),
        ("It has 2 parts.", "3 つの部分があります。", ["number"]),
        ("It has 2 parts.", "2 つの部分があり、合計 5 です。", ["number"]),
        ("Text.", "テキスト。\n\n二つ目の段落。", ["myst-syntax"]),
        ("Text.", "テキスト ![x](https://evil.example/x.png)", ["external-link", "myst-syntax"]),
        ("Text.", "テキスト[^1]", ["myst-syntax"]),
        ("Text.", "- リスト", ["myst-syntax"]),
        ("Text.", "テキスト\n\n```python\nimport os\n```", ["code-block"]),
        ("Text.", "テキスト <https://evil.example>", ["external-link"]),
        ("Text.", "テキスト [x](//evil.example/a)", ["external-link"]),
        ("Text.", "テキスト <b onclick=alert(document.cookie)>x</b>", ["html"]),
        ("Text.", "テキスト {eval-rst}`x`", ["directive"]),
    ],
)
def test_changes_are_found(english: str, translation: str, expected: list[str]) -> None:
    assert checks(english, translation) == expected


def test_html_entities_are_text_not_markup() -> None:
    assert checks("Text.", "テキスト &lt;script&gt;") == []


def test_a_role_without_its_backtick_is_explained() -> None:
    [_, (_, message)] = findings("Value {measured}`a`.", "値 {measured} `a`。")
    assert message == (
        "drops {measured}`a`; keep every role of the English (a role needs its name right "
        "before the backtick: {name}`...`)"
    )


def test_unparsed_emphasis_next_to_full_width_punctuation_is_explained() -> None:
    [(name, message)] = findings("It is **important**.", "これは**「重要」**です。")
    assert name == "inline-markup"
    assert "put the punctuation inside the markup or leave a space" in message


HOOKS, FLOAT16 = CLAIMS


@pytest.mark.parametrize(
    ("lang", "translation", "expected"),
    [
        ("ja", "`disable_saved_tensors_hooks` の中でもメモリは削減されません。", []),
        ("ja", "`disable_saved_tensors_hooks` の中ではメモリが削減されます。", ["claim-negation"]),
        (
            "ja",
            "`disable_saved_tensors_hooks` でもメモリは少なくなりません。",
            ["claim-vocabulary"],
        ),
        ("ko", "`disable_saved_tensors_hooks` 안에서도 메모리는 줄어들지 않습니다.", []),
        ("ko", "`disable_saved_tensors_hooks` 안에서는 메모리가 줄어듭니다.", ["claim-negation"]),
        (
            "ko",
            "`disable_saved_tensors_hooks` 안에서도 메모리는 적어지지 않습니다.",
            ["claim-vocabulary"],
        ),
    ],
)
def test_claim_statements_keep_their_polarity_and_vocabulary(
    lang: Lang, translation: str, expected: list[str]
) -> None:
    english = "Running code inside `disable_saved_tensors_hooks` does not reduce memory."
    assert checks(english, translation, lang, HOOKS) == expected


def test_claim_vocabulary_is_a_warning() -> None:
    assert Check.CLAIM_VOCABULARY.severity.value == "warning"
    assert Check.CLAIM_NEGATION.severity.value == "error"


def test_a_number_changed_in_a_statement_names_the_claim() -> None:
    english = "A `float16` element takes 2 bytes."
    assert findings(english, "`float16` の要素は 4 バイトです。", "ja", FLOAT16) == [
        (
            "number",
            "numbers differ in the statement of claim sample/float16-is-2-bytes: the "
            "English's 2 missing; 4 not in the English",
        )
    ]


@pytest.mark.parametrize(
    ("lang", "translation", "expected"),
    [
        ("ja", "ビューはストレージを共有します。", []),
        (
            "ja",
            "ビューは記憶領域を共有します。",
            ["'storage' is translated as ストレージ, not 記憶領域"],
        ),
        ("ja", "ビューはメモリを共有します。", ["'storage' is translated as ストレージ"]),
        ("ko", "뷰는 스토리지를 공유합니다.", []),
    ],
)
def test_glossary_terms(lang: Lang, translation: str, expected: list[str]) -> None:
    found = findings("A view shares the storage of its base.", translation, lang)
    assert [m.removesuffix(" (glossary line 3)") for _, m in found] == expected
    assert all(name == "glossary" for name, _ in found)


def test_glossary_terms_match_whole_words_in_prose_only() -> None:
    assert checks("Two storages.", "二つのメモリ。") == ["glossary"]
    assert checks("Call `untyped_storage()` here.", "ここで `untyped_storage()` を呼びます。") == []
    assert checks("A storagething.", "何か。") == []


def test_a_polarity_change_among_several_negations_is_an_error() -> None:
    english = "`disable_saved_tensors_hooks` does not copy and does not reduce memory."
    message = Message(
        "x.po",
        "ja",
        "page",
        Entry(english, "", msgstr_line=7),
        "`disable_saved_tensors_hooks` はコピーしますが、メモリは削減しません。",
        HOOKS.id,
        HOOKS,
    )
    [finding] = [f for check in TRANSLATION_CHECKS for f in check(message)]
    assert (finding.check, finding.severity.value) == (Check.CLAIM_NEGATION, "error")
    assert finding.message == (
        "claim sample/hooks-do-not-reduce-memory: negations in the English statement: 2, in the "
        "translation: 1; a negation added or dropped flips the claim or hides a flip "
        "(negation: ません)"
    )


# -- variants to avoid, as the project's glossary settles them ------------------------------

SETTLED = Glossary(
    Path("glossary.toml"),
    (
        Term("line", {"ko": ("줄",)}, {"ko": ("행",)}, 10, "avoid"),
        Term("row", {"ko": ("행",)}, {}, 20, "avoid"),
        Term("statement", {"ko": ("문", "진술")}, {"ko": ("문장",)}, 30, "avoid"),
        Term("default", {"ja": ("デフォルト",)}, {"ja": ("既定",)}, 40, "avoid"),
        Term("activation", {"ja": ("アクティベーション",)}, {"ja": ("活性化",)}, 50, "avoid"),
        Term("activation function", {"ja": ("活性化関数",)}, {}, 60, "avoid"),
        Term(
            "one (counting things)", {"ja": ("1 つ",)}, {"ja": ("ひとつ", "一つ")}, 70, "anywhere"
        ),
    ),
)


def settled(english: str, translation: str, lang: Lang) -> list[str]:
    message = Message(
        "x.po",
        lang,
        "page",
        Entry(english, translation, msgstr_line=7),
        translation,
        None,
        None,
        SETTLED,
    )
    return [f.message for f in glossary_check(message)]


@pytest.mark.parametrize(
    ("english", "translation", "lang", "expected"),
    [
        # a line number is 줄; 행 in 실행 is another word, not the variant
        ("It fails at line 13.", "13번째 줄에서 실행이 실패합니다.", "ko", []),
        (
            "It fails at line 13.",
            "13행에서 실패합니다.",
            "ko",
            ["'line' is translated as 줄, not 행 (glossary line 10)"],
        ),
        ("Line", "행", "ko", ["'line' is translated as 줄, not 행 (glossary line 10)"]),
        # the English also speaks of a row: 행 is that row's word
        ("Line 5 prints the weight row.", "5번째 줄은 가중치 행을 출력합니다.", "ko", []),
        # avoid-only terms do not require their preferred translation
        ("The command line.", "명령 프롬프트.", "ko", []),
        # 문장 holds the preferred 문, yet it is the variant to avoid
        (
            "Each statement runs once.",
            "각 문장은 한 번 실행됩니다.",
            "ko",
            ["'statement' is translated as 문 / 진술, not 문장 (glossary line 30)"],
        ),
        ("Each statement runs once.", "각 문은 한 번 실행됩니다.", "ko", []),
        (
            "`auto` (the default).",
            "`auto`（既定値）。",
            "ja",
            ["'default' is translated as デフォルト, not 既定 (glossary line 40)"],
        ),
        ("`auto` (the default).", "`auto`（デフォルト値）。", "ja", []),
        # 活性化関数 is another term's translation, whatever the English says
        ("Activations such as `relu`.", "`relu` などの活性化関数。", "ja", []),
        (
            "Saved activations.",
            "保存された活性化。",
            "ja",
            ["'activation' is translated as アクティベーション, not 活性化 (glossary line 50)"],
        ),
        # a house style applies to every message, whatever the English
        (
            "A tensor of a single value.",
            "値をひとつだけ持つテンソル。",
            "ja",
            ["house style: write 1 つ, not ひとつ (glossary line 70)"],
        ),
        (
            "None of them runs.",
            "一つも動きません。",
            "ja",
            ["house style: write 1 つ, not 一つ (glossary line 70)"],
        ),
        ("Two of them.", "そのうち 2 つ。", "ja", []),
    ],
)
def test_the_settled_variants_are_refused(
    english: str, translation: str, lang: Lang, expected: list[str]
) -> None:
    assert settled(english, translation, lang) == expected


def test_a_past_participle_of_a_term_is_the_term() -> None:
    paraphrase = Glossary(
        Path("g.toml"),
        (Term("paraphrase", {"ko": ("다른 말로 옮김",)}, {"ko": ("요약",)}, 1, "avoid"),),
    )
    message = Message(
        "x.po",
        "ko",
        "p",
        Entry("The article says (paraphrased)", "글의 내용(요약)"),
        "글의 내용(요약)",
        glossary=paraphrase,
    )
    assert [f.message for f in glossary_check(message)] == [
        "'paraphrase' is translated as 다른 말로 옮김, not 요약 (glossary line 1)"
    ]


@pytest.mark.parametrize(
    ("toml", "problem"),
    [
        ('[[term]]\nen = "x"\nja = "エックス"\nenforce = "sometimes"\n', "enforce must be one of"),
        ('[[term]]\nen = "x"\nja = "1 つ"\nenforce = "anywhere"\n', "needs variants to avoid"),
    ],
)
def test_a_glossary_with_a_wrong_enforce_is_refused(
    tmp_path: Path, toml: str, problem: str
) -> None:
    path = tmp_path / "glossary.toml"
    path.write_text(toml, encoding="utf-8")
    with pytest.raises(GlossaryError, match=problem) as raised:
        load_glossary(path)
    assert raised.value.line == 1


def test_the_project_glossary_settles_the_reviewed_terms() -> None:
    project = Path(__file__).parents[1] / "locales" / "glossary.toml"
    terms = {t.en: t for t in load_glossary(project).terms}
    assert terms["default"].preferred["ja"] == ("デフォルト",)
    assert terms["default"].avoid["ja"] == ("既定",)
    assert terms["line"].avoid["ko"] == ("행",)
    assert terms["statement"].avoid["ko"] == ("문장",)
    assert terms["one (counting things)"].enforce == "anywhere"
    assert terms["unscale"].avoid["ja"] == ("割り戻",)


# -- one English, one translation, across the catalogs of a language ----------------------


def test_an_english_message_translated_two_ways_is_a_warning_on_the_odd_one() -> None:
    from checker.i18n.checks.consistency import Translated
    from checker.i18n.checks.consistency import check as consistency

    def item(path: str, msgstr: str, lang: str = "ko", line: int = 9) -> Translated:
        return Translated(path, lang, path[:-3], Entry("Line", msgstr, msgstr_line=line))

    found = list(
        consistency(
            [
                item("a.po", "줄"),
                item("b.po", "행", line=12),
                item("c.po", "줄", line=3),
                item("d.po", "行", lang="ja"),  # another language: not compared
                Translated(
                    "e.po",
                    "ko",
                    "e",
                    Entry("Line", "행", msgstr_line=4, flags=frozenset({"fuzzy"})),
                ),
            ]
        )
    )
    assert [(f.path, f.line, f.check.value, f.severity.value, f.message) for f in found] == [
        (
            "b.po",
            12,
            "consistency",
            "warning",
            "translated differently elsewhere: '줄' in a.po:9 and 1 more; use one translation",
        )
    ]


# -- hardening (issue 16) --------------------------------------------------------------------


def test_swapped_numbers_are_refused() -> None:
    english = "A `float16` element takes 2 bytes and a `float32` element 4 bytes."
    translation = "`float16` の要素は 4 バイト、`float32` の要素は 2 バイトです。"
    assert findings(english, translation) == [
        (
            "number",
            "numbers in another order: the English has 2, 4, the translation 4, 2",
        )
    ]


@pytest.mark.parametrize(
    "translation",
    [
        # the same order
        "`float16` の要素は 2 バイト、`float32` の要素は 4 バイトです。",
        # a number repeated before its place ("2 乗" for a square) keeps the order
        "2 乗の前に、`float16` の要素は 2 バイト、`float32` の要素は 4 バイトです。",
    ],
)
def test_numbers_in_the_english_order_pass(translation: str) -> None:
    english = "A `float16` element takes 2 bytes and a `float32` element 4 bytes."
    assert findings(english, translation) == []


def test_numbers_inside_code_written_as_text_are_left_to_the_code_checks() -> None:
    english = "holds if reshape(12) of a transposed 3 × 4 tensor allocates"
    translation = "転置した 3 × 4 のテンソルの reshape(12) がメモリを割り当てれば成立"
    assert findings(english, translation) == []


@pytest.mark.parametrize(
    ("link", "scheme"),
    [
        ("javascript:alert", "javascript"),
        ("JavaScript:void", "javascript"),
        ("java%09script:alert", "javascript"),
        ("data:text/html,hello", "data"),
        ("vbscript:msgbox", "vbscript"),
        ("file:///etc/passwd", "file"),
        ("ftp://files.example/x", "ftp"),
        ("mailto:someone@evil.example", "mailto"),
    ],
)
def test_every_link_scheme_but_http_is_refused(link: str, scheme: str) -> None:
    english = "Read [the guide](#guide) first."
    translation = f"まず [ガイド]({link}) を読んでください。"
    found = [(name, text) for name, text in findings(english, translation) if name != "link"]
    assert found == [
        (
            "external-link",
            f"links with the scheme {scheme}: ({link}); a translation may link only with "
            "http: and https:",
        )
    ]


def test_an_autolink_and_a_bare_javascript_url_are_refused() -> None:
    english = "Read the guide first."
    for translation in (
        "まず <javascript:alert> を読んでください。",
        "まず javascript:alert を読んでください。",
    ):
        assert findings(english, translation) == [
            (
                "external-link",
                "links with the scheme javascript: (javascript:alert); a translation may link "
                "only with http: and https:",
            )
        ]


def test_a_mailto_link_the_english_has_stays() -> None:
    english = "Write to [the maintainers](mailto:team@example.org)."
    assert findings(english, "[メンテナー](mailto:team@example.org) に連絡してください。") == []
