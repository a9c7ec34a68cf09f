"""The HTML pages: check an article, check a translation, a result (revisitable by its id),
the claims index, the token form. Every page is a Jinja2 template with autoescape; the
submitted text reaches a page only as template data, never as markup."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response

from checker.service import auth, csrf, limits, preview, submissions, ui
from checker.service.api import read_upload
from checker.service.claims_index import claims_index
from checker.service.evidence_view import evidence_view, said_in
from checker.service.results import scan_lines, translation_entries
from checker.service.store import ServiceJob
from checker.text.languages import LANGS

router = APIRouter(include_in_schema=False)
STATIC = Path(__file__).with_name("static")
UI_COOKIE = "checker_ui"
#: A year: the pages' language and the CSRF token outlive a browser session.
_COOKIE_AGE = 365 * 24 * 3600


def _lang(request: Request) -> str:
    return ui.choose(
        request.query_params.get("ui"),
        request.cookies.get(UI_COOKIE),
        request.headers.get("accept-language"),
    )


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    lang = _lang(request)
    token = request.cookies.get(csrf.COOKIE) or csrf.new_token()
    service = request.app.state.service
    try:
        user = service.owner(request)
    except limits.Refused:
        user = None
    html = (
        ui.environment(lang)
        .get_template(template)
        .render(
            ui_lang=lang,
            ui_langs=LANGS,
            path=request.url.path,
            csrf_field=csrf.FIELD,
            csrf_token=token,
            user=user,
            site_built={
                lang: (service.config.site / lang / "index.html").is_file() for lang in LANGS
            },
            **context,
        )
    )
    response = HTMLResponse(html, status_code=status)
    secure = request.url.scheme == "https"
    response.set_cookie(
        csrf.COOKIE, token, max_age=_COOKIE_AGE, httponly=True, samesite="strict", secure=secure
    )
    if request.query_params.get("ui") in LANGS:
        response.set_cookie(UI_COOKIE, lang, max_age=_COOKIE_AGE, samesite="lax", secure=secure)
    return response


def error_page(request: Request, refused: limits.Refused) -> Response:
    """The refusal in the page's language."""
    return render(
        request,
        "error.html",
        status=refused.status,
        status_code=refused.status,
        message=refused.message_in(_lang(request)),
    )


def _check_csrf(request: Request, submitted: str | None) -> None:
    if not csrf.valid(request.cookies.get(csrf.COOKIE), submitted):
        raise limits.Refused(
            limits.FORBIDDEN, "the form expired or came from another site: reload it and submit"
        )
    request.state.csrf = submitted  # the sign-in cookie's check (Service.owner) reads it


@router.get("/", response_class=HTMLResponse)
def article_form(request: Request) -> Response:
    return render(request, "article.html", langs=submissions.ARTICLE_LANGS)


@router.post("/check")
async def article_submit(
    request: Request,
    *,
    csrf_token: Annotated[str | None, Form(alias=csrf.FIELD)] = None,
    file: Annotated[UploadFile | None, File()] = None,
    text: Annotated[str | None, Form()] = None,
    lang: Annotated[str, Form()] = "auto",
    run: Annotated[bool, Form()] = False,
) -> Response:
    _check_csrf(request, csrf_token)
    service = request.app.state.service
    raw, name = await read_upload(file, text, service.config.limits.upload_bytes)
    job = await run_in_threadpool(service.accept_article, request, raw, name, lang, run)
    return RedirectResponse(f"/results/{job.id}", status_code=303)


@router.get("/translate", response_class=HTMLResponse)
def translation_form(request: Request) -> Response:
    return render(request, "translation.html", langs=submissions.TRANSLATION_LANGS)


@router.post("/translate")
async def translation_submit(
    request: Request,
    *,
    lang: Annotated[str, Form()],
    csrf_token: Annotated[str | None, Form(alias=csrf.FIELD)] = None,
    file: Annotated[UploadFile | None, File()] = None,
    msgid: Annotated[str | None, Form()] = None,
    msgstr: Annotated[str | None, Form()] = None,
) -> Response:
    _check_csrf(request, csrf_token)
    service = request.app.state.service
    if file is None or not file.filename:
        raw = submissions.one_message(msgid or "", msgstr or "", lang, service.config.limits)
        name = None
    else:
        raw, name = await read_upload(file, None, service.config.limits.upload_bytes)
    job = await run_in_threadpool(service.accept_translation, request, raw, name, lang)
    return RedirectResponse(f"/results/{job.id}", status_code=303)


@router.get("/results/{job_id}", response_class=HTMLResponse)
def result_page(request: Request, job_id: str) -> Response:
    job: ServiceJob | None = request.app.state.service.job(job_id)
    if job is None:
        return error_page(
            request,
            limits.Refused(
                limits.NOT_FOUND, "no check {job} (unknown or expired)", job=repr(job_id[:40])
            ),
        )
    service = request.app.state.service
    context: dict[str, Any] = {
        "job": job,
        "lines": [],
        "entries": [],
        "errors": [],
        "position": service.store.position(job) if job.status == "queued" else None,
        "shown_lang": _shown_lang(job),
    }
    if job.status == "done" and job.result is not None:
        if job.kind == "scan":
            lang, root = _lang(request), service.config.root
            findings = [
                {
                    **f,
                    "view": evidence_view(f.get("measured"), lang, root),
                    "shown": said_in(f, lang, root),
                }
                for f in job.result["findings"]
            ]
            context["lines"] = scan_lines(job.content, findings, job.suffix)
            context["errors"] = job.result["summary"]["errors"]
        else:
            lang, root = _lang(request), service.config.root
            findings = [{**f, "shown": said_in(f, lang, root)} for f in job.result["findings"]]
            context["entries"] = translation_entries(job.content, job.lang, findings)
    return render(request, "result.html", **context)


def _shown_lang(job: ServiceJob) -> str:
    """The article's language: the one chosen, else the one its findings were read in."""
    if job.lang != "auto" or job.result is None or job.kind != "scan":
        return job.lang
    found = Counter(str(f["lang"]) for f in job.result.get("findings", ()))
    return found.most_common(1)[0][0] if found else job.lang


#: The preview is a page of the site: its styles are inline too; scripts stay our own only.
PREVIEW_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)


@router.get("/results/{job_id}/preview/{rest:path}")
def preview_page(request: Request, job_id: str, rest: str) -> Response:
    """The translated page a check built (:mod:`checker.service.preview`); anything else it
    links to relatively (styles, scripts, images, other pages) from the served site of its
    language."""
    service = request.app.state.service
    job: ServiceJob | None = service.job(job_id)
    result = job.result if job is not None and job.kind == "translation" else None
    if job is None or not result or not result.get("preview"):
        return error_page(
            request,
            limits.Refused(
                limits.NOT_FOUND,
                "no preview for check {job} (unknown, expired or not built)",
                job=repr(job_id[:40]),
            ),
        )
    headers = {"Content-Security-Policy": PREVIEW_POLICY}
    if rest == f"{result['page']}.html":
        built = preview.preview_file(service.config, job.id)
        if built.is_file():
            return FileResponse(built, media_type="text/html", headers=headers)
    site = (service.config.site / job.lang).resolve()
    target = (site / rest).resolve()
    if target.is_relative_to(site) and target.is_file():
        return FileResponse(target, headers=headers)
    return error_page(
        request,
        limits.Refused(limits.NOT_FOUND, "{path} is not part of the preview", path=repr(rest[:80])),
    )


def _operations(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The operations of an OpenAPI document, as the reference page lists them."""
    found = []
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            content: dict[str, Any] = operation.get("requestBody", {}).get("content", {})
            first: dict[str, Any] = next(iter(content.values()), {})
            form: dict[str, Any] = first.get("schema", {})
            if "$ref" in form:
                form = spec["components"]["schemas"][form["$ref"].rpartition("/")[2]]
            required = set(form.get("required", ()))
            fields = [
                {"name": name, "required": name in required, "description": f.get("description")}
                for name, f in form.get("properties", {}).items()
            ]
            answers = []
            for status, answer in sorted(operation.get("responses", {}).items()):
                media: dict[str, Any] = answer.get("content", {})
                medium: dict[str, Any] = next(iter(media.values()), {})
                schema: dict[str, Any] = medium.get("schema", {})
                model = schema.get("$ref", "").rpartition("/")[2] or None
                answers.append(
                    {"status": status, "description": answer.get("description"), "model": model}
                )
            found.append(
                {
                    "method": method.upper(),
                    "path": path,
                    "anchor": f"{method}-{path}".replace("/", "-").strip("-"),
                    "summary": (operation.get("description") or operation.get("summary") or "")
                    .replace("``", "")
                    .strip(),
                    "fields": fields,
                    "answers": answers,
                }
            )
    return found


@router.get("/api/docs", response_class=HTMLResponse)
def api_reference(request: Request) -> Response:
    """The API's reference, rendered here from its OpenAPI document: no script, so the
    pages' content security policy holds (Swagger UI needs inline script or a CDN)."""
    return render(request, "api_docs.html", operations=_operations(request.app.openapi()))


@router.get("/claims", response_class=HTMLResponse)
def claims_page(request: Request) -> Response:
    return render(
        request, "claims.html", claims=claims_index(request.app.state.service.config.root)
    )


@router.get("/docs/{lang}/{rest:path}", response_class=HTMLResponse)
def docs(request: Request, lang: str, rest: str) -> Response:
    """The built site of ``lang``, as soon as it is built (a build after ``serve`` started
    is served without a restart); a page that says how to build it until then."""
    service = request.app.state.service
    if lang not in LANGS or not (service.config.site / lang / "index.html").is_file():
        return render(request, "docs_missing.html", status=404, docs_lang=lang[:5])
    site = (service.config.site / lang).resolve()
    target = (site / rest).resolve()
    if target.is_dir():
        target = target / "index.html"
    if target.is_relative_to(site) and target.is_file():
        return FileResponse(target)
    raise limits.Refused(limits.NOT_FOUND, "no such address: {path}", path=request.url.path)


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request) -> Response:
    return render(request, "login.html")


@router.post("/login")
def login(
    request: Request,
    token: Annotated[str, Form()],
    csrf_token: Annotated[str | None, Form(alias=csrf.FIELD)] = None,
) -> Response:
    _check_csrf(request, csrf_token)
    if auth.owner_of(request.app.state.service.store, token.strip()) is None:
        raise limits.Refused(limits.UNAUTHORIZED, "unknown or revoked token")
    response = RedirectResponse("/", status_code=303)
    response.set_cookie(
        "checker_token",
        token.strip(),
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )
    return response


@router.post("/logout")
def logout(
    request: Request, csrf_token: Annotated[str | None, Form(alias=csrf.FIELD)] = None
) -> Response:
    _check_csrf(request, csrf_token)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie("checker_token")
    return response
