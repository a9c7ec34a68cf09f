"""GitHub Actions workflow commands: an annotation on the doc line of each failing claim."""

from __future__ import annotations

from checker.report import Report, evidence_summary
from checker.report.plain_text import plain
from checker.verdict import Status


def _escape(text: str) -> str:
    text = plain(text)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape(text).replace(":", "%3A").replace(",", "%2C")


def annotation(
    level: str,
    message: str,
    *,
    path: str | None = None,
    line: int | None = None,
    title: str | None = None,
) -> str:
    """One workflow command, ``::LEVEL file=…,line=…,title=…::MESSAGE``, escaped as GitHub
    requires, its text :func:`~checker.report.plain_text.plain`. Shared by ``verify``,
    ``i18n`` and ``scan``."""
    properties = []
    if path is not None:
        properties.append(f"file={_escape_property(path)}")
    if line is not None:
        properties.append(f"line={line}")
    if title is not None:
        properties.append(f"title={_escape_property(title)}")
    return f"::{level} {','.join(properties)}::{_escape(message)}"


def render(report: Report) -> str:
    lines = []
    for v in report.verdicts:
        if v.status is Status.CONTRADICTED:
            level, title = "error", f"claim contradicted on {v.device}"
            message = (
                f"{v.claim.id}: the docs say it {v.expected.value}, the probe found it "
                f"{v.outcome.value}. {evidence_summary(v, limit=50)}"
            )
        elif v.status is Status.ERROR:
            level, title = "error", f"probe error on {v.device}"
            message = f"{v.claim.id}: {v.reason}"
        elif v.stale:
            level, title = "warning", f"stale {v.device} evidence"
            message = f"{v.claim.id}: the probe changed since its {v.device} evidence was recorded"
        else:
            continue
        site = report.site(v.claim.id)
        lines.append(
            annotation(
                level,
                message,
                path=str(site.path) if site else None,
                line=site.line if site else None,
                title=title,
            )
        )
    counts = report.summary()
    lines.append(
        f"checker verify: {counts['confirmed']} confirmed, "
        f"{counts['contradicted']} contradicted, {counts['error']} errors, "
        f"{counts['not-run']} not run"
    )
    return "\n".join(lines) + "\n"
