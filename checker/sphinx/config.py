"""The extension's settings: one dataclass, registered as ``checker_*`` config values."""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any

from sphinx.application import Sphinx
from sphinx.errors import ConfigError

from checker.text.languages import LANGS
from checker.typing import DEVICES


def setup_config(app: Sphinx) -> None:
    for f in fields(CheckerConfig):
        default = f.default_factory() if f.default_factory is not MISSING else f.default
        app.add_config_value(f"checker_{f.name}", default, "env", description=f.metadata["help"])


def get_config(app: Sphinx) -> CheckerConfig:
    """The validated settings of this build."""
    values = {}
    for f in fields(CheckerConfig):
        value = getattr(app.config, f"checker_{f.name}")
        f.metadata["validator"](value)
        values[f.name] = value
    return CheckerConfig(**values)


def _languages(value: Any) -> None:
    if not isinstance(value, list) or not value or set(value) - set(LANGS):
        raise ConfigError(f"checker_languages must be a non-empty list drawn from {LANGS}")


def _devices(value: Any) -> None:
    if not isinstance(value, list) or set(value) - set(DEVICES):
        raise ConfigError(f"checker_devices must be a list drawn from {DEVICES}")


def _modules(value: Any) -> None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError("checker_claim_modules must be a list of module names")


def _text(value: Any) -> None:
    if not isinstance(value, str):
        raise ConfigError("expected a string")


@dataclass(frozen=True)
class CheckerConfig:
    """Settings of :mod:`checker.sphinx`; each field is the config value ``checker_<name>``."""

    languages: list[str] = field(
        default_factory=lambda: list(LANGS),
        metadata={
            "help": "languages the docs are published in, source language first",
            "validator": _languages,
        },
    )
    devices: list[str] = field(
        default_factory=lambda: list(DEVICES),
        metadata={
            "help": "devices whose verdicts pages show; absent ones use recorded evidence",
            "validator": _devices,
        },
    )
    claim_modules: list[str] = field(
        default_factory=list,
        metadata={
            "help": "extra claim modules to load besides checker.claims (test fixtures)",
            "validator": _modules,
        },
    )
    claim_package: str = field(
        default="checker.claims",
        metadata={
            "help": "package whose modules define the project's claims ('' for none)",
            "validator": _text,
        },
    )
    evidence_dir: str = field(
        default="docs/_evidence",
        metadata={
            "help": "recorded evidence, relative to the configuration directory",
            "validator": _text,
        },
    )
