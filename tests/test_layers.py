"""The package's layers point one way (ARCHITECTURE.md): the core (claims, probes, evidence,
verdicts, the runner) imports nothing above it; the text layer (``checker/text``) imports only
the core; the edges (the gate, the scanner, the Sphinx extension, the service, the doctest
plugin, the renderers and the command line) import the layers below and each other without a
cycle; the gate imports neither the Sphinx extension nor the service. And every class name is
defined once, every module is short enough to read in one sitting."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from tests.helpers import ROOT

PACKAGE = ROOT / "checker"
#: Top-level modules that are edges: entry points that wire the layers together.
TOP_LEVEL_EDGES = frozenset({"__main__", "cli", "summary", "project"})
#: The longest a module of the package may be.
MAX_LINES = 600


def _part(module: str) -> str:
    """The part of the package a module belongs to: ``core``, ``text``, or the edge's name
    (``i18n``, ``scan``, ``sphinx``, ``service``, ``doctest``, ``report``, ``cli``, ...)."""
    parts = module.split(".")
    if len(parts) == 1:
        return "core"  # checker/__init__.py
    if (PACKAGE / parts[1]).is_dir() and parts[1] != "claims":
        return parts[1]
    name = parts[1]
    return name if name in TOP_LEVEL_EDGES else "core"


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()


def _imports(path: Path) -> set[str]:
    """The modules of ours that ``path`` imports, at any depth of its code."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        found |= {n for n in names if n == "checker" or n.startswith("checker.")}
    return {n for n in found if n in MODULES or n.rpartition(".")[0] in MODULES}


def _edges() -> dict[str, set[tuple[str, str, str]]]:
    """Per part, ``(target part, module, imported)`` of every import that leaves it."""
    edges: dict[str, set[tuple[str, str, str]]] = defaultdict(set)
    for name, path in MODULES.items():
        source = _part(name)
        for imported in _imports(path):
            target = _part(imported)
            if target != source:
                edges[source].add((target, name, imported))
    return edges


EDGES = _edges()


def test_the_core_imports_only_the_core() -> None:
    assert sorted(f"{m} -> {i}" for _, m, i in EDGES["core"]) == []


def test_the_text_layer_imports_only_the_core() -> None:
    assert sorted(f"{m} -> {i}" for t, m, i in EDGES["text"] if t != "core") == []


def test_the_gate_imports_neither_sphinx_nor_the_service() -> None:
    found = [f"{m} -> {i}" for t, m, i in EDGES["i18n"] if t in ("sphinx", "service")]
    assert sorted(found) == []


def test_the_parts_import_each_other_without_a_cycle() -> None:
    graph = {part: {t for t, _, _ in targets} for part, targets in EDGES.items()}
    cycles = []

    def visit(part: str, path: list[str]) -> None:
        for target in sorted(graph.get(part, ())):
            if target in path:
                cycles.append(" -> ".join([*path[path.index(target) :], target]))
            else:
                visit(target, [*path, target])

    for part in sorted(graph):
        visit(part, [part])
    assert cycles == []


def test_every_class_name_is_defined_once() -> None:
    defined: dict[str, list[str]] = defaultdict(list)
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                defined[node.name].append(name)
    assert {cls: where for cls, where in defined.items() if len(where) > 1} == {}


def test_every_module_can_be_read_in_one_sitting() -> None:
    long = {
        name: lines
        for name, path in MODULES.items()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def test_the_parts_are_the_ones_architecture_names() -> None:
    assert sorted({_part(name) for name in MODULES}) == [
        "__main__", "cli", "core", "doctest", "i18n", "project", "report", "scan", "service",
        "sphinx", "summary", "text",
    ]  # fmt: skip
