"""Repairs of code that fails for a known, trivial reason, so that what the article says of the
lines after the failure can still be checked.

An article's snippet may fail at its first line for a reason that has one obvious repair and
says nothing of what the article goes on to claim: ``torch.tensor([1, 2, 3],
requires_grad=True)`` raises "Only Tensors of floating point and complex dtype can require
gradients", and the author meant the float tensor ``[1., 2., 3.]``. The snippet is ``broken``
as published, whatever else is true; but the comments under that line (``print(x)  # [1, 2,
3]``) say what the author believes the next lines do, and a run with the repair shows whether
they do.

:func:`plan` finds such a fault in a parsed program without running it and writes the repaired
source (the same lines and statements: only literals change). The sandbox runs the published
program, and only when the statement holding the fault raises the error the repair is for does
it go on with the repaired program from that statement
(:attr:`~checker.scan.sandbox.SandboxProgram.resume`), so what ran before is what the article
wrote. What the repaired run shows is judged on values, not on dtypes
(:func:`checker.scan.values.same_value` with ``kinds=False``): the repair changed them.

Only a fault whose repair is the one reading of the author's intent is repaired:

* integer data given to a tensor constructor with ``requires_grad=True`` and no ``dtype``:
  each integer literal of the data is written as a float (``1`` becomes ``1.``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

#: The error of integer data with ``requires_grad=True`` (every torch release since 0.4).
_INTEGER_GRAD = r"^RuntimeError: Only Tensors of floating point .*can require gradients"
#: Constructors that take their data as the first argument.
_CONSTRUCTORS = frozenset({"tensor", "as_tensor"})


@dataclass(frozen=True)
class RuntimeRepair:
    """A repaired program, and where and for which error the run switches to it."""

    source: str
    #: Index of the top-level statement that raises as published; the run resumes there.
    statement: int
    #: Pattern of ``"Type: message"`` of the error the published statement raises.
    error: str
    #: How it was repaired, for the evidence.
    how: str


def plan(source: str, tree: ast.Module) -> RuntimeRepair | None:
    """The repair of the first statement of ``tree`` that holds a known fault, or ``None``.

    The statement must be a simple one (a loop, branch or function may run it many times,
    never, or in part); every fault of the program after it is repaired too."""
    edits: list[tuple[int, int, int]] = []  # (line, start, end) of each integer literal
    first: int | None = None
    examples: list[ast.expr] = []
    for index, node in enumerate(tree.body):
        for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
            integers = _integer_data(call)
            if not integers:
                continue
            if first is None:
                if not isinstance(node, (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign)):
                    return None
                first = index
            edits += [(n.lineno, n.col_offset, n.end_col_offset or 0) for n in integers]
            examples.append(call.args[0])
    if first is None:
        return None
    lines = source.split("\n")
    for line, start, end in sorted(set(edits), reverse=True):
        text = lines[line - 1]
        if not text[start:end].isdigit():
            return None  # 0x10, 1_000: not a plain decimal literal
        lines[line - 1] = text[:end] + "." + text[end:]
    data = examples[0]
    floats = ast.unparse(_as_floats(data))
    shown = f"`{ast.unparse(data)}` as `{floats}`" if len(floats) <= 40 else "`1` as `1.0`"
    return RuntimeRepair(
        "\n".join(lines),
        first,
        _INTEGER_GRAD,
        f"its integer data written as floating point ({shown}), as requires_grad=True needs",
    )


def _as_floats(data: ast.expr) -> ast.expr:
    """``data`` with each integer literal a float."""

    class Floats(ast.NodeTransformer):
        def visit_Constant(self, node: ast.Constant) -> ast.Constant:
            return ast.Constant(float(node.value)) if type(node.value) is int else node

    converted: ast.expr = Floats().visit(ast.parse(ast.unparse(data), mode="eval").body)
    return converted


def _integer_data(call: ast.Call) -> list[ast.Constant]:
    """The integer literals of a constructor's data when the call asks for gradients of
    integer data: ``torch.tensor([1, 2], requires_grad=True)``; else none."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name not in _CONSTRUCTORS or not call.args:
        return []
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    grad = keywords.get("requires_grad")
    if not (isinstance(grad, ast.Constant) and grad.value is True) or "dtype" in keywords:
        return []
    if len(call.args) > 1:  # a dtype given by position
        return []
    constants = []
    for node in ast.walk(call.args[0]):
        if isinstance(node, (ast.List, ast.Tuple, ast.Load, ast.UnaryOp, ast.USub, ast.UAdd)):
            continue
        if not (isinstance(node, ast.Constant) and type(node.value) is int):
            return []  # a float, a name, a call: not integer data only
        constants.append(node)
    return constants
