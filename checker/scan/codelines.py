"""Finding unfenced Python code in plain text, line by line.

Plain-text articles (copied from web pages) lose both the fences and often the indentation of
their code. A line is *code* when, without its trailing comment, it is ASCII outside string
literals and parses as Python (a compound statement's header is parsed with a ``pass`` body),
or when it continues a string or a bracket opened by a code line. Code that is only a name, an
attribute or a constant (``torch.autograd.graph.disable_saved_tensors_hooks``, ``Example``) is
*weak*: it belongs to a snippet only between other code lines, since prose that mentions an API
on a line of its own looks the same. Comment lines belong to an adjacent snippet.

After code, a label line ("Output:", "実行結果:", "결과창:") announces what it printed: the lines of
values below it are the code's shown output; output pasted with no label is read where it is
unambiguous (``checker.scan.pasted``).

A run of code lines is a snippet when it holds at least two strong statements, or one that
cannot be prose (an assignment, an import, a call with arguments: ``e = a.clone()``,
``print(calls)``); a shorter run is prose (an API name broken onto its own line). Prose lines
form one paragraph each, except that a line ending in an identifier, a comma or ``、`` continues
on the next line.
"""

from __future__ import annotations

import ast
import enum
import re

from checker.scan.document import Block, BlockKind
from checker.scan.pasted import split_outputs

_HEADER = re.compile(
    r"^(?:async\s+)?(?:def|class|with|for|while|if|elif|else|try|except|finally|match|case)\b"
    r".*:$"
)
_BARE_CLAUSE = re.compile(r"^(?:else|try|finally)\s*:$|^(?:elif|except)\b.*:$")
_DECORATOR = re.compile(r"^@[\w.]+(?:\(.*\))?$")
_BULLET = re.compile(r"^(?:[-*+•・]\s|\d+[.)]\s|[*•])")
_QUOTED = re.compile(r"'''.*?'''|\"\"\".*?\"\"\"|'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"")
_IMPORT = re.compile(r"^(?:import\s|from\s+\S+\s+import\s)")
_JOINS_NEXT = re.compile(r"[A-Za-z0-9_)`'\"、,，]$")
#: Minimum strong statements in a run of code lines for it to be a snippet.
MIN_STATEMENTS = 2


class CodeLineKind(enum.Enum):
    BLANK = "blank"
    PROSE = "prose"
    STRONG = "strong"
    WEAK = "weak"
    COMMENT = "comment"
    #: Inside a string or bracket that a code line opened.
    CONTINUED = "continued"


def split_blocks(lines: list[str], first_line: int) -> list[Block]:
    """Prose paragraphs and code snippets of ``lines`` (article line ``first_line`` onwards)."""
    lines = [_unfenced(line) for line in lines]
    kinds = classify(lines)
    blocks: list[Block] = []
    prose: list[int] = []
    i = 0
    while i < len(lines):
        end = _code_run_end(kinds, i)
        if end > i:
            run = _trim(kinds, i, end)
            strong = sum(kinds[k] is CodeLineKind.STRONG for k in range(*run))
            if strong >= MIN_STATEMENTS or (
                strong == 1 and any(_certain(lines[k]) for k in range(*run))
            ):
                prose.extend(k for k in range(i, run[0]) if kinds[k] is not CodeLineKind.BLANK)
                blocks.extend(_paragraphs(lines, prose, first_line))
                prose = []
                blocks.extend(_code(lines, part, first_line) for part in _split(lines, kinds, run))
                prose.extend(k for k in range(run[1], end) if kinds[k] is not CodeLineKind.BLANK)
            else:
                prose.extend(k for k in range(i, end) if kinds[k] is not CodeLineKind.BLANK)
            i = end
            continue
        if kinds[i] is CodeLineKind.BLANK:
            blocks.extend(_paragraphs(lines, prose, first_line))
            prose = []
        else:
            prose.append(i)
        i += 1
    blocks.extend(_paragraphs(lines, prose, first_line))
    return split_outputs(_shown_outputs(sorted(blocks, key=lambda b: b.line)), lines, first_line)


#: A Markdown fence's opening line: its marks and what follows them.
_FENCE = re.compile(r"^(\s*)(?:`{3,}|~{3,})(.*)$")


def fence_code(info: str) -> bool:
    """Whether what follows a fence's marks is code written on the fence line
    (```` ```x = torch.ones(5) ````, as some blogs publish it), not a language or a title."""
    info = info.strip()
    if not info or re.fullmatch(r"[\w+#.-]+", info) or info.startswith("{"):
        return False
    try:
        tree = ast.parse(info)
    except (SyntaxError, ValueError):
        return False
    # a language and a title (```python:train.py) parse as a bare annotation
    return not any(isinstance(n, ast.AnnAssign) and n.value is None for n in tree.body)


def _unfenced(line: str) -> str:
    """``line`` without the fence marks in front of code written on a fence's opening line:
    a plain-text copy of a Markdown post keeps its fences, and that first line is code."""
    fence = _FENCE.match(line)
    if fence is None or not fence_code(fence.group(2)):
        return line
    return fence.group(1) + fence.group(2).strip()


#: A line that announces what the code above printed: "Output:", "実行結果:", "결과창:".
_OUTPUT_LABEL = re.compile(
    r"^(?:output|out|result|results|console|実行結果|出力結果?|結果|결과창?|출력(?:\s*결과)?|"
    r"실행\s*결과)\s*[:：]?$",
    re.IGNORECASE,
)
#: A line of printed values: it holds a number, a bracket or a Python constant.
_OUTPUT_LINE = re.compile(r"^[\x20-\x7e]*(?:\d|\[|\(|True|False|None|tensor)[\x20-\x7e]*$")


def _shown_outputs(blocks: list[Block]) -> list[Block]:
    """Prose after an output label that follows code is that code's shown output."""
    found: list[Block] = []
    index = 0
    while index < len(blocks):
        current = blocks[index]
        found.append(current)
        index += 1
        label = current.kind is BlockKind.PROSE and _OUTPUT_LABEL.match(current.text.strip())
        if not label or len(found) < 2 or found[-2].kind is not BlockKind.CODE:
            continue
        rows: list[str] = []
        numbers: list[int] = []
        while (
            index < len(blocks)
            and blocks[index].kind is BlockKind.PROSE
            and all(_OUTPUT_LINE.match(row.strip()) for row in blocks[index].text.split("\n"))
            and blocks[index].line == (numbers[-1] + 1 if numbers else current.lines[-1] + 1)
        ):
            rows += blocks[index].text.split("\n")
            numbers += blocks[index].lines
            index += 1
        if rows:  # the label is no sentence: the output takes its place after the code
            found[-1] = Block(BlockKind.OUTPUT, "\n".join(rows), tuple(numbers))
    return found


def _certain(line: str) -> bool:
    """A line that is a whole statement no sentence could be: an assignment, an import, or a
    call with arguments."""
    try:
        tree = ast.parse(_without_comment(line.strip()).rstrip())
    except (SyntaxError, ValueError):
        return False
    if len(tree.body) != 1:
        return False
    node = tree.body[0]
    if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Import, ast.ImportFrom)):
        return True
    call = node.value if isinstance(node, ast.Expr) else None
    return isinstance(call, ast.Call) and bool(call.args or call.keywords)


def classify(lines: list[str]) -> list[CodeLineKind]:
    kinds: list[CodeLineKind] = []
    open_quote: str | None = None
    depth = 0
    for raw in lines:
        stripped = raw.strip()
        if open_quote is not None:
            kinds.append(CodeLineKind.CONTINUED)
            if stripped.count(open_quote) % 2 == 1:
                open_quote = None
            continue
        if depth > 0 and stripped:
            kinds.append(CodeLineKind.CONTINUED)
            depth = max(0, depth + _bracket_balance(stripped))
            continue
        kind = line_kind(stripped)
        kinds.append(kind)
        if kind in (CodeLineKind.STRONG, CodeLineKind.WEAK):
            open_quote = _opens_string(stripped)
            if open_quote is None:
                depth = max(0, _bracket_balance(stripped))
    return _headings(lines, kinds)


#: A line that is only a name, a call without arguments or a keyword setting: the shape of
#: a heading (``detach()``, ``torch.from_numpy()``, ``no_grad``) or of a word wrapped onto
#: its own line (``half()``, ``requires_grad=True``).
_LONE = re.compile(r"^[A-Za-z_][\w.]*(?:\(\))?$|^[A-Za-z_]\w*=\w+$")


def _headings(lines: list[str], kinds: list[CodeLineKind]) -> list[CodeLineKind]:
    """Lone names that are prose: a heading the next sentence repeats (``detach()`` before
    "detach() returns ..."), or a word between two prose lines."""

    def neighbour(index: int, step: int) -> int | None:
        index += step
        while 0 <= index < len(kinds) and kinds[index] is CodeLineKind.BLANK:
            index += step
        return index if 0 <= index < len(kinds) else None

    found = list(kinds)
    for index, kind in enumerate(kinds):
        stripped = lines[index].strip()
        if kind not in (CodeLineKind.STRONG, CodeLineKind.WEAK) or not _LONE.match(stripped):
            continue
        after, before = neighbour(index, 1), neighbour(index, -1)
        name = stripped.removesuffix("()").split("=")[0].rsplit(".", 1)[-1]
        repeated = after is not None and kinds[after] is CodeLineKind.PROSE and name in lines[after]
        between = all(i is None or kinds[i] is CodeLineKind.PROSE for i in (before, after))
        if repeated or between:
            found[index] = CodeLineKind.PROSE
    return found


def line_kind(stripped: str) -> CodeLineKind:  # noqa: PLR0911  one rule per return
    if not stripped:
        return CodeLineKind.BLANK
    if stripped.startswith("#"):
        return CodeLineKind.COMMENT
    if _BULLET.match(stripped):
        return CodeLineKind.PROSE
    code = _without_comment(stripped).rstrip()
    if not code or not _ascii_outside_strings(code):
        return CodeLineKind.PROSE
    if _opens_string(code) is not None:
        return CodeLineKind.STRONG
    if _HEADER.match(code) or _BARE_CLAUSE.match(code):
        if _BARE_CLAUSE.match(code) or _parses(code + "\n    pass"):
            return CodeLineKind.STRONG
        return CodeLineKind.PROSE
    if _DECORATOR.match(code):
        return CodeLineKind.STRONG
    if _bracket_balance(code) > 0 and re.match(r"^[\w.\[\], ]+(?:=|\()", code):
        return CodeLineKind.STRONG  # a call or assignment continued on the next lines
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return CodeLineKind.PROSE
    return CodeLineKind.WEAK if _is_weak(tree) else CodeLineKind.STRONG


def _is_weak(tree: ast.Module) -> bool:
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        return False
    allowed: tuple[type[ast.AST], ...] = (ast.Name, ast.Attribute, ast.Constant, ast.BinOp)
    allowed += (ast.UnaryOp, ast.Load, ast.operator, ast.unaryop)
    return all(isinstance(node, allowed) for node in ast.walk(tree.body[0].value))


def _parses(source: str) -> bool:
    try:
        ast.parse(source)
    except (SyntaxError, ValueError):
        return False
    return True


def _without_comment(line: str) -> str:
    """``line`` without a trailing ``# comment`` (a ``#`` inside quotes is kept)."""
    quote: str | None = None
    for i, char in enumerate(line):
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#":
            return line[:i]
    return line


def _ascii_outside_strings(code: str) -> bool:
    return _QUOTED.sub("''", code).isascii()


def _opens_string(code: str) -> str | None:
    """The triple quote that ``code`` opens and does not close, if any."""
    for quote in ("'''", '"""'):
        if code.count(quote) % 2 == 1:
            return quote
    return None


def _bracket_balance(code: str) -> int:
    text = _QUOTED.sub("''", _without_comment(code))
    return sum(text.count(c) for c in "([{") - sum(text.count(c) for c in ")]}")


def _code_run_end(kinds: list[CodeLineKind], start: int) -> int:
    """End (exclusive) of the run of code-like lines starting at ``start``, or ``start``."""
    codeish = (
        CodeLineKind.STRONG,
        CodeLineKind.WEAK,
        CodeLineKind.COMMENT,
        CodeLineKind.CONTINUED,
        CodeLineKind.BLANK,
    )
    if kinds[start] not in (CodeLineKind.STRONG, CodeLineKind.WEAK, CodeLineKind.COMMENT):
        return start
    end = start
    while end < len(kinds) and kinds[end] in codeish:
        end += 1
    return end


def _trim(kinds: list[CodeLineKind], start: int, end: int) -> tuple[int, int]:
    """Drop leading weak lines (headings), leading comments without code, trailing blanks,
    and a trailing weak line standing apart after a blank line (a section title after the
    code: "Reference", ``Summary``)."""
    while start < end and kinds[start] in (CodeLineKind.WEAK, CodeLineKind.BLANK):
        start += 1
    while True:
        while end > start and kinds[end - 1] is CodeLineKind.BLANK:
            end -= 1
        if not (end - 1 > start and kinds[end - 1] is CodeLineKind.WEAK):
            return start, end
        if kinds[end - 2] is not CodeLineKind.BLANK:
            return start, end
        end -= 1


def _split(
    lines: list[str], kinds: list[CodeLineKind], run: tuple[int, int]
) -> list[tuple[int, int]]:
    """Split a run where an ``import`` follows other statements: a new example starts there."""
    parts: list[tuple[int, int]] = []
    start, seen_other = run[0], False
    for k in range(*run):
        if kinds[k] is not CodeLineKind.STRONG:
            continue
        is_import = _IMPORT.match(lines[k].strip()) is not None
        if is_import and seen_other:
            parts.append((start, k))
            start, seen_other = k, False
        seen_other = seen_other or not is_import
    parts.append((start, run[1]))
    return parts


def _code(lines: list[str], run: tuple[int, int], first_line: int) -> Block:
    start, end = run
    return Block(
        BlockKind.CODE,
        "\n".join(lines[start:end]),
        tuple(range(first_line + start, first_line + end)),
    )


def _paragraphs(lines: list[str], indices: list[int], first_line: int) -> list[Block]:
    """One block per prose line, joining a line that ends mid-sentence with the next (a line
    that is code, such as a method standing in a list, ends its paragraph)."""
    blocks: list[Block] = []
    group: list[int] = []
    for index in indices:
        if group and not (
            index == group[-1] + 1
            and _JOINS_NEXT.search(lines[group[-1]].rstrip())
            and not _BULLET.match(lines[index].strip())
            and not _BULLET.match(lines[group[-1]].strip())
            and _continues(lines[group[-1]].strip(), lines[index].strip())
        ):
            blocks.append(_prose(lines, group, first_line))
            group = []
        group.append(index)
    if group:
        blocks.append(_prose(lines, group, first_line))
    return blocks


def _continues(previous: str, line: str) -> bool:
    """Whether ``line`` continues the sentence of ``previous``, a line ending mid-sentence:
    after a line of code (an API name standing on its own line), a line that repeats the
    name starts a new sentence (the name was its heading)."""
    if line_kind(previous) not in (CodeLineKind.STRONG, CodeLineKind.WEAK):
        return True
    return not line.startswith(previous.removesuffix("()"))


def _prose(lines: list[str], group: list[int], first_line: int) -> Block:
    return Block(
        BlockKind.PROSE,
        "\n".join(lines[k].strip() for k in group),
        tuple(first_line + k for k in group),
    )
