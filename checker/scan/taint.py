"""What a statement that raised leaves undone, so that the snippets after it are judged only on
what does not depend on it.

An article's snippets run in one namespace. When a statement raises, the names it was to bind
(and, in a snippet that stops there, the names the rest of the snippet was to bind) are missing
or keep an older value, and the objects it was about to change are not as the author meant:
those names are *tainted*, each with the program where it was left undone. The statements of
the snippet after the failure that read no tainted name do not depend on it: they run
silently, within :data:`SALVAGE_SHARE` of the time limit (:func:`salvage`), so a later snippet
sees what they define, as a reader who fixed the failing line would. A statement that reads a
tainted name is skipped, and what it binds and the mutable objects it touches are tainted in
turn. A statement that binds a name outright, reading nothing tainted, makes it clean again.

In the snippets after, a statement that reads a name whose binding a failure left undone
(:attr:`Taint.unbound`: missing, or holding an older value, or computed from one) runs but is
not judged: its error or its output says nothing about the article's code. An object that a
failure may have left half changed (a tensor a failing ``add_`` read) is not salvaged from, but
is judged as before, as the run shows it.

Values that cannot be changed in place (numbers, strings, ``None``, tuples of them) are never
tainted by a change that did not happen; modules, functions and classes are tainted only when a
statement assigns to one of their attributes or items.
"""

from __future__ import annotations

import ast
import contextlib
import io
import signal
import types
from typing import Any

from checker.scan import names

#: Share of a snippet's time limit that the statements after its failure may take.
SALVAGE_SHARE = 0.25

_SCALARS = (type(None), bool, int, float, complex, str, bytes, range, type(Ellipsis))
_DEFINITIONS = (
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    type,
)


def unchangeable(value: Any) -> bool:
    """Whether ``value`` cannot be changed in place: a number, a string, ``None``, or a tuple or
    frozenset of such values."""
    if isinstance(value, _SCALARS):
        return True
    if isinstance(value, (tuple, frozenset)):
        return all(unchangeable(item) for item in value)
    return False


def reads(node: ast.AST) -> set[str]:
    """Names a statement reads from the namespace it runs in: the names it loads, less the
    parameters and local names of the functions, lambdas and comprehensions inside it."""
    found: set[str] = set()

    def visit(sub: ast.AST, local: frozenset[str]) -> None:
        if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            outer: list[ast.AST] = [*sub.args.defaults, *(d for d in sub.args.kw_defaults if d)]
            if not isinstance(sub, ast.Lambda):
                outer += sub.decorator_list
            for item in outer:
                visit(item, local)
            body: list[ast.AST] = [sub.body] if isinstance(sub, ast.Lambda) else list(sub.body)
            arguments = sub.args
            params = {
                a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)
            }
            params |= {a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None}
            declared = {
                name
                for item in body
                for n in ast.walk(item)
                if isinstance(n, (ast.Global, ast.Nonlocal))
                for name in n.names
            }
            inner = local | ((params | set().union(*map(names.bound, body))) - declared)
            for item in body:
                visit(item, frozenset(inner))
            return
        if isinstance(sub, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            targets = set().union(*(names.bound(g.target) for g in sub.generators))
            visit(sub.generators[0].iter, local)  # evaluated in the enclosing scope
            inner_local = frozenset(local | targets)
            for child in ast.iter_child_nodes(sub):
                if child is not sub.generators[0]:
                    visit(child, inner_local)
            for part in (sub.generators[0].target, *sub.generators[0].ifs):
                visit(part, inner_local)
            return
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load) and sub.id not in local:
            found.add(sub.id)
        for child in ast.iter_child_nodes(sub):
            visit(child, local)

    visit(node, frozenset())
    return found


def store_roots(node: ast.AST) -> set[str]:
    """Names whose object a statement assigns into or deletes from (``x.data = ...``,
    ``d[k] = ...``, ``del x.attr``, ``x += ...``)."""
    found: set[str] = set()
    for sub in ast.walk(node):
        target: ast.AST | None = None
        if isinstance(sub, (ast.Attribute, ast.Subscript)) and isinstance(
            sub.ctx, (ast.Store, ast.Del)
        ):
            target = sub.value
        elif isinstance(sub, ast.AugAssign):
            target = sub.target
        while isinstance(target, (ast.Attribute, ast.Subscript, ast.Starred)):
            target = target.value
        if isinstance(target, ast.Name):
            found.add(target.id)
    return found


def rebinds(node: ast.stmt) -> set[str]:
    """Names a statement that completed certainly bound anew: plain assignment targets,
    imports, definitions (not names bound conditionally, in a loop or a block)."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return names.bound(node)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        targets = [node.target]
    found: set[str] = set()
    for target in targets:
        elements = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
        found.update(e.id for e in elements if isinstance(e, ast.Name))
    return found


def part_at(node: ast.stmt | ast.ExceptHandler, line: int) -> list[ast.AST]:
    """What of ``node`` runs on program line ``line``: the innermost statement there, or,
    on the header line of a compound statement, its header (``with torch.no_grad:`` raises
    before its body reads anything). ``[node]`` when ``line`` is outside it (an error raised
    in a function defined elsewhere)."""
    if not node.lineno <= line <= (node.end_lineno or node.lineno):
        return [node]
    for field in ("body", "orelse", "finalbody", "handlers"):
        for child in getattr(node, field, None) or []:
            if isinstance(child, (ast.stmt, ast.ExceptHandler)) and (
                child.lineno <= line <= (child.end_lineno or child.lineno)
            ):
                return part_at(child, line)
    header: list[ast.AST] = [node]
    if isinstance(node, ast.ExceptHandler):
        header = [node.type] if node.type is not None else []
    elif isinstance(node, (ast.With, ast.AsyncWith)):
        header = list(node.items)
    elif isinstance(node, (ast.For, ast.AsyncFor)):
        header = [node.target, node.iter]
    elif isinstance(node, (ast.If, ast.While)):
        header = [node.test]
    return header


class Taint:
    """The tainted names of a session, each with the index of the program that left it undone.

    Two sets: :attr:`names`, everything a failure may have left other than meant (what
    statements bind and the objects they may change), which decides what is salvaged; and
    :attr:`unbound`, the names whose binding was left undone (missing, or holding an older
    value) and what was computed from them, which decides what is not judged."""

    def __init__(self) -> None:
        self.names: dict[str, int] = {}
        self.unbound: dict[str, int] = {}
        #: Names bound by statements salvaged after a failure (or computed from them), each
        #: with the program that failed and the program line of the salvaged statement.
        self.salvaged: dict[str, tuple[int, int]] = {}

    def touched(self, node: ast.AST) -> dict[str, int]:
        """The tainted names ``node`` reads, with their origins (it is not salvaged)."""
        return _hits(node, self.names)

    def judged(self, node: ast.AST) -> dict[str, int]:
        """The names ``node`` reads whose binding a failure left undone (it is not judged)."""
        return _hits(node, self.unbound)

    def judged_at(self, node: ast.stmt, line: int) -> dict[str, int]:
        """The names the part of ``node`` on program line ``line`` reads whose binding a
        failure left undone: an error raised there is not judged."""
        found: dict[str, int] = {}
        for part in part_at(node, line):
            found |= self.judged(part)
        return found

    def from_salvage(self, node: ast.AST) -> dict[str, tuple[int, int]]:
        """The names ``node`` reads that salvaged statements bound."""
        return _hits(node, self.salvaged)

    def undone(self, node: ast.AST, namespace: dict[str, Any], origin: int) -> None:
        """``node`` did not run (to the end): what it binds is left undone, and the objects it
        may have been about to change are not as meant."""
        for name in names.bound(node):
            self.names.setdefault(name, origin)
            self.unbound.setdefault(name, origin)
        self._changed(node, namespace, origin)

    def ran(self, node: ast.stmt, namespace: dict[str, Any]) -> None:
        """``node`` ran to the end: what it bound and changed from tainted names is tainted as
        they are; what it bound outright from clean ones is clean."""
        touched, unbound = self.touched(node), self.judged(node)
        derived = self.from_salvage(node)
        if touched:
            origin = min(touched.values())
            for name in names.bound(node):
                self.names.setdefault(name, origin)
            self._changed(node, namespace, origin)
        if unbound:
            origin = min(unbound.values())
            for name in names.bound(node) | store_roots(node):
                self.unbound.setdefault(name, origin)
        if not touched:
            for name in rebinds(node):
                self.names.pop(name, None)
                self.unbound.pop(name, None)
                self.salvaged.pop(name, None)
        if derived:
            source = min(derived.values())
            for name in names.bound(node):
                self.salvaged.setdefault(name, source)

    def kept(self, node: ast.stmt, origin: int) -> None:
        """``node`` ran, salvaged after the failure of program ``origin``."""
        for name in names.bound(node):
            self.salvaged[name] = (origin, node.lineno)

    def _changed(self, node: ast.AST, namespace: dict[str, Any], origin: int) -> None:
        roots = store_roots(node)
        for name in reads(node) | roots:
            if name not in namespace:
                continue
            value = namespace[name]
            if unchangeable(value):
                continue
            if isinstance(value, _DEFINITIONS) and name not in roots:
                continue
            self.names.setdefault(name, origin)


def _hits(node: ast.AST, table: dict[str, Any]) -> dict[str, Any]:
    if not table:
        return {}
    read = reads(node) | store_roots(node)
    return {name: table[name] for name in sorted(read) if name in table}


class _OutOfTime(BaseException):
    """The statements salvaged after a failure took their share of time."""


class _Discard(io.TextIOBase):
    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        return len(text)


def salvage(
    rest: list[ast.stmt],
    namespace: dict[str, Any],
    taint_of: tuple[Taint, int],
    budget: float,
    filename: str,
) -> None:
    """Run, silently and within ``budget`` seconds, the statements after a failure that read
    nothing it left undone; skip the others (what they would have bound is tainted).
    ``taint_of``: the session's taint and the index of the program that failed."""
    taint, origin = taint_of

    def out_of_time(signum: int, frame: Any) -> None:
        raise _OutOfTime

    previous = signal.signal(signal.SIGALRM, out_of_time)
    signal.setitimer(signal.ITIMER_REAL, max(budget, 0.01), 0.05)  # again until cancelled
    remaining = list(rest)
    try:
        with contextlib.redirect_stdout(_Discard()):
            while remaining:
                node = remaining[0]
                if taint.touched(node):
                    taint.undone(node, namespace, origin)
                    remaining.pop(0)
                    continue
                try:
                    exec(compile(ast.Module([node], []), filename, "exec"), namespace)
                except _OutOfTime:
                    raise
                except BaseException:  # sys.exit() too: the session goes on
                    taint.undone(node, namespace, origin)
                else:
                    taint.ran(node, namespace)
                    taint.kept(node, origin)
                remaining.pop(0)
    except _OutOfTime:
        pass
    finally:
        while True:  # the timer may fire once more before it is cancelled
            try:
                signal.setitimer(signal.ITIMER_REAL, 0)
                break
            except _OutOfTime:
                continue
        signal.signal(signal.SIGALRM, previous)
    for node in remaining:
        taint.undone(node, namespace, origin)
