"""The registry: every claim the project knows, loaded from claim modules.

A claim module is any module that defines ``CLAIMS``, a sequence of :class:`Claim`. The
project's own live in :mod:`checker.claims`, one package per page (a *topic* package) and in
it one module per section of the page: the package declares its sections in the order the
pages show them, ``SECTIONS = ("autocast", "op_categories", ...)``, and the registry lists
the claims in that order, topic packages alphabetically. A section may itself be a package of
subsections with ``SECTIONS`` of its own. Every module or package of a topic whose name does
not start with ``_`` is a section and must be declared (modules named ``_model.py`` and the
like hold helpers that several sections share). Tests add fixture modules by name.
"""

from __future__ import annotations

import ast
import fnmatch
import importlib
import inspect
import pkgutil
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from checker.claim import Claim

#: The package whose topic packages hold the project's claims.
DEFAULT_PACKAGE = "checker.claims"


class RegistryError(Exception):
    """A claim module is broken: duplicate ids or keys, no ``CLAIMS``, or a section that its
    package does not declare."""


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

    def in_package(self, package: str) -> list[Claim]:
        """The claims whose module is ``package`` or lies in it (a topic's, a section's)."""
        return [
            c
            for c in self.claims
            if c.probe.__module__ == package or c.probe.__module__.startswith(package + ".")
        ]


def load(extra_modules: Sequence[str] = (), *, package: str | None = DEFAULT_PACKAGE) -> Registry:
    """Load the claims of ``package``'s topics and of ``extra_modules`` (claim modules, or
    packages of sections)."""
    names = [name for topic in topics(package) for name in claim_modules(topic)] if package else []
    for extra in extra_modules:
        names += [m for m in claim_modules(extra) if m not in names]
    claims: list[Claim] = []
    for name in names:
        claims.extend(_claims_of(name))
    return Registry(tuple(claims), tuple(names))


def topics(package: str = DEFAULT_PACKAGE) -> list[str]:
    """The topic packages (or claim modules) of ``package``, alphabetically."""
    pkg = _import(package)
    found = sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name)
    return [f"{package}.{info.name}" for info in found if not info.name.startswith("_")]


def claim_modules(name: str) -> list[str]:
    """The claim modules of ``name``: itself when it is a module; a package's sections, in
    the order its ``SECTIONS`` declares, each expanded in turn."""
    module = _import(name)
    if not hasattr(module, "__path__"):
        return [name]
    sections = _sections(module)
    return [found for section in sections for found in claim_modules(f"{name}.{section}")]


def _sections(package: ModuleType) -> tuple[str, ...]:
    """A package's ``SECTIONS``, refused unless they name every section it holds, once."""
    init = Path(package.__file__ or package.__name__)
    sections = getattr(package, "SECTIONS", None)
    if not isinstance(sections, tuple) or not all(isinstance(s, str) for s in sections):
        raise RegistryError(
            f"{init}:1: a package of claims declares its sections in page order as "
            "SECTIONS, a tuple of module names"
        )
    where = f"{init}:{_assignment_line(init, 'SECTIONS')}"
    repeated = sorted({s for s in sections if sections.count(s) > 1})
    if repeated:
        raise RegistryError(f"{where}: SECTIONS names {repeated[0]!r} twice")
    held = [
        info.name
        for info in pkgutil.iter_modules(package.__path__)
        if not info.name.startswith("_")
    ]
    for name in sections:
        if name not in held:
            raise RegistryError(
                f"{where}: SECTIONS names {name!r}, which {init.parent} does not hold"
            )
    for name in sorted(set(held) - set(sections)):
        path = init.parent / name
        shown = path if path.is_dir() else path.with_suffix(".py")
        raise RegistryError(
            f"{where}: the section {shown} is missing from SECTIONS: add {name!r} where its "
            "page shows it (or name the module with a leading _ if it holds no claims)"
        )
    return sections


def _assignment_line(path: Path, name: str) -> int:
    """The line where the module at ``path`` assigns ``name`` (1 when it cannot tell)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return 1
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return node.lineno
    return 1


def _import(module_name: str) -> ModuleType:
    try:
        return importlib.import_module(module_name)
    except ImportError as exc:
        raise RegistryError(f"cannot import claim module {module_name!r}: {exc}") from exc


def _claims_of(module_name: str) -> list[Claim]:
    module = _import(module_name)
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
