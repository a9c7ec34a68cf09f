"""The Japanese and Korean site, opened in a real browser: no English on the page except code,
identifiers and proper names, in the evidence panels, the charts (SVG text), the headings,
the generated badges and the theme around the pages.

The site is built for ja and ko as ``nox -s docs`` builds it (``-W --keep-going``), every
page (topics, reviews, reference, basics, claims, index) is opened in headless Chromium
with every evidence panel unfolded, and its visible text is read from the
DOM as the browser lays it out (``checkVisibility``): hidden menus and tooltips are not text
a reader sees. Screenshots of the top of each page, its first evidence panel and its first
chart go to ``_build/screenshots/<lang>/`` (a CI artifact). Skipped only where Chromium or
its driver is not installed (Debian: ``apt-get install chromium chromium-driver``).
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from checker.i18n.sources import page_names
from checker.text.languages import TRANSLATED
from tests.chromium import headless_chromium, needs_chromium
from tests.helpers import ROOT, sphinx_html

SCREENSHOTS = ROOT / "_build" / "screenshots"
LANGS = TRANSLATED
#: Every page a reader reaches by links; the 404 page is served for missing addresses (below).
PAGES = tuple(p for p in page_names(ROOT / "docs") if p != "404")
#: Names that are English words and still not translated: products, languages, the theme.
PROPER_NAMES = frozenset(
    {"English", "Python", "Sphinx", "PyData Sphinx Theme", "Linear", "Function", "Pool"}
)
#: Where each piece of visible text sits; prose is the pages' own translated text.
CHECKED_REGIONS = ("evidence", "chart", "heading", "generated", "theme")

pytestmark = needs_chromium

#: Visible text nodes, with the region they belong to, and the words of every code element.
_READ_PAGE = """
document.querySelectorAll('details').forEach(d => { d.open = true; });
const code = 'code, pre, kbd, samp, tt, var, script, style, noscript, .highlight, .headerlink';
const regions = [
  ['evidence', '.checker-evidence, .checker-evidence-body'],
  ['chart', 'svg'],
  ['heading', 'h1, h2, h3, h4, h5, h6'],
  ['generated', '.checker-badges, .checker-claim-label, .checker-context, .checker-verdict,'
    + ' .checker-cuda-run,'
    + ' .checker-chart-data thead, .checker-claims-table thead'],
  ['theme', '.bd-header, .bd-sidebar-primary, .bd-sidebar-secondary, .bd-footer,'
    + ' .bd-footer-article, .prev-next-area, .bd-header-article, .navbar-header-items'],
];
const texts = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const el = node.parentElement;
  const text = node.textContent.trim();
  if (!text || !el || el.closest(code)) continue;
  if (!el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) continue;
  const found = regions.find(([, selector]) => el.closest(selector));
  texts.push([found ? found[0] : 'prose', text]);
}
const codeWords = Array.from(document.querySelectorAll('code, pre'), c => c.textContent);
return [texts, codeWords];
"""

_ASCII_RUN = re.compile(r"[\x21-\x7e]+")
_IDENTIFIER_MARKS = re.compile(r"[_.()\[\]=*/<>@#$%^&+|~`\\0-9:]|[a-z]-[a-z]")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


def english_words(text: str, identifiers: frozenset[str]) -> list[str]:
    """The English words of ``text``: ASCII words that are not code, identifiers, acronyms,
    CamelCase names, single letters (variables) or proper names. A kebab-case token amid
    Japanese or Korean (``no-grad``, ``amp-default-dtype``) is a key or a mode name; an
    English sentence has other words that give it away."""
    for name in sorted(PROPER_NAMES, key=len, reverse=True):  # whole words: not the Pool
        text = re.sub(rf"\b{re.escape(name)}\b", " ", text)  # of ThreadPoolExecutor
    found = []
    for run in _ASCII_RUN.findall(text):
        token = run.strip(".,;:!?\"'()[]{}")
        if not token or _IDENTIFIER_MARKS.search(token):
            continue  # x.mm(w), unscale_, 2**16, float16, CloneBackward0, 512
        for word in _WORD.findall(token):
            if len(word) == 1 or word.isupper() or any(c.isupper() for c in word[1:]):
                continue  # x, CUDA, GradScaler, PyTorch
            if word.lower() in identifiers:
                continue  # relu, backward, view: written as code elsewhere on the site
            found.append(word)
    return found


def test_english_words_are_told_from_code_and_names() -> None:
    identifiers = frozenset({"relu", "backward", "torch"})
    assert english_words("判定基準: relu が float32 を返し、x.mm(w) なら成立", identifiers) == []
    assert english_words("CUDA、torch 2.13.0+cpu、GradScaler、PyTorch、English", identifiers) == []
    assert english_words("Decision rule: holds if the sum is 4", identifiers) == [
        "Decision",
        "rule",
        "holds",
        "if",
        "the",
        "sum",
        "is",
    ]
    assert english_words("サイドバー Collapse Sidebar", identifiers) == ["Collapse", "Sidebar"]
    assert english_words("no-grad の下での forward", identifiers | {"forward"}) == []


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The site in en, ja and ko, built as the docs session builds it."""
    out = tmp_path_factory.mktemp("browser-site")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}
    sites = {}
    for lang in ("en", *LANGS):
        target = out / lang
        result = subprocess.run(
            sphinx_html(lang, target, out / "doctrees" / lang, "-W", "--keep-going", "-q"),
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stderr[-3000:]
        sites[lang] = target
    return sites


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with headless_chromium(ROOT / "_build" / "chromium-profile", "ja") as driver:
        yield driver


def _identifiers(code_texts: list[str]) -> frozenset[str]:
    return frozenset(w.lower() for text in code_texts for w in re.findall(r"[A-Za-z]\w*", text))


def _screenshots(driver: Any, lang: str, page: str) -> list[Path]:
    folder = SCREENSHOTS / lang
    folder.mkdir(parents=True, exist_ok=True)
    name = page.replace("/", "-")
    taken = []
    for part, selector in (
        ("top", None),
        ("evidence", ".checker-evidence-body"),
        ("chart", ".checker-chart-svg"),
        ("cuda-mark", ".checker-cuda-pending"),
    ):
        if selector is not None:
            found = driver.find_elements("css selector", selector)
            if not found:
                continue
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", found[0])
        else:
            driver.execute_script("window.scrollTo(0, 0)")
        path = folder / f"{name}-{part}.png"
        driver.save_screenshot(str(path))
        taken.append(path)
    return taken


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_reads_in_its_language_in_a_browser(
    built: dict[str, Path], browser: Any, lang: str
) -> None:
    read = {}
    for page in PAGES:
        browser.get((built[lang] / f"{page}.html").as_uri())
        read[page] = browser.execute_script(_READ_PAGE)
        shots = _screenshots(browser, lang, page)
        assert shots and all(p.stat().st_size > 10_000 for p in shots), page
    # identifiers: every word the site writes as code (the sidebar names pages of others)
    identifiers = _identifiers([c for _, code in read.values() for c in code])
    english: list[str] = []
    regions_seen: set[str] = set()
    for page, (texts, _) in read.items():
        for region, text in texts:
            regions_seen.add(region)
            if region in CHECKED_REGIONS:
                words = english_words(text, identifiers)
                if words:
                    english.append(f"{page} [{region}] {' '.join(words)}: {text[:120]!r}")
    assert regions_seen >= set(CHECKED_REGIONS), regions_seen
    assert english == [], "\n".join(english)


#: Picks one option of each of the claims page's filter lists, then returns what the page
#: shows: the count's sentence, and the ids of the visible rows.
_FILTER = """
const [topic, device, outcome] = arguments;
const form = document.querySelector('form.checker-claims-filter');
for (const [name, value] of [['topic', topic], ['device', device], ['outcome', outcome]]) {
  form.elements[name].value = value;
}
form.dispatchEvent(new Event('change'));
const rows = Array.from(document.querySelectorAll('table.checker-claims-table tbody > tr'));
const visible = rows.filter(row => row.checkVisibility());
return [
  form.querySelector('output').textContent,
  visible.map(row => [row.querySelector('code').textContent, row.cells[1].textContent.trim()]),
  Array.from(form.elements.topic.options, o => [o.value, o.textContent]),
];
"""
#: The count's sentence in each language, with the numbers the page fills in.
SHOWN = {
    "en": "{shown} of {total} claims shown",
    "ja": "{total} 件中 {shown} 件の主張を表示",
    "ko": "주장 {total}개 중 {shown}개 표시",
}


@pytest.mark.parametrize("lang", ("en", *LANGS))
def test_the_claims_page_filters_by_topic_device_and_outcome(
    built: dict[str, Path], browser: Any, lang: str
) -> None:
    """The claims page's filter, used as a reader would, works offline and in each language:
    every claim shown by default; a topic keeps its page's claims; the CUDA verdicts not run
    keep only claims meant for CUDA; no claim of this build is contradicted or broken."""
    from checker import registry

    claims = {c.id: c for c in registry.load()}
    browser.get((built[lang] / "claims.html").as_uri())
    shown, everything, topics = browser.execute_script(_FILTER, "", "", "")
    total = len(everything)
    assert total == len(claims)  # every claim of the registry is shown on some page
    assert shown == SHOWN[lang].format(shown=total, total=total)
    assert len(topics) == 1 + len({page for _, page in everything})  # "all", then each page
    # a topic: the claims of one page, named by its title in the page's language
    value, title = topics[1]
    shown, rows, _ = browser.execute_script(_FILTER, value, "", "")
    assert rows and {page for _, page in rows} == {title}
    assert shown == SHOWN[lang].format(shown=len(rows), total=total)
    # on CUDA, not run: only claims meant for CUDA (none while every one is recorded)
    _, not_run, _ = browser.execute_script(_FILTER, "", "cuda", "not-run")
    assert all("cuda" in claims[claim].devices for claim, _ in not_run)
    # as the docs say on the CPU, and nothing against them or broken on this machine
    _, confirmed, _ = browser.execute_script(_FILTER, "", "cpu", "confirmed")
    assert len(confirmed) > total // 2
    # on CUDA, as the docs say: the evidence recorded on a GPU counts as what it found
    _, recorded, _ = browser.execute_script(_FILTER, "", "cuda", "confirmed")
    assert recorded and all("cuda" in claims[claim].devices for claim, _ in recorded)
    for outcome in ("contradicted", "error"):
        assert browser.execute_script(_FILTER, "", "", outcome)[1] == []
    browser.execute_script(_FILTER, value, "", "")
    folder = SCREENSHOTS / lang
    folder.mkdir(parents=True, exist_ok=True)
    browser.execute_script("window.scrollTo(0, 0)")
    path = folder / "claims-filtered.png"
    browser.save_screenshot(str(path))
    assert path.stat().st_size > 10_000


# -- issue 26: no English outside code anywhere on the page, the claims table, the 404 page ------

#: Every visible text outside code, prose included, and every label the browser shows without
#: it being text: placeholders, aria-labels, tooltips (``title``), image descriptions.
_READ_ALL_TEXT = """
document.querySelectorAll('details').forEach(d => { d.open = true; });
const code = 'code, pre, kbd, samp, tt, var, script, style, noscript, .highlight';
const texts = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const el = node.parentElement;
  const text = node.textContent.trim();
  if (!text || !el || el.closest(code) || el.closest('.headerlink, .checker-glossary')) continue;
  if (!el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) continue;
  texts.push(text);
}
for (const el of document.querySelectorAll('[placeholder], [aria-label], [title], img[alt]')) {
  if (el.closest('code, pre, .highlight')) continue;
  for (const name of ['placeholder', 'aria-label', 'title', 'alt']) {
    const value = el.getAttribute(name);
    if (value && value.trim()) texts.push(value.trim());
  }
}
const codeWords = Array.from(document.querySelectorAll('code, pre'), c => c.textContent);
return [texts, codeWords];
"""

#: Names of tools and formats that Japanese and Korean technical text writes in Latin letters.
TOOL_NAMES = frozenset(
    {"GitHub Actions", "Lua", "Jupyter", "docutils", "Landlock", "Linux", "tmpfs", "pyenv"}
    | {"gettext", "functorch", "docstring", "repr", "Web"}
    | {"bubblewrap", "Flatpak", "cgroup", "netlink", "pickle"}
)
#: A quotation of English, which a page quotes on purpose ("does not reduce", "This is because").
#: A text node may hold only its start or its end, where code interrupts it; Sphinx's smart
#: quotes may turn an opening quote after "(" into a closing one.
_QUOTED_ENGLISH = re.compile(
    r"[\"“”「『][\x20-\x7e…]+[\"“”」』]|[\"“”「『][\x20-\x7e…]+$|^[\x20-\x7e…]+[\"“”」』]"
)
#: A gloss: the English term in parentheses after its translation, "異常検出（anomaly detection）".
_GLOSS = re.compile(
    r"(?<=[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7a3])\s?[（(][A-Za-z][A-Za-z -]*(?:[）)]|$)"
)


def english_outside_code(text: str, identifiers: frozenset[str]) -> list[str]:
    """The English words of a text shown outside code; its glosses of English terms, its
    quotations of English and the names of tools aside."""
    text = _GLOSS.sub(" ", text)
    # again until none is left: an opening quote after "(" may first be read as a closing one
    while (unquoted := _QUOTED_ENGLISH.sub(" ", text)) != text:
        text = unquoted
    for name in sorted(TOOL_NAMES, key=len, reverse=True):
        text = text.replace(name, " ")
    return english_words(text, identifiers)


def test_a_gloss_is_no_english_left_but_a_label_is() -> None:
    identifiers = frozenset({"backward"})
    assert english_outside_code("付け替える（rebase）ことで記録されます", identifiers) == []
    assert english_outside_code("異常検出（anomaly detection）を使う", identifiers) == []
    assert english_outside_code('述語（"does not reduce"、削減しない）', identifiers) == []
    assert english_outside_code("GitHub Actions のアノテーション", identifiers) == []
    assert english_outside_code("Search the docs ...", identifiers) == ["Search", "the", "docs"]
    assert english_outside_code("Link to this heading", identifiers) == [
        "Link",
        "to",
        "this",
        "heading",
    ]
    assert english_outside_code("exp, tanh and relu がそれぞれ", identifiers | {"exp"}) == [
        "tanh",
        "and",
        "relu",
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_outside_code_on_any_page_theme_and_tooltips_included(
    built: dict[str, Path], browser: Any, lang: str
) -> None:
    read = {}
    for page in PAGES:
        browser.get((built[lang] / f"{page}.html").as_uri())
        read[page] = browser.execute_script(_READ_ALL_TEXT)
    identifiers = _identifiers([c for _, code in read.values() for c in code])
    english = [
        f"{page}: {' '.join(words)}: {text[:120]!r}"
        for page, (texts, _) in read.items()
        for text in texts
        if (words := english_outside_code(text, identifiers))
    ]
    assert english == [], "\n".join(english)


_CLAIMS_COLUMNS = """
const table = document.querySelector('.checker-claims-table');
// the lines a text takes: the distinct tops of its characters' boxes, text nodes only
const lines = el => {
  const tops = new Set();
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const rect of range.getClientRects()) if (rect.width) tops.add(Math.round(rect.top));
  }
  return tops.size;
};
// a word cut in two: a break inside a Latin word, a number or a date ("2026-11-|22"), or a
// line of one character (Japanese breaks between characters, but not one per line)
const cutWords = el => {
  const cut = [];
  const latin = /[A-Za-z0-9.+-]/;
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent;
    let last = null;
    let run = 0;
    for (let i = 0; i < text.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (!rect) continue;
      const top = Math.round(rect.top);
      if (last !== null && top > last) {
        if ((latin.test(text[i - 1]) && latin.test(text[i])) || run === 1) {
          cut.push(text.slice(Math.max(0, i - 4), i + 4));
        }
        run = 0;
      }
      if (text[i] !== ' ') run += 1;
      last = top;
    }
  }
  return cut;
};
const verdicts = Array.from(table.querySelectorAll('tbody td:nth-child(3)'));
const badges = Array.from(table.querySelectorAll('.checker-badge'));
return {
  cells: verdicts.length,
  badges: badges.length,
  wrapped: verdicts.filter(td => lines(td) > 1).map(td => td.textContent),
  cutBadges: badges.flatMap(cutWords),
  wordBreak: getComputedStyle(document.body).wordBreak,
};
"""


@pytest.mark.parametrize("lang", LANGS)
def test_the_claims_table_keeps_verdicts_on_one_line_and_badges_whole(
    built: dict[str, Path], browser: Any, lang: str
) -> None:
    browser.get((built[lang] / "claims.html").as_uri())
    found = browser.execute_script(_CLAIMS_COLUMNS)
    assert found["cells"] > 100 and found["badges"] > 100
    assert found["wrapped"] == [] and found["cutBadges"] == []
    # Korean breaks between words only
    assert found["wordBreak"] == ("keep-all" if lang == "ko" else "normal")
    folder = SCREENSHOTS / lang
    folder.mkdir(parents=True, exist_ok=True)
    table = browser.find_element("css selector", ".checker-claims-table")
    browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", table)
    shot = folder / "claims-table.png"
    browser.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000


@pytest.fixture(scope="module")
def served(built: dict[str, Path]) -> Iterator[str]:
    """The built sites served as the service serves them (``StaticFiles(html=True)`` mounted
    at ``/docs/<lang>``), on a free loopback port."""
    import threading

    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import Mount
    from starlette.staticfiles import StaticFiles

    from tests.service_running import free_port

    routes = [
        Mount(f"/docs/{lang}", StaticFiles(directory=site, html=True))
        for lang, site in built.items()
    ]
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(Starlette(routes=routes), port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        thread.join(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


#: The 404 page's title, in each language (docs/404.md and its catalogs).
NOT_FOUND_TITLES = {"ja": "ページが見つかりません", "ko": "페이지를 찾을 수 없습니다"}


@pytest.mark.parametrize("lang", LANGS)
def test_a_missing_address_shows_the_404_page_of_its_language(
    built: dict[str, Path], served: str, browser: Any, lang: str
) -> None:
    import urllib.error
    import urllib.request

    address = f"{served}/docs/{lang}/topics/no-such-page.html"
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(address, timeout=30)
    assert answer.value.code == 404
    assert NOT_FOUND_TITLES[lang] in answer.value.read().decode("utf-8")
    browser.get(address)
    heading = browser.find_element("css selector", "h1").text
    assert NOT_FOUND_TITLES[lang] in heading
    # styled from the site's root although served one folder down: the theme's colours apply
    primary = browser.execute_script(
        "return getComputedStyle(document.documentElement).getPropertyValue('--pst-color-primary')"
    )
    assert primary.strip()
    links = browser.execute_script(
        "return Array.from(document.querySelectorAll('article a'), a => a.href)"
    )
    assert f"{served}/docs/{lang}/index.html" in links
    texts, code = browser.execute_script(_READ_ALL_TEXT)
    english = [t for t in texts if english_outside_code(t, _identifiers(code))]
    assert english == []
    folder = SCREENSHOTS / lang
    folder.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(folder / "404.png"))
