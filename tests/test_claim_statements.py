"""A page and its claim say the same thing: the statement of every claim in the registry is
the words of its ``claim`` directive on the page, markup left out (``verify``, the scanner's
evidence and the claims index of a claim the pages do not show quote the registry's)."""

from __future__ import annotations

from checker import registry
from checker.text.markdown import plain
from checker.text.sites import claim_sites
from tests.helpers import ROOT


def test_every_claim_states_what_its_page_states() -> None:
    sites = claim_sites(ROOT / "docs")
    differ = {
        claim.id: (claim.statement, plain(sites[claim.id][0].statement))
        for claim in registry.load()
        if claim.statement != plain(sites[claim.id][0].statement)
    }
    assert differ == {}


def test_plain_text_keeps_the_words_and_drops_the_markup() -> None:
    assert plain("`x.view(2, 3)` shares *storage*\nwith [its base](#base).") == (
        "x.view(2, 3) shares storage with its base."
    )
    assert plain("{measured}`amp-initial-scale` for **a new** scaler") == (
        "amp-initial-scale for a new scaler"
    )
