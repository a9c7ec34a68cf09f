"""Verdicts: a claim's expectation set against what a probe found on one device."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from checker.claim import Claim, Expect
from checker.evidence import Evidence, Outcome


class Status(enum.Enum):
    """How a verdict bears on the docs."""

    #: The probe found what the docs say.
    CONFIRMED = "confirmed"
    #: The probe found the opposite of what the docs say: the docs are wrong.
    CONTRADICTED = "contradicted"
    #: The probe broke; the claim is undecided.
    ERROR = "error"
    #: Not run here (device absent or claim not meaningful on it).
    NOT_RUN = "not-run"


@dataclass(frozen=True)
class Verdict:
    """The result for one claim on one device."""

    claim: Claim
    device: str
    outcome: Outcome
    evidence: Evidence | None = None
    #: Why the probe broke or did not run; empty otherwise.
    reason: str = ""
    #: True when the evidence was recorded for an older version of the probe's source.
    stale: bool = False
    #: Why a recorded outcome other than the docs' is an older release's behaviour, the same
    #: on the CPU with that release (:meth:`checker.versions.Versions.superseded`); empty
    #: otherwise. Such a recording contradicts nothing the docs say of today's releases.
    superseded: str = ""

    @property
    def expected(self) -> Expect:
        return self.claim.expect

    @property
    def status(self) -> Status:
        if self.outcome is Outcome.ERROR:
            return Status.ERROR
        if self.outcome is Outcome.NOT_RUN:
            return Status.NOT_RUN
        if self.outcome.value == self.claim.expect.value:
            return Status.CONFIRMED
        return Status.CONTRADICTED

    @property
    def recorded_contradiction(self) -> bool:
        """True when evidence recorded elsewhere (on a GPU machine) contradicts the docs."""
        return (
            self.outcome is Outcome.NOT_RUN
            and self.evidence is not None
            and self.evidence.outcome.value != self.claim.expect.value
            and not self.superseded
        )

    @property
    def failed(self) -> bool:
        """True when this verdict must fail a build or a ``verify`` run."""
        return self.status in (Status.CONTRADICTED, Status.ERROR)


def judge(claim: Claim, evidence: Evidence, *, stale: bool = False) -> Verdict:
    """The verdict implied by ``evidence`` for ``claim``.

    A claim with a control is decided only when its control flipped: the same rule gave the
    opposite of what the docs expect on the control's case. Otherwise the rule cannot tell
    the cases apart and the verdict is an ``error`` (the evidence is kept, for the reader).
    """
    problem = control_problem(claim, evidence)
    if problem:
        return Verdict(claim, evidence.device, Outcome.ERROR, evidence, reason=problem)
    return Verdict(claim, evidence.device, evidence.outcome, evidence, stale=stale)


def control_problem(claim: Claim, evidence: Evidence) -> str:
    """Why ``evidence`` does not decide ``claim`` because of its control; empty when it does."""
    if claim.control is None:
        return ""
    found = evidence.control
    if found is None:
        return f"the control ({claim.control.label}) did not run"
    if found.outcome.value != claim.control_outcome:
        return (
            f"the control ({found.label}) did not flip: the rule found it "
            f"{found.outcome.value} too, as the claim itself is expected to be "
            f"({found.observation.rule})"
        )
    return ""


def broken(claim: Claim, device: str, reason: str) -> Verdict:
    """A verdict for a probe that raised, crashed or timed out."""
    return Verdict(claim, device, Outcome.ERROR, reason=reason)


def not_run(
    claim: Claim,
    device: str,
    reason: str,
    evidence: Evidence | None = None,
    *,
    stale: bool = False,
    superseded: str = "",
) -> Verdict:
    """A verdict for a claim not run on ``device``; ``evidence`` may be a recorded one."""
    return Verdict(
        claim, device, Outcome.NOT_RUN, evidence, reason=reason, stale=stale, superseded=superseded
    )
