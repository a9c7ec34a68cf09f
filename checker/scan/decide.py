"""What the evidence says of a sentence that states (or denies) a claim: the finding's verdict,
its evidence in English for the command line, and the same evidence as data
(:class:`~checker.scan.claim_evidence.ClaimEvidence`) for a page in another language."""

from __future__ import annotations

from collections.abc import Sequence

from checker.claim import Claim
from checker.evidence import Outcome
from checker.report import evidence_summary
from checker.scan.claim_evidence import ClaimEvidence, DeviceEvidence
from checker.scan.findings import FindingVerdict
from checker.scan.history import History
from checker.verdict import Status, Verdict


def decide(
    claim: Claim, asserts: bool, verdicts: Sequence[Verdict], history: History
) -> tuple[FindingVerdict, str, ClaimEvidence]:
    """The verdict on a sentence that ``asserts`` the claim's statement (or denies it), from
    the claim's ``verdicts`` on each device and its ``history`` across releases."""
    decided: list[tuple[bool, str]] = []
    devices: list[DeviceEvidence] = []
    reasons: list[str] = []
    undecided: list[tuple[str, str]] = []
    for verdict in verdicts:
        evidence = verdict.evidence
        if verdict.status is Status.ERROR or evidence is None:
            if verdict.device in claim.devices:
                reason = verdict.reason.splitlines()[0] if verdict.reason else ""
                reasons.append(f"{verdict.device}: {reason}")
                undecided.append((verdict.device, reason))
            continue
        holds = evidence.outcome is Outcome.HOLDS
        recorded = verdict.status is Status.NOT_RUN
        origin = ""
        if recorded:
            origin = (
                f", recorded on {evidence.device_name} with torch {evidence.torch_version} "
                f"({evidence.measured_at[:10]})"
            )
        summary = evidence_summary(Verdict(claim, verdict.device, evidence.outcome, evidence))
        word = "holds" if holds else "fails"
        decided.append((holds, f"{verdict.device}: {word}{origin}; {summary}"))
        devices.append(DeviceEvidence.of(evidence, recorded))
    measured = ClaimEvidence(claim.id, claim.statement, asserts, tuple(devices), tuple(undecided))
    if not decided:
        if claim.devices == ("cuda",):
            needs = ClaimEvidence(claim.id, claim.statement, asserts, needs_cuda=True)
            return (
                FindingVerdict.NEEDS_CUDA,
                "only meaningful on CUDA; no CUDA evidence here",
                needs,
            )
        return (
            FindingVerdict.UNVERIFIED,
            "no evidence: " + ("; ".join(reasons) or "probe not run"),
            measured,
        )
    text = "; ".join(text for _, text in decided)
    if any(holds != asserts for holds, _ in decided):
        older = history.agreed(claim.id, asserts)
        if older is not None:  # the article was right when it was written
            change = history.change(claim.id, asserts)
            return (
                FindingVerdict.OUTDATED,
                f"{older}; {text}",
                ClaimEvidence(
                    claim.id,
                    claim.statement,
                    asserts,
                    tuple(devices),
                    tuple(undecided),
                    older=change,
                ),
            )
        return FindingVerdict.CONTRADICTED, text, measured
    return FindingVerdict.SUPPORTED, text, measured
