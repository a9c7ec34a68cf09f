"""Shapes of real posts that the scanner once took for errors (issue 23), on our own samples
(``tests/samples/scan-shapes/``): a method reference list with an augmented assignment, a
section title after code, code on a fence's opening line in plain text, and snippets that
raise the error their article quotes. Each sample also holds the error the shape must not
hide: a method that does not exist, an error nobody announced, an error the code means to
catch but lets escape.
"""

from __future__ import annotations

import ast

import pytest

from checker import registry as registry_mod
from checker.scan import announced, codelines, names
from checker.scan.document import Block, BlockKind
from checker.scan.findings import FindingVerdict, ScanResult
from checker.scan.run import ScanOptions, scan
from tests.helpers import ROOT, sample

SAMPLES = sample("scan-shapes")
B, S, U = FindingVerdict.BROKEN, FindingVerdict.SUPPORTED, FindingVerdict.UNVERIFIED

#: (path, line, kind, verdict) of every snippet and api finding of the samples.
FINDINGS = [
    # the quoted error, right after the snippet: what the article says it does
    ("en/announced-error.txt", 5, "snippet", S),
    # the same error from a line meant to change another snippet: not decided
    ("en/announced-error.txt", 17, "snippet", U),
    # raised outside the try that was written to catch it
    ("en/announced-error.txt", 24, "snippet", B),
    # an error the article quotes nowhere
    ("en/announced-error.txt", 34, "snippet", B),
    ("en/fence-line-code.txt", 5, "snippet", S),
    ("en/fence-line-code.txt", 14, "snippet", S),
    ("en/title-after-code.txt", 3, "snippet", S),
    ("ko/method-list.txt", 4, "snippet", U),
    ("ko/method-list.txt", 6, "api", B),
    ("ko/method-list.txt", 8, "snippet", U),
    ("ko/method-list.txt", 11, "snippet", U),
]


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan([SAMPLES], registry_mod.load(), ScanOptions(project_root=ROOT))


def test_every_snippet_and_api_finding(result: ScanResult) -> None:
    found = [
        (f.path.removeprefix(f"{SAMPLES}/"), f.line, f.kind, f.verdict)
        for f in result.findings
        if f.kind in ("snippet", "api")
    ]
    assert found == FINDINGS


def test_the_evidence_says_why_an_error_is_not_broken(result: ScanResult) -> None:
    evidence = {
        (f.path.rsplit("/", 1)[-1], f.line): f.evidence
        for f in result.findings
        if f.kind == "snippet"
    }
    assert evidence["announced-error.txt", 5].endswith("(line 9), as the article says at line 13")
    assert "the error the article quotes at line 13" in evidence["announced-error.txt", 17]
    assert "a placeholder: `tensor` (line 11)" in evidence["method-list.txt", 11]


def test_an_augmented_assignment_binds_nothing() -> None:
    """``tensor += value`` reads ``tensor`` first: it defines no placeholder for the rest of
    the article (it made every line of a method list a NameError of its own)."""
    assert names.bound(ast.parse("tensor += value\nx = 1\nfor i in y: pass")) == {"x", "i"}
    assert names.bound(ast.parse("t = tensor\nt += 1")) == {"t"}


def test_a_title_after_code_is_prose_and_a_name_between_code_lines_is_code() -> None:
    lines = ["x = torch.ones(2)", "y = x + 1", "", "Reference", "", "See the docs."]
    kinds = [b.kind for b in codelines.split_blocks(lines, 1)]
    assert kinds == [BlockKind.CODE, BlockKind.PROSE, BlockKind.PROSE]
    lines = ["x = torch.ones(2)", "x", "y = x + 1"]
    (block,) = codelines.split_blocks(lines, 1)
    assert (block.kind, block.lines) == (BlockKind.CODE, (1, 2, 3))


@pytest.mark.parametrize(
    ("info", "code"),
    [
        ("x=torch.ones(5, requires_grad=True)", True),
        ("print(y.grad)", True),
        ("python", False),
        ("python3", False),
        ("python:train.py", False),
        ("x: int = 3", True),
        ("{code-cell} ipython3", False),
        ("", False),
        ("diff --git a/x b/x", False),
    ],
)
def test_code_on_a_fence_line_is_told_from_a_language(info: str, code: bool) -> None:
    assert codelines.fence_code(info) is code


def _prose(text: str, line: int) -> Block:
    return Block(BlockKind.PROSE, text, tuple(range(line, line + text.count("\n") + 1)))


def test_a_quoted_error_is_found_by_the_start_of_its_message() -> None:
    message = (
        "one of the variables needed for gradient computation has been modified by an "
        "inplace operation: [torch.FloatTensor [3]] is at version 1; expected version 0"
    )
    quoted = _prose("It fails with\n> RuntimeError: one of the variables needed for\ngradient", 7)
    assert announced.quoted_at([quoted], "RuntimeError", message) == 8
    assert announced.quoted_at([_prose("It fails.", 1)], "RuntimeError", message) is None
    # a short message counts only with its type
    assert announced.quoted_at([_prose("got 5", 1)], "KeyError", "5") is None
    assert announced.quoted_at([_prose("raises KeyError: 5", 3)], "KeyError", "5") == 3


@pytest.mark.parametrize(
    ("source", "catches"),
    [
        ("try:\n    f()\nexcept RuntimeError:\n    pass", True),
        ("try:\n    f()\nexcept (ValueError, torch.OutOfMemoryError):\n    pass", False),
        ("try:\n    f()\nexcept Exception as e:\n    print(e)", True),
        ("try:\n    f()\nexcept:\n    pass", True),
        ("f()", False),
    ],
)
def test_code_that_catches_the_error_it_raises(source: str, catches: bool) -> None:
    assert announced.catches(source, "RuntimeError") is catches
