"""Output pasted under code in plain text with no label: a notebook or a console copied as text.

A plain-text article shows what its code printed right under the code, with nothing to say
where the code ends (no fence, no "Output:" label: that one ``checker.scan.codelines`` reads).
Two shapes are unambiguous, and read as the code's shown output:

* **values after a blank line**: a code block whose code before a blank line prints and
  compiles, and after it every line is a printed value (a tensor's repr, numbers, ``True``)
  and none is a statement only code could be (an assignment, an import, a call with
  arguments standing whole on its line), when the whole block does not compile or those
  lines are only values that do nothing when run (``tensor([1., 2.])``, ``False``); lines of
  values right under them (``<SumBackward0 object at 0x...>``) are output too;
* **what the code prints, then the exception**: right under a code block (blank lines between,
  or one sentence ending in a colon: "it fails with the following error:"), lines of prose
  that are the text of a string the code passes to ``print()``, and a line naming an
  exception (``RuntimeError: message``) after them, or alone.

Anything else after code stays prose: a sentence explaining the code looks the same as a
printed sentence unless the code prints that very text.
"""

from __future__ import annotations

import ast
import re
import textwrap

from checker.scan.document import Block, BlockKind

#: A line of printed values: it holds a number, a bracket or a Python constant (ASCII only).
_VALUES = re.compile(r"^[\x20-\x7e]*(?:\d|\[|\(|True|False|None|tensor)[\x20-\x7e]*$")
#: The line an exception prints: ``RuntimeError: message``, ``torch.OutOfMemoryError: ...``.
_EXCEPTION = re.compile(r"^(?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)(?::\s.*)?$")


def split_outputs(blocks: list[Block], lines: list[str], first_line: int) -> list[Block]:
    """``blocks`` of a plain-text article with the output pasted under code read as output
    (``lines``: the article's lines from ``first_line``)."""
    found: list[Block] = []
    index = 0
    while index < len(blocks):
        block = blocks[index]
        index += 1
        if block.kind is not BlockKind.CODE:
            found.append(block)
            continue
        code, values = _cut(block)
        found.append(code)
        if values is not None:
            while index < len(blocks) and _continues(values, blocks[index]):
                values = Block(
                    BlockKind.OUTPUT,
                    f"{values.text}\n{blocks[index].text.strip()}",
                    (*values.lines, blocks[index].line),
                )
                index += 1
            found.append(values)
            continue
        rows, numbers, label = _printed_then_raised(code, blocks[index:], lines, first_line)
        if rows:  # the output goes with the code; a sentence announcing it stays prose
            found.append(Block(BlockKind.OUTPUT, "\n".join(rows), tuple(numbers)))
            found += [label] if label is not None else []
            index += len(rows) + (label is not None)
    return found


def _cut(block: Block) -> tuple[Block, Block | None]:
    """The block's code and the values pasted under it after a blank line, if it ends so."""
    rows = block.text.split("\n")
    compiles = _compiles(block.text)
    for cut, row in enumerate(rows):
        if row.strip() or cut == 0:
            continue
        code, rest = rows[:cut], rows[cut + 1 :]
        shown = [(r, n) for r, n in zip(rest, block.lines[cut + 1 :], strict=True) if r.strip()]
        if not shown or not _compiles("\n".join(code)) or not _prints("\n".join(code)):
            continue
        if not all(_VALUES.match(r.strip()) and not _statement(r.strip()) for r, _ in shown):
            continue
        if compiles and not _reprs("\n".join(r for r, _ in shown)):
            continue  # code that may mean to run: only values that do nothing are output
        return (
            Block(BlockKind.CODE, "\n".join(code), block.lines[:cut], block.info),
            Block(
                BlockKind.OUTPUT,
                "\n".join(r.strip() for r, _ in shown),
                tuple(n for _, n in shown),
            ),
        )
    return block, None


#: Names whose call is how a value prints: ``tensor([1.])``, ``torch.Size([2])``.
_REPR_CALLS = frozenset({"tensor", "Size", "array", "Parameter", "device", "dtype"})


def _reprs(source: str) -> bool:
    """Whether ``source`` is only expressions that print as values do: constants, lists and
    tuples of them, ``tensor(...)``/``torch.Size(...)`` of them."""
    try:
        tree = ast.parse(textwrap.dedent(source))
    except (SyntaxError, ValueError):
        return False
    return bool(tree.body) and all(
        isinstance(node, ast.Expr) and _repr_like(node.value) for node in tree.body
    )


def _repr_like(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp):
        return _repr_like(node.operand)
    if isinstance(node, (ast.List, ast.Tuple)):
        return all(_repr_like(e) for e in node.elts)
    if isinstance(node, ast.Attribute):  # dtype=torch.float16
        return isinstance(node.value, (ast.Name, ast.Attribute))
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return (
            name in _REPR_CALLS
            and all(_repr_like(a) for a in node.args)
            and all(_repr_like(k.value) for k in node.keywords)
        )
    return False


def _printed_then_raised(
    code: Block, following: list[Block], lines: list[str], first_line: int
) -> tuple[list[str], list[int], Block | None]:
    """The prose blocks right under ``code`` that are what it prints, then an exception's
    line: their texts and article lines, and the sentence announcing them if one does
    (nothing when no exception's line follows)."""
    try:
        tree = ast.parse(code.text)
    except (SyntaxError, ValueError):
        return [], [], None
    printed = {
        arg.value.strip()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "print"
        for arg in node.args[:1]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.strip()
    }
    rows: list[str] = []
    numbers: list[int] = []
    label: Block | None = None
    last = code.lines[-1]
    for position, block in enumerate(following):
        text = block.text.strip()
        between = lines[last - first_line + 1 : block.line - first_line]
        if block.kind is not BlockKind.PROSE or "\n" in text or any(r.strip() for r in between):
            break
        last = block.lines[-1]
        if position == 0 and text.endswith((":", "：")) and not _EXCEPTION.match(text):
            label = block  # "... gives the following error:"
            continue
        if text not in printed and not _EXCEPTION.match(text):
            break
        rows.append(text)
        numbers.append(block.line)
        if _EXCEPTION.match(text):
            return rows, numbers, label
    return [], [], None


def _continues(values: Block, block: Block) -> bool:
    """Whether ``block`` is one more line of printed values, right under ``values``: a line
    the reader took for prose (``<SumBackward0 object at 0x...>``)."""
    return (
        block.kind is BlockKind.PROSE
        and len(block.lines) == 1
        and block.line == values.lines[-1] + 1
        and _VALUES.match(block.text.strip()) is not None
    )


def _compiles(source: str) -> bool:
    try:
        compile(source, "<snippet>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def _prints(source: str) -> bool:
    tree = ast.parse(source)
    return any(
        isinstance(n, ast.Call) and getattr(n.func, "id", "") == "print" for n in ast.walk(tree)
    )


def _statement(row: str) -> bool:
    """Whether a line standing alone is a statement no printed value could be."""
    try:
        tree = ast.parse(row)
    except (SyntaxError, ValueError):
        return False
    return any(not isinstance(node, ast.Expr) for node in tree.body)
