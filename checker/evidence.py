"""What probes measure, as frozen data that survives a trip through JSON."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from checker.claim import MEASUREMENT_KEY

#: Units a measured value may carry. Renderers translate them; nothing else is allowed.
UNITS = ("bytes", "count", "dtype", "bool", "ratio", "seconds", "text", "exception")

#: A measured value: numbers, booleans (for example "shares storage") or text (dtypes,
#: exception messages).
Value = int | float | bool | str


class Outcome(enum.Enum):
    """What running a probe on one device established."""

    HOLDS = "holds"
    FAILS = "fails"
    #: The probe itself broke (raised, crashed, timed out): the claim is undecided.
    ERROR = "error"
    #: The device is absent, or the claim is not meaningful on it.
    NOT_RUN = "not-run"


@dataclass(frozen=True)
class Measurement:
    """One measured value with its unit."""

    key: str
    value: Value
    unit: str

    def __post_init__(self) -> None:
        if not MEASUREMENT_KEY.match(self.key):
            raise ValueError(f"measurement key {self.key!r} is not kebab-case")
        if self.unit not in UNITS:
            raise ValueError(f"measurement {self.key}: unknown unit {self.unit!r}")
        if isinstance(self.value, bool) != (self.unit == "bool"):
            raise ValueError(f"measurement {self.key}: booleans and unit 'bool' go together")


@dataclass(frozen=True)
class Observation:
    """What a probe returns: its measurements and whether they make the statement true.

    The probe applies its decision rule to what it measured; :attr:`rule` states that rule
    (with its margin, for timing) so that a reader can check the verdict against the numbers.
    """

    holds: bool
    rule: str
    measurements: tuple[Measurement, ...] = ()

    def value(self, key: str) -> Value:
        """The value measured under ``key``."""
        for m in self.measurements:
            if m.key == key:
                return m.value
        raise KeyError(key)


class NotApplicable(Exception):
    """Raised by a probe that cannot measure its case here; the message says why.

    The verdict is ``not-run`` with that reason, never a guess: for example a probe about CUDA
    autocast on a machine where CUDA autocast is disabled.
    """


@dataclass(frozen=True)
class ControlResult:
    """What a claim's control (see :class:`checker.claim.Control`) found."""

    label: str
    observation: Observation

    @property
    def outcome(self) -> Outcome:
        return Outcome.HOLDS if self.observation.holds else Outcome.FAILS

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "holds": self.observation.holds,
            "rule": self.observation.rule,
            "measurements": _measurements_to_list(self.observation.measurements),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ControlResult:
        holds = data["holds"]
        if not isinstance(holds, bool):
            raise ValueError("control 'holds' must be true or false")
        return cls(
            str(data["label"]),
            Observation(holds, str(data["rule"]), _measurements_from_list(data["measurements"])),
        )


@dataclass(frozen=True)
class Evidence:
    """An observation together with where and how it was made."""

    claim_id: str
    device: str
    #: ``"CPU"`` or the GPU's marketing name, e.g. ``"NVIDIA H100 80GB HBM3"``.
    device_name: str
    torch_version: str
    #: Hash of the probe's source, see :mod:`checker.source_hash`.
    probe_hash: str
    observation: Observation
    duration_s: float
    #: ISO 8601 timestamp, UTC.
    measured_at: str
    #: Where the evidence came from: ``"live"``, ``"cache"`` or ``"recorded"``.
    origin: str = "live"
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: What the claim's control found; ``None`` for claims without one (and for evidence
    #: recorded before controls existed).
    control: ControlResult | None = None

    @property
    def outcome(self) -> Outcome:
        return Outcome.HOLDS if self.observation.holds else Outcome.FAILS

    def measurement(self, key: str) -> Measurement:
        """The value measured under ``key`` by the probe or, failing that, by its control."""
        sources = (
            [self.observation, self.control.observation] if self.control else [self.observation]
        )
        for observation in sources:
            for m in observation.measurements:
                if m.key == key:
                    return m
        raise KeyError(key)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "claim": self.claim_id,
            "device": self.device,
            "device_name": self.device_name,
            "torch_version": self.torch_version,
            "probe_hash": self.probe_hash,
            "holds": self.observation.holds,
            "rule": self.observation.rule,
            "measurements": _measurements_to_list(self.observation.measurements),
            "duration_s": round(self.duration_s, 6),
            "measured_at": self.measured_at,
        }
        if self.control is not None:
            data["control"] = self.control.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], origin: str) -> Evidence:
        """Rebuild evidence from :meth:`to_dict` output; raises :class:`ValueError` if malformed."""
        try:
            measurements = _measurements_from_list(data["measurements"])
            control = data.get("control")
            holds = data["holds"]
            if not isinstance(holds, bool):
                raise ValueError("'holds' must be true or false")
            return cls(
                claim_id=str(data["claim"]),
                device=str(data["device"]),
                device_name=str(data["device_name"]),
                torch_version=str(data["torch_version"]),
                probe_hash=str(data["probe_hash"]),
                observation=Observation(holds, str(data["rule"]), measurements),
                duration_s=float(data["duration_s"]),
                measured_at=str(data["measured_at"]),
                origin=origin,
                control=ControlResult.from_dict(control) if control is not None else None,
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed evidence: missing or wrong field {exc}") from exc


def _measurements_to_list(measurements: tuple[Measurement, ...]) -> list[dict[str, Any]]:
    return [{"key": m.key, "value": m.value, "unit": m.unit} for m in measurements]


def _measurements_from_list(raw: Any) -> tuple[Measurement, ...]:
    return tuple(Measurement(str(m["key"]), _value(m["value"]), str(m["unit"])) for m in raw)


def _value(raw: object) -> Value:
    if isinstance(raw, bool | int | float | str):
        return raw
    raise ValueError(f"measured value {raw!r} is not a number, boolean or string")
