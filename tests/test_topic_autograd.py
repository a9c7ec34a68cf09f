"""Tests of the autograd topic (backward, retain_graph, gradients and leaving the graph): its
claims, and the scanner reading a statement of each in English, Japanese and Korean
(tests/samples/scan-topics/autograd/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker import registry
from checker.scan.findings import FindingVerdict
from checker.text.languages import LANGS
from tests.helpers import claim_verdicts, sample, scan_prose, sentence_verdicts

C, S = FindingVerdict.CONTRADICTED, FindingVerdict.SUPPORTED
CLAIMS = registry.load().in_package("checker.claims.autograd")


def test_ids_and_keys_carry_the_topic_prefix() -> None:
    assert len(CLAIMS) == 34
    for claim in CLAIMS:
        assert claim.topic == "autograd", claim.id
        assert all(key.startswith("ag-") for key in claim.all_measures), claim.id


def test_every_claim_has_a_control_and_a_vocabulary_and_runs_on_the_cpu() -> None:
    assert all(c.control is not None and c.vocabulary is not None for c in CLAIMS)
    assert all(c.devices == ("cpu",) for c in CLAIMS)
    myths = {c.id for c in CLAIMS if c.expect.value == "fails"}
    assert myths == {
        "autograd/myth-any-in-place-breaks-backward",
        "autograd/myth-eval-disables-grad",
        "autograd/myth-leaf-cannot-be-reused",
        "autograd/myth-zero-grad-allows-second-backward",
    }


#: (line, claim, verdict) of every claim finding, the same in each language's sample: one
#: statement per line; line 17 states the myth that eval() turns gradients off, line 19 the
#: myth that zero_grad() allows a second backward through the same graph, line 47 the myth that
#: a leaf cannot be reused after backward and line 55 the myth that any in-place change of an
#: intermediate breaks backward; lines 75 and 77 deny two facts (a loss sums over the batch by
#: default; no_grad() is no decorator).
FINDINGS = {
    (3, "autograd/second-backward-raises", S),
    (5, "growth/retain-graph-keeps-saved-tensors", S),
    (7, "autograd/gradients-accumulate", S),
    (9, "autograd/zero-grad-sets-none", S),
    (11, "autograd/backward-needs-a-scalar", S),
    (13, "autograd/reentrant-checkpoint-refuses-autograd-grad", S),
    (15, "autograd/numpy-refuses-requires-grad", S),
    (17, "autograd/myth-eval-disables-grad", C),
    (19, "autograd/myth-zero-grad-allows-second-backward", C),
    (21, "autograd/anomaly-detection-misses-inf", S),
    (23, "numerics/isfinite-flags-inf-and-nan", S),
    (25, "autograd/summed-losses-give-the-same-gradients", S),
    (27, "autograd/create-graph-keeps-parameters-alive", S),
    (29, "autograd/integer-tensors-cannot-require-grad", S),
    (31, "autograd/tensors-without-grad-are-leaves", S),
    (33, "autograd/converted-leaf-is-not-a-leaf", S),
    (35, "autograd/retain-grad-fills-non-leaf-grad", S),
    (37, "autograd/inference-tensors-have-no-version-counter", S),
    (39, "autograd/saved-output-is-another-object", S),
    (41, "autograd/create-graph-keeps-the-graph", S),
    (43, "autograd/tensors-do-not-require-grad-by-default", S),
    (45, "autograd/create-graph-warns-of-a-cycle", S),
    (47, "autograd/myth-leaf-cannot-be-reused", C),
    (49, "autograd/no-grad-works-as-a-decorator", S),
    (51, "autograd/no-grad-is-thread-local", S),
    (53, "autograd/no-grad-parameter-requires-grad", S),
    (55, "autograd/myth-any-in-place-breaks-backward", C),
    (57, "autograd/view-of-leaf-refuses-in-place", S),
    (59, "autograd/inference-tensor-refuses-in-place-outside", S),
    (61, "autograd/loss-reduction-defaults-to-mean", S),
    (63, "autograd/dropout-scales-by-inverse-keep", S),
    (65, "autograd/frozen-parameter-gets-no-grad", S),
    (67, "autograd/optimizer-skips-none-gradients", S),
    (69, "autograd/graph-freed-with-last-loss-reference", S),
    (71, "autograd/scalar-multiplication-saves-no-tensor", S),
    (73, "autograd/adam-state-doubles-parameter-memory", S),
    (75, "autograd/loss-reduction-defaults-to-mean", C),
    (77, "autograd/no-grad-works-as-a-decorator", C),
}
#: Line 41 (create_graph=True keeps the graph, through retain_graph's default) also reads as
#: the growth claim that retain_graph keeps the saved tensors, which it agrees with.
KEPT = {(lang, 41, "growth/retain-graph-keeps-saved-tensors", S) for lang in LANGS}
#: In Japanese and Korean, a second call through the graph also reads as a statement of whether
#: the first backward freed the saved tensors (saved-tensors/backward-frees-saved-tensors):
#: line 3 (an error on the second call) agrees with it, line 19 (zero_grad() allowing a second
#: call) denies it.
FREED = {
    (lang, line, "saved-tensors/backward-frees-saved-tensors", verdict)
    for lang in ("ja", "ko")
    for line, verdict in ((3, S), (19, C))
}


#: Sentences that also read as another claim, each agreeing with it: line 45 (the warning of
#: create_graph=True names a reference cycle) as the claim that the cycle keeps parameters
#: alive; line 57 (an in-place change through a view of a leaf raises) as the claim that a
#: leaf refuses in-place changes, which line 47 (a leaf cannot be reused) does not read as,
#: naming no in-place change; line 59 (an inference tensor refuses an in-place change outside
#: the region) as denying the myth that inference tensors train later; in Japanese, line 55
#: (an in-place change of an intermediate) as the claim that an in-place change rewrites
#: grad_fn.
ALSO = (
    {(lang, 45, "autograd/create-graph-keeps-parameters-alive", S) for lang in LANGS}
    | {(lang, 57, "inplace/leaf-requiring-grad-refuses-in-place", S) for lang in LANGS}
    | {(lang, 59, "saved-tensors/myth-inference-tensors-train-later", S) for lang in ("ja", "ko")}
    | {("ja", 55, "inplace/in-place-rewrites-grad-fn", S)}
)


def test_the_scanner_reads_each_claim_in_each_language() -> None:
    found = claim_verdicts(scan_prose(sample("scan-topics", "autograd")))
    expected = {(lang, *finding) for lang in LANGS for finding in FINDINGS}
    assert len(found) == 3 * len(FINDINGS) + len(FREED) + len(KEPT) + len(ALSO) == 130
    assert found == expected | FREED | KEPT | ALSO


@pytest.mark.parametrize(
    ("sentence", "lang"),
    [
        # the graph kept on purpose: a second call works
        ("With `retain_graph=True`, calling `backward()` twice does not raise an error.", "en"),
        ("`retain_graph=True` を指定すれば `backward()` を2回呼んでもエラーにならない。", "ja"),
        ("`retain_graph=True`를 쓰면 `backward()`를 두 번 호출해도 오류가 나지 않는다.", "ko"),
        # zero_grad() is what stops the accumulation
        ("After `zero_grad()`, gradients no longer accumulate in `.grad`.", "en"),
        ("`zero_grad()` を呼べば `.grad` に勾配は累積されない。", "ja"),
        # eval() and no_grad() together do turn gradients off
        ("`model.eval()` with `torch.no_grad()` disables gradient tracking for evaluation.", "en"),
        # a CUDA tensor's numpy() error is another one
        ("`.numpy()` on a CUDA tensor that requires grad raises an error.", "en"),
        # the non-reentrant variant works with autograd.grad
        ("With `use_reentrant=False`, `torch.autograd.grad` works through a `checkpoint`.", "en"),
        # zero_grad() before each new forward and backward is the usual loop
        ("Call `optimizer.zero_grad()` again before the next `backward()`.", "en"),
        ("With `retain_graph=True`, `zero_grad()` and a second `backward()` both run.", "en"),
        # what anomaly detection does catch
        ("`torch.autograd.detect_anomaly` raises on nan gradients.", "en"),
        # true sentences near the leaf, requires_grad and create_graph claims
        ("`retain_grad()` has no effect on leaf tensors.", "en"),
        ("`retain_grad()` はリーフテンソルには効果がない。", "ja"),
        ("`retain_grad()`는 리프 텐서에는 효과가 없다.", "ko"),
        ("`torch.autograd.grad` with `create_graph=True` does not leak memory.", "en"),
        ("`torch.inference_mode()` disables view tracking and version counter bumps.", "en"),
        ("`torch.inference_mode()` はバージョンカウンタの更新を無効にする。", "ja"),
        ("`nn.Parameter` has `requires_grad=True` by default.", "en"),
        ("With `create_graph=True` and `retain_graph=False`, the graph is freed.", "en"),
        (
            "Moving a model with `.cuda()` keeps its parameters as leaves, so their `.grad` is "
            "not None after backward.",
            "en",
        ),
    ],
)
def test_true_sentences_are_not_contradicted(sentence: str, lang: str, tmp_path: Path) -> None:
    assert FindingVerdict.CONTRADICTED not in sentence_verdicts(sentence, lang, tmp_path)


torch = pytest.importorskip("torch")


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.id)
def test_each_claim_gets_its_verdict_and_its_control_flips(claim: object) -> None:
    from checker.claim import Claim

    assert isinstance(claim, Claim) and claim.control is not None
    observation, control = claim.probe("cpu"), claim.control.probe("cpu")
    expected = claim.expect.value == "holds"
    assert (observation.holds, control.holds) == (expected, not expected)
    assert {m.key for m in observation.measurements} == set(claim.measures)
    assert {m.key for m in control.measurements} == set(claim.control.measures)
