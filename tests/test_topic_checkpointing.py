"""Tests of the activation checkpointing topic: its claims, and the scanner reading
statements of its claims in English, Japanese and Korean (tests/samples/scan-topics/)."""

from __future__ import annotations

import pytest

from checker import registry
from checker.claims.checkpointing import _variants
from checker.scan.findings import FindingVerdict
from checker.text.languages import LANGS
from tests.helpers import claim_verdicts, sample, scan_prose

C, S = FindingVerdict.CONTRADICTED, FindingVerdict.SUPPORTED
CLAIMS = registry.load().in_package("checker.claims.checkpointing")


def test_ids_and_keys_carry_the_topic_prefix() -> None:
    for claim in CLAIMS:
        assert claim.id.startswith("checkpointing/")
        assert all(key.startswith("ckpt-") for key in claim.all_measures)


def test_every_myth_has_a_vocabulary() -> None:
    myths = [c for c in CLAIMS if c.expect.value == "fails"]
    assert [c.id for c in myths] == [
        "checkpointing/myth-only-arguments-tracked",
        "checkpointing/myth-omitted-use-reentrant-raises",
        "checkpointing/myth-recomputes-whole-forward",
        "checkpointing/myth-halves-memory-for-free",
        "checkpointing/myth-batchnorm-statistics-unchanged",
        "checkpointing/myth-recomputation-verified",
    ]
    assert all(c.vocabulary is not None for c in myths)


def test_unknown_variant_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown variant 'twice'"):
        _variants._loss("twice", None, None)


#: (language, line, claim, verdict) of every claim finding in the sample notes: one statement
#: of each claim with a vocabulary per language, a denial of a myth (line 17), and a myth
#: about checkpoint_sequential followed by its correction (lines 19 and 21), and the two myths
#: again as a blind test of the scanner phrased them (lines 23 and 25: an omitted argument's
#: own "if", a few words between "only" and "nn.Sequential"); the myth that checkpoint tracks
#: only its arguments (line 27), and an nn.Sequential presupposed, not required (line 29).
#: The pitfalls (lines 31-47): torch.autograd.grad refused by the reentrant variant (the
#: autograd page's claim) and blind to the block's parameters; the BatchNorm myth stated, then
#: denied; the momentum workaround; CheckpointError on a shape change; the myth that the
#: recomputation is verified; torch.func.grad; and "autograd.grad raises no error" (line 47).
#: The call's arguments and nesting (lines 49-53): keyword arguments, a tensor inside a dict,
#: nested checkpoints; the myth that omitting use_reentrant raises, then its denial (55, 57);
#: and preserve_rng_state=False drawing another mask (59).
STATEMENTS = {
    (lang, line, claim, verdict)
    for lang in LANGS
    for line, claim, verdict in (
        (3, "checkpointing/use-reentrant-omitted-warns", S),
        (5, "checkpointing/reentrant-input-without-grad", S),
        (7, "checkpointing/rng-state-restored-for-dropout", S),
        (9, "checkpointing/myth-recomputes-whole-forward", C),
        # "recomputes the forward pass" is also what the saved-tensors page states
        (9, "saved-tensors/checkpoint-recomputes-forward", S),
        (11, "checkpointing/sequential-leaves-last-segment", S),
        (13, "checkpointing/selective-saves-listed-ops", S),
        (15, "checkpointing/myth-halves-memory-for-free", C),
        (17, "checkpointing/myth-halves-memory-for-free", S),
        (19, "checkpointing/sequential-takes-a-list", C),
        (21, "checkpointing/sequential-takes-a-list", S),
        (23, "checkpointing/use-reentrant-omitted-warns", C),
        (25, "checkpointing/sequential-takes-a-list", C),
        (27, "checkpointing/myth-only-arguments-tracked", C),
        (29, "checkpointing/sequential-takes-a-list", C),
        (31, "autograd/reentrant-checkpoint-refuses-autograd-grad", S),
        (33, "checkpointing/reentrant-parameters-outside-graph", S),
        (35, "checkpointing/myth-batchnorm-statistics-unchanged", C),
        (37, "checkpointing/myth-batchnorm-statistics-unchanged", S),
        (39, "checkpointing/batchnorm-momentum-workaround", S),
        (41, "checkpointing/metadata-mismatch-raises", S),
        (43, "checkpointing/myth-recomputation-verified", C),
        (45, "checkpointing/func-grad-refuses-checkpoint", S),
        (47, "autograd/reentrant-checkpoint-refuses-autograd-grad", C),
        (49, "checkpointing/nonreentrant-accepts-keyword-arguments", S),
        (51, "checkpointing/reentrant-ignores-tensors-in-containers", S),
        (53, "checkpointing/nonreentrant-checkpoints-nest", S),
        (55, "checkpointing/myth-omitted-use-reentrant-raises", C),
        (57, "checkpointing/myth-omitted-use-reentrant-raises", S),
        (59, "checkpointing/no-preserve-rng-redraws-mask", S),
    )
} | {
    # "再計算が順伝播を再現", "재계산이 순전파를 재현": that checkpoint recomputes the forward
    # pass, which the saved-tensors page states, is read there too
    (lang, 43, "saved-tensors/checkpoint-recomputes-forward", S)
    for lang in ("ja", "ko")
}


def test_the_scanner_reads_every_claim_in_three_languages() -> None:
    result = scan_prose(sample("scan-topics", "checkpointing"))
    assert claim_verdicts(result) == STATEMENTS
    assert all(f.path.endswith(f"{f.lang}.md") for f in result.findings)
