"""The checker: claims about PyTorch, proven by probes on every device.

Pipeline: :mod:`~checker.claim` → probe (:mod:`checker.claims`) →
:mod:`~checker.evidence` → :mod:`~checker.verdict` → report (CLI, pytest, Sphinx).
"""

from checker.claim import Claim, Expect, Vocabulary
from checker.evidence import Evidence, Measurement, Observation, Outcome
from checker.verdict import Status, Verdict

__all__ = [
    "Claim",
    "Evidence",
    "Expect",
    "Measurement",
    "Observation",
    "Outcome",
    "Status",
    "Verdict",
    "Vocabulary",
]
