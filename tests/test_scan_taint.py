"""After a snippet raises, the statements of it that do not depend on the failure still run
(silently, within a share of the time limit), so a later snippet is judged on what a reader who
fixed the failing line would have; what the failure left undone is never judged
(``checker/scan/taint.py``).
"""

from __future__ import annotations

import ast
import time

import pytest

from checker import registry as registry_mod
from checker.scan import taint
from checker.scan.findings import FindingVerdict, ScanResult
from checker.scan.run import ScanOptions, scan
from checker.scan.sandbox import SnippetLimits
from tests.helpers import ROOT, sample

ARTICLE = sample("scan-after-failure", "rebound.md")
TIMEOUT_S = 4.0
B, S, U = FindingVerdict.BROKEN, FindingVerdict.SUPPORTED, FindingVerdict.UNVERIFIED


def _statement(source: str) -> ast.stmt:
    return ast.parse(source).body[0]


def test_reads_leave_out_what_functions_and_comprehensions_bind_themselves() -> None:
    assert taint.reads(_statement("def f(x, *a, k=y):\n    z = x + w\n    return z")) == {
        "y",
        "w",
    }
    assert taint.reads(_statement("total = [i * scale for i in items if i]")) == {
        "scale",
        "items",
    }
    assert taint.reads(_statement("g = lambda t: t + bias")) == {"bias"}
    assert taint.reads(_statement("def f():\n    global n\n    n = m")) == {"m"}


def test_store_roots_and_rebinds() -> None:
    assert taint.store_roots(_statement("model.fc.weight[0] = 1")) == {"model"}
    assert taint.store_roots(_statement("count += 1")) == {"count"}
    assert taint.rebinds(_statement("a, b = 1, 2")) == {"a", "b"}
    assert taint.rebinds(_statement("import numpy as np")) == {"np"}
    # bound only conditionally: not certainly rebound
    assert taint.rebinds(_statement("for i in range(3):\n    x = i")) == set()


def test_a_failed_statement_taints_what_it_binds_and_the_objects_it_could_change() -> None:
    session = taint.Taint()
    namespace = {"torch": ast, "weights": [1.0], "rate": 0.5, "f": len}
    session.undone(_statement("out = f(weights, rate, torch.x)"), namespace, origin=2)
    # `out` is left undone; the list it was given may be half changed; the float, the
    # module and the function cannot have been
    assert session.unbound == {"out": 2}
    assert session.names == {"out": 2, "weights": 2}
    # a function assigned into is tainted
    session.undone(_statement("f.attr = 1"), namespace, origin=3)
    assert session.names["f"] == 3
    assert "f" not in session.unbound


def test_a_clean_assignment_cleans_and_a_tainted_read_spreads() -> None:
    session = taint.Taint()
    session.undone(_statement("x = make()"), {}, origin=0)
    session.ran(_statement("y = x + 1"), {"x": 1, "y": 2})
    assert session.unbound == {"x": 0, "y": 0}
    session.ran(_statement("x = 1.0"), {"x": 1.0})
    assert session.unbound == {"y": 0}
    assert session.judged(_statement("print(x, y)")) == {"y": 0}


def test_the_part_of_a_statement_on_a_line() -> None:
    node = _statement("with ctx:\n    for i in items:\n        total.add_(i)\nafter = 1")

    def reads_at(line: int) -> set[str]:
        return set().union(*map(taint.reads, taint.part_at(node, line)))

    assert reads_at(1) == {"ctx"}
    assert reads_at(2) == {"items"}
    assert reads_at(3) == {"total", "i"}
    assert taint.part_at(node, 9) == [node]  # raised in a function defined elsewhere
    session = taint.Taint()
    session.undone(_statement("total = make()"), {}, origin=1)
    assert session.judged_at(node, 1) == {}
    assert session.judged_at(node, 3) == {"total": 1}


def test_unchangeable_values() -> None:
    assert taint.unchangeable((1, "a", None, (2.0,)))
    assert not taint.unchangeable((1, []))
    assert not taint.unchangeable([1])


@pytest.fixture(scope="module")
def result() -> ScanResult:
    options = ScanOptions(project_root=ROOT, limits=SnippetLimits(timeout_s=TIMEOUT_S))
    started = time.monotonic()
    scanned = scan([ARTICLE], registry_mod.load(), options)
    # the endless loop after the failure stops after its share of the time limit, the
    # snippets after it run in the same session
    assert time.monotonic() - started < 60
    return scanned


def test_later_snippets_are_judged_on_what_does_not_depend_on_the_failure(
    result: ScanResult,
) -> None:
    found = [(f.line, f.verdict, f.evidence) for f in result.findings if f.kind == "snippet"]
    assert found == [
        (7, B, "raises AttributeError: module 'torch' has no attribute 'make_counter' (line 7)"),
        # line 8 rebinds the counter to a float whatever line 7 does
        (15, B, "raises AttributeError: 'float' object has no attribute 'add_' (line 15); "
         "`counter` comes from line 8 of the snippet at line 6, run after that snippet raised "
         "(it does not depend on what raised)"),
        (23, B, "raises AttributeError: module 'torch' has no attribute 'make_weights' "
         "(line 23)"),
        # the weights keep the value line 23 failed to replace: nothing about them is judged
        (32, U, "runs; what it shows depends on `weights`, which the snippet at line 22 left "
         "undone when it raised"),
        (36, U, "raises AttributeError: 'Tensor' object has no attribute 'no_such_method' "
         "(line 36) where it uses `weights`, which the snippet at line 22 left undone when it "
         "raised"),
        (40, U, "raises NameError: name 'scaled' is not defined (line 40): the snippet at line "
         "22 defines it, but it did not run to the end"),
        # `with` raises before its body reads the weights
        (44, B, "raises TypeError: 'type' object does not support the context manager "
         "protocol (line 44)"),
        (49, B, "raises AttributeError: module 'torch' has no attribute 'make_done' "
         "(line 49)"),
        # made after the failure, from nothing the failure touched; the SystemExit after a
        # failure does not end the session
        (54, S, "prints what the article shows (1 output compared)"),
    ]  # fmt: skip
