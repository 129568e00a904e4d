"""What every route asks once, decided in one place (FastAPI dependencies and the rules behind
them): JSON or a page, the desk, who the organiser is, the CSRF-checked form, the client's
allowance of checks, and when the request arrived.

Routes declare these (``Depends``) and hold no such rule themselves.
"""

from __future__ import annotations

import logging
import math
from datetime import datetime
from typing import Any

from fastapi import Request

from forcecheck.web.desk import N_, Desk, DeskError, Unauthorized
from forcecheck.web.security import CSRF_COOKIE, ORGANISER_COOKIE, Csrf, bearer_token

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
EXPIRED = N_("This form had expired (or came from another site); nothing was saved. Check your list below and press the button again.")


def wants_json(scope) -> bool:
    """The one answer to "JSON or a page?": the API under /api answers JSON (errors as
    ``{"detail": ...}``), everything else is a page for people."""
    path = scope["path"]
    return path == "/api" or path.startswith("/api/")


class NeedsOrganiser(Exception):
    """A page for organisers opened without a session: go and log in."""

    def __init__(self, next_path: str):
        self.next_path = next_path


class FormExpired(DeskError):
    """A form whose CSRF token does not match its cookie: nothing is done."""

    status = 403


class TooManyRequests(DeskError):
    status = 429

    PAGE = {
        "browser": N_("Too many checks and submissions from this browser: wait {seconds} s and press the button again "
                      "(nothing was saved; your list is kept below)."),
        "address": N_("The desk has had too many checks and submissions from your network just now: wait {seconds} s and "
                      "press the button again (nothing was saved; your list is kept below)."),
        "client": N_("Too many checks and submissions from your address: wait {seconds} s and press the button again "
                     "(nothing was saved; your list is kept below)."),
    }
    API = {
        "browser": "too many checks and submissions from this session: try again in {seconds} s",
        "address": "too many checks and submissions from your network's address: try again in {seconds} s",
        "client": "too many checks and submissions from your address: try again in {seconds} s",
    }

    def __init__(self, retry_after: int, page: bool, whose: str = "client"):
        super().__init__((self.PAGE if page else self.API)[whose], seconds=retry_after)
        self.retry_after = retry_after


def desk(request: Request) -> Desk:
    return request.app.state.desk


def arrived(request: Request) -> datetime:
    """When the request arrived (its headers read), on the desk's clock: what the deadline is
    compared with, however long the request then waited inside the desk."""
    return request.scope["state"]["arrived"]


def client_address(request: Request) -> str:
    """The client's address: the peer's, or, from a proxy trusted by ``--forwarded-allow-ips``,
    the one it names (uvicorn's proxy headers). What the allowances and the organiser's door count."""
    return request.client.host if request.client else "unknown"


def is_organiser(request: Request) -> bool:
    """The organiser token as a Bearer header (through the organiser's door); or the organiser's
    session cookie where a cross-site request cannot use it: a reading call, or a page's form (its
    CSRF token is checked by :func:`checked_form`). The API's writing calls need the token itself."""
    if bearer_ok(request):
        return True
    if request.method not in SAFE_METHODS and wants_json(request.scope):
        return False
    return request.app.state.organiser.session_ok(request.cookies.get(ORGANISER_COOKIE))


_BEARER_TRIED = "organiser_bearer"


def bearer_ok(request: Request) -> bool:
    """Whether the request's ``Authorization: Bearer`` is the organiser token, asked once per
    request (the guard and the page's menu ask again: one try, counted once). WrongTokens (429)
    when its address must wait or is locked out."""
    state = request.scope.setdefault("state", {})
    if _BEARER_TRIED not in state:
        state[_BEARER_TRIED] = False  # a refusal answers False to whoever asks again (the error page's menu)
        state[_BEARER_TRIED] = organiser_token_ok(request, bearer_token(request.headers.get("authorization")), "api")
    return state[_BEARER_TRIED]


class WrongTokens(DeskError):
    """Too many wrong organiser tokens from one address (forcecheck.web.door): a wait, or a lock-out."""

    status = 429

    PAGE = {
        False: N_("Too many wrong organiser tokens from your address: wait {seconds} s and try again."),
        True: N_("Too many wrong organiser tokens from your address: it is locked out for {minutes} minutes (try again in "
                 "{seconds} s). The organiser can still log in from another network."),
    }
    API = {
        False: "too many wrong organiser tokens from your address: try again in {seconds} s",
        True: "too many wrong organiser tokens from your address: it is locked out of the organiser's calls for {minutes} min; "
              "try again in {seconds} s",
    }

    def __init__(self, retry_after: int, locked: bool, page: bool):
        super().__init__((self.PAGE if page else self.API)[locked], seconds=retry_after, minutes=math.ceil(retry_after / 60))
        self.retry_after = retry_after


_door_log = logging.getLogger("forcecheck.desk")


def organiser_token_ok(request: Request, token: str | None, via: str) -> bool:
    """One try of the organiser token (``via``: ``api`` for a Bearer header, ``login`` for the
    login page), through the organiser's door: per client address and overall, a wait then a
    lock-out (429, WrongTokens) after wrong ones. No token (none given, another scheme) is no try.
    Each wait's start and lock-out is written to the audit log and the desk's log with the
    address and the counts, never the token tried."""
    if not token:
        return False
    organiser = request.app.state.organiser
    outcome = request.app.state.door.attempt(client_address(request), arrived(request).timestamp(),
                                             lambda: organiser.token_ok(token))
    for event in outcome.events:
        action = event.pop("action")
        detail = {**event, "via": via}
        request.app.state.desk.store.log("desk", action, None, None, detail)
        _door_log.log(logging.INFO if action == "organiser.backoff" else logging.WARNING, "forcecheck serve: organiser door: %s %s",
                      action.partition(".")[2], ", ".join(f"{k}={v}" for k, v in detail.items()))
    if outcome.shut:
        raise WrongTokens(outcome.shut.retry_after, outcome.shut.locked, page=not wants_json(request.scope))
    return outcome.ok


def organiser(request: Request) -> None:
    """The organiser guard: 401 on the API, the login page for a page."""
    if is_organiser(request):
        return
    if wants_json(request.scope):
        raise Unauthorized("this call needs the organiser token: Authorization: Bearer <FORCECHECK_ADMIN_TOKEN>")
    raise NeedsOrganiser(request.url.path + (f"?{request.url.query}" if request.url.query else ""))


async def checked_form(request: Request):
    """The posted form (size-limited), its CSRF token checked against the browser's cookie.
    The form is kept on the request, so an error page can show what was typed."""
    form = await request.form(max_part_size=request.app.state.config.body_limit)
    request.state.form = form
    if not request.app.state.csrf.ok(request.cookies.get(CSRF_COOKIE), form.get(Csrf.FIELD)):
        raise FormExpired(EXPIRED)
    return form


def form_values(request: Request) -> dict[str, Any]:
    """What a posted form held (text fields), for the page shown again after an error."""
    form = getattr(request.state, "form", None)
    if form is None:
        return {}
    return {k: v for k, v in form.items() if isinstance(v, str) and k != Csrf.FIELD}


MAX_IN_FLIGHT = 1024
"""Checks and submissions one process holds at once (running or waiting for a thread), about
four seconds of work: past it, 503 with a spread Retry-After instead of an ever longer queue."""
BUSY_RETRY = 5
IN_FLIGHT = [0]
"""This process's checks and submissions in flight (changed on the event loop's thread only)."""


class Busy(DeskError):
    status = 503

    def __init__(self, retry_after: int, page: bool):
        super().__init__(N_("The desk is busy with other players' lists just now: wait {seconds} s and press the button again "
                            "(nothing was saved; your list is kept below).") if page else
                         "the desk is busy with other lists just now; nothing was done: try again in {seconds} s", seconds=retry_after)
        self.retry_after = retry_after


async def allowance(request: Request):
    """A check or a submission spends its allowances (limits.ClientLimits): the browser's (its
    session cookie) within its address's room bound, or, for a client without one, its address's;
    over either, 429. The page's live check while typing (``X-Desk-Live``) spends its own.
    Past ``MAX_IN_FLIGHT`` checks and submissions held by this process, 503 (``Busy``).
    Runs on the event loop's thread (the shared table's locks are per process)."""
    limits = request.app.state.limits
    if IN_FLIGHT[0] >= MAX_IN_FLIGHT:  # the whole process's queue of work, whoever asks: a flood of many addresses
        from forcecheck.web.limits import spread

        limits.count(503, arrived(request).timestamp())
        raise Busy(spread(BUSY_RETRY), page=not wants_json(request.scope))
    if limits.enabled:
        _spend(request, limits)
    IN_FLIGHT[0] += 1
    try:
        yield
    finally:
        IN_FLIGHT[0] -= 1


def _spend(request: Request, limits) -> None:
    from forcecheck.web.limits import Refused

    client = client_address(request)
    session = request.cookies.get(CSRF_COOKIE) or None
    size = request.scope["state"].get("body_bytes", 0)
    try:
        limits.take(client, size, arrived(request).timestamp(), session=session[:64] if session else None,
                    live=request.headers.get("x-desk-live") == "1")
    except Refused as refused:
        raise TooManyRequests(refused.retry_after, page=not wants_json(request.scope), whose=refused.whose) from None