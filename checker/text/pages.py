"""Pages and their snippets: the lexing half of the doctest pipeline (and of the pages'
"run on the CPU only" notes, :mod:`checker.sphinx.cuda_runs`).

A *snippet* is a fenced code block whose language is ``pycon`` (a Python console session,
``>>>`` prompts and expected output). Fences inside directives (admonitions, tabs) count too.
A comment line just before a fence configures it::

    % snippet: cuda-only: memory statistics exist only on CUDA

Python code that is not a console session (a ``python`` fence) cannot be executed and checked,
so it is refused: every code snippet in the docs is a test.
"""

from __future__ import annotations

import doctest
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

from checker.text.markdown import FENCES, PageToken, is_markdown_directive, walk

#: Fence languages that are executed.
SNIPPET_LANGS = frozenset({"pycon"})
#: Fence languages that hold Python but are refused, since they cannot be checked.
UNCHECKED_PYTHON = frozenset({"python", "py", "python3", "ipython", "ipython3"})
_MARKER = re.compile(r"^\s*snippet:\s*(?P<kind>[a-z-]+)\s*(?::\s*(?P<reason>.*\S))?\s*$")

_PARSER = doctest.DocTestParser()


class PageError(Exception):
    """A page breaks the snippet conventions; the message starts with ``file:line``."""


@dataclass(frozen=True)
class Snippet:
    """One executable console session in a page."""

    path: Path
    #: 1-based line of the opening fence.
    lineno: int
    source: str
    examples: tuple[doctest.Example, ...]
    #: Set when the snippet is meaningful only on CUDA: why it is skipped elsewhere.
    cuda_only: str | None = None

    @property
    def uses_device(self) -> bool:
        """Whether the code reads the ``device`` name that the harness provides."""
        return any(_reads_device(e.source) for e in self.examples)


@dataclass(frozen=True)
class Page:
    """A documentation page and its snippets, in order."""

    path: Path
    snippets: tuple[Snippet, ...]

    @property
    def device_aware(self) -> bool:
        """Pages that use ``device`` or hold CUDA-only snippets run once per device."""
        return any(s.uses_device or s.cuda_only for s in self.snippets)

    @property
    def example_count(self) -> int:
        return sum(len(s.examples) for s in self.snippets)


def parse_page(path: Path, text: str | None = None) -> Page:
    """Find the snippets of a MyST page. Raises :class:`PageError` on broken conventions."""
    if text is None:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise PageError(f"{path}:1: not UTF-8 ({exc.reason})") from exc
    return Page(path, tuple(_snippets(path, text)))


def _snippets(path: Path, text: str) -> list[Snippet]:
    found: list[Snippet] = []
    marker: tuple[str, str | None, int] | None = None
    marker_depth = 0
    for node in walk(text):
        if not node.token.block or node.token.nesting == -1:
            continue
        if node.depth < marker_depth:
            marker = None  # a marker that ends a directive's body configures nothing
        if node.type == "myst_line_comment":
            match = _MARKER.match(node.token.content)
            if match:
                marker, marker_depth = (match["kind"], match["reason"], node.line), node.depth
        elif node.type in FENCES:
            found.extend(_from_fence(path, node, marker))
            marker = None
        elif marker is not None:
            raise PageError(
                f"{path}:{marker[2]}: a snippet marker must be followed directly "
                "by the pycon fence it configures"
            )
    return found


def _from_fence(
    path: Path, node: PageToken, marker: tuple[str, str | None, int] | None
) -> list[Snippet]:
    info, line = node.info, node.line
    lang = info.split()[0] if info else ""
    if is_markdown_directive(node):  # its body comes next in the walk
        if marker is not None:
            raise PageError(f"{path}:{marker[2]}: snippet marker must precede a pycon fence")
        return []
    if node.directive is not None:
        argument = info[len(node.directive) + 2 :].strip()
        lang = argument.split()[0] if argument else ""
    if lang in UNCHECKED_PYTHON:
        raise PageError(
            f"{path}:{line}: Python code in a '{lang}' fence is never executed; write it as a "
            "'pycon' console session (>>> prompts and expected output) so that it is tested"
        )
    if lang not in SNIPPET_LANGS:
        if marker is not None:
            raise PageError(f"{path}:{marker[2]}: snippet marker must precede a pycon fence")
        return []
    cuda_only = None
    if marker is not None:
        kind, reason, marker_line = marker
        if kind != "cuda-only":
            raise PageError(
                f"{path}:{marker_line}: unknown snippet marker {kind!r}; "
                "known: 'cuda-only: <reason>'"
            )
        if not reason:
            raise PageError(f"{path}:{marker_line}: 'cuda-only' needs a reason after a colon")
        cuda_only = reason
    content = node.token.content
    try:
        examples = _PARSER.get_examples(content, name=str(path))
    except ValueError as exc:
        raise PageError(f"{path}:{line}: {exc}") from exc
    if not examples:
        raise PageError(f"{path}:{line}: pycon fence holds no '>>>' examples")
    # doctest counts lines from the start of the fence body; make them page lines.
    for example in examples:
        example.lineno += line
    return [Snippet(path, line, content, tuple(examples), cuda_only)]


def _reads_device(source: str) -> bool:
    """True if ``source`` reads the name ``device`` (not ``x.device``, not ``device=``)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return "device" in source
    for i, tok in enumerate(tokens):
        if tok.type != tokenize.NAME or tok.string != "device":
            continue
        before = tokens[i - 1].string if i else ""
        after = tokens[i + 1].string if i + 1 < len(tokens) else ""
        if before != "." and after != "=":
            return True
    return False
