"""Every error in one shape: ``{"error": sentence, "status": code}`` (with ``line`` where a
line is at fault) under ``/api/``, an HTML page in the user's language elsewhere; for the
service's own refusals (:class:`~.limits.Refused`), FastAPI's validation errors (422), unknown
routes (404), wrong methods (405) and bodies past the limit (413).

A body is counted as it arrives (:class:`BodyLimit`): a request whose ``Content-Length`` is
past the limit is refused before its body is read, and a chunked one as soon as the bytes
received pass it; nothing past the limit is read, spooled or parsed."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from checker.service import limits

#: What the multipart envelope may add to the limit on the content itself.
ENVELOPE_BYTES = 64 * 1024


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` when a body passes the limit (an HTTP exception, so FastAPI's
    body parsing lets it through)."""

    def __init__(self, received: int, limit: int) -> None:
        super().__init__(status_code=limits.TOO_LARGE)
        self.received, self.limit = received, limit


class BodyLimit:
    """ASGI middleware: at most ``limit`` bytes of body per request."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise BodyTooLarge(received, self.limit)
            return message

        for name, value in scope["headers"]:
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await self.app(scope, _refusing(int(value), self.limit), send)
                return
        await self.app(scope, counted, send)


def _refusing(size: int, limit: int) -> Receive:
    async def receive() -> Message:
        raise BodyTooLarge(size, limit)

    return receive


def body_refusal(exc: BodyTooLarge, upload_limit: int) -> limits.Refused:
    return limits.Refused(
        limits.TOO_LARGE,
        "the request has at least {size} bytes; the limit is {limit}",
        size=exc.received,
        limit=upload_limit,
    )


def _http_refusal(request: Request, exc: StarletteHTTPException) -> limits.Refused:
    if exc.status_code == limits.NOT_FOUND:
        return limits.Refused(limits.NOT_FOUND, "no such address: {path}", path=request.url.path)
    if exc.status_code == limits.METHOD_NOT_ALLOWED:
        return limits.Refused(
            limits.METHOD_NOT_ALLOWED,
            "{method} is not allowed at {path}",
            method=request.method,
            path=request.url.path,
        )
    return limits.Refused(exc.status_code, "the request was refused: {detail}", detail=exc.detail)


def _validation_refusal(exc: RequestValidationError) -> limits.Refused:
    problems = []
    for error in exc.errors():
        where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
        problems.append(f"{where}: {error.get('msg', 'invalid')}" if where else error["msg"])
    return limits.Refused(
        limits.UNPROCESSABLE, "invalid request: {problems}", problems="; ".join(problems)
    )


def install(app: FastAPI, upload_limit: int, page: Any) -> None:
    """The handlers that give every error the one shape; ``page(request, refused)`` renders
    a browser route's error page."""

    def answer(request: Request, refused: limits.Refused) -> Response:
        if request.url.path.startswith("/api/") or request.url.path == "/healthz":
            return JSONResponse(refused.public(), status_code=refused.status)
        response: Response = page(request, refused)
        return response

    @app.exception_handler(limits.Refused)
    async def refused(request: Request, exc: limits.Refused) -> Response:
        return answer(request, exc)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if isinstance(exc, BodyTooLarge):
            response = answer(request, body_refusal(exc, upload_limit))
            response.headers["Connection"] = "close"  # the rest of the body is not read
            return response
        return answer(request, _http_refusal(request, exc))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        return answer(request, _validation_refusal(exc))

    app.add_middleware(BodyLimit, limit=upload_limit + ENVELOPE_BYTES)
