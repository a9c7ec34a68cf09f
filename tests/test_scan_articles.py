"""The scanner on our own short articles (``tests/samples/scan/``): every format (.md, .rst,
plain .txt with unfenced and unindented code, .po, .ipynb) in English, Japanese and Korean,
every kind of snippet finding, and a malformed file per format.

Everything is scanned in one call (one sandbox). Snippet findings are asserted exactly; claim
findings only for a few direct statements (how claims are matched is tuned elsewhere).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from checker import registry as registry_mod
from checker.scan.findings import FindingVerdict, ScanResult
from checker.scan.run import ScanOptions, scan
from checker.text.languages import LANGS
from tests.helpers import ROOT, sample

SAMPLES = sample("scan")
B, C, S, N, U = (
    FindingVerdict.BROKEN,
    FindingVerdict.CONTRADICTED,
    FindingVerdict.SUPPORTED,
    FindingVerdict.NEEDS_CUDA,
    FindingVerdict.UNVERIFIED,
)
SHOWN = "prints what the article shows (1 output compared)"
SHOWN_2 = "prints what the article shows (2 outputs compared)"
CUDA = "AssertionError: Torch not compiled with CUDA enabled (line {}): it needs a CUDA device"
NOTHING = "runs; the article shows no output to compare"
INTEGER = "RuntimeError: Only Tensors of floating point and complex dtype can require gradients"
LEAF = "RuntimeError: a leaf Variable that requires grad is being used in an in-place operation."
NO_GRAD = "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn"
AS_FLOATS = "its integer data written as floating point (`{}` as `{}`), as requires_grad=True needs"

#: (path, line, lang, verdict, repaired, evidence) of every snippet finding.
SNIPPETS = [
    ("en/flat.txt", 4, "en", B, True,
     "as published: IndentationError: expected an indented block after function definition "
     "on line 1; with its indentation repaired: broken, raises TypeError: add() missing 1 "
     "required positional argument: 'b' (line 6)"),
    ("en/flat.txt", 9, "en", S, False, SHOWN),
    ("en/guide.rst", 8, "en", S, False, SHOWN),
    ("en/guide.rst", 17, "en", B, False,
     "raises RuntimeError: shape '[4]' is invalid for input of size 3 (line 17)"),
    ("en/nbconvert.md", 4, "en", S, False,
     "raises ValueError: invalid literal for int() with base 10: 'three' (line 4), as the "
     "article shows"),
    ("en/nbconvert.md", 20, "en", C, False,
     "line 20: the article shows 'KeyError: 5', the run raised 'IndexError: list index out of "
     "range' (line 16)"),
    ("en/nbconvert.md", 32, "en", C, False,
     "line 32: the article shows \"KeyError: 'a'\", the run printed '1'"),
    ("en/notebook.ipynb", 29, "en", S, False, SHOWN),
    ("en/notebook.ipynb", 40, "en", B, False,
     "raises ValueError: invalid literal for int() with base 10: 'three' (line 40)"),
    ("en/raising.md", 6, "en", S, False,
     "prints what the article shows (1 output compared); raises and runs as its comments "
     "say (2 lines)"),
    ("en/raising.md", 20, "en", C, False,
     "line 20: the article's comment says 'raises: d came from c', the line ran without error; "
     f"line 21: the article's comment says 'no error', the line raised '{LEAF}' (line 21)"),
    ("en/raising.md", 27, "en", S, False, SHOWN),
    ("en/raising.md", 38, "en", C, False,
     "line 38: the article states 'tensor([2., 4., 6.])', the run printed 'tensor([2, 4, 6])'"),
    ("en/raising.md", 45, "en", B, True,
     f"as published: raises {INTEGER} (line 45); with {AS_FLOATS.format('[2, 4]', '[2.0, 4.0]')}: "
     "contradicted, line 49: the article states '[12, 14]', the run printed 'tensor([2., 4.], "
     "requires_grad=True)'"),
    ("en/raising.md", 49, "en", C, True,
     f"in the code run with {AS_FLOATS.format('[2, 4]', '[2.0, 4.0]')} (as published: raises "
     f"{INTEGER} (line 45)): line 49: the article states '[12, 14]', the run printed "
     "'tensor([2., 4.], requires_grad=True)'"),
    ("en/raising.md", 55, "en", U, False, NOTHING),
    ("en/raising.md", 63, "en", U, False,
     "raises RuntimeError: shape '[4]' is invalid for input of size 6 (line 63): `s.view(4)` is "
     "the call of line 57 (`s.view(6)`) with other arguments, meant to take its place rather "
     "than to run after it"),
    ("en/snippets.md", 10, "en", S, False, SHOWN),
    ("en/snippets.md", 18, "en", S, False, SHOWN),
    ("en/snippets.md", 26, "en", S, False, SHOWN),
    ("en/snippets.md", 42, "en", C, False, "line 42: the article shows '7', the run printed '6'"),
    ("en/snippets.md", 49, "en", B, False,
     "raises RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3) (line 49)"),
    ("en/snippets.md", 56, "en", N, False, CUDA.format(56)),
    ("en/snippets.md", 67, "en", U, False, NOTHING),
    ("en/snippets.md", 77, "en", C, False,
     "line 77: the article states 'True', the run printed 'False'; line 79: the article "
     "states 'True', the run gave 'False' (2 of 3 outputs differ)"),
    ("ja/memory.md", 10, "ja", S, False, SHOWN),
    ("ja/memory.md", 19, "ja", C, False,
     "line 19: the article states '2.5', the run printed '2.0'"),
    ("ja/memory.md", 26, "ja", B, False,
     "raises RuntimeError: shape '[3]' is invalid for input of size 2 (line 26)"),
    ("ja/memory.md", 33, "ja", N, False, CUDA.format(33)),
    ("ja/messages.po", 13, "ja", S, False, SHOWN),
    ("ja/messages.po", 25, "ja", C, False, "line 25: the article shows '4', the run printed '3'"),
    ("ja/notebook.ipynb", 26, "ja", S, False, SHOWN),
    ("ja/notebook.ipynb", 44, "ja", C, False,
     "line 44: the article shows '3.0', the run printed '2.0'"),
    ("ja/notebook.ipynb", 55, "ja", N, False, CUDA.format(55)),
    ("ja/notes.txt", 4, "ja", B, True,
     "as published: IndentationError: expected an indented block after class definition on "
     "line 1; with its indentation repaired: broken, raises TypeError: Scale.__init__() "
     "missing 1 required positional argument: 'factor' (line 8)"),
    ("ja/notes.txt", 11, "ja", S, False, SHOWN_2),
    ("ja/pasted.txt", 11, "ja", C, False,
     "line 11: the article shows 'tensor([1., 1.]) | 4.0', the run printed 'tensor([1., 1.], "
     "requires_grad=True) | 4.0'"),
    ("ja/pasted.txt", 16, "ja", S, False,
     f"raises {NO_GRAD} (line 18), as the article says at line 22"),
    ("ja/pasted.txt", 30, "ja", C, False,
     "line 30: the article shows 'ValueError: cannot reshape tensor', the run raised "
     "\"RuntimeError: shape '[5]' is invalid for input of size 6\" (line 28)"),
    ("ja/pasted.txt", 38, "ja", C, False,
     f"line 38: the article's comment says 'エラーにならない', the line raised '{LEAF}' (line 38)"),
    ("ko/guide.rst", 8, "ko", S, False, SHOWN),
    ("ko/guide.rst", 17, "ko", B, False,
     "raises RuntimeError: Tensors must have same number of dimensions: got 1 and 2 (line 17)"),
    ("ko/notes.txt", 4, "ko", B, True,
     "as published: IndentationError: expected an indented block after function definition "
     "on line 1; with its indentation repaired: broken, raises TypeError: scale() missing 1 "
     "required positional argument: 'factor' (line 5)"),
    ("ko/raising.md", 6, "ko", S, False,
     "prints what the article shows (1 output compared); raises and runs as its comments "
     "say (1 line)"),
    ("ko/raising.md", 16, "ko", B, True,
     f"as published: raises {INTEGER} (line 16); with "
     f"{AS_FLOATS.format('[1, 2, 3]', '[1.0, 2.0, 3.0]')}: contradicted, line 19: the article "
     "states '[1, 2, 3]', the run printed 'tensor([2., 4., 6.], requires_grad=True)'"),
    ("ko/raising.md", 19, "ko", C, True,
     f"in the code run with {AS_FLOATS.format('[1, 2, 3]', '[1.0, 2.0, 3.0]')} (as published: "
     f"raises {INTEGER} (line 16)): line 19: the article states '[1, 2, 3]', the run printed "
     "'tensor([2., 4., 6.], requires_grad=True)'"),
    ("ko/raising.md", 27, "ko", C, False,
     "line 27: the article's comment says '에러 발생', the line ran without error"),
    ("ko/views.md", 10, "ko", S, False, SHOWN),
    ("ko/views.md", 25, "ko", C, False,
     "line 25: the article shows 'torch.Size([3, 2])', the run printed 'torch.Size([2, 3])'"),
    ("ko/views.md", 31, "ko", U, False, NOTHING),
]  # fmt: skip

#: (path, line, claim, verdict): direct statements only; other claim findings are not checked.
CLAIMS = [
    ("en/snippets.md", 3, "saved-tensors/myth-disable-reduces-memory", C),
    ("en/snippets.md", 5, "saved-tensors/no-grad-holds-nothing", S),
    ("en/guide.rst", 4, "saved-tensors/myth-disable-reduces-memory", C),
    ("ja/memory.md", 3, "saved-tensors/myth-disable-reduces-memory", C),
    ("ja/memory.md", 5, "saved-tensors/no-grad-holds-nothing", S),
    ("ko/views.md", 3, "saved-tensors/myth-disable-reduces-memory", S),
    ("ko/views.md", 5, "saved-tensors/no-grad-holds-nothing", S),
    ("ko/guide.rst", 4, "saved-tensors/myth-disable-reduces-memory", S),
]

#: (path, line, message) of the malformed files.
ERRORS = [
    ("malformed/broken.ipynb", 8, "not a notebook: invalid JSON (Expecting value)"),
    ("malformed/broken.po", 9,
     "broken catalog: unterminated string (no closing quote on this line)"),
    ("malformed/broken.rst", 4,
     'ERROR: Error in "code-block" directive: unknown option: "no-such-option".'),
    ("malformed/broken.rst", 9, "WARNING: Inline emphasis start-string without end-string."),
]  # fmt: skip


def _relative(path: str) -> str:
    return Path(path).relative_to(SAMPLES).as_posix()


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan(
        [SAMPLES], registry_mod.load(), ScanOptions(project_root=ROOT, base_url="_build/html")
    )


def test_every_snippet_finding(result: ScanResult) -> None:
    found = [
        (_relative(f.path), f.line, f.lang, f.verdict, f.repaired, f.evidence)
        for f in result.findings
        if f.kind == "snippet"
    ]
    assert found == SNIPPETS


def test_direct_statements(result: ScanResult) -> None:
    found = {
        (_relative(f.path), f.line, f.claim, f.verdict)
        for f in result.findings
        if f.kind == "claim"
    }
    assert set(CLAIMS) <= found


def test_claim_findings_link_to_our_docs_in_the_article_language(result: ScanResult) -> None:
    linked = [
        f
        for f in result.findings
        if f.kind == "claim" and f.claim == "saved-tensors/myth-disable-reduces-memory"
    ]
    # two English, three Japanese and two Korean samples state it (an empty list must fail)
    assert sorted(_relative(f.path).split("/")[0] for f in linked) == [
        "en", "en", "ja", "ja", "ja", "ko", "ko"
    ]  # fmt: skip
    for f in linked:
        lang = _relative(f.path).split("/")[0]
        assert f.lang == lang
        assert f.link == (
            f"_build/html/{lang}/topics/saved-tensors.html"
            "#claim-saved-tensors-myth-disable-reduces-memory"
        )


def test_malformed_files_are_reported_and_the_scan_goes_on(result: ScanResult) -> None:
    assert [(_relative(e.path), e.line, e.message) for e in result.errors] == ERRORS
    assert {_relative(f.path).split("/")[0] for f in result.findings} == set(LANGS)
    assert result.exit_code == 1


def test_every_format_and_language_is_read(result: ScanResult) -> None:
    read = {(_relative(f.path).split("/")[0], Path(f.path).suffix) for f in result.findings}
    assert read >= {
        ("en", ".md"), ("en", ".rst"), ("en", ".txt"), ("en", ".ipynb"),
        ("ja", ".md"), ("ja", ".po"), ("ja", ".txt"), ("ja", ".ipynb"),
        ("ko", ".md"), ("ko", ".rst"), ("ko", ".txt"),
    }  # fmt: skip
