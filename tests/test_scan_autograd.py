"""The scanner reading statements about autograd and in-place operations, in English,
Japanese and Korean (tests/samples/scan-topics/in-place-autograd/): the myths that an
in-place operation on a leaf breaks the graph and that in-place operations keep
backpropagation whatever they modify, where the graph is recorded, and what
``allow_mutation_on_saved_tensors`` is; with the cases each claim leaves out."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker.scan.findings import FindingVerdict
from checker.scan.statements import without_asides
from checker.text.languages import LANGS
from tests.helpers import claim_verdicts, sample, scan_prose

C, S = FindingVerdict.CONTRADICTED, FindingVerdict.SUPPORTED
LEAF_MYTH = "inplace/myth-leaf-in-place-breaks-graph"
KEEPS_MYTH = "inplace/myth-in-place-keeps-backprop"
FORWARD = "saved-tensors/graph-recorded-in-forward"
ALLOW = "inplace/allow-mutation-is-a-context-manager"
REFUSES = "inplace/leaf-requiring-grad-refuses-in-place"

#: (language, line, claim, verdict) of every claim finding in the sample notes. Line 3 puts an
#: aside with a negation between the subject and the predicate; 7 (under no_grad), 11 (on a
#: clone), 17 (backward only walks the graph) and 19 (create_graph) are cases the claims
#: leave out; 21 names the API as a switch, 23 as the context manager it is.
STATEMENTS = {
    (lang, line, claim, verdict)
    for lang in LANGS
    for line, claim, verdict in (
        (3, LEAF_MYTH, C),
        (5, LEAF_MYTH, S),
        (9, KEEPS_MYTH, C),
        (13, FORWARD, C),
        (15, FORWARD, S),
        (21, ALLOW, C),
        (23, ALLOW, S),
    )
} | {
    # "refuses it" is the refusal itself
    ("en", 5, REFUSES, S),
    # "in that case ... would" says what happens in the case just named; a bare "would" does
    # not state anything (line 27: no claim finding)
    ("en", 25, REFUSES, C),
}


def test_the_scanner_reads_the_autograd_claims_in_three_languages() -> None:
    result = scan_prose(sample("scan-topics", "in-place-autograd"))
    judged = {f for f in claim_verdicts(result) if f[3] is not FindingVerdict.UNVERIFIED}
    assert judged == STATEMENTS
    unverified = {(f[0], f[1]) for f in claim_verdicts(result) if f[3] is FindingVerdict.UNVERIFIED}
    assert unverified == {("en", 27)}


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        (
            "A leaf (one you made, not a result) breaks the graph.",
            "A leaf breaks the graph.",
        ),
        ("Call `x.add_(1)` or add_(1) (in place).", "Call `x.add_(1)` or add_(1) (in place)."),
        ("リーフテンソル（自分で作ったテンソル）を変更する。", "リーフテンソルを変更する。"),
        ("上書き(変更)される。", "上書き(変更)される。"),
        ("리프 텐서(직접 만든 텐서)를 바꾼다.", "리프 텐서를 바꾼다."),
    ],
)
def test_an_aside_of_prose_is_left_out_and_a_call_or_a_word_in_brackets_kept(
    text: str, plain: str
) -> None:
    assert without_asides(text) == plain


def _claims(sentence: str, folder: Path) -> list[tuple[str | None, str]]:
    (folder / "a.md").write_text(f"# t\n\n{sentence}\n", encoding="utf-8")
    return [(f.claim, f.verdict.value) for f in scan_prose(folder).findings if f.kind == "claim"]


@pytest.mark.parametrize(
    ("sentence", "found"),
    [
        # the question mark belongs to the quoted thought, not to the sentence
        (
            "`allow_mutation_on_saved_tensors` を True にすると、「ここは書き換えてもいい?」"
            "という例外を作れます。",
            [(ALLOW, "contradicted")],
        ),
        # a quote that holds the claim's own words is still a quote
        (
            "「`allow_mutation_on_saved_tensors` は True にする設定?」と聞かれます。",
            [(ALLOW, "unverified")],
        ),
    ],
)
def test_marks_inside_a_quote_that_states_no_part_of_the_claim_are_not_the_sentence_s(
    sentence: str, found: list[tuple[str, str]], tmp_path: Path
) -> None:
    assert _claims(sentence, tmp_path) == found
