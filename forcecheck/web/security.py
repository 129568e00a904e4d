"""Secrets of the desk: the organiser's token, players' edit tokens, sessions and CSRF.

Tokens are never stored: only their SHA-256 (a token is 256 random bits, so a plain hash is
enough; no password stretching needed), and comparisons are constant-time (``hmac.compare_digest``)
so timing tells an attacker nothing about how much of a guess was right.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time

EDIT_TOKEN_BYTES = 32
SESSION_SECONDS = 12 * 3600
"""An organiser's browser session lasts a tournament day."""


def new_token() -> str:
    """An unguessable token (256 bits, URL-safe)."""
    return secrets.token_urlsafe(EDIT_TOKEN_BYTES)


def new_id(nbytes: int = 9) -> str:
    """A short random id for events and registrations (not a secret, but not guessable either)."""
    return secrets.token_urlsafe(nbytes)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(given: str | None, stored_hash: str) -> bool:
    """Constant-time: does ``given`` hash to ``stored_hash``?"""
    if not given:
        return False
    return hmac.compare_digest(token_hash(given), stored_hash)


class Signer:
    """HMAC signatures with a server key: organiser session cookies and CSRF tokens."""

    def __init__(self, key: str):
        self._key = key.encode("utf-8")

    def sign(self, *parts: str) -> str:
        return hmac.new(self._key, "\x1f".join(parts).encode("utf-8"), hashlib.sha256).hexdigest()

    def valid(self, signature: str | None, *parts: str) -> bool:
        return bool(signature) and hmac.compare_digest(signature, self.sign(*parts))


class Organiser:
    """Who the organiser is: whoever holds FORCECHECK_ADMIN_TOKEN. Only its hash is kept."""

    def __init__(self, admin_token: str, signer: Signer):
        if not admin_token:
            raise ValueError("the organiser token must not be empty")
        self.token_hash = token_hash(admin_token)
        self.signer = signer

    def bearer_ok(self, authorization: str | None) -> bool:
        if not authorization:
            return False
        scheme, _, value = authorization.partition(" ")
        return scheme.lower() == "bearer" and token_matches(value.strip(), self.token_hash)

    def new_session(self, now: float | None = None) -> str:
        """A session cookie value: issue time + signature (bound to the current admin token, so
        changing FORCECHECK_ADMIN_TOKEN ends every session)."""
        issued = str(int(now if now is not None else time.time()))
        return issued + "." + self.signer.sign("organiser-session", issued, self.token_hash)

    def session_ok(self, cookie: str | None, now: float | None = None) -> bool:
        if not cookie or "." not in cookie:
            return False
        issued, _, signature = cookie.partition(".")
        if not issued.isdigit() or not self.signer.valid(signature, "organiser-session", issued, self.token_hash):
            return False
        return 0 <= (now if now is not None else time.time()) - int(issued) < SESSION_SECONDS


class Csrf:
    """Signed double-submit CSRF protection: a random cookie, and in every form the HMAC of it.
    A page of another site can make the browser send the cookie, but cannot read it to sign."""

    COOKIE = "fc_csrf"
    FIELD = "csrf"

    def __init__(self, signer: Signer):
        self.signer = signer

    @staticmethod
    def new_cookie() -> str:
        return secrets.token_urlsafe(24)

    def form_token(self, cookie: str) -> str:
        return self.signer.sign("csrf", cookie)

    def ok(self, cookie: str | None, field: str | None) -> bool:
        return bool(cookie) and self.signer.valid(field, "csrf", cookie)
