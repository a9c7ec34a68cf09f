"""Compiling a catalog for gettext (checker.text.mo) and writing translations into one
(checker.text.po_write): what gettext and Sphinx get is what Babel's own compilation and
reading give, on every catalog of the project."""

from __future__ import annotations

import io
from gettext import GNUTranslations
from pathlib import Path

import pytest

from checker.service.preview import merged_catalog
from checker.text.mo import compile_mo, gettext_messages, translations
from checker.text.po import parse_catalog, read_catalog
from tests.helpers import ROOT

CATALOGS = sorted(
    [
        *(ROOT / "locales").rglob("*.po"),
        *(ROOT / "checker" / "sphinx" / "locale").rglob("*.po"),
        *(ROOT / "checker" / "service" / "locale").rglob("*.po"),
    ]
)


def _babel(raw: bytes) -> GNUTranslations:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    compiled = io.BytesIO()
    write_mo(compiled, read_po(io.BytesIO(raw)))
    compiled.seek(0)
    return GNUTranslations(compiled)


def _seen(compiled: GNUTranslations | None) -> tuple[object, ...]:
    """What gettext answers with: every message but the header, the charset, plural forms."""
    assert compiled is not None
    messages = {k: v for k, v in compiled._catalog.items() if k != ""}
    return messages, compiled.charset(), [compiled.plural(n) for n in range(12)]


@pytest.mark.parametrize("path", CATALOGS, ids=[str(p.relative_to(ROOT)) for p in CATALOGS])
def test_gettext_gets_what_babel_compiles(path: Path) -> None:
    assert _seen(translations(read_catalog(path))) == _seen(_babel(path.read_bytes()))


HEADER = (
    'msgid ""\nmsgstr ""\n"Language: {lang}\\n"\n{plural}'
    '"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
)
BODY = (
    'msgid "kept"\nmsgstr "gardé"\n\n'
    '#, fuzzy\nmsgid "fuzzy"\nmsgstr "flou"\n\n'
    'msgid "untranslated"\nmsgstr ""\n\n'
    'msgid "blank"\nmsgstr " "\n\n'
    'msgctxt "label"\nmsgid "kept"\nmsgstr "étiquette"\n\n'
    'msgid "one file"\nmsgid_plural "{n} files"\nmsgstr[0] "un fichier"\nmsgstr[1] ""\n\n'
    'msgid "twice"\nmsgstr "deux fois"\n\n'
    '#, fuzzy\nmsgid "twice"\nmsgstr "encore"\n\n'
    '#~ msgid "gone"\n#~ msgstr "parti"\n'
)


@pytest.mark.parametrize(
    ("lang", "plural"),
    [
        ("fr", '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n'),
        ("fr", ""),  # the language's plural forms, from CLDR
        ("ja", '"Plural-Forms: nplurals=1; plural=0;\\n"\n'),
        ("xx", ""),  # a language Babel does not know: gettext's default
    ],
)
def test_fuzzy_untranslated_plural_and_twice_written_messages_as_babel_compiles_them(
    lang: str, plural: str
) -> None:
    raw = (HEADER.format(lang=lang, plural=plural) + BODY).encode()
    catalog = parse_catalog(raw, Path("x.po"))
    assert _seen(translations(catalog)) == _seen(_babel(raw))
    assert GNUTranslations(io.BytesIO(compile_mo(catalog))).gettext("kept") == "gardé"


def test_the_messages_gettext_is_given_in_the_order_of_the_file() -> None:
    raw = (HEADER.format(lang="fr", plural="") + BODY).encode()
    messages = gettext_messages(parse_catalog(raw, Path("x.po")))
    assert [(m.msgctxt, m.msgid) for m in messages] == [
        (None, "kept"),
        (None, "blank"),
        ("label", "kept"),
        (None, "one file"),
    ]


# -- writing translations into a catalog (the service's preview) ---------------------------

PAGES = sorted((ROOT / "locales").glob("*/LC_MESSAGES/**/*.po"))


def _read_as_sphinx_does(text: str) -> tuple[object, ...]:
    """What Sphinx compiles from a catalog: its messages (Babel's reading) and header."""
    from babel.messages.pofile import read_po

    catalog = read_po(io.BytesIO(text.encode("utf-8")), abort_invalid=True)
    messages = [(m.context, m.id, m.string, m.fuzzy) for m in catalog if m.id]
    return messages, catalog.mime_headers, catalog.fuzzy


@pytest.mark.parametrize("path", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_a_merged_catalog_is_the_page_catalog_with_the_submitted_translations(path: Path) -> None:
    """Every message translated anew (every third one fuzzy, every fifth one with a quote,
    a backslash and a line break): the build reads exactly those translations and nothing else
    changed; the one reader reads the merged catalog without a problem."""
    lang = path.relative_to(ROOT / "locales").parts[0]
    current = read_catalog(path, lang)
    submitted: list[str] = []
    expected: dict[tuple[str | None, str], tuple[str, bool]] = {}
    for index, entry in enumerate(e for e in current.active if e.msgid_plural is None):
        text = f'訳 {index} "q" \\ \n2行目' if index % 5 == 0 else f"訳 {index}"
        fuzzy = index % 3 == 0
        expected[(entry.msgctxt, entry.msgid)] = (text, fuzzy)
        context = f"msgctxt {_quoted(entry.msgctxt)}\n" if entry.msgctxt is not None else ""
        flags = "#, fuzzy\n" if fuzzy else ""
        submitted.append(f"{flags}{context}msgid {_quoted(entry.msgid)}\nmsgstr {_quoted(text)}\n")
    merged = merged_catalog(path, "\n".join(submitted), lang)
    before, headers, header_fuzzy = _read_as_sphinx_does(path.read_text(encoding="utf-8"))
    after = _read_as_sphinx_does(merged)
    wanted = [
        (ctx, msgid, *expected.get((ctx, msgid), (string, fuzzy)))
        for ctx, msgid, string, fuzzy in before
    ]
    assert after == (wanted, headers, header_fuzzy)
    assert parse_catalog(merged.encode("utf-8"), path, lang).problems == ()


def _quoted(text: str | None) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)
