"""Claims: assertions about PyTorch behaviour that the docs make and a probe decides."""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from checker.typing import DEVICES, LANGS, Device, Lang, Probe

#: Claim ids: ``topic/slug``, lowercase words joined by dashes.
CLAIM_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*/[a-z0-9]+(?:-[a-z0-9]+)*$")

#: Keys of measured values: lowercase words joined by dashes, unique across all claims.
MEASUREMENT_KEY = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class Expect(enum.Enum):
    """What the docs say a probe will find."""

    #: The statement is true: the docs teach it.
    HOLDS = "holds"
    #: The statement is false: a myth the docs refute.
    FAILS = "fails"


@dataclass(frozen=True)
class Vocabulary:
    """How a claim is phrased in each language, for the article scanner and the translation checks.

    A sentence *mentions* the claim when it names one of :attr:`subjects` and one of the
    language's :attr:`predicates`; whether it asserts or denies the statement is decided by
    negation markers (see :mod:`checker.text.reading`).
    """

    #: Language-neutral names of what the claim is about, usually API names such as
    #: ``disable_saved_tensors_hooks``. Matched case-sensitively as substrings.
    subjects: tuple[str, ...]
    #: Per language, word stems that carry the claim's predicate, such as
    #: ``("reduc", "save")`` for "reduces memory".
    predicates: Mapping[Lang, tuple[str, ...]] = field(default_factory=dict)
    #: Whether the statement *denies* its predicate ("``add_`` allocates nothing" denies
    #: "allocat"): then a sentence agrees with it when it is negated too. ``None``: read it from
    #: the English statement's negations (:func:`checker.text.reading.predicate_negated`).
    denies: bool | None = None
    #: Per language, stems of the opposite predicate: a sentence that uses one of them (and
    #: none of :attr:`predicates`) denies the statement ("``detach()`` copies" denies
    #: "``detach()`` shares storage").
    opposites: Mapping[Lang, tuple[str, ...]] = field(default_factory=dict)
    #: Per language, phrases that put a sentence in another case than the statement's (for
    #: "relu of a float32 tensor runs in float16": "the input is already bfloat16"); a
    #: sentence holding one is not read as stating the claim. Stems and these phrases may hold
    #: a gap, " … " (see :func:`checker.text.reading.stem_pattern`).
    unless: Mapping[Lang, tuple[str, ...]] = field(default_factory=dict)
    #: Per language, phrases that state the claim's own condition ("if you leave out" for a
    #: claim about omitting an argument): a sentence conditioned by one of them states the
    #: claim, it does not speak about it hypothetically.
    conditions: Mapping[Lang, tuple[str, ...]] = field(default_factory=dict)
    #: Per language, phrases of which a sentence must hold one to state the claim (for a claim
    #: about CPU autocast: "CPU"); a language without any requires nothing. Matched as stems are
    #: (a gap allowed).
    requires: Mapping[Lang, tuple[str, ...]] = field(default_factory=dict)
    #: For a claim about order: the terms (any language) of what comes first and of what
    #: comes then ("unscale_" before "clip"); a sentence that names both the other way round
    #: denies the claim (see :mod:`checker.scan.order`).
    order: tuple[tuple[str, ...], tuple[str, ...]] | None = None

    def __post_init__(self) -> None:
        if not self.subjects:
            raise ValueError("a vocabulary needs at least one subject")
        languages = (self.predicates, self.opposites, self.unless, self.conditions, self.requires)
        unknown = set().union(*languages) - set(LANGS)
        if unknown:
            raise ValueError(f"unknown languages in vocabulary: {sorted(unknown)}")


@dataclass(frozen=True)
class Control:
    """A variant of a claim's experiment in which the claimed effect is known to go the other way.

    The control probe applies the *same* decision rule as the claim's probe to a case chosen
    so that the rule must give the opposite of what the docs expect: for a myth ("this reduces
    memory", expected to fail), a case that does reduce memory; for a statement that holds, a
    case where it does not. A control that does not flip shows that the rule cannot tell the
    two cases apart, and the claim's verdict becomes an ``error``.
    """

    #: What the variant is, for readers: ``"activation checkpointing"``.
    label: str
    #: The variant's experiment, with the signature of a probe.
    probe: Probe
    #: Keys of the control's values that pages show with the ``measured`` role.
    measures: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.label.strip():
            raise ValueError("a control needs a label")
        for key in self.measures:
            if not MEASUREMENT_KEY.match(key):
                raise ValueError(f"control {self.label!r}: measurement key {key!r}")


@dataclass(frozen=True)
class Claim:
    """One assertion about PyTorch, with the probe that decides it.

    The statement here is the canonical English wording used by the CLI and the scanner; the
    docs phrase it for readers in the body of the ``claim`` directive, which is translated.
    """

    #: Stable identifier, ``topic/slug``; pages, evidence files and caches refer to it.
    id: str
    #: Canonical one-sentence statement, in English.
    statement: str
    #: The verdict the docs expect.
    expect: Expect
    #: The experiment. See :data:`checker.typing.Probe`.
    probe: Probe
    #: Devices on which the statement is meaningful.
    devices: tuple[Device, ...] = ("cpu", "cuda")
    #: Keys of the values the probe reports, usable with the ``measured`` role.
    measures: tuple[str, ...] = ()
    #: Phrasing in en/ja/ko, for the scanner and the translation checks.
    vocabulary: Vocabulary | None = None
    #: Seconds after which the probe is killed and reported as an error.
    timeout_s: float = 60.0
    #: The experiment's control: the same rule on a case where it must give the opposite.
    control: Control | None = None
    #: Why no control can exist, when there is none (a sentence for readers).
    no_control: str = ""

    def __post_init__(self) -> None:
        if not CLAIM_ID.match(self.id):
            raise ValueError(f"claim id {self.id!r} is not of the form 'topic/slug'")
        if not self.devices or set(self.devices) - set(DEVICES):
            raise ValueError(f"claim {self.id}: devices must be a non-empty subset of {DEVICES}")
        for key in self.measures:
            if not MEASUREMENT_KEY.match(key):
                raise ValueError(f"claim {self.id}: measurement key {key!r} is not kebab-case")
        if len(set(self.measures)) != len(self.measures):
            raise ValueError(f"claim {self.id}: duplicate measurement keys")
        if self.control is not None and self.no_control:
            raise ValueError(f"claim {self.id}: a claim has a control or says why it has none")
        if len(set(self.all_measures)) != len(self.all_measures):
            raise ValueError(f"claim {self.id}: its control measures a key of the probe's")

    @property
    def topic(self) -> str:
        """The part of the id before the slash."""
        return self.id.split("/", 1)[0]

    @property
    def probe_name(self) -> str:
        """``module:function`` of the probe, for messages and reports."""
        return f"{self.probe.__module__}:{self.probe.__qualname__}"

    @property
    def all_measures(self) -> tuple[str, ...]:
        """Keys of the values the probe and the control report, for the ``measured`` role."""
        return self.measures + (self.control.measures if self.control is not None else ())

    @property
    def control_outcome(self) -> str:
        """The outcome the control must give: the opposite of what the docs expect."""
        return Expect.FAILS.value if self.expect is Expect.HOLDS else Expect.HOLDS.value
