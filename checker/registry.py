"""The registry: every claim the project knows, loaded from claim modules.

A claim module is any module that defines ``CLAIMS``, a sequence of :class:`Claim`. The
project's own live in :mod:`checker.claims`; tests add fixture modules by name.
"""

from __future__ import annotations

import fnmatch
import importlib
import inspect
import pkgutil
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from checker.claim import Claim

#: The package whose modules hold the project's claims.
DEFAULT_PACKAGE = "checker.claims"


class RegistryError(Exception):
    """A claim module is broken: duplicate ids or keys, or no ``CLAIMS``."""


@dataclass(frozen=True)
class Registry:
    """An ordered, validated collection of claims."""

    claims: tuple[Claim, ...]
    #: The modules the claims were loaded from, so worker processes can load them too.
    modules: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        ids: dict[str, Claim] = {}
        keys: dict[str, Claim] = {}
        for claim in self.claims:
            if claim.id in ids:
                raise RegistryError(
                    f"{location(claim)}: duplicate claim id {claim.id!r}, "
                    f"first defined at {location(ids[claim.id])}"
                )
            ids[claim.id] = claim
            for key in claim.all_measures:
                if key in keys:
                    raise RegistryError(
                        f"{location(claim)}: measurement key {key!r} of {claim.id} is "
                        f"already measured by {keys[key].id}"
                    )
                keys[key] = claim

    def __iter__(self) -> Iterator[Claim]:
        return iter(self.claims)

    def __len__(self) -> int:
        return len(self.claims)

    def get(self, claim_id: str) -> Claim | None:
        return next((c for c in self.claims if c.id == claim_id), None)

    def by_measurement(self, key: str) -> Claim | None:
        """The claim whose probe measures ``key``."""
        return next((c for c in self.claims if key in c.all_measures), None)

    def select(self, pattern: str | None) -> list[Claim]:
        """Claims whose id matches a shell-style ``pattern`` (all when ``None``)."""
        if not pattern:
            return list(self.claims)
        return [c for c in self.claims if fnmatch.fnmatchcase(c.id, pattern)]


def load(extra_modules: Sequence[str] = (), *, package: str | None = DEFAULT_PACKAGE) -> Registry:
    """Load the claims of ``package``'s modules and of ``extra_modules``."""
    names = list(_package_modules(package)) if package else []
    names += [m for m in extra_modules if m not in names]
    claims: list[Claim] = []
    for name in names:
        claims.extend(_claims_of(name))
    return Registry(tuple(claims), tuple(names))


def _package_modules(package: str) -> Iterable[str]:
    pkg = importlib.import_module(package)
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if not info.name.startswith("_"):
            yield f"{package}.{info.name}"


def _claims_of(module_name: str) -> list[Claim]:
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise RegistryError(f"cannot import claim module {module_name!r}: {exc}") from exc
    claims = getattr(module, "CLAIMS", None)
    if claims is None:
        raise RegistryError(f"{module.__file__}: claim module defines no CLAIMS")
    bad = [c for c in claims if not isinstance(c, Claim)]
    if bad:
        raise RegistryError(f"{module.__file__}: CLAIMS holds non-Claim objects: {bad[:3]!r}")
    return list(claims)


def location(claim: Claim) -> str:
    """``file:line`` where the claim's probe is defined."""
    try:
        lines = inspect.getsourcelines(claim.probe)
        return f"{inspect.getsourcefile(claim.probe)}:{lines[1]}"
    except (OSError, TypeError):
        return claim.probe_name
