"""Words the extension adds to pages: the English of each label, by key.

The pages' own text is translated through the catalogs under ``locales/``; these labels are
generated, so they are messages of the extension's gettext domain (``msgctxt`` is the key),
translated in ``checker/sphinx/locale/<lang>/LC_MESSAGES/checker.po`` and checked by the same
gate as the pages (see :mod:`checker.sphinx.messages`).
"""

from __future__ import annotations

from checker.sphinx.messages import gettext
from checker.text.languages import LANGUAGES

#: The English of every generated label; ``{fields}`` are filled in when shown.
LABELS: dict[str, str] = {
    "claim": "Claim",
    "myth": "Myth",
    "holds": "holds",
    "fails": "refuted",
    "myth-fails": "myth refuted",
    "myth-holds": "myth holds",
    "error": "probe error",
    "not-run": "not run",
    "recorded": "recorded {date}",
    "stale": "stale: the probe changed since",
    # a recording made with an older torch whose outcome the CPU gave on that release too
    "superseded": "an older torch: the CPU gave the same there",
    "evidence": "Evidence",
    "rule": "Decision rule",
    "probe": "Probe",
    "measured-on": "measured on {device}, torch {torch}",
    "value": "Value",
    "measurement": "Measurement",
    "expected": "The docs say",
    "expect-holds": "holds",
    "expect-fails": "is false",
    "page": "Page",
    "statement": "Statement",
    "filter-topic": "Topic",
    "filter-device": "Device",
    "filter-outcome": "Outcome",
    "filter-all": "all",
    "filter-confirmed": "as the docs say",
    "filter-contradicted": "against the docs",
    "filter-shown": "{shown} of {total} claims shown",
    "context": "Values on this page were measured by its probes: {parts}.",
    "context-live": "{device} with torch {torch} on the machine that built this page ({date})",
    "context-recorded": "{device} with torch {torch}, recorded {date}",
    "bytes": "{n} bytes",
    "seconds": "{n} ms",
    "not-measured": "not measured in this build",
    "not-measured-why": "no evidence for this value in this build",
    "duration": "took {n} ms",
    "languages": "Languages",
    "unit-mib": "MiB",
    "separator": ", ",
    # between a label and what it labels: "Control: ..."
    "colon": ": ",
    "control": "Control",
    "no-control": "No control",
    "no-control-yet": "none written yet",
    "releases": "Across torch releases (CPU)",
    "since": "{outcome} since torch {release}",
    "by-release": "{outcome} by torch {release} at the latest ({before} on torch {previous})",
    "release-error": "probe error on torch {releases}",
    "outcome-holds": "holds",
    "outcome-fails": "fails",
    "outcome-error": "probe error",
    "outcome-not-run": "not run",
    "cuda-pending": "Not yet run on CUDA: this example has run on the CPU only.",
    "cuda-pending-since": "Not yet run on CUDA: this example is newer than the last recorded GPU "
    "run ({device}, torch {torch}, {date}) and has run on the CPU only.",
    "cuda-only-pending": "CUDA only, and not yet run on a GPU: its output is not checked yet.",
    "cuda-only-pending-since": "CUDA only, and not yet run on a GPU: this example is newer than "
    "the last recorded GPU run ({device}, torch {torch}, {date}), so its output is not checked "
    "yet.",
    "cuda-only-ran": "CUDA only: checked on {device} with torch {torch}, recorded {date}.",
    # a measured value: what a call that raised nothing returned
    "no-error": "no error",
    # values a decision rule is built with (the variant of a forward), translated where a
    # rule shows them: messages.translate_text looks up "value-<value>"
    "value-default": "default",
    "value-disable": "disable",
    "value-no-grad": "no-grad",
    "value-inference-mode": "inference-mode",
    "value-save-on-cpu": "save-on-cpu",
    "value-save-on-cpu-pinned": "save-on-cpu-pinned",
    # the kind of tensor or of selection a view or in-place rule names
    "value-leaf": "leaf",
    "value-non-leaf": "non-leaf",
    "value-slicing": "slicing",
}

#: How each language names itself in the language switcher.
LANGUAGE_NAMES: dict[str, str] = {language.code: language.name for language in LANGUAGES}


def text(lang: str, key: str, **values: object) -> str:
    """The label ``key`` in ``lang``; its English when it has no usable translation."""
    english = LABELS[key]
    translated = english if lang == "en" else gettext(lang, english, context=key)
    try:
        return translated.format(**values)
    except (KeyError, IndexError, ValueError):  # a broken placeholder: the gate reports it
        return english.format(**values)
