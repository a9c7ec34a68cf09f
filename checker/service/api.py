"""The JSON API under ``/api/`` (described at ``/api/openapi.json``, its reference at
``/api/docs``): submit, poll, list, result.

A scan's result is the scanner's own document (``checker.scan/2``, as ``python -m checker
scan --format json`` prints it; ``/api/scan/ID/sarif`` the same as SARIF 2.1.0); a
translation's is the gate's (``checker.i18n/1``), limited to the submitted catalog. Every
answer has a model (:mod:`.models`); every error is ``{"error": ..., "status": ...}``
(:mod:`.errors`). A token is sent as ``Authorization: Bearer`` (the security scheme
``bearer``); the pages' sign-in cookie also works, with the CSRF token for a submission."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from checker.service import limits, models, submissions
from checker.service.claims_index import claims_index
from checker.service.store import ServiceJob

#: The bearer scheme, in the OpenAPI document; the token itself is read by Service.owner.
bearer = HTTPBearer(
    auto_error=False,
    scheme_name="bearer",
    description="a token from `python -m checker serve --create-token NAME`",
)
Token = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
router = APIRouter(responses=models.ERRORS)


async def read_upload(
    upload: UploadFile | None, text: str | None, cap: int
) -> tuple[bytes, str | None]:
    """The submitted bytes (at most ``cap`` + 1 are read) and the upload's name (``None`` for
    pasted text)."""
    if upload is not None and upload.filename:
        return await upload.read(cap + 1), upload.filename
    if text:
        return text.encode("utf-8", "surrogatepass"), None
    raise limits.Refused(limits.UNPROCESSABLE, "nothing submitted: paste text or upload a file")


def _accepted(request: Request, job: ServiceJob, result_path: str) -> JSONResponse:
    body = {
        **request.app.state.service.describe(job),
        "status_url": str(request.url_for("api_job", job_id=job.id).path),
        "result_url": f"/api/{result_path}/{job.id}",
        "page_url": f"/results/{job.id}",
    }
    return JSONResponse(body, status_code=202)


@router.post(
    "/api/scan",
    status_code=202,
    tags=["articles"],
    response_model=models.AcceptedJob,
    responses={202: {"model": models.AcceptedJob}},
)
async def api_scan(
    request: Request,
    _token: Token,
    *,
    file: Annotated[UploadFile | None, File(description=".md, .rst, .txt, .ipynb or .html")] = None,
    text: Annotated[str | None, Form(description="the article, as Markdown")] = None,
    lang: Annotated[str, Form()] = "auto",
    run: Annotated[bool, Form(description="run the snippets (needs a token)")] = False,
    csrf_token: Annotated[
        str | None, Form(alias="csrf", description="the CSRF token, when signed in by cookie")
    ] = None,
) -> JSONResponse:
    """Submit an article; poll ``status_url``, then read ``result_url``."""
    request.state.csrf = csrf_token
    service = request.app.state.service
    raw, name = await read_upload(file, text, service.config.limits.upload_bytes)
    job = await run_in_threadpool(service.accept_article, request, raw, name, lang, run)
    return _accepted(request, job, "scan")


@router.post(
    "/api/translation",
    status_code=202,
    tags=["translations"],
    response_model=models.AcceptedJob,
    responses={202: {"model": models.AcceptedJob}},
)
async def api_translation(
    request: Request,
    _token: Token,
    *,
    lang: Annotated[str, Form()],
    file: Annotated[UploadFile | None, File(description="a .po catalog")] = None,
    msgid: Annotated[str | None, Form(description="one English message")] = None,
    msgstr: Annotated[str | None, Form(description="its translation")] = None,
    csrf_token: Annotated[
        str | None, Form(alias="csrf", description="the CSRF token, when signed in by cookie")
    ] = None,
) -> JSONResponse:
    """Submit a catalog for ja or ko (or one message and its translation)."""
    request.state.csrf = csrf_token
    service = request.app.state.service
    cap = service.config.limits.upload_bytes
    if file is None or not file.filename:
        raw = submissions.one_message(msgid or "", msgstr or "", lang, service.config.limits)
        name = None
    else:
        raw, name = await read_upload(file, None, cap)
    job = await run_in_threadpool(service.accept_translation, request, raw, name, lang)
    return _accepted(request, job, "translation")


def _job(request: Request, job_id: str, kind: str | None = None) -> ServiceJob:
    job: ServiceJob | None = request.app.state.service.job(job_id)
    if job is None or (kind is not None and job.kind != kind):
        raise limits.Refused(
            limits.NOT_FOUND, "no check {job} (unknown or expired)", job=repr(job_id[:40])
        )
    return job


@router.get("/api/jobs", tags=["jobs"], response_model=models.JobList)
def api_jobs(request: Request, _token: Token) -> dict[str, Any]:
    """The token's checks kept now (unfinished and finished), newest first."""
    service = request.app.state.service
    owner = service.owner(request)
    if owner is None:
        raise limits.Refused(
            limits.UNAUTHORIZED, "listing checks needs a token (Authorization: Bearer)"
        )
    service.queue.collect()
    return {"jobs": [service.describe(job) for job in service.store.jobs_of(owner)]}


@router.get("/api/jobs/{job_id}", name="api_job", tags=["jobs"], response_model=models.Job)
def api_job(request: Request, job_id: str) -> dict[str, Any]:
    """A job's state and progress (``done``/``total``: snippets run, or entries checked)."""
    return dict(request.app.state.service.describe(_job(request, job_id)))


def _result(request: Request, job_id: str, kind: str) -> JSONResponse:
    job = _job(request, job_id, kind)
    if job.status == "failed":
        return JSONResponse(
            {
                "error": job.error,
                "status": limits.UNPROCESSABLE,
                "job": request.app.state.service.describe(job),
            },
            status_code=limits.UNPROCESSABLE,
        )
    if not job.finished or job.result is None:
        return JSONResponse(request.app.state.service.describe(job), status_code=202)
    return JSONResponse(job.result)


def _result_responses(model: type) -> dict[int | str, dict[str, Any]]:
    return {
        200: {"model": model},
        202: {"model": models.Job, "description": "not finished yet: the job"},
        422: {"model": models.FailedJob, "description": "the check failed: why, and the job"},
    }


@router.get(
    "/api/scan/{job_id}",
    tags=["articles"],
    response_model=models.ScanDocument,
    responses=_result_responses(models.ScanDocument),
)
def api_scan_result(request: Request, job_id: str) -> JSONResponse:
    """The scan (schema ``checker.scan/2``); 202 with the job while it runs."""
    return _result(request, job_id, "scan")


@router.get(
    "/api/scan/{job_id}/sarif",
    tags=["articles"],
    response_model=models.Sarif,
    responses=_result_responses(models.Sarif),
)
def api_scan_sarif(request: Request, job_id: str) -> Response:
    """The scan as SARIF 2.1.0 (for GitHub code scanning); 202 with the job while it runs."""
    from checker.scan.sarif import sarif_document

    answer = _result(request, job_id, "scan")
    if answer.status_code != 200:
        return answer
    job = _job(request, job_id, "scan")
    assert job.result is not None
    return JSONResponse(sarif_document(job.result), media_type="application/sarif+json")


@router.get(
    "/api/translation/{job_id}",
    tags=["translations"],
    response_model=models.TranslationDocument,
    responses=_result_responses(models.TranslationDocument),
)
def api_translation_result(request: Request, job_id: str) -> JSONResponse:
    """The gate's findings (schema ``checker.i18n/1``); 202 with the job while it runs."""
    return _result(request, job_id, "translation")


@router.get("/api/workers", tags=["service"], response_model=models.Workers)
def api_workers(request: Request) -> dict[str, Any]:
    """The workers there now: host and process, queue, torch version, devices, and seconds
    since each last said it was there."""
    from checker import devices

    return {
        "web": {"torch": devices.torch_version()},
        "workers": request.app.state.service.queue.workers(),
    }


@router.get("/api/claims", tags=["docs"], response_model=models.Claims)
def api_claims(request: Request) -> dict[str, Any]:
    """Every claim with its latest verdicts and the devices they were measured on."""
    return {"claims": claims_index(request.app.state.service.config.root)}


@router.get("/healthz", tags=["service"], response_model=models.Health)
def healthz(request: Request) -> dict[str, Any]:
    """Whether the service answers, and how many checks are queued and running."""
    service = request.app.state.service
    service.queue.collect()
    store = service.store
    return {"status": "ok", "queued": store.count("queued"), "running": store.count("running")}


@router.head("/healthz", tags=["service"], response_model=models.Health)
def healthz_head(request: Request) -> dict[str, Any]:
    """As ``GET /healthz``, the headers only (a load balancer's probe)."""
    return healthz(request)
