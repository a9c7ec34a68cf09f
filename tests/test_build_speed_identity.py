"""The faster translated builds (checker.sphinx.fast_i18n, for Japanese
checker.sphinx.search_ja, and the text store they keep between builds,
checker.sphinx.text_store) change no byte of the site.

The real docs are built in Japanese and Korean three times, each build in its own process:
with Sphinx's own transform and no text store (``-D checker_fast_i18n=0``,
``CHECKER_TEXT_STORE=off``: the reference), then with ours and an empty store ("cold"), then
with ours and the store the cold build filled ("warm"), and so again with Sphinx's parallel
read and write (``-j 2``: the extension declares itself parallel-safe); every HTML page and
the search index must be identical to the reference. Nothing is stripped: the pages hold no
build time (dates are days, and all builds share the probe cache, which the first build
fills when it is cold).
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

import pytest

from checker.report.plain_text import plain
from checker.text.languages import TRANSLATED
from tests.helpers import ROOT, sphinx_html

LANGS = TRANSLATED


#: The ways each language is built: Sphinx's own, then ours with an empty store, then with
#: the store filled.
VARIANTS = ("sphinx", "cold", "warm", "parallel")


def _sphinx(lang: str, out: Path, fast: bool, *options: str) -> list[str]:
    """The command that builds ``lang`` into ``out`` (``html/``, ``doctrees/``), with the
    checker's fast translation path or Sphinx's own."""
    fast_i18n = ("-D", f"checker_fast_i18n={int(fast)}")
    return sphinx_html(lang, out / "html", out / "doctrees", *options, *fast_i18n)


def _env(store: str) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "PYTHONDONTWRITEBYTECODE": "1",
        "CHECKER_TEXT_STORE": store,
    }


def _build(lang: str, variant: str, out: Path, store: Path) -> subprocess.Popen[bytes]:
    fast = variant != "sphinx"
    return subprocess.Popen(
        _sphinx(lang, out, fast, "-q", *(["-j", "2"] if variant == "parallel" else [])),
        env=_env(str(store) if fast else "off"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    root = tmp_path_factory.mktemp("identity")
    store = root / "store"
    outs = {(lang, v): root / f"{lang}-{v}" for lang in LANGS for v in VARIANTS}
    # The first build fills the probe cache if it is cold, so that no two builds measure.
    first = ("ja", "sphinx")
    assert _build(*first, outs[first], store).wait() == 0
    for phase in (("sphinx", "cold"), ("warm", "parallel")):  # warm: after cold filled it
        started = [
            (key, _build(*key, out, store))
            for key, out in outs.items()
            if key[1] in phase and key != first
        ]
        for key, proc in started:
            assert proc.wait() == 0, key
    assert sorted(p.name for p in store.iterdir()) == [
        f"{kind}-{lang}.pickle"
        for kind in ("catalog-entries", "readable-catalogs", "safe-messages", "search-words")
        for lang in LANGS
        if kind != "search-words" or lang == "ja"
    ] + [f"translated-messages-{lang}.pickle" for lang in LANGS]
    return {key: out / "html" for key, out in outs.items()}


def _pages(html: Path) -> dict[str, bytes]:
    """Every page, and the search index (checker.sphinx.search_ja splits Japanese words)."""
    found = [*sorted(html.rglob("*.html")), html / "searchindex.js"]
    return {p.relative_to(html).as_posix(): p.read_bytes() for p in found}


@pytest.mark.parametrize("variant", ["cold", "warm", "parallel"])
@pytest.mark.parametrize("lang", LANGS)
def test_every_translated_page_is_byte_identical_with_the_faster_transform(
    builds: dict[tuple[str, str], Path], lang: str, variant: str
) -> None:
    fast, plain = _pages(builds[(lang, variant)]), _pages(builds[(lang, "sphinx")])
    docs = sorted(
        p.relative_to(ROOT / "docs").with_suffix(".html").as_posix()
        for p in (ROOT / "docs").rglob("*.md")
        if not any(part.startswith("_") for part in p.relative_to(ROOT / "docs").parts)
    )
    assert sorted(plain) == sorted(fast)
    assert set(docs) | {"searchindex.js"} <= set(plain)
    different = [page for page in plain if plain[page] != fast[page]]
    assert different == []


def test_the_pages_are_translated(builds: dict[tuple[str, str], Path]) -> None:
    """The comparison is between translated pages, not English fallbacks."""
    assert "検証" in (builds[("ja", "warm")] / "index.html").read_text(encoding="utf-8")
    assert "검증" in (builds[("ko", "warm")] / "index.html").read_text(encoding="utf-8")


def test_the_japanese_splitter_splits_every_catalog_text_as_sphinx_does() -> None:
    """checker.sphinx.search_ja re-writes TinySegmenter's loop: same words for every text."""
    from sphinx.search.ja import DefaultSplitter

    from checker.sphinx.search_ja import CachingSplitter
    from checker.text.po import read_catalog

    texts = [
        entry.msgstr
        for path in sorted((ROOT / "locales" / "ja").rglob("*.po"))
        for entry in read_catalog(path).entries
        if entry.msgstr
    ]
    assert len(texts) > 1000
    sphinx_splitter, ours = DefaultSplitter({}), CachingSplitter({})
    different = [t for t in texts if ours.split(t) != sphinx_splitter.split(t)]
    assert different == []


def _rebuild(lang: str, out: Path) -> tuple[list[str], str]:
    """Build ``lang`` again into the warm build's folders (``out``): the pages Sphinx read
    again, and its output."""
    rebuild = subprocess.run(
        _sphinx(lang, out, True, "-N"),
        env=_env(str(out.parent / "store")),
        capture_output=True,
        text=True,
        check=True,
    )
    # Sphinx may erase and rewrite its progress line (ANSI "erase line", carriage returns)
    # whatever the colour setting: read the page names past those.
    lines = [plain(line) for line in re.split(r"[\r\n]+", rebuild.stdout)]
    read = [
        ln.split("]", 1)[1].strip() for ln in lines if ln.strip().startswith("reading sources... [")
    ]
    return read, "\n".join(lines)


@pytest.mark.parametrize("clocks", ["agree", "disagree"])
def test_an_edited_catalog_re_reads_its_page_only(
    builds: dict[tuple[str, str], Path], clocks: str
) -> None:
    """A rebuild after one page's .po is edited reads that page again, and no other, and
    shows the edit: pages with verdicts are re-read only when the probe results changed (they
    did not). Sphinx notices an edit by comparing file times with its own clock; where a file
    system keeps another clock ("disagree": the edited catalog looks older than its compiled
    .mo and the page's last reading) the edit is still seen, by content
    (checker.sphinx.catalogs)."""
    catalog = ROOT / "locales" / "ja" / "LC_MESSAGES" / "topics" / "views-and-inplace.po"
    compiled = catalog.with_suffix(".mo")
    out = builds[("ja", "warm")].parent
    original = catalog.read_bytes()
    heading = 'msgstr "ビュー、コピー、インプレース演算"'.encode()
    assert original.count(heading) == 1
    edited = f"ビュー、コピー、インプレース演算（{clocks}）"
    try:
        catalog.write_bytes(original.replace(heading, f'msgstr "{edited}"'.encode()))
        if clocks == "disagree":
            hour = 3600 * 10**9
            os.utime(catalog, ns=(time.time_ns() - hour, time.time_ns() - hour))
            os.utime(compiled, ns=(time.time_ns() - hour // 2, time.time_ns() - hour // 2))
        read, output = _rebuild("ja", out)
    finally:
        catalog.write_bytes(original)  # newer than the .mo: the next build compiles it again
    assert read == ["topics/views-and-inplace"], output
    page = out / "html" / "topics" / "views-and-inplace.html"
    assert edited in page.read_text(encoding="utf-8")


def test_an_edited_english_page_is_read_again_alone(builds: dict[tuple[str, str], Path]) -> None:
    """An edit to one English page re-reads that page, and no other, in a translated build
    (its snippets are run again alone too: tests/test_doctest_plugin.py)."""
    page = ROOT / "docs" / "topics" / "views-and-inplace.md"
    out = builds[("ko", "warm")].parent
    original = page.read_bytes()
    try:
        page.write_bytes(original + b"\n")  # Markdown reads the same; the file is newer
        read, output = _rebuild("ko", out)
    finally:
        page.write_bytes(original)
    assert read == ["topics/views-and-inplace"], output
