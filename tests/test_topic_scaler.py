"""Tests of the GradScaler page's claims (checker/claims/scaler/), and the scanner reading
statements of them in English, Japanese and Korean (tests/samples/scan-topics/scaler/)."""

from __future__ import annotations

from checker import registry
from checker.scan.findings import FindingVerdict
from checker.text.languages import LANGS
from tests.helpers import claim_verdicts, sample, scan_prose

C, S = FindingVerdict.CONTRADICTED, FindingVerdict.SUPPORTED
CLAIMS = registry.load().in_package("checker.claims.scaler")


def test_ids_and_keys_carry_the_topic_prefix() -> None:
    for claim in CLAIMS:
        assert claim.id.startswith("scaler/")
        assert all(key.startswith("scaler-") for key in claim.all_measures)


def test_every_claim_runs_on_both_devices_and_has_a_vocabulary() -> None:
    assert all(c.devices == ("cpu", "cuda") for c in CLAIMS)
    assert all(c.vocabulary is not None for c in CLAIMS)


#: (language, line, claim, verdict) of every claim finding in the sample notes: one statement
#: of each claim per language, denials of two myths (lines 13 and 31), and phrasings a blind
#: test of the scanner missed (lines 17, 19 and 21).
STATEMENTS = {
    (lang, line, claim, verdict)
    for lang in LANGS
    for line, claim, verdict in (
        (3, "scaler/myth-scaler-computes-in-float16", C),
        (5, "scaler/update-once-after-all-steps", S),
        (7, "scaler/accumulation-one-scale-per-window", S),
        (9, "scaler/state-dict-restores-scale", S),
        (11, "scaler/skipped-step-is-visible", S),
        (13, "scaler/myth-scaler-computes-in-float16", S),
        (15, "scaler/autograd-grad-stays-scaled", S),
        (17, "scaler/update-once-after-all-steps", C),
        # the reason given as a condition: "otherwise", "呼ばないと", "호출하지 않으면"
        (19, "amp/clip-after-unscale", S),
        # the order alone: update() before step() (checker.scan.order)
        (21, "scaler/update-once-after-all-steps", C),
        # the scaler and the accumulation window, the scaler and the scheduler
        (23, "scaler/unscale-once-per-update", S),
        (25, "scaler/myth-update-per-micro-batch", C),
        # a myth stated, then denied; neither is read as the scheduler's warning
        (27, "scaler/myth-skipped-step-holds-schedule", C),
        (29, "scaler/scheduler-steps-when-scale-holds", S),
        (31, "scaler/myth-skipped-step-holds-schedule", S),
    )
}


def test_the_scanner_reads_every_claim_in_three_languages() -> None:
    assert claim_verdicts(scan_prose(sample("scan-topics", "scaler"))) == STATEMENTS
