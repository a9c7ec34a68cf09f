"""The translation gate against a hostile translator (issues 26 and 28): each attack is one
catalog in tests/hostile/gate/, and the gate refuses it with exactly the expected findings.

tests/hostile/gate/ is a small project of its own: one English page (docs/claims.md) with
three claims and sentences that give numbers with units, its template, and a clean Japanese
and Korean catalog. Each ``<attack>.<lang>.po`` is the clean catalog of its language with one
line changed (its first comment says which); it replaces that catalog, the other language's
stays clean and is still checked.
"""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import sphinx.locale

from checker.cli import main
from checker.i18n import I18nOptions, I18nResult, check
from checker.i18n.approvals import FILE_NAME
from checker.i18n.polarity import markers, normalised
from checker.i18n.quantities import cjk_numbers, units
from checker.i18n.roles import english_roles, translated_roles
from checker.project import i18n_options
from checker.typing import Lang
from tests.helpers import ROOT
from tests.sphinx_site import Site, copy_site

GATE = Path(__file__).parent / "gate"
CATALOG = "LC_MESSAGES/claims.po"
CATALOG_INDEX = "LC_MESSAGES/index.po"

#: ``(attack file, [(check, line of the .po)])``: the findings each attack must produce.
#: A claim statement flipped (a statement changed since its review is unapproved too).
FLIPPED = [("claim-approval", 21), ("claim-negation", 21)]
#: The same, in a sentence that also ends in the plain form: the register check (issue 26)
#: refuses that too.
FLIPPED_PLAIN = [*FLIPPED, ("register", 21)]

ATTACKS = [
    # issue 28 item 8: a claim flipped past the negation check
    ("negation-unrelated.ja.po", FLIPPED_PLAIN),  # …受け付けず…珍しくない
    ("negation-unrelated.ko.po", FLIPPED),  # …받지 않고…드물지 않습니다
    ("negation-added-pair.ja.po", FLIPPED_PLAIN),  # a flip plus 変わらない
    ("negation-denial.ja.po", FLIPPED),  # …というのは誤りです
    ("negation-denial.ko.po", FLIPPED),  # …라는 것은 틀린 말입니다
    ("negation-halfwidth.ja.po", FLIPPED),  # ではﾅｸ … でもﾅｲ
    ("negation-invisible.ja.po", FLIPPED),  # な<U+200B>く
    ("negation-kanji.ja.po", FLIPPED_PLAIN),  # では無い
    ("negation-short.ko.po", FLIPPED),  # 절반이 안 됩니다
    # issue 28 item 9: units and numbers
    ("unit-gib-mib.ja.po", [("unit", 29)]),
    ("unit-seconds-minutes.ja.po", [("unit", 29)]),
    ("unit-ms-s.ko.po", [("unit", 33)]),
    ("unit-kib-kb.ko.po", [("unit", 33)]),
    ("unit-bytes-bits.ko.po", [("claim-approval", 21), ("unit", 21)]),
    ("number-repeated.ja.po", [("number", 37)]),  # F9: "five" became a second 4
    ("number-swap-repeated.ja.po", [("number", 41)]),  # F9: 20 … 4 became 4 … 20 … 4
    ("number-kanji-tenfold.ja.po", [("number", 45)]),  # F10: 4 の十倍
    ("number-kanji-eighty.ja.po", [("number", 45)]),  # F10: 上限は八十
    ("number-hangul-forty.ko.po", [("number", 45)]),  # 사십
    ("charset-xcharset.ja.po", [("encoding", 7)]),  # F12
    # issue 26: subject and object reversed ("a tensor that nothing has saved" as a tensor
    # that saved nothing), and a claim statement reworded since its review
    ("roles-reversed.ja.po", [("claim-approval", 25), ("claim-roles", 25)]),
    ("roles-reversed.ko.po", [("claim-approval", 25), ("claim-roles", 25)]),
    ("approval-reworded.ja.po", [("claim-approval", 25)]),
]


def gate_options(locales: Path) -> I18nOptions:
    """Options that check ``locales`` against tests/hostile/gate's page and template."""
    return I18nOptions(
        docs=GATE / "docs",
        locales=locales,
        conf_dir=GATE,
        glossary=None,
        langs=("ja", "ko"),
        templates=GATE / "templates",
        claim_package=None,
        root=locales.parent,
        approvals=locales / FILE_NAME,
    )


def gate_locales(tmp_path: Path, attack: str | None = None) -> Path:
    """A copy of the clean catalogs, with ``attack`` in place of its language's catalog."""
    locales = tmp_path / "locales"
    shutil.copytree(GATE / "locales", locales)
    if attack is not None:
        lang = attack.removesuffix(".po").rsplit(".", 1)[1]
        shutil.copyfile(GATE / attack, locales / lang / CATALOG)
    return locales


def run_gate(tmp_path: Path, attack: str | None = None) -> I18nResult:
    return check(gate_options(gate_locales(tmp_path, attack)))


def test_the_clean_catalogs_pass(tmp_path: Path) -> None:
    result = run_gate(tmp_path)
    assert [f"{f.path}:{f.line}: {f.message}" for f in result.findings] == []
    assert result.catalogs == 2
    assert [(c.lang, c.translated, c.total) for c in result.coverage] == [
        ("ja", 9, 9),
        ("ko", 9, 9),
    ]


@pytest.mark.parametrize(("attack", "expected"), ATTACKS, ids=[a for a, _ in ATTACKS])
def test_each_attack_is_refused_with_its_finding(
    tmp_path: Path, attack: str, expected: list[tuple[str, int]]
) -> None:
    lang = attack.removesuffix(".po").rsplit(".", 1)[1]
    result = run_gate(tmp_path, attack)
    found = [(f.path, f.check.value, f.line, f.severity.value) for f in result.findings]
    path = f"locales/{lang}/{CATALOG}"
    assert found == [(path, name, line, "error") for name, line in expected], [
        f"{f.line}: {f.message}" for f in result.findings
    ]
    assert result.exit_code == 1


def test_a_deleted_review_list_approves_nothing(tmp_path: Path) -> None:
    locales = gate_locales(tmp_path)
    (locales / FILE_NAME).unlink()
    found = [(f.lang, f.check.value, f.line) for f in check(gate_options(locales)).findings]
    assert found == [
        (lang, "claim-approval", line) for lang in ("ja", "ko") for line in (17, 21, 25)
    ]


def test_approve_claims_records_the_reviewed_translations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    locales = gate_locales(tmp_path, "approval-reworded.ja.po")
    args = ["i18n", "--root", str(GATE), "--locales", str(locales), "--templates"]
    args += [str(GATE / "templates"), "--no-glossary"]
    assert main(args) == 1
    assert main([*args, "--approve-claims"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{locales / FILE_NAME}: 6 translations of claim statements and decision rules approved "
        "(1 newly, 1 no longer in the catalogs)"
    )
    assert main(args) == 0
    # refused while another error stands: a flipped claim is never approved
    shutil.copyfile(GATE / "negation-denial.ja.po", locales / "ja" / CATALOG)
    assert main([*args, "--approve-claims"]) == 1
    assert "fix the 1 other error(s) first" in capsys.readouterr().err


def test_every_attack_file_is_in_the_table() -> None:
    files = {p.name for p in GATE.glob("*.po")}
    assert files == {attack for attack, _ in ATTACKS}


def test_the_findings_say_what_changed(tmp_path: Path) -> None:
    def message(attack: str) -> str:
        found = run_gate(tmp_path / attack, attack).findings
        [finding] = [f for f in found if f.check.value not in ("claim-approval", "register")]
        return finding.message

    assert message("negation-denial.ja.po") == (
        "claim gate/float16-is-2-bytes: the English statement asserts it, the translation "
        "denies it (negation: というのは誤り)"
    )
    assert message("negation-added-pair.ja.po") == (
        "claim gate/float16-is-2-bytes: negations in the English statement: 0, in the "
        "translation: 2; a negation added or dropped flips the claim or hides a flip "
        "(negation: なく, 変わらない)"
    )
    assert message("roles-reversed.ja.po") == (
        "claim gate/resize-unsaved: roles reversed: in the English ('tensor that nothing has "
        "saved') the tensor has it done to it (save); in the translation ('何も保存していない"
        "テンソル') it does it"
    )
    assert message("unit-gib-mib.ja.po") == (
        "units differ: the English has 4 GiB, the translation 4 MiB"
    )
    assert message("unit-seconds-minutes.ja.po") == (
        "units differ: the English has 20 s, the translation 20 min"
    )
    assert message("number-repeated.ja.po") == "numbers differ: 4 not in the English"
    assert message("number-kanji-tenfold.ja.po") == "numbers differ: 10 not in the English"
    assert message("number-hangul-forty.ko.po") == "numbers differ: 40 not in the English"
    assert message("charset-xcharset.ja.po") == (
        "the header declares charset latin-1; use charset=UTF-8"
    )


def test_a_decision_rule_changed_since_its_review_is_refused(tmp_path: Path) -> None:
    """The project's Korean rule text, reworded: the reviewed list no longer approves it."""
    options = i18n_options(ROOT)
    [rules] = [c for c in options.generated if c.domain == "checker"]
    locale = tmp_path / "locale"
    shutil.copytree(rules.locale_dir, locale)
    catalog = locale / "ko" / "LC_MESSAGES" / "checker.po"
    lines = catalog.read_text(encoding="utf-8").split("\n")
    edited = next(i for i, line in enumerate(lines) if line.endswith('이면 성립"'))
    lines[edited] = lines[edited].replace('이면 성립"', '이면 확실히 성립"')
    catalog.write_text("\n".join(lines), encoding="utf-8")
    only_rules = dataclasses.replace(
        options,
        langs=("ko",),
        generated=(dataclasses.replace(rules, locale_dir=locale),),
        templates=None,
        reuse_templates=None,
        build_templates=False,
    )
    found = [
        (f.check.value, f.line)
        for f in check(only_rules).findings
        if f.path.endswith("ko/LC_MESSAGES/checker.po") and f.is_error
    ]
    msgstr_line = max(i for i in range(edited + 1) if lines[i].startswith("msgstr")) + 1
    assert found == [("claim-approval", msgstr_line)]


# -- the build applies the claim checks whatever the gate said ------------------------------


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
    sphinx.locale.translators.clear()  # Sphinx keeps loaded catalogs in a global
    monkeypatch.setenv("CHECKER_REPO_ROOT", str(ROOT))
    monkeypatch.setenv("CHECKER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CHECKER_HIDE_CUDA", "1")
    site = copy_site(tmp_path)
    shutil.copyfile(GATE / "build" / "index.ja.po", site.root / "locales" / "ja" / CATALOG_INDEX)
    yield site
    sphinx.locale.translators.clear()


def test_a_flipped_claim_statement_never_reaches_the_page(site: Site) -> None:
    build = site.build("html", "ja")
    assert build.code != 0
    refused = [w for w in build.warnings.splitlines() if "[checker.claim_translation]" in w]
    assert len(refused) == 1
    assert "locales/ja/LC_MESSAGES/index.po:18" in refused[0]
    assert "translation refused, the page keeps the English: claim " in refused[0]
    html = build.html()
    assert "というのは誤り" not in html
    assert "keeps an integer dtype" in html  # the English statement
    assert "フィクスチャサイト" in html  # the other translation is applied


# -- the readings the checks rely on ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a tensor that nothing has saved", "patient"),
        ("a tensor that autograd saved", "patient"),
        ("a tensor that is not saved", "patient"),
        ("the tensors, which were never saved", "patient"),
        ("a tensor that has saved nothing", "agent"),
        ("a view that holds the storage", "agent"),
    ],
)
def test_english_roles(text: str, expected: str) -> None:
    [role] = english_roles(text, {"tensor": "tensor", "view": "view"})
    assert role.role == expected


@pytest.mark.parametrize(
    ("lang", "text", "expected"),
    [
        ("ja", "どこにも保存されていないテンソル", ["patient"]),
        ("ja", "autograd が保存したテンソル", ["patient"]),
        ("ja", "何も保存していないテンソル", ["agent"]),
        ("ja", "値を保存したテンソル", ["agent"]),
        ("ja", "保存したテンソル", []),  # either: not judged
        ("ko", "어디에도 저장되지 않은 텐서", ["patient"]),
        ("ko", "autograd가 저장한 텐서", ["patient"]),
        ("ko", "아무것도 저장하지 않은 텐서", ["agent"]),
        ("ko", "값을 저장한 텐서", ["agent"]),
        ("ko", "저장한 텐서", []),
    ],
)
def test_translated_roles(lang: Lang, text: str, expected: list[str]) -> None:
    nouns = {"tensor": ("テンソル", "텐서")}
    assert [r.role for r in translated_roles(text, lang, nouns)] == expected


@pytest.mark.parametrize(
    ("lang", "text", "expected"),
    [
        # sentence-level denials
        ("ja", "2 バイトだというのは誤りです。", ["というのは誤り"]),
        ("ja", "この説明は間違いです。", ["間違いです"]),
        ("ko", "2바이트라는 것은 틀린 말입니다.", ["틀린 말입니다"]),
        ("ko", "이 설명은 거짓입니다.", ["거짓입니"]),
        ("en", "That it takes 2 bytes is false.", ["is false"]),
        # double negations that stay affirmative count as none
        ("ja", "このような値は珍しくない。", []),
        ("ja", "削減しないわけではない。", []),
        ("ja", "呼ばざるを得ません。", []),
        ("ja", "コピーが作られるのは間違いありません。", []),
        ("ja", "コピーされる場合も少なくない。", []),
        ("ko", "이런 값은 드물지 않습니다.", []),
        ("ko", "줄이지 않을 수 없습니다.", []),
        ("en", "Such values are not uncommon.", []),
        # half-width, katakana and invisible characters hide no negation
        ("ja", "削減しﾅｲ。", ["ない"]),
        ("ja", "削減されマセン。", ["ません"]),
        ("ja", "削減しな\u200bい。", ["ない"]),
        ("ja", "削減し無い。", ["ない"]),
        ("ko", "메모리를 안 줄입니다.", ["안 "]),
        ("ko", "블록 안에서 실행합니다.", []),
        # a katakana word is no ending
        ("ja", "ナイーブな実装です。", []),
    ],
)
def test_polarity_markers(lang: Lang, text: str, expected: list[str]) -> None:
    assert markers(text, lang) == expected


def test_normalised_text_is_nfkc_without_invisible_characters() -> None:
    assert normalised("ﾃﾝｿﾙ\u200b１２") == "テンソル12"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("上限は八十です。", ["80"]),
        ("二十四時間", ["24"]),
        ("4 の十倍", ["10"]),
        ("百万要素", ["1e+06"]),
        ("전체 한도는 사십입니다.", ["40"]),
        ("이십사 시간", ["24"]),
        # words, not numbers
        ("十分な大きさ、数十個、一つ、同一、万一", []),
        ("공백, 만일, 이만큼, 천천히, 백업, 사용, `x`만이", []),
    ],
)
def test_han_and_hangul_numerals(text: str, expected: list[str]) -> None:
    assert cjk_numbers(text) == expected


def test_units_are_read_in_every_script() -> None:
    assert units("4 GiB, 20 seconds, a 2048-byte tensor, 5 ms, 50 %") == [
        ("4", "GiB"),
        ("20", "s"),
        ("2048", "B"),
        ("5", "ms"),
        ("50", "%"),
    ]
    assert units("4 GiB で、20 秒、2 バイト、2分の1、4 分割") == [
        ("4", "GiB"),
        ("20", "s"),
        ("2", "B"),
    ]
    assert units("20초, 2바이트, 3분, 4 KB, 2분의 1, 4 초과, 4분할") == [
        ("20", "s"),
        ("2", "B"),
        ("3", "min"),
        ("4", "kB"),
    ]
