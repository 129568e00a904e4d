"""Secrets of the desk: the organiser's token, players' edit tokens, sessions, CSRF, cookie names.

Tokens are never stored: only their SHA-256 (a token is 256 random bits, so a plain hash is
enough; no password stretching needed), and comparisons are constant-time (``hmac.compare_digest``)
so timing tells an attacker nothing about how much of a guess was right.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

EDIT_TOKEN_BYTES = 32
SESSION_SECONDS = 12 * 3600
"""An organiser's browser session lasts a tournament day."""

ORGANISER_COOKIE = "fc_organiser"
"""The organiser's session cookie (the one name every part of the desk uses)."""
CSRF_COOKIE = "fc_csrf"
EDIT_COOKIE_PREFIX = "fc_edit_"
EDIT_COOKIE_DAYS = 60


def edit_cookie_name(registration_id: str) -> str:
    """The cookie that holds a player's edit token in the browser that registered."""
    return EDIT_COOKIE_PREFIX + registration_id


def new_token() -> str:
    """An unguessable token (256 bits, URL-safe)."""
    return secrets.token_urlsafe(EDIT_TOKEN_BYTES)


def new_id(nbytes: int = 9) -> str:
    """A short random id for events and registrations (not a secret, but not guessable either).
    It starts with a letter or digit: an id starting with ``-`` reads as an option on a command
    line, and a spreadsheet export guards such a cell as a formula (``'-...``), so it would no
    longer match the id. It ends with one too: a ``-`` ending a printed id reads as a word broken
    there (the deck sheet's text, read back, no longer held an id ending in ``-``)."""
    while True:
        value = secrets.token_urlsafe(nbytes)
        if value[0].isalnum() and value[-1].isalnum():
            return value


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(given: str | None, stored_hash: str) -> bool:
    """Constant-time: does ``given`` hash to ``stored_hash``?"""
    if not given:
        return False
    return hmac.compare_digest(token_hash(given), stored_hash)


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; None for no header, another
    scheme (a proxy's Basic login) or an empty token."""
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    return (value.strip() or None) if scheme.lower() == "bearer" else None


class Signer:
    """HMAC signatures with a server key: organiser session cookies and CSRF tokens."""

    def __init__(self, key: str):
        self._key = key.encode("utf-8")

    def sign(self, *parts: str) -> str:
        return hmac.new(self._key, "\x1f".join(parts).encode("utf-8"), hashlib.sha256).hexdigest()

    def valid(self, signature: str | None, *parts: str) -> bool:
        return bool(signature) and hmac.compare_digest(signature, self.sign(*parts))


class Organiser:
    """Who the organiser is: whoever holds FORCECHECK_ADMIN_TOKEN (only its hash is kept), by
    the Bearer header or a browser session. Sessions live in the desk's database (the cookie
    holds a random token, the database its hash), so logging out ends one on every desk, a day
    ends it, and a new organiser token ends them all."""

    def __init__(self, admin_token: str, store, clock):
        if not admin_token:
            raise ValueError("the organiser token must not be empty")
        self.token_hash = token_hash(admin_token)
        self.admin = token_hash("organiser-sessions:" + self.token_hash)
        self.store = store
        self.clock = clock

    def bearer_ok(self, authorization: str | None) -> bool:
        return self.token_ok(bearer_token(authorization))

    def token_ok(self, token: str | None) -> bool:
        """Is ``token`` the organiser token? (Constant-time; the organiser's door, ``deps``,
        decides first whether the client may try.)"""
        return token_matches(token, self.token_hash)

    def new_session(self) -> str:
        """A new session's cookie value (its hash is stored, with when it ends)."""
        from datetime import timedelta

        token = new_token()
        now = self.clock()
        self.store.open_session(token_hash(token), self.admin, now, now + timedelta(seconds=SESSION_SECONDS))
        return token

    def session_ok(self, cookie: str | None) -> bool:
        if not cookie or len(cookie) > 128:
            return False
        return self.store.session_valid(token_hash(cookie), self.admin, self.clock())

    def end_session(self, cookie: str | None) -> None:
        if cookie and len(cookie) <= 128:
            self.store.end_session(token_hash(cookie), self.clock())


class Csrf:
    """Signed double-submit CSRF protection: a random cookie, and in every form the HMAC of it.
    A page of another site can make the browser send the cookie, but cannot read it to sign."""

    COOKIE = CSRF_COOKIE
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
