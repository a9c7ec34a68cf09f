"""The glossary of preferred terms per language, ``locales/glossary.toml``.

Format: one ``[[term]]`` table per English term, with the preferred translations and,
optionally, variants to avoid::

    [[term]]
    en = "storage"
    ja = "ストレージ"            # or a list: ["ストレージ", "記憶域"]
    ko = "스토리지"
    avoid = { ja = ["記憶領域"], ko = ["저장소"] }

``enforce`` says how a term is checked: ``"preferred"`` (the default) wants one of the
preferred translations wherever the English has the term, and none of the variants to avoid;
``"avoid"`` only refuses the variants where the English has the term (a common word such as
"line" or "default" is often translated by other means); ``"anywhere"`` is a house style
rather than a word of the English: its variants are refused in every message, whatever the
English says (counters such as ひとつ against 1 つ); ``"settled"`` is a choice between two
words for one concept: its variants are errors in every message
(:mod:`checker.i18n.checks.terms`). A term's preferred translations also
allow the variants of other terms that they contain: "row" (행) allows 행 in a message that
also speaks of a line (줄).

:func:`load_glossary` raises :class:`GlossaryError` with the line of the problem; the
translation checks report it as a finding, the docs build as a warning.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from checker.text.languages import TRANSLATED

_TOML_LINE = re.compile(r"at line (\d+)")
_TERM_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*term[ \t]*\]\]", re.MULTILINE)
#: The ways a term is checked, see the module's docstring.
ENFORCE = ("preferred", "avoid", "anywhere", "settled")


class GlossaryError(Exception):
    """The glossary cannot be used; :attr:`line` says where."""

    def __init__(self, path: Path, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path = path
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Term:
    """An English term and its translations."""

    en: str
    #: Preferred translations per language, first one shown first.
    preferred: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Variants to avoid, per language.
    avoid: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Line of the term's ``[[term]]`` header.
    line: int = 0
    #: How the term is checked: ``preferred``, ``avoid`` or ``anywhere`` (see the module).
    enforce: str = "preferred"

    @property
    def pattern(self) -> re.Pattern[str]:
        """The English term as a whole word or phrase, any case, with -s, -es, -d or -ed."""
        words = r"\s+".join(map(re.escape, self.en.split()))
        return re.compile(rf"(?<![\w-]){words}(?:s|es|d|ed)?(?![\w-])", re.IGNORECASE)


@dataclass(frozen=True)
class Glossary:
    """Every term, in file order."""

    path: Path
    terms: tuple[Term, ...] = ()
    #: The register of each language's prose, as the glossary's ``[register]`` notes it
    #: (checked by :mod:`checker.i18n.checks.register`).
    register: dict[str, str] = field(default_factory=dict)


def load_glossary(path: Path) -> Glossary:
    """Read and validate ``path``. Raises :class:`GlossaryError`."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise GlossaryError(path, 1, "the glossary file does not exist") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise GlossaryError(path, 1, f"cannot read the glossary: {exc}") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = _TOML_LINE.search(str(exc))
        last = len(text.rstrip("\n").split("\n"))  # "at end of document" has no line
        raise GlossaryError(path, int(match[1]) if match else last, f"not TOML: {exc}") from exc
    lines = [text.count("\n", 0, m.start()) + 1 for m in _TERM_HEADER.finditer(text)]
    unknown = set(data) - {"term", "register"}
    if unknown:
        raise GlossaryError(path, 1, f"unknown top-level keys {sorted(unknown)}; use [[term]]")
    register = data.get("register", {})
    if not isinstance(register, dict) or not all(isinstance(v, str) for v in register.values()):
        raise GlossaryError(path, 1, "[register] must map languages to a note")
    raw_terms = data.get("term", [])
    if not isinstance(raw_terms, list):
        raise GlossaryError(path, 1, "'term' must be an array of tables: [[term]]")
    terms = []
    for index, raw in enumerate(raw_terms):
        line = lines[index] if index < len(lines) else 1
        terms.append(_term(path, line, raw))
    return Glossary(path, tuple(terms), register)


def _term(path: Path, line: int, raw: object) -> Term:
    if not isinstance(raw, dict):
        raise GlossaryError(path, line, "a [[term]] must be a table")
    unknown = set(raw) - {"en", "avoid", "note", "enforce", *TRANSLATED}
    if unknown:
        raise GlossaryError(path, line, f"unknown keys {sorted(unknown)} in [[term]]")
    en = raw.get("en")
    if not isinstance(en, str) or not en.strip():
        raise GlossaryError(path, line, 'a [[term]] needs en = "the English term"')
    preferred: dict[str, tuple[str, ...]] = {
        lang: _strings(path, line, raw[lang], lang) for lang in TRANSLATED if lang in raw
    }
    avoid_raw = raw.get("avoid", {})
    if not isinstance(avoid_raw, dict) or set(avoid_raw) - set(TRANSLATED):
        raise GlossaryError(path, line, f"avoid must be a table of {list(TRANSLATED)} lists")
    avoid = {
        lang: _strings(path, line, value, f"avoid.{lang}") for lang, value in avoid_raw.items()
    }
    enforce = raw.get("enforce", "preferred")
    if enforce not in ENFORCE:
        raise GlossaryError(path, line, f"enforce must be one of {list(ENFORCE)}")
    if enforce in ("anywhere", "settled") and not avoid:
        raise GlossaryError(
            path, line, f'a term with enforce = "{enforce}" needs variants to avoid'
        )
    return Term(en.strip(), preferred, avoid, line, enforce)


def _strings(path: Path, line: int, value: object, name: str) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    if (
        not isinstance(items, list)
        or not items
        or not all(isinstance(v, str) and v.strip() for v in items)
    ):
        raise GlossaryError(path, line, f"{name} must be a non-empty string or list of strings")
    return tuple(v.strip() for v in items)
