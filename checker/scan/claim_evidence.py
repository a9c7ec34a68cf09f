"""What a claim finding's evidence is made of, as frozen data: the claim, whether the sentence
agrees with it, and per device the outcome, the decision rule and the measurements of probe
and control, each value with its unit. The finding's ``evidence`` string is the English of
it for the command line; a page renders this structure in its own language (the service's
findings page), formatting values as the docs do."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from checker.evidence import Evidence, Measurement, Value
from checker.versions import ReleaseChange


@dataclass(frozen=True)
class DeviceEvidence:
    """What the probe of a claim found on one device, and what its control found."""

    device: str
    #: ``holds`` or ``fails``.
    outcome: str
    #: ``CPU``, or the GPU's name.
    device_name: str
    torch_version: str
    rule: str
    measurements: tuple[Measurement, ...] = ()
    #: The date the evidence was recorded on another machine; ``""`` when measured here.
    recorded: str = ""
    #: The control's label; ``""`` without control evidence.
    control: str = ""
    #: ``holds`` or ``fails``; ``""`` without control evidence.
    control_outcome: str = ""
    control_measurements: tuple[Measurement, ...] = ()

    @classmethod
    def of(cls, evidence: Evidence, recorded: bool) -> DeviceEvidence:
        control = evidence.control
        return cls(
            device=evidence.device,
            outcome=evidence.outcome.value,
            device_name=evidence.device_name,
            torch_version=evidence.torch_version,
            rule=evidence.observation.rule,
            measurements=evidence.observation.measurements,
            recorded=evidence.measured_at[:10] if recorded else "",
            control=control.label if control is not None else "",
            control_outcome=control.outcome.value if control is not None else "",
            control_measurements=control.observation.measurements if control is not None else (),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "device": self.device,
            "outcome": self.outcome,
            "device_name": self.device_name,
            "torch_version": self.torch_version,
            "rule": self.rule,
            "measurements": _measurements(self.measurements),
            "recorded": self.recorded,
            "control": self.control,
            "control_outcome": self.control_outcome,
            "control_measurements": _measurements(self.control_measurements),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DeviceEvidence:
        return cls(
            device=str(data["device"]),
            outcome=str(data["outcome"]),
            device_name=str(data["device_name"]),
            torch_version=str(data["torch_version"]),
            rule=str(data["rule"]),
            measurements=_read_measurements(data.get("measurements", ())),
            recorded=str(data.get("recorded", "")),
            control=str(data.get("control", "")),
            control_outcome=str(data.get("control_outcome", "")),
            control_measurements=_read_measurements(data.get("control_measurements", ())),
        )


@dataclass(frozen=True)
class ClaimEvidence:
    """The evidence of a claim finding."""

    claim: str
    #: The claim's statement (English; a page shows the docs' translation of it).
    statement: str
    #: Whether the sentence states the claim (``False``: it denies it).
    agrees: bool
    #: The devices whose evidence decided, in the order the verdicts came.
    devices: tuple[DeviceEvidence, ...] = ()
    #: Devices the claim is meant for whose probe did not decide, with the reason (English:
    #: a generated reason, which the extension's catalog translates).
    undecided: tuple[tuple[str, str], ...] = ()
    #: Whether only CUDA evidence could decide, and there is none.
    needs_cuda: bool = False
    #: The article agrees with what the probe found on an older torch release: the change
    #: between the last release where it did and the next one sampled.
    older: ReleaseChange | None = None
    #: A translated message that contradicts the claim while its English source does not:
    #: not judged (the translation gate checks what the translation says).
    source_not_contradicted: bool = False

    def to_dict(self) -> dict[str, Any]:
        older = self.older
        return {
            "claim": self.claim,
            "statement": self.statement,
            "agrees": self.agrees,
            "devices": [d.to_dict() for d in self.devices],
            "undecided": [{"device": d, "reason": r} for d, r in self.undecided],
            "needs_cuda": self.needs_cuda,
            "older": None
            if older is None
            else {
                "outcome": older.outcome,
                "release": older.release,
                "previous": older.previous,
                "before": older.before,
            },
            "source_not_contradicted": self.source_not_contradicted,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ClaimEvidence:
        """Rebuild it from :meth:`to_dict`; raises :class:`ValueError` if malformed."""
        try:
            older = data.get("older")
            return cls(
                claim=str(data["claim"]),
                statement=str(data["statement"]),
                agrees=bool(data["agrees"]),
                devices=tuple(DeviceEvidence.from_dict(d) for d in data.get("devices", ())),
                undecided=tuple(
                    (str(u["device"]), str(u["reason"])) for u in data.get("undecided", ())
                ),
                needs_cuda=bool(data.get("needs_cuda", False)),
                older=None
                if not older
                else ReleaseChange(
                    str(older["outcome"]),
                    str(older["release"]),
                    str(older["previous"]),
                    str(older["before"]),
                ),
                source_not_contradicted=bool(data.get("source_not_contradicted", False)),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed claim evidence: missing or wrong field {exc}") from exc


def _measurements(measurements: Sequence[Measurement]) -> list[dict[str, Any]]:
    return [{"key": m.key, "value": m.value, "unit": m.unit} for m in measurements]


def _read_measurements(raw: Any) -> tuple[Measurement, ...]:
    return tuple(Measurement(str(m["key"]), _value(m["value"]), str(m["unit"])) for m in raw)


def _value(raw: object) -> Value:
    if isinstance(raw, bool | int | float | str):
        return raw
    raise ValueError(f"measured value {raw!r} is not a number, boolean or string")
