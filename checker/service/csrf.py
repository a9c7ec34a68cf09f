"""CSRF protection for the forms: a random token in a ``SameSite=Strict`` cookie that each form
repeats in a hidden field (double submit); a POST whose two do not match is refused (403)."""

from __future__ import annotations

import hmac
import secrets

COOKIE = "checker_csrf"
FIELD = "csrf"


def new_token() -> str:
    return secrets.token_urlsafe(24)


def valid(cookie: str | None, submitted: str | None) -> bool:
    if not cookie or not submitted:
        return False
    return hmac.compare_digest(cookie.encode(), submitted.encode())
