"""Refusals: every limit the service enforces is a :class:`Refused` with an HTTP status and a
sentence that says which limit and by how much."""

from __future__ import annotations

import threading
import time
from collections import deque

from checker.service.config import ServiceLimits
from checker.service.store import Store

BAD_REQUEST = 400
UNAUTHORIZED = 401
FORBIDDEN = 403
NOT_FOUND = 404
CONFLICT = 409
TOO_LARGE = 413
UNSUPPORTED = 415
UNPROCESSABLE = 422
TOO_MANY = 429


class Refused(Exception):
    """A submission the service does not accept; ``status`` is its HTTP status."""

    def __init__(self, status: int, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.line = status, message, line

    def public(self) -> dict[str, object]:
        found: dict[str, object] = {"error": self.message, "status": self.status}
        if self.line is not None:
            found["line"] = self.line
        return found


def check_size(limits: ServiceLimits, size: int) -> None:
    if size > limits.upload_bytes:
        raise Refused(
            TOO_LARGE, f"the submission has {size} bytes; the limit is {limits.upload_bytes}"
        )


def check_length(limits: ServiceLimits, chars: int) -> None:
    if chars > limits.article_chars:
        raise Refused(
            TOO_LARGE,
            f"the article has {chars} characters; the limit is {limits.article_chars}",
        )


def check_snippets(limits: ServiceLimits, snippets: int) -> None:
    if snippets > limits.snippets:
        raise Refused(
            TOO_LARGE,
            f"the article has {snippets} code snippets to run; the limit is {limits.snippets} "
            "(submit it without running code, or in parts)",
        )


def check_concurrency(limits: ServiceLimits, store: Store, owner: str) -> None:
    active = store.active_jobs(owner)
    if active >= limits.jobs_per_token:
        raise Refused(
            TOO_MANY,
            f"{active} of your checks are still queued or running; the limit is "
            f"{limits.jobs_per_token} at once: wait for one to finish",
        )


class RateLimiter:
    """At most ``limits.rate`` submissions per client in any ``limits.rate_window_s`` seconds
    (a sliding window, per web process)."""

    def __init__(self, limits: ServiceLimits) -> None:
        self.limits = limits
        self._seen: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def check(self, client: str) -> None:
        now = time.monotonic()
        with self._lock:
            seen = self._seen.setdefault(client, deque())
            while seen and seen[0] <= now - self.limits.rate_window_s:
                seen.popleft()
            if len(seen) >= self.limits.rate:
                wait = seen[0] + self.limits.rate_window_s - now
                raise Refused(
                    TOO_MANY,
                    f"more than {self.limits.rate} submissions in "
                    f"{self.limits.rate_window_s:g} s: try again in {wait:.0f} s",
                )
            seen.append(now)
