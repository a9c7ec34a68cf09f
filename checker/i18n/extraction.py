"""Reading the messages of generated text from where they are written, never from a copy.

:func:`extract` gathers what the Sphinx extension can show:

- labels: a mapping of keys to English (the extension's ``ui_text.LABELS``; the key is the
  ``msgctxt``), given by the caller;
- decision rules: every ``rule=`` keyword in the modules that define the loaded claims'
  probes and the helpers of their packages that the probes call, read from their syntax
  tree (an f-string becomes one message whose fields are ``{placeholders}``), and the rules
  of recorded evidence that no source rule produces (a stale recording still shows on the
  pages);
- control labels and reasons for no control: each claim's ``Control.label`` or
  ``no_control``, shown in its evidence panel;
- reasons a device was not run: the literal reason given to ``Presence``, ``not_run`` or an
  ``"absent"`` result in :mod:`checker.devices`, :mod:`checker.runner`, :mod:`checker.worker`,
  and to ``NotApplicable`` in the claim modules; and why a probe's job failed, the literal
  ``failure=`` of a ``JobResult`` in :mod:`checker.pool` (a timeout, a crash).

A rule that is not a literal cannot be translated: it is reported, and the rest goes on.
:func:`write_template` writes the messages as a ``.pot`` template.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from checker.claim import Claim
from checker.i18n.generated import Extraction, GeneratedMessage
from checker.registry import DEFAULT_PACKAGE
from checker.source_hash import reached_modules
from checker.text.fields import produces

#: Modules whose literal reasons for a device not run are shown on pages.
REASON_MODULES = ("checker.devices", "checker.runner", "checker.worker", "checker.pool")
_REASON_CALLS = {"Presence": 2, "not_run": 2, "NotApplicable": 0}
#: Calls whose keyword gives a reason: why a probe's job failed (a timeout, a crash).
_REASON_KEYWORDS = {"JobResult": "failure"}


def extract(
    claims: Iterable[Claim],
    root: Path,
    recorded: Iterable[Path] = (),
    labels: Mapping[str, str] | None = None,
    labels_file: Path | None = None,
) -> Extraction:
    """Every message the extension can show, in a stable order: ``labels`` (written in
    ``labels_file``) first, then the rules, control labels and reasons."""
    found: dict[tuple[str | None, str], GeneratedMessage] = {}
    problems: list[tuple[str, int, str]] = []
    labels_path = _relative(labels_file, root) if labels_file is not None else "labels"
    for key, english in (labels or {}).items():
        _add(found, GeneratedMessage(english, key, (labels_path,), "label"))
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
            if not any(produces(m.msgid, rule) for m in found.values() if m.context is None):
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
            keyword = _REASON_KEYWORDS.get(node.func.id)
            for given in node.keywords if keyword is not None else ():
                if given.arg == keyword and isinstance(given.value, ast.Constant | ast.JoinedStr):
                    yield given.value
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


def write_template(extraction: Extraction, path: Path, domain: str) -> None:
    """Write the messages as a ``.pot`` template, as the gettext builder writes the pages'."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    catalog = Catalog(project="checker", domain=domain, charset="utf-8")
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
