"""Refusals: every limit the service enforces is a :class:`Refused` with an HTTP status and a
sentence that says which limit and by how much.

A refusal's sentence is a message of the service's gettext domain: its English is a literal
template whose ``{fields}`` the values fill (:func:`checker.service.ui.messages` extracts
every ``Refused(...)`` template from the service's code), so the API answers in English and a
page shows it in the page's language."""

from __future__ import annotations

import threading
import time
from collections import deque

from checker.service.config import ServiceLimits

BAD_REQUEST = 400
UNAUTHORIZED = 401
FORBIDDEN = 403
NOT_FOUND = 404
METHOD_NOT_ALLOWED = 405
TOO_LARGE = 413
UNSUPPORTED = 415
UNPROCESSABLE = 422
TOO_MANY = 429


class Refused(Exception):
    """A submission the service does not accept; ``status`` is its HTTP status, ``template``
    the English sentence with ``{fields}`` that ``values`` fill."""

    def __init__(
        self, status: int, template: str, line: int | None = None, **values: object
    ) -> None:
        self.status, self.template, self.line = status, template, line
        self.values = {name: str(value) for name, value in values.items()}
        self.message = template.format(**self.values)
        super().__init__(self.message)

    def message_in(self, lang: str) -> str:
        """The sentence in ``lang`` (its English where the translation is missing or broken)."""
        from checker.service import ui

        translated = ui.translations(lang).gettext(self.template)
        try:
            return translated.format(**self.values)
        except (KeyError, IndexError, ValueError):
            return self.message

    def public(self) -> dict[str, object]:
        found: dict[str, object] = {"error": self.message, "status": self.status}
        if self.line is not None:
            found["line"] = self.line
        return found


def check_size(limits: ServiceLimits, size: int) -> None:
    if size > limits.upload_bytes:
        raise Refused(
            TOO_LARGE,
            "the submission has {size} bytes; the limit is {limit}",
            size=size,
            limit=limits.upload_bytes,
        )


def check_length(limits: ServiceLimits, chars: int) -> None:
    if chars > limits.article_chars:
        raise Refused(
            TOO_LARGE,
            "the article has {chars} characters; the limit is {limit}",
            chars=chars,
            limit=limits.article_chars,
        )


def check_snippets(limits: ServiceLimits, snippets: int) -> None:
    if snippets > limits.snippets:
        raise Refused(
            TOO_LARGE,
            "the article has {snippets} code snippets to run; the limit is {limit} "
            "(submit it without running code, or in parts)",
            snippets=snippets,
            limit=limits.snippets,
        )


def too_many_active(limits: ServiceLimits, active: int) -> Refused:
    """The refusal of a token's job past its limit (the store counts, atomically)."""
    return Refused(
        TOO_MANY,
        "{active} of your checks are still queued or running; the limit is "
        "{limit} at once: wait for one to finish",
        active=active,
        limit=limits.jobs_per_token,
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
                    "more than {rate} submissions in {window} s: try again in {wait} s",
                    rate=self.limits.rate,
                    window=f"{self.limits.rate_window_s:g}",
                    wait=f"{wait:.0f}",
                )
            seen.append(now)
