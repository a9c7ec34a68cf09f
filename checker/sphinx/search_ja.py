"""Japanese search-index words, split once per distinct text.

For a Japanese build Sphinx splits every text node of every page into words with
``sphinx.search.ja.DefaultSplitter`` (TinySegmenter, pure Python): in this project a third of
the Japanese build. Much of the text repeats (badges, evidence labels, table cells, the same
terms on many pages) and the split is a pure function of the text, so
:class:`CachingSplitter` remembers each text's words, and splits a new text with the same
TinySegmenter model and arithmetic written with local lookups (``dict.get`` instead of a
method call per feature, each character's type looked up once): the same search index
(``tests/test_build_speed_identity.py`` compares it byte for byte), computed faster. The
words of each text are also kept between builds (:mod:`checker.sphinx.text_store`). It is
used when the build is Japanese and ``html_search_options`` names no splitter of its own.
"""

from __future__ import annotations

import sys
from pathlib import Path

import sphinx
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.search.ja import DefaultSplitter

from checker.sphinx.text_store import TextStore, code_digest, text_store


def setup_search_ja(app: Sphinx) -> None:
    app.connect("config-inited", _use_caching_splitter)
    app.connect("builder-inited", _open_store)


def _use_caching_splitter(app: Sphinx, config: Config) -> None:
    if config.language != "ja" or not config.checker_fast_i18n:
        return
    options = dict(config.html_search_options or {})
    if "type" not in options:
        options["type"] = f"{__name__}.CachingSplitter"
        config.html_search_options = options


#: The words kept between builds, for the splitter Sphinx creates (it passes only options).
_store: TextStore | None = None


def _open_store(app: Sphinx) -> None:
    global _store  # noqa: PLW0603  one build per process at a time
    if app.config.language == "ja" and app.config.checker_fast_i18n:
        version = f"{sphinx.__version__}:{code_digest(sys.modules[__name__])}"
        _store = text_store(Path(app.confdir), "ja", "search-words", version)


class CachingSplitter(DefaultSplitter):
    """TinySegmenter, remembering the words of each text it has split."""

    def __init__(self, options: dict[str, str]) -> None:
        super().__init__(options)
        self._store = _store if _store is not None else TextStore(None, "")
        self._types: dict[str, str] = {}

    def split(self, input: str) -> list[str]:
        words = self._store.get(input)
        if words is None:
            words = self._segment(input)
            self._store.put(input, words)
        return list(words)

    def _char_type(self, char: str) -> str:
        found = self._types.get(char)
        if found is None:
            found = self._types[char] = self.ctype_(char)
        return found

    def _segment(self, input: str) -> list[str]:
        """``DefaultSplitter.split`` (TinySegmenter), the same features and scores."""
        if not input:
            return []
        up1, up2, up3 = self.UP1__.get, self.UP2__.get, self.UP3__.get
        bp1, bp2 = self.BP1__.get, self.BP2__.get
        uw1, uw2, uw3 = self.UW1__.get, self.UW2__.get, self.UW3__.get
        uw4, uw5, uw6 = self.UW4__.get, self.UW5__.get, self.UW6__.get
        bw1, bw2, bw3 = self.BW1__.get, self.BW2__.get, self.BW3__.get
        tw1, tw2, tw3, tw4 = self.TW1__.get, self.TW2__.get, self.TW3__.get, self.TW4__.get
        uc1, uc2, uc3 = self.UC1__.get, self.UC2__.get, self.UC3__.get
        uc4, uc5, uc6 = self.UC4__.get, self.UC5__.get, self.UC6__.get
        bc1, bc2, bc3 = self.BC1__.get, self.BC2__.get, self.BC3__.get
        tc1, tc2, tc3, tc4 = self.TC1__.get, self.TC2__.get, self.TC3__.get, self.TC4__.get
        uq1, uq2 = self.UQ1__.get, self.UQ2__.get
        bq1, bq2, bq3, bq4 = self.BQ1__.get, self.BQ2__.get, self.BQ3__.get, self.BQ4__.get
        tq1, tq2, tq3, tq4 = self.TQ1__.get, self.TQ2__.get, self.TQ3__.get, self.TQ4__.get
        bias = self.BIAS__
        result = []
        seg = ["B3", "B2", "B1", *input, "E1", "E2", "E3"]
        ctype = ["O", "O", "O", *map(self._char_type, input), "O", "O", "O"]
        word = seg[3]
        p1 = p2 = p3 = "U"
        for i in range(4, len(seg) - 3):
            w1, w2, w3, w4, w5, w6 = seg[i - 3 : i + 3]
            c1, c2, c3, c4, c5, c6 = ctype[i - 3 : i + 3]
            score = (
                bias
                + up1(p1, 0)
                + up2(p2, 0)
                + up3(p3, 0)
                + bp1(p1 + p2, 0)
                + bp2(p2 + p3, 0)
                + uw1(w1, 0)
                + uw2(w2, 0)
                + uw3(w3, 0)
                + uw4(w4, 0)
                + uw5(w5, 0)
                + uw6(w6, 0)
                + bw1(w2 + w3, 0)
                + bw2(w3 + w4, 0)
                + bw3(w4 + w5, 0)
                + tw1(w1 + w2 + w3, 0)
                + tw2(w2 + w3 + w4, 0)
                + tw3(w3 + w4 + w5, 0)
                + tw4(w4 + w5 + w6, 0)
                + uc1(c1, 0)
                + uc2(c2, 0)
                + uc3(c3, 0)
                + uc4(c4, 0)
                + uc5(c5, 0)
                + uc6(c6, 0)
                + bc1(c2 + c3, 0)
                + bc2(c3 + c4, 0)
                + bc3(c4 + c5, 0)
                + tc1(c1 + c2 + c3, 0)
                + tc2(c2 + c3 + c4, 0)
                + tc3(c3 + c4 + c5, 0)
                + tc4(c4 + c5 + c6, 0)
                + uq1(p1 + c1, 0)
                + uq2(p2 + c2, 0)
                + uq1(p3 + c3, 0)  # sic: Sphinx's model uses UQ1 here too
                + bq1(p2 + c2 + c3, 0)
                + bq2(p2 + c3 + c4, 0)
                + bq3(p3 + c2 + c3, 0)
                + bq4(p3 + c3 + c4, 0)
                + tq1(p2 + c1 + c2 + c3, 0)
                + tq2(p2 + c2 + c3 + c4, 0)
                + tq3(p3 + c1 + c2 + c3, 0)
                + tq4(p3 + c2 + c3 + c4, 0)
            )
            p = "O"
            if score > 0:
                result.append(word.strip())
                word = ""
                p = "B"
            p1, p2, p3 = p2, p3, p
            word += seg[i]
        result.append(word.strip())
        return result
