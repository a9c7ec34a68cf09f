"""The JSON API under ``/api/`` (described at ``/api/openapi.json``): submit, poll, result.

A scan's result is the scanner's own document (``checker.scan/2``, as ``python -m checker
scan --format json`` prints it); a translation's is the gate's (``checker.i18n/1``), limited
to the submitted catalog. Errors are ``{"error": ..., "status": ...}`` with a 4xx status."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from checker.service import limits, submissions
from checker.service.claims_index import claims_index
from checker.service.store import ServiceJob

router = APIRouter()


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
        **job.public(),
        "status_url": str(request.url_for("api_job", job_id=job.id).path),
        "result_url": f"/api/{result_path}/{job.id}",
        "page_url": f"/results/{job.id}",
    }
    return JSONResponse(body, status_code=202)


@router.post("/api/scan", status_code=202, tags=["articles"])
async def api_scan(
    request: Request,
    file: Annotated[UploadFile | None, File(description=".md, .rst, .txt, .ipynb or .html")] = None,
    text: Annotated[str | None, Form(description="the article, as Markdown")] = None,
    lang: Annotated[str, Form()] = "auto",
    run: Annotated[bool, Form(description="run the snippets (needs a token)")] = False,
) -> JSONResponse:
    """Submit an article; poll ``status_url``, then read ``result_url``."""
    service = request.app.state.service
    raw, name = await read_upload(file, text, service.config.limits.upload_bytes)
    job = await run_in_threadpool(service.accept_article, request, raw, name, lang, run)
    return _accepted(request, job, "scan")


@router.post("/api/translation", status_code=202, tags=["translations"])
async def api_translation(
    request: Request,
    lang: Annotated[str, Form()],
    file: Annotated[UploadFile | None, File(description="a .po catalog")] = None,
    msgid: Annotated[str | None, Form(description="one English message")] = None,
    msgstr: Annotated[str | None, Form(description="its translation")] = None,
) -> JSONResponse:
    """Submit a catalog for ja or ko (or one message and its translation)."""
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


@router.get("/api/jobs/{job_id}", name="api_job", tags=["jobs"])
def api_job(request: Request, job_id: str) -> dict[str, Any]:
    """A job's state and progress (``done``/``total``: snippets run, or entries checked)."""
    return _job(request, job_id).public()


def _result(request: Request, job_id: str, kind: str) -> JSONResponse:
    job = _job(request, job_id, kind)
    if job.status == "failed":
        return JSONResponse(
            {"error": job.error, "status": limits.UNPROCESSABLE, "job": job.public()},
            status_code=limits.UNPROCESSABLE,
        )
    if not job.finished or job.result is None:
        return JSONResponse(job.public(), status_code=202)
    return JSONResponse(job.result)


@router.get("/api/scan/{job_id}", tags=["articles"])
def api_scan_result(request: Request, job_id: str) -> JSONResponse:
    """The scan (schema ``checker.scan/2``); 202 with the job while it runs."""
    return _result(request, job_id, "scan")


@router.get("/api/translation/{job_id}", tags=["translations"])
def api_translation_result(request: Request, job_id: str) -> JSONResponse:
    """The gate's findings (schema ``checker.i18n/1``); 202 with the job while it runs."""
    return _result(request, job_id, "translation")


@router.get("/api/workers", tags=["service"])
def api_workers(request: Request) -> dict[str, Any]:
    """The workers that started: host and process, torch version, devices."""
    from checker import devices

    return {
        "web": {"torch": devices.torch_version()},
        "workers": request.app.state.service.queue.workers(),
    }


@router.get("/api/claims", tags=["docs"])
def api_claims(request: Request) -> dict[str, Any]:
    """Every claim with its latest verdicts and the devices they were measured on."""
    return {"claims": claims_index(request.app.state.service.config.root)}


@router.get("/healthz", tags=["service"])
def healthz(request: Request) -> dict[str, Any]:
    service = request.app.state.service
    service.queue.collect()
    store = service.store
    return {"status": "ok", "queued": store.count("queued"), "running": store.count("running")}
