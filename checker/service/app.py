"""The web application: :func:`create_app` wires the store, the queue, the limits and the
routes (:mod:`.api`, :mod:`.pages`); :class:`Service` is what both route modules call."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles

from checker.service import auth, csrf, errors, limits, preview, submissions
from checker.service.config import ServiceConfig
from checker.service.queue import Queue
from checker.service.store import ActiveLimit, ServiceJob, Store

TOKEN_COOKIE = "checker_token"
#: Methods that change nothing: a cookie alone authenticates them.
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def _check_cookie_request(request: Request) -> None:
    """A state-changing request authenticated by the token cookie: from this site's pages
    only (double-submit CSRF token, and the ``Origin`` when a browser names one)."""
    origin = request.headers.get("origin")
    if origin is not None and origin != f"{request.url.scheme}://{request.url.netloc}":
        raise limits.Refused(
            limits.FORBIDDEN,
            "a request from {origin} cannot use this site's sign-in: send the token as "
            "'Authorization: Bearer' instead",
            origin=repr(origin[:80]),
        )
    submitted = request.headers.get("x-csrf-token") or getattr(request.state, "csrf", None)
    if not csrf.valid(request.cookies.get(csrf.COOKIE), submitted):
        raise limits.Refused(
            limits.FORBIDDEN,
            "signed in by cookie, a request must repeat the form's CSRF token (field 'csrf' "
            "or header X-CSRF-Token); a script sends 'Authorization: Bearer' instead",
        )


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

    def describe(self, job: ServiceJob) -> dict[str, Any]:
        """What the API says about a job: :meth:`ServiceJob.public` and, while it is queued,
        its place in the line (1: next)."""
        position = self.store.position(job) if job.status == "queued" else None
        return {**job.public(), "position": position}

    def owner(self, request: Request) -> str | None:
        """The token's name for an authenticated request (``Authorization: Bearer`` or the
        cookie the login form set); ``None`` for an anonymous one. A wrong token is refused,
        and so is a request that changes state on the strength of the cookie alone: it must
        repeat the CSRF token (the form's field, or ``X-CSRF-Token``) and, when it names an
        ``Origin``, come from this site."""
        header = request.headers.get("authorization", "")
        token = header[7:].strip() if header.lower().startswith("bearer ") else None
        if token is None:
            token = request.cookies.get(TOKEN_COOKIE)
            if token is not None and request.method not in SAFE_METHODS:
                _check_cookie_request(request)
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
        if kind == "scan" and run_code:
            from checker.service.checks import snippet_count

            count = snippet_count(f"article{submission.suffix}", submission.text)
            limits.check_snippets(self.config.limits, count)
        self.purge()  # expired results go as new ones come
        try:
            job = self.store.add_job(
                kind,
                submission.lang,
                submission.name,
                submission.suffix,
                submission.text,
                run_code,
                owner,
                self.config.result_ttl_s,
                max_active=self.config.limits.jobs_per_token,
            )
        except ActiveLimit as exc:
            raise limits.too_many_active(self.config.limits, exc.active) from None
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
        docs_url=None,  # /api/docs is a page of ours (pages.api_reference): no script
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.service = service
    app.mount("/static", StaticFiles(directory=pages.STATIC), name="static")
    app.include_router(api.router)
    app.include_router(pages.router)

    errors.install(app, config.limits.upload_bytes, pages.error_page)

    @app.middleware("http")
    async def guard(request: Request, call_next: Any) -> Response:
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
