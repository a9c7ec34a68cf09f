"""The extension's own gettext domain, ``checker``: every word it writes on a page.

The English is the ``msgid``; the translations live in
``checker/sphinx/locale/<lang>/LC_MESSAGES/checker.po`` and are compiled in memory
(:mod:`checker.text.mo`, as Sphinx compiles page catalogs) the first time a build needs them,
so no stale ``.mo`` file is ever read. :mod:`checker.sphinx.generated_text` lists the messages
and the translation gate checks the catalogs:

- labels (badges, headings, units), with their key in :mod:`checker.sphinx.ui_text` as
  ``msgctxt``;
- the decision rule of every probe and the reasons a device was not run, without context.
  A rule built by an f-string is one message whose fields are ``{placeholders}``
  (:mod:`checker.text.fields`): the text a probe returned is matched against it, and the
  translation gets the same values, each in the language where the catalog translates it
  (a label ``value-<value>``, such as ``value-no-grad``) and lists re-joined with the
  language's separators (:mod:`checker.text.values`).

A message that is missing, untranslated or fuzzy shows its English; the translation gate
reports it, the build never breaks on it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from gettext import GNUTranslations
from pathlib import Path

from checker.text import mo
from checker.text.fields import fill, template_pattern
from checker.text.po import read_catalog
from checker.text.values import tidy, translated_values

#: The gettext domain of the extension.
DOMAIN = "checker"
#: The domain of the HTML theme's labels, translated beside the extension's.
THEME_DOMAIN = "sphinx"
#: ``<lang>/LC_MESSAGES/checker.po`` under this folder.
LOCALE_DIR = Path(__file__).with_name("locale")


def catalog_path(lang: str, locale_dir: Path | None = None, domain: str = DOMAIN) -> Path:
    """``<locale_dir>/<lang>/LC_MESSAGES/<domain>.po`` (the extension's own by default)."""
    return (locale_dir or LOCALE_DIR) / lang / "LC_MESSAGES" / f"{domain}.po"


@dataclass(frozen=True)
class _Template:
    """A message with fields, as a pattern over the text it produces."""

    pattern: re.Pattern[str]
    #: Group name of each distinct field, in the order of first appearance.
    groups: dict[str, str]
    translation: str


@dataclass(frozen=True)
class _Domain:
    translations: GNUTranslations | None
    templates: tuple[_Template, ...] = ()


def gettext(lang: str, msgid: str, context: str | None = None) -> str:
    """``msgid`` in ``lang``; the English when no translation is usable."""
    domain = _domain(lang)
    if domain.translations is None or not msgid:
        return msgid
    if context is None:
        return domain.translations.gettext(msgid)
    return domain.translations.pgettext(context, msgid)


def translate_text(lang: str, english: str) -> str:
    """A generated sentence (a rule, a reason) in ``lang``: its own message, else the first
    message with fields that produces it, with the same values; else the English."""
    domain = _domain(lang)
    if domain.translations is None or not english:
        return english
    exact = domain.translations.gettext(english)
    if exact != english:
        return exact
    for template in domain.templates:
        match = template.pattern.fullmatch(english)
        if match is not None:
            values = {field: match[group] for field, group in template.groups.items()}

            def own(value: str, translations: GNUTranslations = domain.translations) -> str:
                return translations.pgettext(f"value-{value}", value)

            return tidy(fill(template.translation, translated_values(values, lang, own)), lang)
    return english


_PATHS: dict[tuple[Path, str], Path] = {}


def _domain(lang: str) -> _Domain:
    # asked for every word a page shows: the path is built once per folder and language
    path = _PATHS.get((LOCALE_DIR, lang))
    if path is None:
        path = _PATHS[(LOCALE_DIR, lang)] = catalog_path(lang)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return _Domain(None)
    return _load(path, stamp)


@functools.lru_cache(maxsize=8)
def _load(path: Path, stamp: int) -> _Domain:
    """Compile the catalog (``stamp`` keys the cache to the file's version)."""
    catalog = read_catalog(path)  # a broken catalog is the gate's finding; what it trusts shows
    translations = mo.translations(catalog)  # fuzzy and untranslated messages are left out
    if translations is None:
        return _Domain(None)
    templates = []
    for message in mo.gettext_messages(catalog):
        if not message.msgid or message.msgctxt or message.msgid_plural is not None:
            continue
        found = template_pattern(message.msgid)
        if found is not None:
            templates.append(_Template(found[0], found[1], message.msgstr))
    return _Domain(translations, tuple(templates))
