"""The gate on a corpus of hostile and broken catalogs: each yields exactly its findings.

Every case in tests/samples/i18n/cases is a copy of a clean sample catalog with one thing
wrong; it replaces that catalog, the other three stay clean and are still checked. Each
expectation lists ``(check, line of the .po)``.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from checker.i18n import Check, Severity, check
from tests.i18n_helpers import I18N, check_case, check_samples, i18n_options, sample_locales

CASES = [
    # security
    ("script-injection.ja.po", "guide", [("html", 40)]),
    ("img-onerror.ko.po", "guide", [("html", 44)]),
    ("raw-role.ja.po", "guide", [("directive", 25)]),
    ("eval-rst-directive.ko.po", "guide", [("directive", 25)]),
    ("include-directive.ja.po", "index", [("directive", 13)]),
    ("external-link.ja.po", "guide", [("external-link", 40)]),
    ("myst-syntax.ko.po", "guide", [("myst-syntax", 40)]),
    ("javascript-link.ja.po", "guide", [("external-link", 40)]),
    ("data-link.ko.po", "guide", [("external-link", 40)]),
    ("mailto-link.ja.po", "guide", [("external-link", 40)]),
    ("fuzzy-script.ko.po", "guide", [("fuzzy", 39), ("html", 41)]),
    # code
    ("changed-inline-code.ja.po", "guide", [("code-literal", 17)]),
    ("changed-code-block.ko.po", "guide", [("code-block", 32)]),
    # claims and numbers
    ("flipped-claim.ja.po", "guide", [("claim-negation", 21)]),
    ("flipped-claim.ko.po", "guide", [("claim-negation", 21)]),
    ("changed-number.ja.po", "guide", [("number", 25)]),
    ("changed-unit.ko.po", "guide", [("unit", 25)]),
    # structure
    ("removed-link.ko.po", "guide", [("link", 36)]),
    ("removed-role.ja.po", "guide", [("role", 17)]),
    ("changed-role-target.ko.po", "index", [("role", 17)]),
    ("cjk-markup.ja.po", "index", [("inline-markup", 21)]),
    # completeness
    ("untranslated.ja.po", "guide", [("untranslated", 40)]),
    ("fuzzy.ko.po", "guide", [("fuzzy", 39)]),
    ("obsolete.ja.po", "guide", [("obsolete", 46)]),
    ("out-of-date.ja.po", "guide", [("out-of-date", 1), ("out-of-date", 39)]),
    # malformed
    ("malformed-syntax.ko.po", "guide", [("syntax", 40)]),
    ("wrong-encoding.ja.po", "guide", [("encoding", 10)]),
    ("shift-jis-header.ja.po", "guide", [("encoding", 7)]),
    ("euc-kr-header.ko.po", "guide", [("encoding", 7)]),
    ("wrong-plural-forms.ko.po", "guide", [("header", 9)]),
    ("duplicate-msgid.ja.po", "guide", [("duplicate", 43)]),
    ("binary.ko.po", "guide", [("encoding", 1)]),
    # glossary
    ("glossary-violation.ja.po", "guide", [("glossary", 44)]),
    ("settled-term.ko.po", "guide", [("term", 25)]),
    # register
    ("register-plain.ja.po", "guide", [("register", 17)]),
    ("register-plain.ko.po", "guide", [("register", 44)]),
    ("register-haeyo.ko.po", "guide", [("register", 36)]),
]


def test_the_clean_samples_have_no_findings(tmp_path: Path) -> None:
    result = check_samples(tmp_path)
    assert result.findings == ()
    assert result.catalogs == 4
    assert [(c.lang, c.page, c.translated, c.total) for c in result.coverage] == [
        ("ja", "guide", 7, 7),
        ("ja", "index", 3, 3),
        ("ko", "guide", 7, 7),
        ("ko", "index", 3, 3),
    ]


@pytest.mark.parametrize(("case", "page", "expected"), CASES, ids=[c[0] for c in CASES])
def test_each_case_yields_exactly_its_findings(
    tmp_path: Path, case: str, page: str, expected: list[tuple[str, int]]
) -> None:
    check_case(tmp_path, case, page, expected)


def test_every_case_file_is_in_the_table() -> None:
    assert sorted(p.name for p in (I18N / "cases").glob("*.po")) == sorted(c[0] for c in CASES)


def test_every_check_that_judges_a_catalog_has_a_case() -> None:
    covered = {name for _, _, expected in CASES for name, _ in expected}
    # The others are covered below, in test_i18n_checks.py and (the reviewed list of claim
    # translations, which the samples do not keep, and roles) in tests/hostile/test_gate.py.
    untested = {c.value for c in Check} - covered
    assert untested == {
        "claim-approval",
        "claim-roles",
        "english-left",  # generated text only: tests/test_i18n_language_checks.py
        "missing-catalog",
        "glossary-file",
        "consistency",
        "claim-vocabulary",
        "substitution",
        "internal",
    }


def test_a_flipped_claim_says_which_claim_and_how(tmp_path: Path) -> None:
    [finding] = check_case(tmp_path, "flipped-claim.ja.po", "guide", [("claim-negation", 21)])
    assert finding.message == (
        "claim sample/hooks-do-not-reduce-memory: the English statement denies it, the "
        "translation asserts it (no negation found)"
    )
    assert finding.msgid.startswith("Running code inside `disable_saved_tensors_hooks`")
    assert finding.msgstr.endswith("メモリが削減されます。")


def test_a_malformed_catalog_does_not_stop_the_others(tmp_path: Path) -> None:
    result = check_samples(
        tmp_path,
        {"ja/guide": "malformed-syntax.ko.po", "ko/guide": "flipped-claim.ko.po"},
    )
    # A catalog with a syntax error is not read further (not even its header, which says
    # Korean); the Korean catalogs are still checked.
    assert [(f.lang, f.check.value, f.line) for f in result.findings] == [
        ("ja", "syntax", 40),
        ("ko", "claim-negation", 21),
    ]


def test_a_missing_catalog_is_an_error_and_counts_as_untranslated(tmp_path: Path) -> None:
    result = check_samples(tmp_path, {"ko/index": None})
    [finding] = result.findings
    assert (finding.path, finding.line, finding.check) == (
        "locales/ko/LC_MESSAGES/index.po",
        1,
        Check.MISSING_CATALOG,
    )
    assert finding.severity is Severity.ERROR
    assert result.language("ko").translated == 7
    assert result.complete_pages("ko") == ("guide",)


def test_an_oversized_message_is_refused_quickly(tmp_path: Path) -> None:
    """800,000 ``[`` in one message: parsing it as MyST would take minutes."""
    locales = sample_locales(tmp_path)
    path = locales / "ja" / "LC_MESSAGES" / "guide.po"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[39] == 'msgstr "ビュー"'
    lines[39] = 'msgstr "' + "[" * 800_000 + '"'
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    started = time.monotonic()
    result = check(i18n_options(locales))
    assert time.monotonic() - started < 30
    assert [(f.path, f.check.value, f.line, f.message) for f in result.findings] == [
        (
            "locales/ja/LC_MESSAGES/guide.po",
            "syntax",
            40,
            "msgstr of 800000 characters; a message may hold at most 10000: split it, it is "
            "not one sentence of the docs",
        )
    ]
