"""The API's response types (pydantic models): what ``/api/openapi.json`` publishes and what
every answer is validated against (``tests/test_service_openapi.py``). A scan's or a
translation's result is the scanner's or the gate's own JSON document: its stable fields
are typed here, the rest allowed as they come."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class ErrorAnswer(BaseModel):
    """Every error: a sentence that says what was refused and why, and the HTTP status."""

    error: str
    status: int
    line: int | None = Field(None, description="the submitted line at fault, where one is")


class FailedJob(ErrorAnswer):
    """A check that failed: why, and the job."""

    job: Job


class Progress(BaseModel):
    done: int = Field(description="snippets run, or catalog entries checked")
    total: int
    stage: str


class Job(BaseModel):
    """A submitted check."""

    id: str
    kind: Literal["scan", "translation"]
    status: Literal["queued", "running", "done", "failed"]
    lang: str
    name: str = Field(description="the name the submission gave (shown only)")
    run_code: bool
    created: float = Field(description="seconds since the epoch")
    expires: float
    progress: Progress
    attempt: int = Field(description="times sent to the workers (2: its first worker died)")
    position: int | None = Field(description="while queued, its place in the line (1: next)")
    error: str | None


class AcceptedJob(Job):
    """A check accepted (202): where to poll it and where its result will be."""

    status_url: str
    result_url: str
    page_url: str


class JobList(BaseModel):
    """A token's checks kept now, newest first."""

    jobs: list[Job]


class RanOn(BaseModel):
    worker: str
    queue: str
    attempt: int


class ScanSummary(BaseModel):
    model_config = ConfigDict(extra="allow")
    errors: list[dict[str, Any]]
    torch_version: str | None = None


class ScanDocument(BaseModel):
    """The scanner's document (``checker.scan/2``, as ``python -m checker scan --format
    json`` prints it) and which worker ran it."""

    model_config = ConfigDict(extra="allow")
    schema_: str = Field(alias="schema")
    findings: list[dict[str, Any]]
    summary: ScanSummary
    ran_on: RanOn


class TranslationSummary(BaseModel):
    errors: int
    warnings: int


class LanguageCounts(BaseModel):
    model_config = ConfigDict(extra="allow")
    errors: int
    warnings: int


class TranslationDocument(BaseModel):
    """The gate's document (``checker.i18n/1``) for the one page the catalog translates;
    ``summary`` counts the findings, and so does each language."""

    model_config = ConfigDict(extra="allow")
    schema_: str = Field(alias="schema")
    page: str
    findings: list[dict[str, Any]]
    summary: TranslationSummary
    languages: dict[str, LanguageCounts]
    preview: str | None
    ran_on: RanOn


class Worker(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str
    queue: Literal["cpu", "cuda"]
    torch: str | None
    devices: dict[str, str]
    seen_s: float = Field(description="seconds since its last heartbeat")


class WebProcess(BaseModel):
    torch: str | None


class Workers(BaseModel):
    web: WebProcess
    workers: list[Worker]


class Health(BaseModel):
    status: Literal["ok"]
    queued: int
    running: int


class Claims(BaseModel):
    claims: list[dict[str, Any]]


class Sarif(BaseModel):
    """A SARIF 2.1.0 log (see ``checker/scan/sarif.py``)."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)
    schema_: str = Field(alias="$schema")
    version: Literal["2.1.0"]
    runs: list[dict[str, Any]]


#: The error answers each route documents (its own 2xx aside).
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorAnswer, "description": description}
    for code, description in (
        (400, "bad input (an unknown language, undecodable text)"),
        (401, "an unknown or revoked token"),
        (403, "a cookie-authenticated request without its CSRF token, or from another site"),
        (404, "unknown or expired"),
        (405, "a method this address does not take"),
        (413, "past a size limit"),
        (415, "an unsupported file type or binary content"),
        (422, "an invalid request or submission"),
        (429, "too many submissions, or too many unfinished checks for a token"),
    )
}

FailedJob.model_rebuild()
