"""The state a build keeps on Sphinx's environment (checker.sphinx.state): pickled without
this build's objects, purged per page, merged from parallel readers."""

from __future__ import annotations

import pickle

from checker.registry import Registry
from checker.sphinx.results import Results
from checker.sphinx.state import BuildState, ClaimPlace


def _state(*docnames: str) -> BuildState:
    state = BuildState()
    for docname in docnames:
        state.claim_sites.setdefault("topic/a", []).append(ClaimPlace(docname, 3, "A."))
        state.verdict_sites.setdefault("topic/b", []).append(ClaimPlace(docname, 9, ""))
        state.dynamic_pages.add(docname)
    return state


def test_the_pickled_state_keeps_pages_and_fingerprints_not_this_builds_results() -> None:
    state = _state("one")
    state.results_fingerprint, state.catalog_digests = "f" * 64, {"one": None}
    state.results = Results(registry=Registry(()))
    kept = pickle.loads(pickle.dumps(state))
    assert kept.results is None and kept.markdown_parsers is None
    assert state.results is not None  # pickling leaves the build's own state alone
    assert kept.claim_sites == {"topic/a": [ClaimPlace("one", 3, "A.")]}
    assert (kept.dynamic_pages, kept.results_fingerprint) == ({"one"}, "f" * 64)
    assert kept.catalog_digests == {"one": None}


def test_a_page_read_again_loses_what_it_left_and_nothing_else() -> None:
    state = _state("one", "two")
    state.purge("one")
    assert state.claim_sites == {"topic/a": [ClaimPlace("two", 3, "A.")]}
    assert state.verdict_sites == {"topic/b": [ClaimPlace("two", 9, "")]}
    assert state.dynamic_pages == {"two"}
    state.purge("two")
    assert (state.claim_sites, state.verdict_sites, state.dynamic_pages) == ({}, {}, set())


def test_a_parallel_reader_adds_only_the_pages_it_read() -> None:
    state, reader = _state("one"), _state("one", "two", "three")
    state.merge(reader, {"two"})
    assert state.claim_sites == {
        "topic/a": [ClaimPlace("one", 3, "A."), ClaimPlace("two", 3, "A.")]
    }
    assert state.dynamic_pages == {"one", "two"}
