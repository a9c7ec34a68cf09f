"""The web application: :func:`create_app` wires the store, the queue, the limits and the
routes (:mod:`.api`, :mod:`.pages`); :class:`Service` is what both route modules call."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from checker.service import auth, limits, preview, submissions
from checker.service.config import ServiceConfig
from checker.service.queue import Queue
from checker.service.store import ServiceJob, Store
from checker.text.languages import LANGS

TOKEN_COOKIE = "checker_token"


@dataclass
class Service:
    config: ServiceConfig
    store: Store
    queue: Queue
    rate: limits.RateLimiter = field(init=False)

    def __post_init__(self) -> None:
        self.rate = limits.RateLimiter(self.config.limits)

    def purge(self) -> None:
        """Forget expired results, and the previews built for them."""
        self.store.purge()
        preview.prune(self.config, self.store.job_ids())

    def job(self, job_id: str) -> ServiceJob | None:
        """The job with what workers reported so far; ``None`` when unknown or expired."""
        job = self.store.job(job_id)
        if job is not None and not job.finished:
            self.queue.collect(job_id)
            job = self.store.job(job_id)
        return job

    def owner(self, request: Request) -> str | None:
        """The token's name for an authenticated request (``Authorization: Bearer`` or the
        cookie the login form set); ``None`` for an anonymous one. A wrong token is refused."""
        header = request.headers.get("authorization", "")
        token = header[7:].strip() if header.lower().startswith("bearer ") else None
        token = token or request.cookies.get(TOKEN_COOKIE)
        if token is None:
            return None
        owner = auth.owner_of(self.store, token)
        if owner is None:
            raise limits.Refused(limits.UNAUTHORIZED, "unknown or revoked token")
        return owner

    def client(self, request: Request, owner: str | None) -> str:
        if owner is not None:
            return f"token:{owner}"
        return f"address:{request.client.host if request.client else 'unknown'}"

    def accept_article(
        self, request: Request, raw: bytes, name: str | None, lang: str, run_code: bool
    ) -> ServiceJob:
        """Validate an article and submit it (blocking: called in a worker thread)."""
        owner = self.owner(request)
        submission = submissions.article(raw, name, lang, self.config.limits)
        return self.submit("scan", submission, run_code, owner, self.client(request, owner))

    def accept_translation(
        self, request: Request, raw: bytes, name: str | None, lang: str
    ) -> ServiceJob:
        """Validate a catalog and submit it (blocking: called in a worker thread)."""
        owner = self.owner(request)
        submission = submissions.translation(raw, name, lang, self.config.limits)
        return self.submit("translation", submission, False, owner, self.client(request, owner))

    def submit(
        self,
        kind: str,
        submission: submissions.Submission,
        run_code: bool,
        owner: str | None,
        client: str,
    ) -> ServiceJob:
        """Check the limits, store the job, queue it."""
        if run_code and owner is None:
            raise limits.Refused(
                limits.UNAUTHORIZED,
                "running code needs a token (python -m checker serve --create-token NAME); "
                "without one, submit a prose-only check",
            )
        self.rate.check(client)
        if owner is not None:
            limits.check_concurrency(self.config.limits, self.store, owner)
        if kind == "scan" and run_code:
            from checker.service.checks import snippet_count

            count = snippet_count(f"article{submission.suffix}", submission.text)
            limits.check_snippets(self.config.limits, count)
        self.purge()  # expired results go as new ones come
        job = self.store.add_job(
            kind,
            submission.lang,
            submission.name,
            submission.suffix,
            submission.text,
            run_code,
            owner,
            self.config.result_ttl_s,
        )
        self.queue.enqueue(job)
        return job


def create_app(config: ServiceConfig, queue: Queue | None = None) -> FastAPI:
    from checker.service import api, pages

    queue = queue or Queue(config)
    service = Service(config, queue.store, queue)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        stop = queue.collector()  # results of jobs nobody asks about reach the store too
        try:
            yield
        finally:
            stop.set()

    app = FastAPI(
        lifespan=lifespan,
        title="checker service",
        summary="Check articles about PyTorch and translations of the docs",
        version="1",
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.service = service
    # the built sites first: the pages' /docs/{lang}/ route only answers where none is built
    for lang in LANGS:
        built = config.site / lang
        if (built / "index.html").is_file():
            app.mount(f"/docs/{lang}", StaticFiles(directory=built, html=True), name=f"docs-{lang}")
    app.mount("/static", StaticFiles(directory=pages.STATIC), name="static")
    app.include_router(api.router)
    app.include_router(pages.router)

    @app.exception_handler(limits.Refused)
    async def refused(request: Request, exc: limits.Refused) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse(exc.public(), status_code=exc.status)
        return pages.error_page(request, exc)

    @app.middleware("http")
    async def guard(request: Request, call_next: Any) -> Response:
        length = request.headers.get("content-length")
        # the multipart envelope adds a little to the limit on the content itself
        if length and length.isdigit() and int(length) > config.limits.upload_bytes + 64 * 1024:
            exc = limits.Refused(
                limits.TOO_LARGE,
                "the request has {size} bytes; the limit is {limit}",
                size=length,
                limit=config.limits.upload_bytes,
            )
            return JSONResponse(exc.public(), status_code=exc.status)
        response: Response = await call_next(request)
        if not request.url.path.startswith("/docs/"):  # the built site has its own scripts
            response.headers.setdefault(
                "Content-Security-Policy",
                "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                "object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
            )
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response

    service.purge()
    return app
