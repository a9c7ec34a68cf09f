"""What a scan reports: findings (one statement or snippet each), files it could not read."""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from checker.scan.claim_evidence import ClaimEvidence
from checker.text.said import Said


class FindingVerdict(enum.Enum):
    #: The article says the opposite of what was measured, or prints other than it shows.
    CONTRADICTED = "contradicted"
    #: The article agrees with what was measured, or its snippet prints what it shows.
    SUPPORTED = "supported"
    #: The snippet raises, crashes, does not compile, or was stopped by the sandbox (a limit
    #: or a refused access; the evidence says which).
    BROKEN = "broken"
    #: Deciding needs a GPU: the claim is about CUDA, or the snippet uses CUDA, and none is
    #: here (and no evidence was recorded on one).
    NEEDS_CUDA = "needs-cuda"
    #: The article uses an API that the installed torch marks as deprecated (kind ``api``), or
    #: states a claim that was true in an older torch release and is false now (kind
    #: ``claim``; the evidence names the releases). Informational: the exit status stays 0.
    OUTDATED = "outdated"
    #: Nothing to decide with: a statement about a known API that matches no claim, or a
    #: snippet that runs but shows no output.
    UNVERIFIED = "unverified"


#: Verdicts that make ``scan`` exit with status 1.
FAILING = (FindingVerdict.CONTRADICTED, FindingVerdict.BROKEN)


@dataclass(frozen=True)
class ScanFinding:
    path: str
    #: 1-based line in the article.
    line: int
    lang: str
    kind: str  # "claim" | "snippet" | "api"
    verdict: FindingVerdict
    #: The statement (a sentence) or the snippet's first lines, as the article has them.
    quote: str
    #: What was measured or what happened, in one paragraph.
    evidence: str
    claim: str | None = None
    #: The docs section that explains the truth, in the article's language.
    link: str | None = None
    #: For snippets: the result comes from code whose indentation the scanner repaired.
    repaired: bool = False
    #: For a statement of a claim: the evidence as data (probe and control measurements with
    #: their units, per device), which a page renders in its own language.
    measured: ClaimEvidence | None = None
    #: :attr:`evidence` as a template and its values, where the scanner words it so: what a
    #: page in another language translates.
    said: Said | None = None


@dataclass(frozen=True)
class FileError:
    """A file, or part of one, that could not be read; the scan went on."""

    path: str
    line: int
    message: str


@dataclass(frozen=True)
class ScanResult:
    findings: tuple[ScanFinding, ...]
    errors: tuple[FileError, ...] = ()
    #: The sandbox's measures, as last reported (name -> value).
    sandbox: Mapping[str, Any] = field(default_factory=dict)
    torch_version: str = ""
    #: Devices absent here, with the reason.
    absent: Mapping[str, str] = field(default_factory=dict)
    #: Per file: seconds its own code ran in the sandbox (the rest of a scan is overhead).
    code_seconds: Mapping[str, float] = field(default_factory=dict)

    def summary(self) -> dict[str, int]:
        counts = Counter(f.verdict.value for f in self.findings)
        summary = {v.value: counts.get(v.value, 0) for v in FindingVerdict}
        summary["files-with-errors"] = len({e.path for e in self.errors})
        return summary

    @property
    def exit_code(self) -> int:
        """1 when a finding is contradicted or broken, or a file could not be read; else 0."""
        failed = any(f.verdict in FAILING for f in self.findings) or bool(self.errors)
        return 1 if failed else 0
