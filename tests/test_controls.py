"""Every claim is a fair experiment: it carries a control, or says why none can exist."""

from __future__ import annotations

import pytest

from checker import registry
from checker.claim import Claim, Control, Expect
from checker.evidence import Observation
from checker.registry import Registry, RegistryError

#: Claims of the project that have neither a control nor a stated reason yet (issue 12). The
#: list may only shrink: a new claim comes with its control, and a claim that gains one is
#: removed from here.
STILL_WITHOUT_CONTROL = frozenset(
    {
        "views/reshape-copies-non-contiguous",
        "views/basic-indexing-returns-views",
        "views/transpose-and-expand-are-views",
        "views/index-assignment-writes-in-place",
        "views/numpy-and-from-numpy-share-memory",
        "views/as-tensor-shares-when-dtype-and-device-match",
        "views/torch-tensor-copies",
        "views/sharing-tensors-have-different-ids",
        "views/id-of-temporaries-can-repeat",
        "views/detach-shares-storage-outside-graph",
        "views/detach-sees-in-place-updates",
        "views/gradient-flows-through-clone",
        "views/clone-grad-is-none-with-warning",
        "views/clone-of-constant-becomes-trainable-leaf",
        "views/linear-input-grad-equals-weight",
        "views/resize-refuses-tensors-that-require-grad",
        "inplace/underscore-methods-return-self",
        "inplace/augmented-assignment-is-in-place",
        "inplace/augmented-assignment-keeps-dtype",
        "inplace/relu-in-place-allocates-nothing",
        "inplace/rebinding-allocates-new-storage",
        "inplace/slice-assignment-keeps-storage",
        "inplace/myth-slice-assignment-allocates-nothing",
        "inplace/slice-assignment-peaks-like-rebinding",
        "inplace/out-and-in-place-allocate-nothing",
        "inplace/myth-in-place-never-allocates",
        "inplace/out-refuses-autograd",
        "inplace/cuda-large-blocks-rounded-to-2mib",
        "inplace/article-relu-shows-382-mib",
        "inplace/cuda-peak-is-a-high-water-mark",
        "inplace/leaf-requiring-grad-refuses-in-place",
        "inplace/modifying-saved-tensor-breaks-backward",
        "inplace/in-place-rewrites-grad-fn",
        "inplace/myth-no-error-means-correct-gradients",
        "inplace/detach-in-place-is-caught",
        "inplace/flattened-if-does-not-compile",
        "inplace/indented-first-line-does-not-compile",
        "inplace/cuda-statistics-need-a-gpu",
    }
)


def without_control() -> set[str]:
    return {c.id for c in registry.load() if c.control is None and not c.no_control}


@pytest.mark.xfail(
    strict=True,
    reason=f"issue 12: {len(STILL_WITHOUT_CONTROL)} claims still have no control and no reason",
)
def test_every_claim_has_a_control_or_says_why_it_cannot() -> None:
    assert sorted(without_control()) == []


def test_the_claims_without_a_control_are_exactly_the_known_ones() -> None:
    missing = without_control()
    assert sorted(missing - STILL_WITHOUT_CONTROL) == [], "new claims need a control"
    assert sorted(STILL_WITHOUT_CONTROL - missing) == [], "remove claims that gained one"


def probe(device: str) -> Observation:
    return Observation(True, "always")


def test_a_claim_has_a_control_or_a_reason_never_both() -> None:
    with pytest.raises(ValueError, match="has a control or says why it has none"):
        Claim("t/a", "s", Expect.HOLDS, probe, control=Control("c", probe), no_control="why")


def test_a_control_needs_a_label_and_kebab_case_keys() -> None:
    with pytest.raises(ValueError, match="needs a label"):
        Control(" ", probe)
    with pytest.raises(ValueError, match="measurement key 'Bad_Key'"):
        Control("c", probe, measures=("Bad_Key",))


def test_a_control_must_give_the_opposite_of_what_the_docs_expect() -> None:
    holds = Claim("t/a", "s", Expect.HOLDS, probe, control=Control("c", probe))
    myth = Claim("t/b", "s", Expect.FAILS, probe, control=Control("c", probe))
    assert (holds.control_outcome, myth.control_outcome) == ("fails", "holds")


def test_keys_a_control_measures_are_unique_across_the_registry() -> None:
    first = Claim("t/a", "s", Expect.HOLDS, probe, measures=("k",))
    second = Claim("t/b", "s", Expect.HOLDS, probe, control=Control("c", probe, measures=("k",)))
    with pytest.raises(RegistryError, match="measurement key 'k' of t/b is already measured"):
        Registry((first, second))
    assert Registry((second,)).by_measurement("k") is second
