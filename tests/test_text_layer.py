"""The text layer (checker/text/) is the one place that reads catalogs and tokenizes Markdown,
and it imports nothing but the core."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers import ROOT

PACKAGE = ROOT / "checker"
TEXT = PACKAGE / "text"
MODULES = sorted(PACKAGE.rglob("*.py"))

#: What reads a catalog or builds a Markdown parser: only the text layer may use them.
#: (Babel still writes templates, ``write_po``, and formats numbers; Sphinx reads the pages'
#: catalogs with Babel in its own code.)
READERS = {
    "polib",
    "babel.messages.pofile.read_po",
    "babel.messages.mofile",
    "babel.messages.mofile.write_mo",
    "markdown_it.MarkdownIt",
    "mdit_py_plugins",
    "myst_parser.parsers.mdit.create_md_parser",
}
#: The core's modules, which the text layer may import.
CORE = {
    "claim", "evidence", "verdict", "registry", "runner", "pool", "zygote", "worker", "cache",
    "devices", "source_hash", "record", "versions", "verify", "typing", "measure", "claims",
}  # fmt: skip


def _imports(path: Path) -> set[str]:
    """Every module and ``module.name`` that ``path`` imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("path", MODULES, ids=[_name(p) for p in MODULES])
def test_only_the_text_layer_reads_catalogs_and_tokenizes_markdown(path: Path) -> None:
    if TEXT in path.parents:
        return
    found = {name for name in _imports(path) if any(name.startswith(r) for r in READERS)}
    assert found == set()


def test_the_text_layer_imports_only_the_core() -> None:
    found = {
        f"{_name(path)}: {name}"
        for path in sorted(TEXT.rglob("*.py"))
        for name in _imports(path)
        if name.startswith("checker.")
        and not name.startswith("checker.text")
        and name.split(".")[1] not in CORE
    }
    assert found == set()
    assert sorted(p.relative_to(TEXT).as_posix() for p in TEXT.rglob("*.py")) == [
        "__init__.py", "fields.py", "languages/__init__.py", "languages/base.py",
        "languages/en.py", "languages/ja.py", "languages/ko.py", "links.py", "markdown.py",
        "mo.py", "pages.py", "po.py", "po_entries.py", "po_header.py", "po_lexer.py",
        "po_write.py", "reading.py", "said.py", "sites.py", "values.py",
    ]  # fmt: skip
