"""Checks that need no claim: every PyTorch name an article uses, resolved against the
installed torch.

* In prose, a dotted name that starts with ``torch.`` (in code markup or not), and a method
  named on a tensor in code markup (``Tensor.ones_``, ``tensor.add_()``).
* In code, every attribute chain rooted at an alias of torch or of one of its modules (from
  the article's imports, or the customary ``torch``, ``nn``, ``F``, ``optim``), every
  ``from torch... import name``, and every in-place method (``name_``) called on a
  placeholder tensor (``tensor.ones_()``); calls are checked against the signature without
  running (:mod:`checker.scan.api_probe`), except calls made to show their error (inside a
  ``lambda`` or a ``try``, or a doctest example whose shown output is an exception).

Findings have kind ``api``: a name that does not exist is ``contradicted`` in prose (unless
the sentence is negated: "``torch.Variable`` does not exist" is right) and ``broken`` in
code; a call whose arguments do not bind is ``broken``; a name torch marks as
deprecated is ``outdated``, with torch's own message naming the replacement.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from checker.scan import api_probe
from checker.scan.document import Block
from checker.scan.findings import FindingVerdict, ScanFinding
from checker.scan.names import PLACEHOLDERS
from checker.text import languages, reading
from checker.text.said import Said, SaidValue, said

#: ``torch.a.b`` in prose: ASCII identifiers only (Japanese and Korean particles touch the
#: name: ``torch.from_numpyは``), not part of an address (``.../torch.Tensor.detach.html``).
_PROSE_NAME = re.compile(
    r"(?<![\w./])torch(?:\.[A-Za-z_][A-Za-z0-9_]*)+(?![A-Za-z0-9_/]|\.html?\b|\.[A-Za-z0-9_])"
)
_PROSE_METHOD = re.compile(
    r"`(?:torch\.)?(?:Tensor|tensor)\.([A-Za-z_][A-Za-z0-9_]*)(?:\([^`]*\))?`"
)
#: Aliases every reader knows without an import line.
_CUSTOMARY = {
    "torch": "torch",
    "nn": "torch.nn",
    "F": "torch.nn.functional",
    "optim": "torch.optim",
}
_RECEIVERS = PLACEHOLDERS | {"t", "x", "y", "a", "b"}


@dataclass(frozen=True)
class Reference:
    """A PyTorch name an article uses."""

    name: str
    line: int
    #: ``"prose"`` or ``"code"``.
    where: str
    quote: str
    #: For a call whose arguments can be counted: positional count and keyword names.
    call: tuple[int, tuple[str, ...]] | None = None


def prose_references(block: Block) -> list[Reference]:
    found = []
    for offset, sentence in reading.sentences(block.text):
        quote = " ".join(sentence.split())
        named = [(m.group(0), m.start()) for m in _PROSE_NAME.finditer(sentence)]
        named += [
            (f"torch.Tensor.{m.group(1)}", m.start()) for m in _PROSE_METHOD.finditer(sentence)
        ]
        seen: set[tuple[str, int]] = set()
        for name, start in named:
            line = block.line_at(offset + start)  # the line that holds the name
            if (name, line) not in seen:
                seen.add((name, line))
                found.append(Reference(name, line, "prose", quote))
    return found


def aliases_of(trees: Iterable[ast.AST]) -> dict[str, str]:
    """Local name -> torch path, from the imports of an article's code."""
    aliases = dict(_CUSTOMARY)
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "torch":
                        local = alias.asname or alias.name.split(".")[0]
                        aliases[local] = alias.name if alias.asname else "torch"
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "torch":
                for alias in node.names:
                    if alias.name != "*":
                        aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return aliases


def code_references(
    tree: ast.AST, aliases: Mapping[str, str], article_line: Callable[[int], int], quote: str
) -> list[Reference]:
    """References in a parsed snippet; ``article_line`` maps its source lines."""
    found: dict[tuple[str, int], Reference] = {}

    def add(name: str, node: ast.AST, call: tuple[int, tuple[str, ...]] | None = None) -> None:
        line = article_line(getattr(node, "lineno", 1))
        key = (name, line)
        if key not in found or (call and not found[key].call):
            found[key] = Reference(name, line, "code", quote, call)

    shown_errors = {
        node
        for parent in ast.walk(tree)
        if isinstance(parent, (ast.Lambda, ast.Try))
        for node in ast.walk(parent)
        if isinstance(node, ast.Call)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "torch":
            for alias in node.names:
                if alias.name != "*":
                    add(f"{node.module}.{alias.name}", node)
        elif isinstance(node, ast.Call):
            name = _dotted(node.func, aliases)
            if name is not None:
                counted = None
                if (
                    node not in shown_errors
                    and not any(isinstance(a, ast.Starred) for a in node.args)
                    and all(k.arg is not None for k in node.keywords)
                ):
                    counted = (len(node.args), tuple(k.arg for k in node.keywords if k.arg))
                add(name, node, counted)
        elif isinstance(node, ast.Attribute):
            name = _dotted(node, aliases)
            if name is not None:
                add(name, node)
            elif (
                isinstance(node.value, ast.Name)
                and node.value.id in _RECEIVERS
                and node.attr.endswith("_")
                and not node.attr.startswith("_")
            ):
                add(f"torch.Tensor.{node.attr}", node)
    return sorted(found.values(), key=lambda r: (r.line, r.name))


def _dotted(node: ast.expr, aliases: Mapping[str, str]) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in aliases:
        return None
    return ".".join([aliases[node.id], *reversed(parts)])


def _says_deprecated(sentence: str) -> bool:
    """Whether a sentence says itself, in any language, that what it names is deprecated
    (see :attr:`~checker.text.languages.base.Language.says_deprecated`)."""
    return any(language.says_deprecated.search(sentence) for language in languages.LANGUAGES)


def findings(  # noqa: PLR0917
    references: Iterable[Reference],
    resolved: Mapping[str, Mapping[str, object]],
    calls: Mapping[tuple[str, int], str | None],
    torch_version: str,
    path: str,
    lang: str,
) -> list[ScanFinding]:
    """The ``api`` findings of resolved references: one per name and line and verdict."""
    found: dict[tuple[int, str, FindingVerdict], ScanFinding] = {}
    for ref in references:
        facts = resolved.get(ref.name)
        if facts is None:
            continue

        def add(verdict: FindingVerdict, evidence: Said, ref: Reference = ref) -> None:
            key = (ref.line, ref.name, verdict)
            found.setdefault(
                key,
                ScanFinding(
                    path, ref.line, lang, "api", verdict, ref.quote, evidence.english, said=evidence
                ),
            )

        if not facts["exists"]:
            if ref.where == "prose" and reading.negations(ref.quote, lang) > 0:  # type: ignore[arg-type]
                continue  # "`torch.Variable` does not exist": the sentence says so itself
            verdict = FindingVerdict.CONTRADICTED if ref.where == "prose" else FindingVerdict.BROKEN
            missing = said(
                "{name} does not exist in torch {version}: {missing}",
                name=f"`{ref.name}`",
                version=torch_version,
                missing=_missing(str(facts["missing"])),
            )
            add(verdict, missing)
            continue
        if facts["deprecated"]:
            if ref.where == "prose" and _says_deprecated(ref.quote):
                continue  # "`torch.cuda.amp.autocast` is deprecated": the sentence says so
            deprecated = str(facts["deprecated"])
            add(
                FindingVerdict.OUTDATED,
                said(
                    "{name} is deprecated in torch {version}: {deprecated}",
                    name=f"`{ref.name}`",
                    version=torch_version,
                    deprecated=api_probe.VARIABLE
                    if deprecated == api_probe.VARIABLE.english
                    else deprecated,  # PyTorch's own words, as it says them
                ),
            )
        problem = calls.get((ref.name, ref.line)) if ref.call else None
        if problem:
            add(
                FindingVerdict.BROKEN,
                said(
                    "the call to {name} does not match its signature in torch {version}: {problem}",
                    name=f"`{ref.name}`",
                    version=torch_version,
                    problem=problem,  # Python's message
                ),
            )
    return sorted(found.values(), key=lambda f: (f.line, f.quote))


#: How the probe says a name is missing (:func:`checker.scan.api_probe.resolve`).
_NO_ATTRIBUTE = re.compile(r"(`[^`]+`) has no attribute (`[^`]+`)")


def _missing(missing: str) -> SaidValue:
    """The probe's reason for a missing name, as a template where it is the probe's."""
    found = _NO_ATTRIBUTE.fullmatch(missing)
    if found is None:
        return missing
    return said(
        "{owner} has no attribute {attribute}", owner=found.group(1), attribute=found.group(2)
    )
