"""Tests of the page "Memory that grows" (checker/claims/growth/): its probes on the CPU, and
the scanner reading statements of its claims in English, Japanese and Korean
(tests/samples/scan-topics/growth/)."""

from __future__ import annotations

from checker import registry
from checker.scan.findings import FindingVerdict
from checker.text.languages import LANGS
from tests.helpers import claim_verdicts, sample, scan_prose

C, S = FindingVerdict.CONTRADICTED, FindingVerdict.SUPPORTED
U = FindingVerdict.UNVERIFIED
CLAIMS = registry.load().in_package("checker.claims.growth")
CUDA_ONLY = {
    "growth/empty-cache-frees-no-live-tensor",
    "growth/expandable-segments-reuse-a-growing-block",
    "growth/snapshot-names-the-allocating-function",
}

RENAMED = "growth/memory-cached-is-memory-reserved"


def test_ids_and_keys_carry_the_topic_prefix() -> None:
    assert len(CLAIMS) == 8
    for claim in CLAIMS:
        assert claim.id.startswith("growth/")
        assert all(key.startswith("growth-") for key in claim.all_measures)
        assert claim.control is not None and claim.vocabulary is not None


def test_the_allocator_claims_run_on_cuda_only_and_the_graph_claims_on_the_cpu() -> None:
    assert {c.id for c in CLAIMS if c.devices == ("cuda",)} == CUDA_ONLY
    # the renamed functions exist in every build; CUDA gives them nonzero values to compare
    assert {c.id for c in CLAIMS if c.devices == ("cpu", "cuda")} == {RENAMED}
    assert all(c.devices == ("cpu",) for c in CLAIMS if c.id not in CUDA_ONLY | {RENAMED})


def _measured(claim_id: str, control: bool = False) -> dict[str, object]:
    (claim,) = [c for c in CLAIMS if c.id == claim_id]
    probe = claim.control.probe if control and claim.control else claim.probe
    observation = probe("cpu")
    return {m.key: m.value for m in observation.measurements} | {"holds": observation.holds}


def test_a_running_total_of_tensors_keeps_all_ten_saved_tensors_and_of_numbers_none() -> None:
    # 5 steps, each saving the batch and the output of tanh: 10 saved tensors of 8 KiB
    assert _measured("growth/running-total-keeps-every-graph") == {
        "growth-total-tensor-saved": 10,
        "growth-total-tensor-alive": 10,
        "growth-total-tensor-alive-bytes": 81920,
        "holds": True,
    }
    assert _measured("growth/running-total-keeps-every-graph", control=True) == {
        "growth-total-item-saved": 10,
        "growth-total-item-alive": 0,
        "growth-total-item-alive-bytes": 0,
        "holds": False,
    }


def test_retain_graph_keeps_both_saved_tensors_and_allows_a_second_backward() -> None:
    kept = _measured("growth/retain-graph-keeps-saved-tensors")
    assert (kept["growth-retain-alive"], kept["growth-retain-second-backward"]) == (2, "no error")
    freed = _measured("growth/retain-graph-keeps-saved-tensors", control=True)
    assert freed["growth-default-alive"] == 0
    assert str(freed["growth-default-second-backward"]).startswith(
        "RuntimeError: Trying to backward through the graph a second time"
    )


def test_del_frees_the_storage_only_when_nothing_else_references_it() -> None:
    assert _measured("growth/myth-del-always-frees") == {
        "growth-del-list-freed": False,
        "growth-del-view-freed": False,
        "growth-del-graph-freed": False,
        "holds": False,
    }
    assert _measured("growth/myth-del-always-frees", control=True) == {
        "growth-del-nothing-freed": True,
        "holds": True,
    }


#: (language, line, claim, verdict) of every claim finding in the sample notes: a statement
#: of each claim per language, the myth about del stated (line 9) and denied (line 11). The
#: CUDA-only claims are judged by the recorded CUDA evidence (an H200, 2026-11-27): line 13
#: states what empty_cache() does not do; line 19, the old name of memory_reserved. The broader
#: claim saved-tensors/del-frees-unsaved-intermediate reads "del ... frees" too (en, ja).
STATEMENTS = {
    (lang, line, claim, verdict)
    for lang in LANGS
    for line, claim, verdict in (
        (3, "growth/running-total-keeps-every-graph", S),
        (5, "growth/list-of-outputs-keeps-their-graphs", S),
        (7, "growth/retain-graph-keeps-saved-tensors", S),
        (9, "growth/myth-del-always-frees", C),
        (11, "growth/myth-del-always-frees", S),
        (13, "growth/empty-cache-frees-no-live-tensor", C),
        (15, "growth/expandable-segments-reuse-a-growing-block", S),
        (17, "growth/snapshot-names-the-allocating-function", S),
        (19, RENAMED, S),
    )
} | {
    (lang, line, "saved-tensors/del-frees-unsaved-intermediate", verdict)
    for lang in ("en", "ja")
    for line, verdict in ((9, S), (11, U))
}


def test_the_scanner_reads_every_claim_in_three_languages() -> None:
    assert claim_verdicts(scan_prose(sample("scan-topics", "growth"))) == STATEMENTS
