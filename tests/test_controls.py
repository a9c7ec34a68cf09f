"""Every claim is a fair experiment: it carries a control, or says why none can exist."""

from __future__ import annotations

import pytest

from checker import registry
from checker.claim import Claim, Control, Expect
from checker.evidence import Observation
from checker.registry import Registry, RegistryError


def without_control() -> list[str]:
    return sorted(c.id for c in registry.load() if c.control is None and not c.no_control)


def test_every_claim_has_a_control_or_says_why_it_cannot() -> None:
    assert without_control() == []


def test_every_control_is_a_different_experiment_from_its_probe() -> None:
    same = [c.id for c in registry.load() if c.control is not None and c.control.probe is c.probe]
    assert same == []


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
