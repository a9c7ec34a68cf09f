"""Repairs of code that fails for a known, trivial reason, so that what the article says of the
lines after the failure can still be checked.

An article's snippet may fail at a line for a reason that has one obvious repair and says
nothing of what the article goes on to claim: ``torch.tensor([1, 2, 3], requires_grad=True)``
raises "Only Tensors of floating point and complex dtype can require gradients", and the
author meant the float tensor ``[1., 2., 3.]``. The snippet is ``broken`` as published,
whatever else is true; but the comments under that line (``print(x)  # [1, 2, 3]``) say what
the author believes the next lines do, and a run with the repair shows whether they do.

:func:`plan` finds such faults in a parsed program without running it and writes the
repaired source (the same lines and statements: only a literal or a name changes). The
sandbox runs the published program, and only when the first statement holding a fault
raises the error that fault gives does it go on with the repaired program from that
statement (:attr:`~checker.scan.sandbox.SandboxProgram.resume`), so what ran before is what
the article wrote. Where a repair changes dtypes, what the repaired run shows is judged on
values, not on dtypes (:func:`checker.scan.values.same_value` with ``kinds=False``).

Only a fault whose repair is the one reading of the author's intent is repaired:

* integer data given to a tensor constructor with ``requires_grad=True`` and no ``dtype``:
  each integer literal of the data is written as a float (``1`` becomes ``1.``);
* ``torch.Variable``, which torch never had: ``torch.autograd.Variable``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

#: The error of integer data with ``requires_grad=True`` (every torch release since 0.4).
_INTEGER_GRAD = r"^RuntimeError: Only Tensors of floating point .*can require gradients"
#: The error of ``torch.Variable``.
_NO_VARIABLE = r"^AttributeError: module 'torch' has no attribute 'Variable'"
#: Constructors that take their data as the first argument.
_CONSTRUCTORS = frozenset({"tensor", "as_tensor"})
#: Statements a run can resume at: simple ones, run once and whole.
_SIMPLE = (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign)


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
    #: Whether the repair changed dtypes: what the repaired run shows is compared on values.
    values_only: bool = False


@dataclass(frozen=True)
class _Edit:
    line: int
    start: int
    end: int
    text: str  # what replaces the source between start and end


@dataclass(frozen=True)
class _Fault:
    edits: tuple[_Edit, ...]
    error: str
    how: str
    values_only: bool


def plan(source: str, tree: ast.Module) -> RuntimeRepair | None:
    """The repair of the first statement of ``tree`` that holds a known fault, or ``None``.

    The statement must be a simple one (a loop, branch or function may run it many times,
    never, or in part); every fault of the program after it is repaired too."""
    lines = source.split("\n")
    torch_names = _torch_names(tree)
    first: int | None = None
    faults: list[_Fault] = []
    for index, node in enumerate(tree.body):
        found = [f for n in ast.walk(node) if (f := _fault(n, lines, torch_names)) is not None]
        if not found:
            continue
        if first is None:
            if not isinstance(node, _SIMPLE):
                return None
            first = index
            errors = "|".join(dict.fromkeys(f"(?:{f.error})" for f in found))
            hows = list(dict.fromkeys(f.how for f in found))
        faults += found
    if first is None:
        return None
    edits = sorted({e for f in faults for e in f.edits}, key=lambda e: (e.line, e.start))
    for edit in reversed(edits):
        text = lines[edit.line - 1]
        lines[edit.line - 1] = text[: edit.start] + edit.text + text[edit.end :]
    return RuntimeRepair(
        "\n".join(lines),
        first,
        errors,
        " and ".join(hows),
        any(f.values_only for f in faults),
    )


def _fault(node: ast.AST, lines: list[str], torch_names: set[str]) -> _Fault | None:
    if isinstance(node, ast.Call):
        return _integer_data(node, lines)
    if (
        isinstance(node, ast.Attribute)
        and node.attr == "Variable"
        and isinstance(node.value, ast.Name)
        and node.value.id in torch_names
        and node.lineno == node.end_lineno
    ):
        name = node.value.id
        written = lines[node.lineno - 1][node.col_offset : node.end_col_offset]
        if written != f"{name}.Variable":
            return None
        edit = _Edit(
            node.lineno, node.col_offset, node.end_col_offset or 0, f"{name}.autograd.Variable"
        )
        return _Fault(
            (edit,), _NO_VARIABLE, f"`{name}.Variable` read as `{name}.autograd.Variable`", False
        )
    return None


def _integer_data(call: ast.Call, lines: list[str]) -> _Fault | None:
    """The fault of a constructor given integer data with ``requires_grad=True``:
    ``torch.tensor([1, 2], requires_grad=True)``."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name not in _CONSTRUCTORS or len(call.args) != 1:  # a second argument: a dtype
        return None
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    grad = keywords.get("requires_grad")
    if not (isinstance(grad, ast.Constant) and grad.value is True) or "dtype" in keywords:
        return None
    edits = []
    for node in ast.walk(call.args[0]):
        if isinstance(node, (ast.List, ast.Tuple, ast.Load, ast.UnaryOp, ast.USub, ast.UAdd)):
            continue
        if not (isinstance(node, ast.Constant) and type(node.value) is int):
            return None  # a float, a name, a call: not integer data only
        written = lines[node.lineno - 1][node.col_offset : node.end_col_offset]
        if node.lineno != node.end_lineno or not written.isdigit():
            return None  # 0x10, 1_000: not a plain decimal literal
        edits.append(_Edit(node.lineno, node.col_offset, node.end_col_offset or 0, written + "."))
    data = call.args[0]
    floats = ast.unparse(_as_floats(data))
    shown = f"`{ast.unparse(data)}` as `{floats}`" if len(floats) <= 40 else "`1` as `1.0`"
    return _Fault(
        tuple(edits),
        _INTEGER_GRAD,
        f"its integer data written as floating point ({shown}), as requires_grad=True needs",
        True,
    )


def _torch_names(tree: ast.Module) -> set[str]:
    """The names the program imports torch as (``torch`` when it does not import it: the
    scanner supplies ``import torch``)."""
    names = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.name == "torch"
    }
    return names or {"torch"}


def _as_floats(data: ast.expr) -> ast.expr:
    """``data`` with each integer literal a float."""

    class Floats(ast.NodeTransformer):
        def visit_Constant(self, node: ast.Constant) -> ast.Constant:
            return ast.Constant(float(node.value)) if type(node.value) is int else node

    converted: ast.expr = Floats().visit(ast.parse(ast.unparse(data), mode="eval").body)
    return converted
