"""The text the Sphinx extension generates, as messages of its gettext domain, and the check
of their catalogs (``checker/sphinx/locale/<lang>/LC_MESSAGES/checker.po``).

:func:`extract` reads the messages from where they are written, never from a copy:

- labels: :data:`checker.sphinx.ui_text.LABELS` (``msgctxt`` is the key);
- decision rules: every ``rule=`` keyword in the modules that define the loaded claims'
  probes and the helpers of their packages that the probes call, read from their syntax
  tree (an f-string becomes one message whose fields are ``{placeholders}``), and the rules
  of recorded evidence that no source rule produces (a stale recording still shows on the
  pages);
- control labels and reasons for no control: each claim's ``Control.label`` or
  ``no_control``, shown in its evidence panel;
- reasons a device was not run: the literal reason given to ``Presence``, ``not_run`` or an
  ``"absent"`` result in :mod:`checker.devices`, :mod:`checker.runner`, :mod:`checker.worker`,
  and to ``NotApplicable`` in the claim modules.

A rule that is not a literal cannot be translated: it is reported, and the rest goes on.
:func:`check_catalog` judges one language's catalog with the same findings as a page's
catalog (missing, out of date, untranslated, fuzzy, malformed) and the checks that apply to
plain text: placeholders, numbers, code words, HTML and the glossary.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from checker.claim import Claim
from checker.i18n.checks import glossary as glossary_check
from checker.i18n.checks import security, structure
from checker.i18n.checks.completeness import PageCoverage
from checker.i18n.findings import Check, Severity, TranslationFinding
from checker.i18n.glossary import Glossary
from checker.i18n.message import Message
from checker.registry import DEFAULT_PACKAGE
from checker.source_hash import reached_modules
from checker.sphinx.messages import DOMAIN, FIELD, template_pattern
from checker.text.po import merged_messages, read_catalog
from checker.typing import Lang

#: How the generated catalog is named in findings and coverage.
PAGE = "(generated text)"
#: How the theme's labels are named in findings and coverage.
THEME_PAGE = "(theme labels)"
#: Modules whose literal reasons for a device not run are shown on pages.
REASON_MODULES = ("checker.devices", "checker.runner", "checker.worker")
_REASON_CALLS = {"Presence": 2, "not_run": 2, "NotApplicable": 0}
#: Words of a rule that are code: API names, calls, indexing, operators.
_CODE_WORD = re.compile(r"[\w.\[\]():=*'\"-]*(?:\w_\w|\w\.\w|\(|\[|\*\*|=)[\w.\[\]():=*'\"-]*")
_PERCENT_FIELD = re.compile(r"%\([A-Za-z_]\w*\)[sd]")
_CODE_TRIGGER = re.compile(r"\w_\w|\w\.\w|\w\(|\[|\*\*|=")


@dataclass(frozen=True)
class GeneratedMessage:
    """One message of the ``checker`` domain."""

    msgid: str
    context: str | None
    #: ``path:line`` where the English is written.
    locations: tuple[str, ...]
    #: For translators: what the message is (``label``, ``decision rule of amp/...``).
    comment: str

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.context, self.msgid)


@dataclass(frozen=True)
class Extraction:
    messages: tuple[GeneratedMessage, ...]
    #: ``(path, line, text)`` of rules that could not be read as text.
    problems: tuple[tuple[str, int, str], ...] = ()


def extract(claims: Iterable[Claim], root: Path, recorded: Iterable[Path] = ()) -> Extraction:
    """Every message the extension can show, in a stable order."""
    from checker.sphinx.ui_text import LABELS

    found: dict[tuple[str | None, str], GeneratedMessage] = {}
    problems: list[tuple[str, int, str]] = []
    ui_path = _relative(
        Path(inspect.getfile(importlib.import_module("checker.sphinx.ui_text"))), root
    )
    for key, english in LABELS.items():
        _add(found, GeneratedMessage(english, key, (ui_path,), "label"))
    claims_list = list(claims)
    probe_modules = _claim_modules(claims_list)
    for module_name in sorted(probe_modules):
        for message, problem in _literals(module_name, root, _rule_nodes):
            if problem:
                problems.append(problem)
            elif message is not None:
                _add(found, GeneratedMessage(message[0], None, (message[1],), "decision rule"))
    for generated in _claim_messages(claims_list, root):
        _add(found, generated)
    for module_name in REASON_MODULES + tuple(sorted(probe_modules)):
        for message, _problem in _literals(module_name, root, _reason_nodes):
            if message is not None:
                _add(found, GeneratedMessage(message[0], None, (message[1],), "reason"))
    for path in recorded:
        for rule in _recorded_rules(path):
            if not any(_produces(m.msgid, rule) for m in found.values() if m.context is None):
                text = "decision rule of recorded evidence, not in the probes' source any more"
                _add(found, GeneratedMessage(rule, None, (_relative(path, root),), text))
    return Extraction(tuple(found.values()), tuple(problems))


def _claim_modules(claims: list[Claim]) -> set[str]:
    """The modules that define the claims' probes, and the modules of the claim packages that
    hold helpers the probes call: a rule may be written in a helper that several sections of a
    topic share (``checker/claims/<topic>/_model.py``)."""
    found = {claim.probe.__module__ for claim in claims}
    for claim in claims:
        probes = (claim.probe,) if claim.control is None else (claim.probe, claim.control.probe)
        found |= {m for m in reached_modules(*probes) if m.startswith(DEFAULT_PACKAGE + ".")}
    return found


def _claim_messages(claims: list[Claim], root: Path) -> Iterator[GeneratedMessage]:
    sources: dict[Path, list[str]] = {}  # each claim module read once
    for claim in claims:
        path = Path(inspect.getfile(claim.probe))
        if path not in sources:
            sources[path] = _lines(path)
        for english, what in _claim_texts(claim):
            where = _written_at(path, sources[path], english, root)
            yield GeneratedMessage(english, None, (where,), f"{what} of {claim.id}")


def _claim_texts(claim: Claim) -> list[tuple[str, str]]:
    """The control's label, or the reason the claim has none: both are shown in its
    evidence panel."""
    if claim.control is not None:
        return [(claim.control.label, "control")]
    return [(claim.no_control, "reason for no control")] if claim.no_control else []


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []


def _written_at(path: Path, lines: list[str], english: str, root: Path) -> str:
    """``path:line`` of the first of the module's ``lines`` holding the text's start (a
    label may be split over lines); the module alone when none does."""
    start = english[:24]
    for number, line in enumerate(lines, start=1):
        if start in line:
            return f"{_relative(path, root)}:{number}"
    return _relative(path, root)


def _add(found: dict[tuple[str | None, str], GeneratedMessage], message: GeneratedMessage) -> None:
    known = found.get(message.key)
    if known is None:
        found[message.key] = message
    else:
        locations = tuple(dict.fromkeys(known.locations + message.locations))
        found[message.key] = GeneratedMessage(known.msgid, known.context, locations, known.comment)


def _produces(msgid: str, text: str) -> bool:
    if msgid == text:
        return True
    found = template_pattern(msgid)
    return found is not None and found[0].fullmatch(text) is not None


_Literal = tuple[tuple[str, str] | None, tuple[str, int, str] | None]


def _literals(module_name: str, root: Path, select: object) -> Iterator[_Literal]:
    """``((text, location), None)`` per literal the selector finds, ``(None, problem)`` for a
    value that is not a literal."""
    module = importlib.import_module(module_name)
    path = Path(inspect.getfile(module))
    where = _relative(path, root)
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    assert callable(select)
    for node in select(tree):
        if isinstance(node, ast.Attribute) and node.attr == "rule":
            continue  # another observation's rule, passed on: extracted where it is written
        texts = _variants(node)
        if texts is None:
            yield None, (where, node.lineno, f"not a literal: {ast.unparse(node)}")
            continue
        for text in texts:
            if text.strip():
                yield (text, f"{where}:{node.lineno}"), None


def _rule_nodes(tree: ast.AST) -> Iterator[ast.expr]:
    """``rule=`` of any call, and the second argument of ``Observation(holds, rule, ...)``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield from (k.value for k in node.keywords if k.arg == "rule")
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name == "Observation" and len(node.args) > 1:
                yield node.args[1]


def _reason_nodes(tree: ast.AST) -> Iterator[ast.expr]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            index = _REASON_CALLS.get(node.func.id)
            if index is not None and len(node.args) > index:
                value = node.args[index]
                if isinstance(value, ast.Constant | ast.JoinedStr):
                    yield value
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                is_reason = isinstance(key, ast.Constant) and key.value == "absent"
                if is_reason and isinstance(value, ast.Constant | ast.JoinedStr):
                    yield value


def _variants(node: ast.expr) -> list[str] | None:
    """Every text a rule can be: a literal, or literals joined with ``+`` where a part is a
    conditional between literals (``"holds if " + ("a" if x else "b")`` is two messages, as
    a probe and its control state the same rule on two cases); None for anything else."""
    if isinstance(node, ast.IfExp):
        body, orelse = _variants(node.body), _variants(node.orelse)
        return None if body is None or orelse is None else body + orelse
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _variants(node.left), _variants(node.right)
        if left is None or right is None:
            return None
        return [a + b for a in left for b in right]
    text = _text(node)
    return None if text is None else [text]


def _text(node: ast.expr) -> str | None:
    """A string literal as written, an f-string with ``{field}`` placeholders, or None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                parts.append(value.value)
            elif isinstance(value, ast.FormattedValue):
                parts.append("{" + ast.unparse(value.value) + "}")
            else:
                return None
        return "".join(parts)
    return None


def _recorded_rules(path: Path) -> list[str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return sorted({str(v["rule"]) for v in data["claims"].values()})
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return []  # unreadable recordings are the record command's business


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


# -- the template ------------------------------------------------------------------------


def write_template(extraction: Extraction, path: Path) -> None:
    """Write the messages as a ``.pot`` template, as the gettext builder writes the pages'."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    catalog = Catalog(project="checker", domain=DOMAIN, charset="utf-8")
    for message in extraction.messages:
        catalog.add(
            message.msgid,
            context=message.context,
            locations=[_location(loc) for loc in message.locations],
            auto_comments=[message.comment],
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalog, width=76, omit_header=False)


def _location(where: str) -> tuple[str, int]:
    path, _, line = where.rpartition(":")
    if path and line.isdigit():
        return (path, int(line))
    return (where, 0)  # Babel writes a location without a line as the bare path


# -- the check ---------------------------------------------------------------------------


def theme_messages() -> tuple[GeneratedMessage, ...]:
    """The labels of the HTML theme (pydata-sphinx-theme's ``sphinx.pot``); none when the
    theme is not installed."""
    try:
        import pydata_sphinx_theme  # type: ignore[import-untyped]
    except ImportError:
        return ()
    pot = Path(pydata_sphinx_theme.__file__).parent / "locale" / "sphinx.pot"
    return tuple(
        GeneratedMessage(m.msgid, m.msgctxt, ("pydata_sphinx_theme/locale/sphinx.pot",), "theme")
        for m in merged_messages(read_catalog(pot))
        if m.msgid and m.msgid_plural is None
    )


def check_catalog(
    path: Path,
    shown_path: str,
    lang: Lang,
    messages: tuple[GeneratedMessage, ...],
    glossary: Glossary | None,
    *,
    page: str = PAGE,
) -> tuple[list[TranslationFinding], PageCoverage]:
    """The findings of one language's catalog of generated text and its coverage."""
    template = {m.key: m for m in messages}
    findings: list[TranslationFinding] = []
    if not path.exists():
        text = f"no catalog for the {page[1:-1]}: run 'nox -s translation -- {lang}'"
        findings.append(_finding(shown_path, 1, lang, Check.MISSING_CATALOG, text, page=page))
        return findings, PageCoverage(lang, page, len(template), 0, 0, has_catalog=False)
    catalog = read_catalog(path, lang)
    findings += [
        _finding(shown_path, p.line, lang, Check(p.kind.value), p.message, page=page)
        for p in catalog.problems
    ]
    if catalog.fatal:
        return findings, PageCoverage(lang, page, len(template), 0)
    translated = fuzzy = 0
    present = set()
    for entry in catalog.entries:
        key = (entry.msgctxt, entry.msgid)
        message = Message(shown_path, lang, page, entry, entry.msgstr, glossary=glossary)
        if entry.obsolete:
            findings.append(message.finding(Check.OBSOLETE, "an obsolete (#~) entry: delete it"))
            continue
        present.add(key)
        if key not in template:
            text = "the extension no longer generates this message: run 'nox -s i18n'"
            findings.append(message.finding(Check.OUT_OF_DATE, text, line=entry.msgid_line))
        elif entry.fuzzy:
            text = "marked fuzzy: check the translation against the changed English"
            findings.append(message.finding(Check.FUZZY, text, line=entry.flags_line or entry.line))
            fuzzy += 1
        elif not entry.translated:
            findings.append(message.finding(Check.UNTRANSLATED, "not translated yet"))
        else:
            translated += 1
            findings += check_message(message)
    missing = [m for key, m in template.items() if key not in present]
    if missing:
        first = missing[0].msgid if len(missing[0].msgid) < 70 else missing[0].msgid[:67] + "..."
        text = (
            f"{len(missing)} generated message(s) missing from the catalog (first: {first!r}): "
            f"run 'nox -s i18n'"
        )
        findings.append(_finding(shown_path, 1, lang, Check.OUT_OF_DATE, text, page=page))
    return findings, PageCoverage(lang, page, len(template), translated, fuzzy)


def problem_findings(extraction: Extraction) -> list[TranslationFinding]:
    """A rule that cannot be extracted, once for all languages."""
    return [
        TranslationFinding(
            where, line, "", PAGE, Check.INTERNAL, Severity.ERROR, f"decision rule {text}"
        )
        for where, line, text in extraction.problems
    ]


def check_message(message: Message) -> list[TranslationFinding]:
    """The checks of a translated generated message: the plain-text ones."""
    found = list(_placeholders(message))
    found += _code_words(message)
    found += security.check_plain_text(message)
    found += structure.check_numbers(message)
    # the glossary judges the words, not the code: "view" in a.view(2, 1) is no ビュー
    english = FIELD.sub(" ", message.english)
    for word in _code_in(english):
        english = english.replace(word, " ")
    words_only = dataclasses.replace(
        message, entry=dataclasses.replace(message.entry, msgid=english)
    )
    found += glossary_check.check(words_only)
    return found


def _placeholders(message: Message) -> Iterator[TranslationFinding]:
    english = Counter(_fields(message.english))
    translated = Counter(_fields(message.translation))
    if english != translated:
        missing = sorted((english - translated).elements())
        extra = sorted((translated - english).elements())
        parts = [f"drops {m}" for m in missing] + [f"adds {e}" for e in extra]
        text = f"placeholders differ: {', '.join(parts)}; keep every placeholder of the English"
        yield message.finding(Check.SUBSTITUTION, text)


def _fields(text: str) -> list[str]:
    """``{name}`` fields and ``%(name)s`` placeholders (the theme's)."""
    return [m[0] for m in FIELD.finditer(text)] + _PERCENT_FIELD.findall(text)


def _code_words(message: Message) -> Iterator[TranslationFinding]:
    for word in dict.fromkeys(_code_in(message.english)):
        if word not in message.translation:
            text = f"the English's code {word!r} is missing; code is never translated"
            yield message.finding(Check.CODE_LITERAL, text)


def _code_in(text: str) -> Iterator[str]:
    """The code words of ``text``, without the sentence's own punctuation and parentheses."""
    for match in _CODE_WORD.finditer(FIELD.sub(" ", text)):
        word = match[0].rstrip(".,;:")
        while word.count("(") < word.count(")") and word.endswith(")"):
            word = word[:-1]  # the closing parenthesis of the sentence, not of the call
        if word.startswith("(") and word.count("(") > word.count(")"):
            word = word[1:]
        if word.startswith("(") and word.endswith(")"):
            word = word[1:-1]  # a parenthesised code word: "(use_reentrant=False)"
        if len(word) > 1 and _CODE_TRIGGER.search(word):
            yield word


def _finding(
    path: str, line: int, lang: str, check: Check, text: str, *, page: str
) -> TranslationFinding:
    return TranslationFinding(path, line, lang, page, check, check.severity, text)
