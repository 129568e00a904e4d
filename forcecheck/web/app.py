"""The desk's ASGI application: FastAPI wiring, request limits, security headers, error answers.

``create_app(DeskConfig(...))`` opens the store (running its migrations), and mounts the JSON
API (``routes_api``) and the server-rendered pages (``routes_pages``). Everything a route
decides is in ``desk.Desk``; what every route asks (JSON or page, organiser, CSRF form, the
client's allowance, arrival time) is in ``deps``.

Around the whole application (outside FastAPI's own error middleware, so that every answer
passes through it, refusals and internal errors included) ``middleware.Guard`` stamps each
request's arrival time and adds the security headers, and ``middleware.BodyLimit`` refuses
bodies over the limit.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from forcecheck import __version__
from forcecheck.web.deps import NeedsOrganiser, wants_json
from forcecheck.web.desk import N_, Desk, DeskError
from forcecheck.web.middleware import BodyLimit, Guard

MAX_BODY_BYTES = 2 * 1024 * 1024
"""Requests carry a decklist or a form: anything over 2 MiB is refused (413) before it is parsed."""
DEFAULT_CLIENT_LIMIT = 60
"""Checks and submissions a client may make per minute (burst and sustained; limits.ClientLimits)."""
RETRY_UNAVAILABLE = 5
"""Seconds a client is asked to wait when the database cannot be reached or written."""
UNAVAILABLE = "the desk cannot reach or write its database just now; nothing was saved: try again in a moment"
PAGE_UNAVAILABLE = N_("The desk cannot reach or write its database just now, so nothing was saved. "
                      "Please try again in a moment: your browser's Back button keeps what you typed.")
PAGE_INTERNAL = N_("Something went wrong inside the desk; nothing was saved. Please try again.")

HERE = Path(__file__).parent


@dataclass
class DeskConfig:
    db_url: str
    admin_token: str
    checker: Any = None
    """The api.Checker the desk checks through (``serve`` builds it over its Session); None: one
    built from ``catalog`` and ``format_dirs`` with the settings found in the working directory."""
    catalog: str | None = None
    format_dirs: tuple[str, ...] = ()
    secure_cookies: bool = False
    """Served over HTTPS (directly or behind a proxy): cookies are Secure and every answer says
    Strict-Transport-Security."""
    public_url: str | None = None
    """The address people use (``serve --public-url``): every link is built from it; without
    it links are relative. Never taken from the request's Host header."""
    client_limit: int = DEFAULT_CLIENT_LIMIT
    address_limit: int | None = None
    """What all the browsers behind one address may spend together per minute (None: ``limits.ROOM_FACTOR`` times ``client_limit``)."""
    limits_path: str | None = None
    """The shared table of client allowances of several worker processes (made by ``serve``)."""
    door_path: str | None = None
    """The shared table of the organiser's door (wrong tokens per address) of several worker processes (made by ``serve``)."""
    body_limit: int = MAX_BODY_BYTES
    clock: object = field(default=None, repr=False)
    """A zero-argument callable giving the current UTC time (tests move it past deadlines)."""


class DeskApp(FastAPI):
    """FastAPI with the desk's outermost middleware (Guard, BodyLimit) around its whole stack."""

    def build_middleware_stack(self):
        config = self.state.config
        return Guard(BodyLimit(super().build_middleware_stack(), config.body_limit), self.state.desk.clock, config.secure_cookies)


def create_app(config: DeskConfig) -> FastAPI:
    from forcecheck.api import Checker
    from forcecheck.web.door import Door
    from forcecheck.web.limits import ClientLimits
    from forcecheck.web.pages import Links, Pages
    from forcecheck.web.routes_api import router as api_router
    from forcecheck.web.routes_pages import router as pages_router
    from forcecheck.web.security import Csrf, Organiser, Signer
    from forcecheck.web.storage import Store, StoreUnavailable

    store = Store(config.db_url)
    store.migrate()
    signer = Signer(store.secret("signing-key"))
    checker = config.checker or Checker(catalog=config.catalog, format_dirs=config.format_dirs)
    desk = Desk(store, checker, **({"clock": config.clock} if config.clock else {}))
    links = Links(config.public_url)

    @asynccontextmanager
    async def lifespan(_app):
        from forcecheck.web.floods import count_refused_connections, report_refused

        count_refused_connections()
        yield
        report_refused()
        desk.close()
        app.state.limits.close()
        app.state.door.close()

    app = DeskApp(
        lifespan=lifespan,
        title="forcecheck registration desk",
        version=__version__,
        description="Players submit decklists, organisers run the event. Organiser calls need "
                    "`Authorization: Bearer <FORCECHECK_ADMIN_TOKEN>`; a player's calls need the registration's `edit_token`. "
                    "Errors are `{\"detail\": \"...\"}`; 429 and 503 say when to try again (Retry-After).",
    )
    app.state.desk = desk
    app.state.config = config
    app.state.links = links
    app.state.organiser = Organiser(config.admin_token, store, desk.clock)
    app.state.csrf = Csrf(signer)
    app.state.pages = Pages(desk, app.state.csrf, config.secure_cookies, links)
    app.state.limits = ClientLimits(config.client_limit, config.limits_path, config.address_limit)
    app.state.door = Door(config.door_path)

    @app.exception_handler(DeskError)
    async def desk_error(request: Request, exc: DeskError):
        retry = getattr(exc, "retry_after", None)
        headers = {"Retry-After": str(retry)} if retry else {}
        if wants_json(request.scope):
            body = {"detail": exc.message}
            if exc.deck is not None:
                body["deck"] = exc.deck
            if exc.status == 401:
                headers["WWW-Authenticate"] = "Bearer"
            return JSONResponse(body, status_code=exc.status, headers=headers)
        refill = getattr(request.scope.get("endpoint"), "refill", None)
        if refill is not None and request.method == "POST":
            try:
                return await run_in_threadpool(refill, request, exc, headers)
            except StoreUnavailable:
                return unavailable(request)
            except DeskError as again:  # the page itself cannot be shown (no such event, not your registration)
                if again.status != exc.status and exc.status not in (403, 429):
                    exc = again
        return app.state.pages.error(request, exc.status, exc, headers)

    @app.exception_handler(StoreUnavailable)
    async def store_unavailable(request: Request, exc: StoreUnavailable):
        return unavailable(request)

    def unavailable(request: Request):
        from forcecheck.web.limits import spread

        app.state.limits.count(503, desk.clock().timestamp())
        headers = {"Retry-After": str(spread(RETRY_UNAVAILABLE))}
        if wants_json(request.scope):
            return JSONResponse({"detail": UNAVAILABLE}, status_code=503, headers=headers)
        return app.state.pages.error(request, 503, PAGE_UNAVAILABLE, headers)

    @app.exception_handler(NeedsOrganiser)
    async def needs_organiser(request: Request, exc: NeedsOrganiser):
        from urllib.parse import quote

        return RedirectResponse(links("/admin/login?next=" + quote(exc.next_path)), status_code=303)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError):
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'][1:]) or 'body'}: {e['msg']}" for e in exc.errors())
        return JSONResponse({"detail": f"invalid request: {problems}"}, status_code=422)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception):  # logged by the server; never a traceback to people
        if wants_json(request.scope):
            return JSONResponse({"detail": "internal error of the desk; nothing was saved"}, status_code=500)
        return app.state.pages.error(request, 500, PAGE_INTERNAL, None)

    app.include_router(api_router)
    app.include_router(pages_router)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    return app
