"""Tokens: ``python -m checker serve --create-token NAME`` prints a new secret once; the store
keeps only its SHA-256 (a token is 32 random bytes, so a plain hash cannot be guessed back)."""

from __future__ import annotations

import hashlib
import re
import secrets

from checker.service.store import Store

#: Token names: what ``--create-token`` accepts (they are shown on pages and in logs).
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_PREFIX = "chk_"


class TokenError(ValueError):
    pass


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def create_token(store: Store, name: str) -> str:
    """A new token for ``name``; the secret is returned once and never stored."""
    if not NAME.match(name):
        raise TokenError(
            f"token name {name!r}: use 1-64 letters, digits, '.', '_' or '-', starting with a "
            "letter or digit"
        )
    token = _PREFIX + secrets.token_urlsafe(32)
    if not store.add_token(name, digest(token)):
        raise TokenError(f"a token named {name!r} exists already")
    return token


def owner_of(store: Store, token: str | None) -> str | None:
    """The name a token was created for; ``None`` for no token or an unknown one."""
    if not token or not token.startswith(_PREFIX) or len(token) > 128:
        return None
    return store.token_owner(digest(token))
