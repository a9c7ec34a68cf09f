"""What a translation check reports: a :class:`TranslationFinding` on a line of a ``.po`` file.

Every kind of problem is a member of :class:`Check`, with a docstring saying what it means
and how to fix it (the same text ``CONTRIBUTING.md`` shows translators), a family and a
severity. Errors fail the gate; warnings are shown and do not.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from checker.text.said import Said, said

__all__ = ["Check", "Said", "Severity", "TranslationFinding", "said"]


class Severity(enum.Enum):
    """How a finding counts: errors fail ``python -m checker i18n``, warnings do not."""

    ERROR = "error"
    WARNING = "warning"


class Check(enum.Enum):
    """The kinds of findings, by family. The value is the name used in every output."""

    # -- completeness --------------------------------------------------------------------
    MISSING_CATALOG = "missing-catalog"
    """An English page has no catalog in this language: run ``nox -s translation -- LANG``."""
    OUT_OF_DATE = "out-of-date"
    """The catalog and the English templates disagree: English messages are missing from it,
    or it holds messages the English no longer has. Run ``nox -s translation -- LANG``."""
    UNTRANSLATED = "untranslated"
    """An entry has an empty ``msgstr``: the page would show English there."""
    FUZZY = "fuzzy"
    """An entry is marked ``#, fuzzy``: the English changed since it was translated. Check the
    translation against the new English, then remove the flag."""
    OBSOLETE = "obsolete"
    """An entry is commented out with ``#~`` (the English no longer has it). Delete it."""

    # -- malformed catalogs ----------------------------------------------------------------
    SYNTAX = "syntax"
    """The file does not follow the PO grammar (unterminated string, unknown keyword, bad
    escape, ``msgstr`` without ``msgid``). Nothing else in the catalog is checked until fixed."""
    ENCODING = "encoding"
    """The file is not UTF-8 text: invalid bytes, binary data, or a ``charset`` other than
    UTF-8 in its header."""
    HEADER = "header"
    """The header entry is missing, or its ``Language`` or ``Plural-Forms`` is wrong for the
    catalog's language (Japanese and Korean: ``nplurals=1; plural=0;``)."""
    DUPLICATE = "duplicate"
    """The same ``msgid`` (in the same ``msgctxt``) appears twice; gettext keeps only one."""

    # -- structure -------------------------------------------------------------------------
    ROLE = "role"
    """A role of the English (``{measured}``, ``{verdict}``, ``{ref}``, ...) is missing,
    added or changed. Its content must stay as in the English; only the title of a
    cross-reference, ``{ref}`title <target>```, is translated."""
    LINK = "link"
    """A link of the English is missing, or its target changed. Translate the link text,
    keep the target."""
    INLINE_MARKUP = "inline-markup"
    """Emphasis or strong emphasis differs from the English, often because ``*`` or ``**``
    next to Japanese or Korean punctuation does not parse: put the punctuation inside the
    markup, or leave a space."""
    SUBSTITUTION = "substitution"
    """A ``{{ substitution }}`` of the English is missing, added or changed; in generated
    text, a ``{placeholder}`` or ``%(name)s`` the page fills in."""
    NUMBER = "number"
    """A number of the English is missing or changed, the translation adds one (in digits or
    in Han or Hangul numerals: ``八十``, ``사십``), repeats one other than 0, 1 or 2 more
    often than the English, or gives the English's numbers in another order (each value's
    first occurrences are compared, so a repeated number cannot hide a swap). Write numbers
    in digits (a number the English spells out, such as "four", may be written ``4``)."""
    UNIT = "unit"
    """A number the English gives with a unit has another unit in the translation: ``GiB``
    against ``MiB``, ``KB`` against ``KiB``, seconds (``秒``, ``초``) against minutes (``分``,
    ``분``), ``ms`` against ``s``. Bytes, bits, their multiples, time units and percent are
    compared, whatever script names them (``bytes``, ``バイト``, ``바이트`` are one unit)."""

    # -- code ------------------------------------------------------------------------------
    CODE_LITERAL = "code-literal"
    """An inline code literal (``` `x[:10]` ```) differs from the English. Code is never
    translated."""
    CODE_BLOCK = "code-block"
    """A catalog entry changes a code block or doctest, or a translation adds one. Code is
    not translatable: it is proven identical so that the examples run once, in English."""

    # -- claims ----------------------------------------------------------------------------
    CLAIM_NEGATION = "claim-negation"
    """The translated statement of a claim holds another number of negations than the
    English: negated where the English is not (or the other way round), so the translation
    says the opposite of what the probe proves, or with a negation added or dropped
    elsewhere, which may hide a flipped verb. Sentence-level denials (``…というのは誤りです``,
    ``…은 틀린 말입니다``, "… is false") count as negations; double negations that stay
    affirmative (``珍しくない``, ``ないわけではない``, ``드물지 않다``, "not uncommon") count as
    none. Half-width and katakana endings (``ﾅｲ``) and invisible characters are read as
    what they stand for."""
    CLAIM_APPROVAL = "claim-approval"
    """A claim's translated statement, or a translated decision rule, is not in the reviewed
    list, ``locales/claim-translations.txt``: it is new, or it or its English changed since
    it was reviewed. Review it against the English (who does what to whom, what is negated, every
    number), then run ``python -m checker i18n --approve-claims`` and commit the file."""
    CLAIM_ROLES = "claim-roles"
    """The English and the translation give a noun opposite roles for a verb: "a tensor that
    nothing has saved" (the tensor is saved) translated as a tensor that saved nothing
    (``何も保存していないテンソル``, ``아무것도 저장하지 않은 텐서``). Read where the grammar
    states the role: in English a relative clause, in Japanese and Korean a passive verb
    (``保存されていない``, ``저장되지 않은``), a marked subject or object, or "nothing" in the
    object's place. An error in a claim's statement, a warning elsewhere."""
    CLAIM_VOCABULARY = "claim-vocabulary"
    """The English statement names the claim's subject and predicate (its vocabulary, shared
    with the article scanner) but the translation uses none of the language's words for
    them. Use the listed terms, or ask for the vocabulary to be extended."""

    # -- security --------------------------------------------------------------------------
    HTML = "html"
    """The translation contains raw HTML (``<script>``, ``<img onerror=...>``, any tag) that
    the English does not. MyST would pass it to the page; it is refused."""
    DIRECTIVE = "directive"
    """The translation contains a directive or a dangerous role (``{raw}``, ``{eval-rst}``,
    ``{include}``, ...) that the English does not. Directives run while the translation is
    parsed; they are refused."""
    EXTERNAL_LINK = "external-link"
    """The translation links to a host that the English entry does not link to, or links
    with a scheme other than ``http:`` and ``https:`` (``javascript:``, ``data:``,
    ``file:``...; ``mailto:`` only where the English has the same address)."""
    MYST_SYNTAX = "myst-syntax"
    """The translation adds MyST syntax the English entry does not have (a heading, list,
    image, footnote, target, comment, table): the sentence would change the page's
    structure."""

    # -- glossary --------------------------------------------------------------------------
    GLOSSARY = "glossary"
    """The English uses a glossary term and the translation uses none of the preferred
    translations, or uses a variant the glossary asks to avoid (``locales/glossary.toml``)."""
    CONSISTENCY = "consistency"
    """The same English is translated two ways in the catalogs of a language (a heading, a
    table column, a sentence two pages share): choose one translation and use it everywhere."""
    GLOSSARY_FILE = "glossary-file"
    """``locales/glossary.toml`` is missing or malformed, so terms cannot be checked."""
    TERM = "term"
    """The translation uses a variant of a settled term (``enforce = "settled"`` in
    ``locales/glossary.toml``): one concept has one term in a language, in every message."""
    REGISTER = "register"
    """A sentence ends in another register than the language's (``[register]`` in
    ``locales/glossary.toml``): Japanese です/ます, not …する。/…である。; Korean 합니다/하십시오,
    not …한다. or …하세요."""
    ENGLISH_LEFT = "english-left"
    """Generated text in Japanese or Korean holds an English word outside code: translate it,
    or write it as code if it is an API name (rules and labels name code as it is written)."""

    # -- the run itself ----------------------------------------------------------------------
    INTERNAL = "internal"
    """A step of the check could not run (the English templates did not build, the claim
    modules did not load): the message says which, and the result is incomplete."""

    @property
    def family(self) -> str:
        """The group of checks the member belongs to (``completeness``, ``security``...)."""
        return _FAMILY[self]

    @property
    def severity(self) -> Severity:
        """The severity of the member's findings unless a finding says otherwise."""
        return Severity.WARNING if self in _WARNINGS else Severity.ERROR


_FAMILIES = {
    "completeness": (
        Check.MISSING_CATALOG,
        Check.OUT_OF_DATE,
        Check.UNTRANSLATED,
        Check.FUZZY,
        Check.OBSOLETE,
    ),
    "malformed": (Check.SYNTAX, Check.ENCODING, Check.HEADER, Check.DUPLICATE),
    "structure": (
        Check.ROLE,
        Check.LINK,
        Check.INLINE_MARKUP,
        Check.SUBSTITUTION,
        Check.NUMBER,
        Check.UNIT,
    ),
    "code": (Check.CODE_LITERAL, Check.CODE_BLOCK),
    "claims": (
        Check.CLAIM_NEGATION,
        Check.CLAIM_ROLES,
        Check.CLAIM_APPROVAL,
        Check.CLAIM_VOCABULARY,
    ),
    "security": (Check.HTML, Check.DIRECTIVE, Check.EXTERNAL_LINK, Check.MYST_SYNTAX),
    "glossary": (Check.GLOSSARY, Check.CONSISTENCY, Check.GLOSSARY_FILE, Check.TERM),
    "language": (Check.REGISTER, Check.ENGLISH_LEFT),
    "run": (Check.INTERNAL,),
}
_FAMILY = {check: family for family, checks in _FAMILIES.items() for check in checks}
_WARNINGS = frozenset({Check.OBSOLETE, Check.CLAIM_VOCABULARY, Check.GLOSSARY, Check.CONSISTENCY})


@dataclass(frozen=True)
class TranslationFinding:
    """One problem, at a line of a catalog (or of ``glossary.toml``)."""

    #: The file, relative to the repository root when it lies under it.
    path: str
    #: 1-based line in :attr:`path`.
    line: int
    #: The catalog's language (``""`` for files that belong to no language).
    lang: str
    #: The English page the catalog translates (``topics/amp``), ``""`` if none.
    page: str
    check: Check
    severity: Severity
    message: str
    #: The English message and its translation, when the finding is about one entry.
    msgid: str = ""
    msgstr: str = ""
    #: :attr:`message` as a sentence with fields and their values, where the check wrote it
    #: so: what a page translates (the service's findings page), never the filled English.
    said: Said | None = None

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR
