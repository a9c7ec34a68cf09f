"""Reading catalogs strictly: every problem has a line, nothing raises, polib agrees."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest

from checker.i18n import Check
from checker.i18n.catalog import parse_catalog, read_catalog
from tests.helpers import ROOT

HEADER = (
    'msgid ""\nmsgstr ""\n"Language: ja\\n"\n"Plural-Forms: nplurals=1; plural=0;\\n"\n'
    '"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
)  # 6 lines


def problems(body: str, lang: str | None = "ja") -> list[tuple[str, int, str]]:
    catalog = parse_catalog((HEADER + body).encode("utf-8"), Path("x.po"), lang)
    return [(p.check.value, p.line, p.message) for p in catalog.problems]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            'msgid "a"\nmsgstr "b',
            [("syntax", 8, "unterminated string (no closing quote on this line)")],
        ),
        ('msgid "a"\nmsgstr "b\\q"', [("syntax", 8, "bad escape sequence '\\q' in a string")]),
        ('msgid "a"\nmsgstrr "b"', [("syntax", 8, "unknown keyword 'msgstrr'")]),
        ('msgstr "b"', [("syntax", 7, "msgstr without msgid")]),
        (
            'msgid "a"\n\nmsgstr "b"',
            [("syntax", 7, "msgid without msgstr"), ("syntax", 9, "msgstr without msgid")],
        ),
        ('msgid "a"\nmsgstr[0] "b"', [("syntax", 8, "msgstr[0] without msgid_plural")]),
        ('msgid "a"\nmsgstr "b" x', [("syntax", 8, "text after the closing quote: ' x'")]),
        ('"orphan"', [("syntax", 7, "a string without a keyword before it")]),
        (
            'msgid "a"\nmsgid_plural "as"\nmsgstr "b"',
            [("syntax", 9, "a plural entry needs msgstr[0], msgstr[1]... not msgstr")],
        ),
        (
            'msgid "a"\nmsgstr "b"\n\nmsgid "a"\nmsgstr "c"',
            [("duplicate", 10, "duplicate msgid, first at line 7: 'a'")],
        ),
    ],
)
def test_grammar_errors_have_their_line(body: str, expected: list[tuple[str, int, str]]) -> None:
    assert problems(body) == expected


def test_the_same_msgid_in_two_contexts_is_not_a_duplicate() -> None:
    body = 'msgctxt "x"\nmsgid "a"\nmsgstr "b"\n\nmsgctxt "y"\nmsgid "a"\nmsgstr "c"\n'
    assert problems(body) == []


def test_a_line_after_an_error_is_still_read() -> None:
    body = 'msgid "a"\nmsgstr "b\n\nmsgid "c"\nmsgstr "d"\n'
    catalog = parse_catalog((HEADER + body).encode(), Path("x.po"), "ja")
    assert [e.msgid for e in catalog.entries] == ["c"]
    assert catalog.fatal


_LANGUAGE = '"Language: ja\\n"\n'
_PLURAL = '"Plural-Forms: nplurals=1; plural=0;\\n"\n'
_UTF8 = '"Content-Type: text/plain; charset=UTF-8\\n"'


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (_LANGUAGE + _PLURAL + _UTF8, []),
        (_LANGUAGE + _PLURAL + _UTF8.replace("UTF-8", "EUC-JP"), [("encoding", 5)]),
        (_LANGUAGE.replace("ja", "ko") + _PLURAL + _UTF8, [("header", 3)]),
        (_LANGUAGE + _UTF8, [("header", 2)]),
    ],
)
def test_header(header: str, expected: list[tuple[str, int]]) -> None:
    raw = f'msgid ""\nmsgstr ""\n{header}\n\nmsgid "a"\nmsgstr "b"\n'.encode()
    catalog = parse_catalog(raw, Path("x.po"), "ja")
    assert [(p.check.value, p.line) for p in catalog.problems] == expected


def test_no_header_is_a_problem() -> None:
    catalog = parse_catalog(b'msgid "a"\nmsgstr "b"\n', Path("x.po"), "ja")
    assert [(p.check, p.line) for p in catalog.problems] == [(Check.HEADER, 1)]


def test_invalid_utf8_names_the_line_of_the_byte() -> None:
    raw = (HEADER + 'msgid "a"\nmsgstr "').encode() + b"caf\xe9" + b'"\n'
    [problem] = parse_catalog(raw, Path("x.po"), "ja").problems
    assert (problem.check, problem.line) == (Check.ENCODING, 8)
    assert "0xe9" in problem.message


def test_crlf_line_ends_are_accepted() -> None:
    raw = (HEADER + 'msgid "a"\nmsgstr "b"\n').replace("\n", "\r\n").encode()
    catalog = parse_catalog(raw, Path("x.po"), "ja")
    assert catalog.problems == ()
    assert [(e.msgid, e.msgstr, e.msgstr_line) for e in catalog.entries] == [("a", "b", 8)]


def test_a_byte_order_mark_is_refused_since_babel_misreads_it() -> None:
    raw = ("\ufeff" + HEADER + 'msgid "a"\nmsgstr "b"\n').encode()
    [problem] = parse_catalog(raw, Path("x.po"), "ja").problems
    assert (problem.check, problem.line) == (Check.ENCODING, 1)


def test_escapes_and_continuations_are_decoded() -> None:
    body = 'msgid ""\n"a\\tb\\n"\n"\\"c\\" \\\\ \\101 \\x42"\nmsgstr "x"\n'
    [entry] = parse_catalog((HEADER + body).encode(), Path("x.po"), "ja").entries
    assert entry.msgid == 'a\tb\n"c" \\ A B'
    assert (entry.msgid_line, entry.msgstr_line) == (7, 10)


def test_flags_occurrences_and_obsolete_entries() -> None:
    body = (
        '#: ../../docs/a.md:3 ../../docs/b.md:12\n#, fuzzy, python-format\nmsgid "a"\nmsgstr "b"\n'
        '\n#~ msgid "old"\n#~ msgstr "vieux"\n'
    )
    entry, old = parse_catalog((HEADER + body).encode(), Path("x.po"), "ja").entries
    assert entry.occurrences == (("../../docs/a.md", 3), ("../../docs/b.md", 12))
    assert entry.fuzzy and entry.flags_line == 8 and entry.line == 7
    assert (old.obsolete, old.msgid, old.line) == (True, "old", 12)


def test_a_missing_file_is_a_finding_not_an_exception(tmp_path: Path) -> None:
    [problem] = read_catalog(tmp_path / "nope.po", "ja").problems
    assert problem.check is Check.ENCODING


CATALOGS = sorted((ROOT / "locales").rglob("*.po"))


@pytest.mark.parametrize("path", CATALOGS, ids=[str(p.relative_to(ROOT)) for p in CATALOGS])
def test_polib_reads_our_catalogs_the_same_way(path: Path) -> None:
    ours = read_catalog(path)
    theirs = polib.pofile(str(path))
    assert ours.problems == ()
    assert [(e.msgid, e.msgstr, e.fuzzy) for e in ours.active] == [
        (e.msgid, e.msgstr, e.fuzzy) for e in theirs if not e.obsolete
    ]
    assert [e.msgid for e in ours.entries if e.obsolete] == [
        e.msgid for e in theirs.obsolete_entries()
    ]


def test_plural_entries_keep_every_form() -> None:
    body = 'msgid "one file"\nmsgid_plural "{n} files"\nmsgstr[0] "{n} "\n"ファイル"\n'
    [entry] = parse_catalog((HEADER + body).encode(), Path("x.po"), "ja").entries
    assert (entry.msgid_plural, entry.msgstr_plural, entry.msgstr) == (
        "{n} files",
        ("{n} ファイル",),
        "{n} ファイル",
    )


# -- hardening (issue 16) --------------------------------------------------------------------

SAMPLE_CASES = ROOT / "tests" / "samples" / "i18n" / "cases"


@pytest.mark.parametrize(
    ("case", "charset"),
    [("shift-jis-header.ja.po", "Shift_JIS"), ("euc-kr-header.ko.po", "EUC-KR")],
)
def test_a_header_declaring_another_charset_is_one_finding_on_its_line(
    case: str, charset: str
) -> None:
    catalog = read_catalog(SAMPLE_CASES / case, case.split(".")[1])
    assert [(p.check.value, p.line, p.message) for p in catalog.problems] == [
        ("encoding", 7, f"the header declares charset {charset}; use charset=UTF-8")
    ]


@pytest.mark.parametrize("case", ["shift-jis-header.ja.po", "euc-kr-header.ko.po"])
def test_the_build_reports_another_charset_with_its_line(case: str) -> None:
    from checker.sphinx.catalogs import catalog_problem

    path = SAMPLE_CASES / case
    charset = "Shift_JIS" if "shift" in case else "EUC-KR"
    assert catalog_problem(path) == (
        f"{path}:7: the header declares charset {charset}; use charset=UTF-8"
    )
