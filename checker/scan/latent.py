"""Errors that running an article does not reach, found by reading its code: a function whose
body reads a name that nothing defines when it can run.

This is read only for an article that is one program (a Python source file: every name its
code uses must be defined by the file; none is a placeholder for the reader's own). Its
snippets are read in order, each name where Python would look it up:

* **undefined**: a function (or method, or lambda) reads a global name that no statement of
  the program binds anywhere, and that is neither a builtin nor a customary import
  (``names.CUSTOMARY``): whenever the line runs, it raises ``NameError``;
* **imported too late**: a function reads a module that the article imports only in a later
  snippet, and is defined again before anything uses it: the version the snippet shows can
  run only where it stands, where it raises ``NameError``.

Nothing is said when the program could define names in ways reading does not follow (``from
m import *``, ``exec``, ``globals()``, ``vars()``, ``builtins``), or for a name that a snippet
which does not compile mentions.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from checker.scan import names, snippets
from checker.scan.document import Document
from checker.scan.findings import FindingVerdict, ScanFinding
from checker.text.said import Said, said

#: Names that let a program bind globals out of sight of reading.
_DYNAMIC = frozenset({"exec", "globals", "vars", "__builtins__", "builtins", "__import__"})
#: Names every module has, and the one every method has.
_MODULE_NAMES = frozenset(
    {"__name__", "__file__", "__doc__", "__spec__", "__loader__", "__package__", "__class__"}
)
#: What IPython adds to a notebook's namespace (a notebook exported as a script uses them).
_IPYTHON = frozenset({"display", "get_ipython", "In", "Out", "exit", "quit"})
_KNOWN = frozenset(dir(builtins)) | _MODULE_NAMES | _IPYTHON | frozenset(names.CUSTOMARY)

_Function = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


@dataclass(frozen=True)
class Latent:
    """A line of a snippet that raises ``NameError`` when it runs."""

    #: Index of the snippet (among those given) and program line of the use.
    snippet: int
    line: int
    name: str
    #: The function that reads it (``""`` for a lambda) and the program line it starts on.
    function: str
    function_line: int
    kind: str  # "undefined" | "imported-later"
    #: For "imported-later": program line of the definition that replaces it, the index of
    #: the snippet that does, the snippet importing the name and the line there.
    replaced_at: tuple[int, int] = (0, 0)
    imported_at: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class _Use:
    function: _Function
    name: str
    line: int


def latent_errors(trees: list[ast.Module | None], unread: list[str]) -> list[Latent]:
    """The latent ``NameError`` s of a program whose snippets, in order, parse to ``trees``
    (``None``: a snippet that does not compile, whose text is in ``unread``)."""
    parsed = [t for t in trees if t is not None]
    if any(_dynamic(tree) for tree in parsed):
        return []
    mentioned = {word for text in unread for word in re.findall(r"[A-Za-z_]\w*", text)}
    declared = _declared_global(parsed)
    # (snippet, statement) in program order, and where each global name is bound
    statements = [
        (index, stmt) for index, tree in enumerate(trees) if tree is not None for stmt in tree.body
    ]
    bound_at: dict[str, list[tuple[int, ast.stmt]]] = {}
    for index, stmt in statements:
        for name in scope_binds([stmt]):
            bound_at.setdefault(name, []).append((index, stmt))
    found: list[Latent] = []
    for index, tree in enumerate(trees):
        if tree is None:
            continue
        for use in _free_uses(tree):
            if use.name in _KNOWN or use.name in mentioned or use.name in declared:
                continue
            where = bound_at.get(use.name)
            if where is None:
                found.append(Latent(index, use.line, use.name, *_named(use.function), "undefined"))
                continue
            late = _imported_later(use, index, where, statements)
            if late is not None:
                found.append(late)
    return sorted(
        {(f.snippet, f.line, f.name): f for f in found}.values(), key=lambda f: (f.snippet, f.line)
    )


def _imported_later(
    use: _Use,
    index: int,
    where: list[tuple[int, ast.stmt]],
    statements: list[tuple[int, ast.stmt]],
) -> Latent | None:
    """A module the function reads that only a later snippet imports, when the function is a
    top-level definition replaced before anything uses it."""
    first_index, first = where[0]
    function = use.function
    position = next(  # where the snippet defines it at its top level
        (k for k, (i, stmt) in enumerate(statements) if i == index and stmt is function), None
    )
    if (
        first_index <= index
        or not isinstance(first, (ast.Import, ast.ImportFrom))
        or isinstance(function, ast.Lambda)
        or position is None
    ):
        return None
    for later_index, later in statements[position + 1 :]:
        if function.name in scope_binds([later]):
            if later_index == index:
                return None
            return Latent(
                index,
                use.line,
                use.name,
                *_named(function),
                "imported-later",
                (later.lineno, later_index),
                (first.lineno, first_index),
            )
        if function.name in names.used(later):
            return None
    return None


def _named(function: _Function) -> tuple[str, int]:
    return ("" if isinstance(function, ast.Lambda) else function.name), function.lineno


def _dynamic(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            return True
        if isinstance(node, ast.Import) and any(a.name == "builtins" for a in node.names):
            return True
        if isinstance(node, ast.Name) and node.id in _DYNAMIC:
            return True
    return False


def scope_binds(nodes: list[ast.stmt]) -> set[str]:
    """Names ``nodes`` bind in the scope they run in (not inside the functions, classes,
    lambdas and comprehensions they define, whose own names they do bind)."""
    found: set[str] = set()
    stack: list[ast.AST] = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
            continue
        if isinstance(
            node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
        ):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            found.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found |= names.bound(node)
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            found.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            found.add(node.rest)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _function_scope(node: _Function) -> tuple[list[ast.AST], list[ast.stmt], frozenset[str]]:
    """What of a function runs where it is defined (defaults, decorators), its body, and its
    local names (parameters and what its body binds, less what it declares global)."""
    outer: list[ast.AST] = [*node.args.defaults, *(d for d in node.args.kw_defaults if d)]
    if not isinstance(node, ast.Lambda):
        outer += node.decorator_list
    body: list[ast.stmt] = [ast.Expr(node.body)] if isinstance(node, ast.Lambda) else node.body
    arguments = node.args
    params = {
        a.arg
        for a in (
            *arguments.posonlyargs,
            *arguments.args,
            *arguments.kwonlyargs,
            *(a for a in (arguments.vararg, arguments.kwarg) if a is not None),
        )
    }
    declared = _declared_global(body)
    return outer, body, frozenset((params | scope_binds(body)) - declared)


def _declared_global(nodes: Iterable[ast.AST]) -> set[str]:
    """The names a ``global`` statement anywhere in ``nodes`` declares."""
    return {
        name
        for node in nodes
        for n in ast.walk(node)
        if isinstance(n, ast.Global)
        for name in n.names
    }


def _free_uses(tree: ast.Module) -> list[_Use]:
    """Each global name read inside a function of ``tree``: not a parameter or local name of
    it or of a function around it (a class body's names are not seen from its methods)."""
    found: list[_Use] = []

    def visit(
        node: ast.AST, scopes: tuple[frozenset[str], ...], function: _Function | None
    ) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            outer, body, local = _function_scope(node)
            for item in outer:
                visit(item, scopes, function)
            for item in body:
                visit(item, (*scopes, local), node)
            return
        if isinstance(node, ast.ClassDef):
            for item in (*node.bases, *(k.value for k in node.keywords), *node.decorator_list):
                visit(item, scopes, function)
            for item in node.body:  # a method does not see the class body's names
                inner = (
                    scopes
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                    else (
                        *scopes,
                        frozenset(scope_binds(node.body)),
                    )
                )
                visit(item, inner, function)
            return
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            targets = frozenset(set().union(*(names.bound(g.target) for g in node.generators)))
            visit(node.generators[0].iter, scopes, function)
            inner_scopes = (*scopes, targets)
            for child in ast.iter_child_nodes(node):
                if child is not node.generators[0]:
                    visit(child, inner_scopes, function)
            for part in (node.generators[0].target, *node.generators[0].ifs):
                visit(part, inner_scopes, function)
            return
        if (
            function is not None
            and isinstance(node, ast.Name)
            and isinstance(node.ctx, ast.Load)
            and not any(node.id in scope for scope in scopes)
        ):
            found.append(_Use(function, node.id, node.lineno))
        for child in ast.iter_child_nodes(node):
            visit(child, scopes, function)

    visit(tree, (), None)
    return found


# -- findings ---------------------------------------------------------------------------------


def with_latent(found: list[ScanFinding], prepared: list[snippets.Prepared]) -> list[ScanFinding]:
    """Each snippet's finding, broken instead where a line of it that the run does not reach
    raises ``NameError`` (:mod:`checker.scan.latent`), unless the run found worse."""
    trees = [ast.parse(p.program.source) if p.program else None for p in prepared]
    unread = [p.block.text for p in prepared if p.program is None]
    replaced = list(found)
    for error in latent_errors(trees, unread):
        finding = replaced[error.snippet]
        if finding.verdict not in (FindingVerdict.UNVERIFIED, FindingVerdict.SUPPORTED):
            continue
        if finding is not found[error.snippet]:
            continue  # one finding per snippet: its first latent error
        line = _line_map(prepared)
        function: str | Said = f"`{error.function}`" if error.function else said("the lambda")
        what = said(
            "{function} (line {line}) reads {name} at line {at}",
            function=function,
            line=line(error.snippet, error.function_line),
            name=f"`{error.name}`",
            at=line(error.snippet, error.line),
        )
        raises = f"NameError: name '{error.name}' is not defined"
        if error.kind == "undefined":
            evidence = said(
                "{what}, which nothing in the file defines: that line raises {error} whenever "
                "it runs; the article's own run never raised it",
                what=what,
                error=raises,
            )
        else:
            evidence = said(
                "{what}, which the file imports only at line {imported}, after this snippet; "
                "{function} is defined again at line {again} before anything uses it, so this "
                "version can run only where it stands, where that line raises {error}",
                what=what,
                imported=line(error.imported_at[1], error.imported_at[0]),
                function=function,
                again=line(error.replaced_at[1], error.replaced_at[0]),
                error=raises,
            )
        evidence = said(
            "{evidence} (as the article runs it: {run})",
            evidence=evidence,
            run=finding.said or finding.evidence,
        )
        replaced[error.snippet] = dataclasses.replace(
            finding,
            verdict=FindingVerdict.BROKEN,
            line=line(error.snippet, error.line),
            evidence=evidence.english,
            said=evidence,
        )
    return replaced


def _line_map(prepared: list[snippets.Prepared]) -> Callable[[int, int], int]:
    """Article line of program line ``line`` of snippet ``index``."""

    def line(index: int, source_line: int) -> int:
        program = prepared[index].program
        return program.article_line(source_line) if program is not None else source_line

    return line


def whole_program(document: Document, lang: str, found: list[ScanFinding]) -> list[ScanFinding]:
    """A finding for a file that does not compile as the program it is, though its cells may
    (reST left outside a comment), unless a snippet's finding says so at that line."""
    program = document.program
    assert program is not None
    try:
        compile(program.text, "<file>", "exec", dont_inherit=True)
    except SyntaxError as exc:
        error = exc
    except ValueError:  # NUL bytes: no program at all
        return []
    else:
        return []
    line = program.line_at(0) + (error.lineno or 1) - 1
    if any(f.verdict is FindingVerdict.BROKEN and f.line == line for f in found):
        return []
    text = program.text.split("\n")[line - program.line]
    compiled = said(
        "the file, run as the Python program it is, does not compile: {error} (line {line}); "
        "its cells were run without the lines that are not code",
        error=f"{type(error).__name__}: {error.msg}",
        line=line,
    )
    return [
        ScanFinding(
            str(document.path),
            line,
            lang,
            "snippet",
            FindingVerdict.BROKEN,
            text.strip(),
            compiled.english,
            said=compiled,
        )
    ]
