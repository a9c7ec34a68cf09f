"""The languages the project reads, in one registry: English (the source) first.

:data:`LANGUAGES` is the one list of languages: the docs' languages, the translation gate's,
the scanner's, the service's and the Sphinx extension's all derive from it (:data:`LANGS`,
:data:`TRANSLATED`). :func:`language` gives the :class:`~checker.text.languages.base.Language`
of a code; :func:`detect` says which of them a text is written in.

``checker.typing.Lang`` names the same codes as a ``Literal`` for the type checker; this
module refuses to import when the two disagree.

Adding a language (say ``zh_CN``) to the language layer takes:

1. ``checker/text/languages/zh_cn.py`` defining a ``Language`` with every field of
   :class:`~checker.text.languages.base.Language` filled (its docstrings say what each is
   for, with examples; :data:`~checker.text.languages.base.NEVER`, ``""`` or an empty
   collection where the language has no such construction). For Chinese, in particular:
   its script (``letters=""`` and ``shared_letters="\u4e00-\u9fff"``: every letter it
   writes, Japanese writes too, so :func:`detect` gives it the text written in Han alone,
   and Japanese keeps the text with kana), its sentence marks (``closed_stops="。！？"``),
   ``negation`` (不, 没有, 无) and ``without``, the clause and order fields
   (``verb_final=False``; its order markers 之前/之后 follow their term:
   ``postpositions=True``), the scanner's sentence patterns and the marks of tables;
2. its entry in :data:`LANGUAGES`, and its code in ``checker.typing.Lang``.

Nothing else in the language layer changes: the algorithms (:mod:`checker.text.reading`,
:mod:`checker.scan.statements`, :mod:`checker.scan.order`, :mod:`checker.scan.table`) read
every fact from the ``Language``. The rest of the project then needs what any language
needs: its catalogs under ``locales/zh_CN/``, the words of each claim's ``Vocabulary``, and
the site's labels.
"""

from __future__ import annotations

import functools
import re

import checker.typing
from checker.text.languages.base import Language
from checker.text.languages.en import ENGLISH
from checker.text.languages.ja import JAPANESE
from checker.text.languages.ko import KOREAN
from checker.typing import Lang

#: Every language the project reads, English (the source) first.
LANGUAGES: tuple[Language, ...] = (ENGLISH, JAPANESE, KOREAN)
#: The language the docs are written in, and the one text is read in when nothing says
#: otherwise.
SOURCE: Language = LANGUAGES[0]
#: The codes of :data:`LANGUAGES`, in their order.
LANGS: tuple[Lang, ...] = tuple(lang.code for lang in LANGUAGES)
#: The languages the docs are translated into.
TRANSLATED: tuple[Lang, ...] = LANGS[1:]

if checker.typing.LANGS != LANGS:
    raise ImportError(
        f"checker.typing.Lang names {checker.typing.LANGS}, the language registry {LANGS}: "
        "list each language in both, in the same order"
    )

_BY_CODE: dict[str, Language] = {lang.code: lang for lang in LANGUAGES}


def language(code: str) -> Language:
    """The registered language of ``code`` (a ``KeyError`` naming the known codes if none)."""
    try:
        return _BY_CODE[code]
    except KeyError:
        raise KeyError(f"no language {code!r}: the project reads {', '.join(LANGS)}") from None


def _letters_of(ranges: str) -> re.Pattern[str]:
    return re.compile(f"[{ranges}]")


#: Every letter of a script other than Latin that a language we read writes.
_NON_LATIN = _letters_of("".join(lang.letters + lang.shared_letters for lang in LANGUAGES))
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def cjk_letters(text: str) -> int:
    """How many letters of the registered languages' own scripts (kana, Han, Hangul)
    ``text`` holds."""
    return len(_NON_LATIN.findall(text))


def latin_words(text: str) -> int:
    """How many words of two or more Latin letters ``text`` holds."""
    return len(_LATIN_WORD.findall(text))


@functools.cache
def _own_letters(among: tuple[Language, ...]) -> tuple[tuple[Lang, re.Pattern[str]], ...]:
    """Each language of ``among`` that has letters only it writes, with those letters."""
    return tuple((lang.code, _letters_of(lang.letters)) for lang in among if lang.letters)


def detect(text: str, among: tuple[Language, ...] = LANGUAGES) -> Lang | None:
    """The language of ``text``, one of ``among``: the one whose own letters (kana, Hangul)
    it holds most of (on a tie, the one listed later), else English. English too when such
    letters are few beside Latin words (an English page that quotes a Japanese or Korean
    example).

    Text whose only letters are shared by several languages (Han: Japanese writes it, and
    Chinese) is in the language that writes nothing else, and ``None`` when no language
    read is such: Han without kana is not Japanese, and we do not read Chinese. Callers
    decide what to do with ``None``; none guesses."""
    if cjk_letters(text) < latin_words(text) / 10:
        return SOURCE.code
    count, _, found = max(
        (
            (len(letters.findall(text)), position, code)
            for position, (code, letters) in enumerate(_own_letters(among))
        ),
        default=(0, 0, SOURCE.code),
    )
    if count:
        return found
    shared = [lang for lang in among if lang.shared_letters]
    if not any(_letters_of(lang.shared_letters).search(text) for lang in shared):
        return SOURCE.code
    # only letters that several languages write: the one that writes nothing else
    writers = (lang for lang in shared if not lang.letters)
    return next(
        (lang.code for lang in writers if _letters_of(lang.shared_letters).search(text)), None
    )
