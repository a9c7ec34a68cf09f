"""Reading catalogs strictly (checker.text.po, the one reader): every problem has a line,
nothing raises, Babel (which Sphinx reads catalogs with) agrees on every catalog it reads and
refuses nothing the reader passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker.text.po import ProblemKind, parse_catalog, read_catalog
from tests.helpers import ROOT

HEADER = (
    'msgid ""\nmsgstr ""\n"Language: ja\\n"\n"Plural-Forms: nplurals=1; plural=0;\\n"\n'
    '"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
)  # 6 lines


def problems(body: str, lang: str | None = "ja") -> list[tuple[str, int, str]]:
    catalog = parse_catalog((HEADER + body).encode("utf-8"), Path("x.po"), lang)
    return [(p.kind.value, p.line, p.message) for p in catalog.problems]


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
    assert [(p.kind.value, p.line) for p in catalog.problems] == expected


@pytest.mark.parametrize(
    ("written", "lang", "names"),
    [
        ("ja", "ja", True),
        ("ja_JP", "ja", True),
        ("ko", "ja", False),
        ("zh_CN", "zh_CN", True),
        ("zh-cn", "zh_CN", True),
        ("zh_TW", "zh_CN", False),
        ("zh", "zh_CN", False),
    ],
)
def test_the_header_language_of_a_code_with_a_region(written: str, lang: str, names: bool) -> None:
    header = _LANGUAGE.replace("ja", written) + _PLURAL + _UTF8
    raw = f'msgid ""\nmsgstr ""\n{header}\n\nmsgid "a"\nmsgstr "b"\n'.encode()
    catalog = parse_catalog(raw, Path("x.po"), lang)
    assert [p.kind.value for p in catalog.problems] == ([] if names else ["header"])


def test_no_header_is_a_problem() -> None:
    catalog = parse_catalog(b'msgid "a"\nmsgstr "b"\n', Path("x.po"), "ja")
    assert [(p.kind, p.line) for p in catalog.problems] == [(ProblemKind.HEADER, 1)]


def test_invalid_utf8_names_the_line_of_the_byte() -> None:
    raw = (HEADER + 'msgid "a"\nmsgstr "').encode() + b"caf\xe9" + b'"\n'
    [problem] = parse_catalog(raw, Path("x.po"), "ja").problems
    assert (problem.kind, problem.line) == (ProblemKind.ENCODING, 8)
    assert "0xe9" in problem.message


def test_crlf_line_ends_are_accepted() -> None:
    raw = (HEADER + 'msgid "a"\nmsgstr "b"\n').replace("\n", "\r\n").encode()
    catalog = parse_catalog(raw, Path("x.po"), "ja")
    assert catalog.problems == ()
    assert [(e.msgid, e.msgstr, e.msgstr_line) for e in catalog.entries] == [("a", "b", 8)]


def test_a_byte_order_mark_is_refused_since_babel_misreads_it() -> None:
    raw = ("\ufeff" + HEADER + 'msgid "a"\nmsgstr "b"\n').encode()
    [problem] = parse_catalog(raw, Path("x.po"), "ja").problems
    assert (problem.kind, problem.line) == (ProblemKind.ENCODING, 1)


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
    assert problem.kind is ProblemKind.ENCODING


CATALOGS = sorted((ROOT / "locales").rglob("*.po"))


@pytest.mark.parametrize("path", CATALOGS, ids=[str(p.relative_to(ROOT)) for p in CATALOGS])
def test_babel_reads_our_catalogs_the_same_way(path: Path) -> None:
    from babel.messages.pofile import read_po

    ours = read_catalog(path)
    with path.open("rb") as handle:
        theirs = read_po(handle, abort_invalid=True)
    assert ours.problems == ()
    assert [(e.msgctxt, e.msgid, e.msgstr, e.fuzzy) for e in ours.active] == [
        (m.context, m.id, m.string, m.fuzzy) for m in theirs if m.id
    ]
    assert [e.msgid for e in ours.entries if e.obsolete] == [m.id for m in theirs.obsolete.values()]


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
    assert [(p.kind.value, p.line, p.message) for p in catalog.problems] == [
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


# -- Babel as the oracle: what it refuses, the reader refuses with a line --------------------

#: Catalogs broken in every way the tests know, each after a valid header (6 lines): the
#: grammar, and what only Babel refuses (a keyword not followed by a space, a previous text of
#: an obsolete entry, a comment between msgid and msgstr, an unclosed file name in a reference,
#: a header it cannot read, more plural forms than the catalog has).
MALFORMED = {
    "unterminated": 'msgid "a"\nmsgstr "b',
    "bad escape": 'msgid "a"\nmsgstr "b\\q"',
    "unknown keyword": 'msgid "a"\nmsgstrr "b"',
    "msgstr alone": 'msgstr "b"',
    "blank inside": 'msgid "a"\n\nmsgstr "b"',
    "index without plural": 'msgid "a"\nmsgstr[0] "b"',
    "text after the string": 'msgid "a"\nmsgstr "b" x',
    "orphan string": '"orphan"',
    "plural without index": 'msgid "a"\nmsgid_plural "as"\nmsgstr "b"',
    "tab after keyword": 'msgid\t"a"\nmsgstr "b"',
    "no space after keyword": 'msgid"a"\nmsgstr "b"',
    "index without space": 'msgid "a"\nmsgid_plural "as"\nmsgstr[0]"b"',
    "obsolete previous text": '#~| msgid "old"\n#~ msgid "a"\n#~ msgstr "b"',
    "previous text inside": 'msgid "a"\n#| msgid "old"\nmsgstr "b"',
    "comment inside": 'msgid "a"\n#. note\nmsgstr "b"',
    "unclosed file name": '#: \u2068docs/a page.md:3\nmsgid "a"\nmsgstr "b"',
    "file name never opened": '#: docs/a.md:3\u2069\nmsgid "a"\nmsgstr "b"',
    "two plural forms for one": 'msgid "a"\nmsgid_plural "as"\nmsgstr[0] "b"\nmsgstr[1] "bs"',
    "bad date in a second header": 'msgctxt "x"\nmsgid ""\nmsgstr "POT-Creation-Date: now\\n"',
    "msgstr twice": 'msgid "a"\nmsgstr "b"\nmsgstr "c"',
    "msgctxt after msgid": 'msgid "a"\nmsgctxt "x"\nmsgstr "b"',
    "msgctxt alone": 'msgctxt "x"',
}

#: Header fields Babel cannot read, each in place of the valid one (or added).
BAD_HEADERS = {
    "bad creation date": ("POT-Creation-Date", "2024-13-45 99:99+0000"),
    "bad revision date": ("PO-Revision-Date", "yesterday"),
    "nplurals not a number": ("Plural-Forms", "nplurals=one; plural=0;"),
    "language not an identifier": ("Language", "ja!"),
    "two charsets, the last not UTF-8": (
        "Content-Type",
        "text/plain; charset=UTF-8; charset=EUC-JP",
    ),
    "unknown charset": ("Content-Type", "text/plain; charset=no-such-charset"),
}
VALID_HEADER = {
    "Language": "ja",
    "Plural-Forms": "nplurals=1; plural=0;",
    "Content-Type": "text/plain; charset=UTF-8",
}


def _samples() -> list[tuple[str, bytes]]:
    files = sorted(
        p
        for folder in ("samples", "fixtures")
        for p in (ROOT / "tests" / folder).rglob("*")
        if p.suffix in (".po", ".pot")
    )
    found = [(str(p.relative_to(ROOT)), p.read_bytes()) for p in files]
    found += [(name, (HEADER + body + "\n").encode()) for name, body in MALFORMED.items()]
    for name, (field, value) in BAD_HEADERS.items():
        fields = "".join(f'"{k}: {v}\\n"\n' for k, v in {**VALID_HEADER, field: value}.items())
        header = f'msgid ""\nmsgstr ""\n{fields}\n'
        found.append((name, (header + 'msgid "a"\nmsgstr "b"\n').encode()))
    found += [
        ("byte order mark", ("\ufeff" + HEADER + 'msgid "a"\nmsgstr "b"\n').encode()),
        ("invalid UTF-8", (HEADER + 'msgid "a"\nmsgstr "').encode() + b"caf\xe9" + b'"\n'),
    ]
    return found


SAMPLES = _samples()


def _babel_refuses(raw: bytes) -> bool:
    import io

    from babel.messages.pofile import read_po

    try:
        read_po(io.BytesIO(raw), abort_invalid=True)
    except Exception:  # whatever Babel raises, Sphinx could not compile the catalog
        return True
    return False


@pytest.mark.parametrize(("name", "raw"), SAMPLES, ids=[name for name, _ in SAMPLES])
def test_what_babel_refuses_the_reader_reports_with_a_line(name: str, raw: bytes) -> None:
    catalog = parse_catalog(raw, Path(name))  # as the build reads it: no language expected
    if _babel_refuses(raw):
        assert [p for p in catalog.problems if p.fatal and p.line >= 1] != []


#: The constructed samples Babel reads without a word (it keeps what it can).
BABEL_LENIENT = {
    "unterminated",
    "bad escape",
    "msgstr alone",
    "blank inside",
    "index without plural",
    "text after the string",
    "orphan string",
    "plural without index",
    "msgstr twice",
    "msgctxt alone",
    "two charsets, the last not UTF-8",
}


def test_the_oracle_refuses_what_the_samples_break() -> None:
    """The test above is not vacuous: Babel refuses 22 of the samples (the three broken files
    of tests/samples and every constructed one but those it reads leniently)."""
    refused = {name for name, raw in SAMPLES if _babel_refuses(raw)}
    constructed = {*MALFORMED, *BAD_HEADERS, "byte order mark", "invalid UTF-8"}
    assert constructed - refused == BABEL_LENIENT
    assert sorted(refused - constructed) == [
        "tests/samples/i18n/cases/binary.ko.po",
        "tests/samples/i18n/cases/euc-kr-header.ko.po",
        "tests/samples/i18n/cases/shift-jis-header.ja.po",
    ]
    assert len(refused) == 22


def test_the_reader_refuses_what_babel_reads_leniently() -> None:
    found = {name: parse_catalog(raw, Path(name)) for name, raw in SAMPLES}
    assert [name for name in sorted(BABEL_LENIENT) if not found[name].fatal] == []
