"""Articles that are Python source files (a sphinx-gallery example, a percent-format script),
saved as text: read as the program they are (``readers/python.py``), compiled whole, and read
for the ``NameError`` s their run does not reach (``latent.py``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from checker import registry as registry_mod
from checker.scan.document import BlockKind
from checker.scan.findings import FindingVerdict, ScanResult
from checker.scan.latent import latent_errors
from checker.scan.readers import read
from checker.scan.run import ScanOptions, scan
from tests.helpers import ROOT, sample

SAMPLES = sample("scan-python")
B, S = FindingVerdict.BROKEN, FindingVerdict.SUPPORTED
SHOWN = "prints what the article shows (1 output compared)"


def test_a_gallery_example_is_read_as_its_cells() -> None:
    document = read(SAMPLES / "gallery.txt")
    assert document.format == "py"
    assert document.program is not None
    # the header is not the program: the program's lines are the file's, the header blank
    assert document.program.text.split("\n")[:3] == ["", "", ""]
    assert document.program.lines[13] == 14
    kinds = [(b.kind, b.line, b.heading) for b in document.blocks]
    assert (BlockKind.PROSE, 5, True) in kinds  # the docstring's title
    assert (BlockKind.PROSE, 11, False) in kinds  # the text after a line of #
    prose = {b.line: b.text for b in document.blocks if b.kind is BlockKind.PROSE}
    assert prose[11] == "Scaling a tensor keeps its shape. The formula is"
    assert prose[14] == ".. math::  y = 2 x"  # reST left outside a comment is not code
    code = [b.line for b in document.blocks if b.kind is BlockKind.CODE]
    assert code == [16, 25, 36, 51, 63]


def test_a_percent_script_is_read_as_its_cells() -> None:
    document = read(SAMPLES / "percent.txt")
    assert document.format == "py"
    prose = [b.text for b in document.blocks if b.kind is BlockKind.PROSE]
    assert prose[:2] == [
        "# Views in a percent-format script",
        "`view` shares the storage of its base.",
    ]
    assert [b.line for b in document.blocks if b.kind is BlockKind.CODE] == [7, 15]


def test_what_is_not_a_python_source(tmp_path: Path) -> None:
    # prose between lines of # is an article, not a program
    article = tmp_path / "notes.txt"
    article.write_text(
        "#" * 30 + "\nA note about views.\n\nx = torch.zeros(2)\ny = x.view(2)\n" + "#" * 30 + "\n"
        "Views share storage with their base tensor, as the next note shows.\n",
        encoding="utf-8",
    )
    assert read(article).format == "txt"
    # lines of # around code, without the docstring a gallery example starts with
    article.write_text(("#" * 30 + "\nx = torch.zeros(2)\ny = x.view(2)\n") * 2, encoding="utf-8")
    assert read(article).format == "txt"
    # code alone in a .txt is read as text (its snippet), as a .py as one program
    code = "import torch\nx = torch.ones(2)\nprint(x)\n"
    (tmp_path / "code.txt").write_text(code, encoding="utf-8")
    (tmp_path / "code.py").write_text(code, encoding="utf-8")
    assert read(tmp_path / "code.txt").format == "txt"
    assert read(tmp_path / "code.py").format == "py"
    # a header that is Python is no header
    (tmp_path / "typed.py").write_text("limit: int = 3\n\nprint(limit)\n", encoding="utf-8")
    program = read(tmp_path / "typed.py").program
    assert program is not None and program.text.startswith("limit: int = 3")


def _latent(*snippets: str) -> list[tuple[int, int, str, str]]:
    trees: list[ast.Module | None] = [ast.parse(s) for s in snippets]
    return [(e.snippet, e.line, e.name, e.kind) for e in latent_errors(trees, [])]


def test_a_name_nothing_defines_is_latent() -> None:
    assert _latent("def f(t):\n    if t:\n        return t\n    return missing(t)\n") == [
        (0, 4, "missing", "undefined")
    ]
    # defined anywhere at the top level, even later, by a loop, a global statement, a class
    assert _latent("def f():\n    return later\n", "later = 1") == []
    assert _latent("def f():\n    return i\n", "for i in range(2):\n    pass") == []
    assert _latent("def f():\n    global g\n    g = 1\n", "def h():\n    return g\n") == []
    # builtins, customary imports, parameters, closures, comprehensions are no one's fault
    assert _latent("def f(a, *b, **c):\n    n = len(a)\n    return [k for k in b], torch, n") == []
    assert (
        _latent("def outer():\n    v = 1\n    def inner():\n        return v\n    return inner")
        == []
    )
    assert _latent("g = lambda t: t * 2") == []


def test_class_names_are_not_seen_from_methods() -> None:
    source = (
        "class A:\n    size = 2\n    double = size * 2\n    def get(self):\n        return size\n"
    )
    assert _latent(source) == [(0, 5, "size", "undefined")]


def test_dynamic_definitions_silence_it() -> None:
    for dynamic in ("from os.path import *", "exec('w = 1')", "globals()['w'] = 1"):
        assert _latent("def f():\n    return w\n", dynamic) == []
    # a snippet that does not compile may define it
    trees: list[ast.Module | None] = [ast.parse("def f():\n    return w\n"), None]
    assert latent_errors(trees, ["w = (1,"]) == []


def test_a_module_imported_too_late_for_a_replaced_function() -> None:
    first = "def save(t):\n    return os.path.join('d', t)\n"
    second = "import os\n\ndef save(t):\n    return os.path.join('e', t)\n"
    assert _latent(first, second) == [(0, 2, "os", "imported-later")]
    # used before it is replaced (or never replaced): it runs where the article runs it
    assert _latent(first, "import os\nsave('x')\n", second) == []
    assert _latent(first, "import os\n") == []
    # a variable defined later is the usual order of a tutorial, not a missing import
    assert _latent("def f():\n    return rate\n", "rate = 2\n\ndef f():\n    return 0\n") == []


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan([SAMPLES], registry_mod.load(), ScanOptions(project_root=ROOT))


def test_every_snippet_finding(result: ScanResult) -> None:
    found = [
        (Path(f.path).name, f.line, f.verdict, f.evidence)
        for f in result.findings
        if f.kind == "snippet"
    ]
    assert found == [
        ("gallery.txt", 14, B, "the file, run as the Python program it is, does not compile: "
         "IndentationError: unexpected indent (line 14); its cells were run without the lines "
         "that are not code"),
        ("gallery.txt", 16, S, SHOWN),
        ("gallery.txt", 29, B, "`store` (line 28) reads `os` at line 29, which the file "
         "imports only at line 36, after this snippet; `store` is defined again at line 41 "
         "before anything uses it, so this version can run only where it stands, where that "
         "line raises NameError: name 'os' is not defined (as the article runs it: runs; the "
         "article shows no output to compare)"),
        ("gallery.txt", 36, S, SHOWN),
        ("gallery.txt", 56, B, "`keep` (line 53) reads `tensr` at line 56, which nothing in the "
         "file defines: that line raises NameError: name 'tensr' is not defined whenever it "
         "runs; the article's own run never raised it (as the article runs it: " + SHOWN + ")"),
        # a function reading a setting defined after it, then called: nothing to say
        ("gallery.txt", 63, S, SHOWN),
        ("percent.txt", 7, S, SHOWN),
        ("percent.txt", 15, S, SHOWN),
    ]  # fmt: skip
    # each worded as a template and its values, which a findings page translates
    assert all(
        f.said is not None and f.said.english == f.evidence
        for f in result.findings
        if f.kind == "snippet"
    )
