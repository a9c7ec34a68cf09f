"""Truth across torch releases: every claim's CPU outcome under several torch versions.

``nox -s versions`` installs each release of :data:`RELEASES`-like lists into its own
environment and runs ``python -m checker.versions measure`` there; each run writes the
outcomes it found, and ``python -m checker.versions merge`` joins them into
``docs/_evidence/versions.json``, schema ``checker.versions/1``::

    {"schema": "checker.versions/1",
     "releases": ["2.4.1", "2.5.1", ...],                 # oldest first
     "claims": {"<claim id>": {"<release>": "holds" | "fails" | "error" | "not-run", ...}},
     "measured_at": "<ISO 8601, UTC>",
     "python": "3.11.7"}

The article scanner reads the same file, so the schema is a contract. A claim whose outcome
differs between releases of the supported range is a *finding* to document on its page
("holds since 2.5" between adjacent releases, "holds by 2.8 at the latest (fails on 2.5)"
where the sampled releases skip some and only bound the change), never a failure of
``verify``.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import platform
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from checker import devices as devices_mod
from checker import registry as registry_mod
from checker.cache import Cache
from checker.evidence import Outcome
from checker.registry import Registry
from checker.runner import ProbeLimits, Runner

SCHEMA = "checker.versions/1"

#: Where the merged file lives, relative to the project root.
VERSIONS_PATH = Path("docs") / "_evidence" / "versions.json"

_OUTCOMES = frozenset(o.value for o in Outcome)


class VersionsError(Exception):
    """The versions file cannot be read; the message names the file."""


def release_of(version: str) -> str:
    """``"2.13.0+cpu"`` -> ``"2.13.0"``: the release, without the local build tag."""
    return version.split("+", 1)[0]


def release_key(release: str) -> tuple[int, ...]:
    """Sort key: ``"2.10.0"`` after ``"2.9.1"``."""
    return tuple(int(part) if part.isdigit() else 0 for part in release.split("."))


def short(release: str) -> str:
    """``"2.5.1"`` -> ``"2.5"``: how pages name a release."""
    return ".".join(release.split(".")[:2])


def adjacent(before: str, after: str) -> bool:
    """Whether no minor release lies between two releases (``"2.4.1"``, ``"2.5.1"``): then a
    change between them is known to the release; otherwise the sampled releases only bound it."""
    (major_b, minor_b), (major_a, minor_a) = release_key(before)[:2], release_key(after)[:2]
    return major_a == major_b and minor_a - minor_b <= 1


@dataclass(frozen=True)
class ReleaseChange:
    """A claim's outcome changing between two sampled releases."""

    #: The outcome from :attr:`release` on (holds, fails).
    outcome: str
    #: The first sampled release with it.
    release: str
    #: The sampled release before it, and its (other) outcome.
    previous: str
    before: str

    @property
    def exact(self) -> bool:
        """The change came with :attr:`release` itself; otherwise it came at the latest with
        it, in a release the sampled ones skip."""
        return adjacent(self.previous, self.release)

    def words(self) -> str:
        """``"holds since 2.5"``, or ``"holds by 2.8 at the latest (fails on 2.5)"``."""
        if self.exact:
            return f"{self.outcome} since {short(self.release)}"
        return (
            f"{self.outcome} by {short(self.release)} at the latest "
            f"({self.before} on {short(self.previous)})"
        )


@dataclass(frozen=True)
class Versions:
    """The merged file: outcomes per claim and release."""

    releases: tuple[str, ...]
    claims: Mapping[str, Mapping[str, str]]
    measured_at: str
    python: str

    def history(self, claim_id: str) -> list[tuple[str, str]]:
        """``[(release, outcome), ...]`` oldest first; empty for an unknown claim."""
        found = self.claims.get(claim_id, {})
        return [(r, found[r]) for r in self.releases if r in found]

    def changes(self, claim_id: str) -> list[tuple[str, str]]:
        """``[(outcome, release), ...]``: each decided outcome (holds, fails) that differs from
        the one on the release before, with the release it starts on."""
        decided = [(r, o) for r, o in self.history(claim_id) if o in ("holds", "fails")]
        return [
            (after, release)
            for (_, before), (release, after) in itertools.pairwise(decided)
            if before != after
        ]

    def transitions(self, claim_id: str) -> list[ReleaseChange]:
        """Each change of decided outcome, with the sampled releases on either side of it."""
        decided = [(r, o) for r, o in self.history(claim_id) if o in ("holds", "fails")]
        return [
            ReleaseChange(after, release, previous, before)
            for (previous, before), (release, after) in itertools.pairwise(decided)
            if before != after
        ]

    def superseded(self, claim_id: str, torch_version: str, outcome: str) -> str:
        """Why ``outcome``, recorded with ``torch_version``, is the behaviour of an older
        release rather than a contradiction of the docs: on the CPU that release gave the same
        outcome, and the newest sampled release the other one. Empty when it is not so."""
        history = self.history(claim_id)
        if not history:
            return ""
        latest, newest = history[-1]
        release = release_of(torch_version)
        if dict(history).get(release) != outcome or newest not in {"holds", "fails"} - {outcome}:
            return ""
        return (
            f"recorded with torch {short(release)}, which gave {outcome} on the CPU too; "
            f"{newest} on torch {short(latest)}"
        )

    def errors(self, claim_id: str) -> list[str]:
        """Releases on which the probe broke (an API that did not exist yet, for example)."""
        return [r for r, o in self.history(claim_id) if o == "error"]

    def change(self, claim_id: str) -> str:
        """How the outcome changed across releases, in words; empty when it never did."""
        parts = [change.words() for change in self.transitions(claim_id)]
        broken = self.errors(claim_id)
        if broken:
            parts.append(f"probe error on {', '.join(short(r) for r in broken)}")
        return "; ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "releases": list(self.releases),
            "claims": {k: dict(v) for k, v in sorted(self.claims.items())},
            "measured_at": self.measured_at,
            "python": self.python,
        }


def load(path: Path) -> Versions | None:
    """Read a versions file; ``None`` if there is none, :class:`VersionsError` if broken."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise VersionsError(f"{path}: cannot read: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise VersionsError(f"{path}:{exc.lineno}: not valid JSON: {exc.msg}") from exc
    try:
        return _parse(data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise VersionsError(f"{path}: malformed versions file: {exc}") from exc


def _parse(data: Any) -> Versions:
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise ValueError(f"schema is not {SCHEMA!r}")
    releases = tuple(str(r) for r in data["releases"])
    claims: dict[str, dict[str, str]] = {}
    for claim_id, outcomes in data["claims"].items():
        for release, outcome in outcomes.items():
            if release not in releases:
                raise ValueError(f"{claim_id}: release {release!r} is not listed")
            if outcome not in _OUTCOMES:
                raise ValueError(f"{claim_id}: outcome {outcome!r} on {release}")
        claims[str(claim_id)] = {str(r): str(o) for r, o in outcomes.items()}
    return Versions(releases, claims, str(data["measured_at"]), str(data["python"]))


def merge(runs: Sequence[Mapping[str, Any]]) -> Versions:
    """Join per-release runs (``{"torch": version, "claims": {id: outcome}}``) into one file."""
    by_release = {release_of(str(run["torch"])): run["claims"] for run in runs}
    releases = tuple(sorted(by_release, key=release_key))
    claims: dict[str, dict[str, str]] = {}
    for release in releases:
        for claim_id, outcome in by_release[release].items():
            claims.setdefault(claim_id, {})[release] = outcome
    now = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    return Versions(releases, claims, now, platform.python_version())


#: Seconds each probe may take in a release run: a batch job, where an older torch or a busy
#: machine must not turn a slow probe into an "error" on the pages.
MEASURE_TIMEOUT_S = 300.0


def measure(
    registry: Registry, cache: Cache | None, timeout_s: float = MEASURE_TIMEOUT_S
) -> dict[str, Any]:
    """Every claim's outcome on this interpreter's torch, on the CPU."""
    runner = Runner(registry, cache=cache, limits=ProbeLimits(timeout_s=timeout_s))
    try:
        verdicts = runner.run(list(registry), ("cpu",))
    finally:
        runner.close()
    return {
        "torch": devices_mod.torch_version(),
        "claims": {v.claim.id: v.outcome.value for v in verdicts},
        "reasons": {v.claim.id: v.reason for v in verdicts if v.reason},
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m checker.versions")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("measure", help="run every claim on the CPU with this torch")
    run.add_argument("--output", type=Path, required=True)
    run.add_argument("--root", type=Path, default=Path())
    run.add_argument(
        "--timeout", type=float, default=MEASURE_TIMEOUT_S, help="seconds each probe may take"
    )
    join = sub.add_parser("merge", help="join per-release runs into the versions file")
    join.add_argument("runs", type=Path, nargs="+")
    join.add_argument("--output", type=Path, default=VERSIONS_PATH)
    args = parser.parse_args(argv)
    if args.command == "measure":
        result = measure(registry_mod.load(), Cache.default(args.root), args.timeout)
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
        counts: dict[str, int] = {}
        for outcome in result["claims"].values():
            counts[outcome] = counts.get(outcome, 0) + 1
        print(f"torch {result['torch']}: {counts}")
        return 0
    runs = [json.loads(p.read_text(encoding="utf-8")) for p in args.runs]
    merged = merge(runs)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(merged.to_dict(), indent=1, ensure_ascii=False) + "\n")
    print(f"{args.output}: {len(merged.claims)} claims on {', '.join(merged.releases)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
