"""What each claim's probe found on older torch releases (``docs/_evidence/versions.json``,
written by ``nox -s versions``), for statements that were true when an article was written.

Schema ``checker.versions/1``: ``releases`` (oldest first) and ``claims``: claim id ->
release -> ``holds`` | ``fails`` | ``error`` | ``not-run``. A statement the current torch
contradicts, but that agrees with what the probe found on some older release, is *outdated*:
"true up to 2.4.1, false since 2.5.1" is what a reader of an old article needs to hear.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from checker.versions import ReleaseChange

SCHEMA = "checker.versions/1"
#: Where the file lives in the project.
RELATIVE = Path("docs") / "_evidence" / "versions.json"


@dataclass(frozen=True)
class History:
    releases: tuple[str, ...] = ()
    outcomes: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def agreed(self, claim_id: str, holds: bool) -> str | None:
        """When the probe last found ``holds`` on a release before the newest one with a
        different result: ``"true up to 2.4.1, false since 2.5.1"`` between adjacent releases,
        ``"true on 2.5.1, false by 2.8.0 at the latest"`` where the sampled releases skip some;
        else ``None``."""
        found = self.change(claim_id, holds)
        if found is None:
            return None
        if found.exact:
            return f"true up to torch {found.previous}, false since torch {found.release}"
        # the sampled releases skip some: they only bound the change
        return f"true on torch {found.previous}, false by torch {found.release} at the latest"

    def change(self, claim_id: str, holds: bool) -> ReleaseChange | None:
        """The change after the last release where the probe found ``holds``, when the newest
        release found the other outcome; else ``None``."""
        found = self.outcomes.get(claim_id, {})
        decided = [
            (r, found[r] == "holds") for r in self.releases if found.get(r) in ("holds", "fails")
        ]
        if len(decided) < 2 or decided[-1][1] == holds:
            return None
        agreeing = [i for i, (_, outcome) in enumerate(decided) if outcome == holds]
        if not agreeing:
            return None
        last = agreeing[-1]
        words = ("holds", "fails") if holds else ("fails", "holds")
        return ReleaseChange(words[1], decided[last + 1][0], decided[last][0], words[0])


def load(project_root: Path) -> History:
    """The recorded history, or an empty one where the file is absent or unreadable (the scan
    then judges by the current torch only)."""
    path = project_root / RELATIVE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return History()
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        return History()
    releases = tuple(str(r) for r in data.get("releases", []))
    claims = data.get("claims", {})
    outcomes = {
        str(claim): {str(r): str(o) for r, o in per.items()}
        for claim, per in (claims.items() if isinstance(claims, dict) else [])
        if isinstance(per, dict)
    }
    return History(releases, outcomes)
