"""The desk's ASGI application: FastAPI wiring, request limits, security headers, error pages.

``create_app(DeskConfig(...))`` opens the store (running its migrations), and mounts the JSON
API (``routes_api``) and the server-rendered pages (``routes_pages``). Everything a route
decides is in ``desk.Desk``.
"""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles

from forcecheck import __version__
from forcecheck.web.desk import Desk, DeskError

MAX_BODY_BYTES = 2 * 1024 * 1024
"""Requests carry a decklist or a form: anything over 2 MiB is refused (413) before it is parsed."""

HERE = Path(__file__).parent


@dataclass
class DeskConfig:
    db_url: str
    admin_token: str
    catalog: str | None = None
    format_dirs: tuple[str, ...] = ()
    secure_cookies: bool = False
    """Mark cookies Secure (set when the desk is served over HTTPS, e.g. behind a proxy)."""
    body_limit: int = MAX_BODY_BYTES
    clock: object = field(default=None, repr=False)
    """A zero-argument callable giving the current UTC time (tests move it past deadlines)."""


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes gets 413 before the app sees it,
    whether it announces its length or streams (chunked). The body is read here (at most
    ``limit`` bytes) and replayed to the app."""

    def __init__(self, app, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            return await self.app(scope, receive, send)
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    if int(value) > self.limit:
                        return await self._refuse(scope, send)
                except ValueError:
                    return await self._refuse(scope, send, 400, "bad Content-Length header")
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                return await self._refuse(scope, send)
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return await self.app(scope, replay, send)

    async def _refuse(self, scope, send, status: int = 413, message: str | None = None):
        text = message or f"request body over the {self.limit:,}-byte limit"
        if scope["path"].startswith("/api/"):
            body, kind = json.dumps({"detail": text}).encode(), b"application/json"
        else:
            body, kind = f"<!doctype html><title>{status}</title><p>{text}</p>".encode(), b"text/html; charset=utf-8"
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode()), (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


class NeedsOrganiser(Exception):
    """A page for organisers opened without a session: go and log in."""

    def __init__(self, next_path: str):
        self.next_path = next_path


def create_app(config: DeskConfig) -> FastAPI:
    from forcecheck.api import Checker
    from forcecheck.web.pages import Pages
    from forcecheck.web.routes_api import router as api_router
    from forcecheck.web.routes_pages import router as pages_router
    from forcecheck.web.security import Csrf, Organiser, Signer
    from forcecheck.web.storage import Store

    store = Store(config.db_url)
    store.migrate()
    signer = Signer(store.secret("signing-key"))
    desk = Desk(store, Checker(config.catalog, config.format_dirs), **({"clock": config.clock} if config.clock else {}))

    @asynccontextmanager
    async def lifespan(_app):
        yield
        desk.close()

    app = FastAPI(
        lifespan=lifespan,
        title="forcecheck registration desk",
        version=__version__,
        description="Players submit decklists, organisers run the event. Organiser calls need "
                    "`Authorization: Bearer <FORCECHECK_ADMIN_TOKEN>`; a player's calls need the registration's `edit_token`.",
    )
    app.state.desk = desk
    app.state.config = config
    app.state.organiser = Organiser(config.admin_token, signer)
    app.state.csrf = Csrf(signer)
    app.state.pages = Pages(desk, app.state.csrf, config.secure_cookies)

    @app.middleware("http")
    async def security_headers(request: Request, call_next):
        response = await call_next(request)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if request.url.path.startswith(("/admin", "/r/", "/api/")):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    app.add_middleware(BodyLimit, limit=config.body_limit)

    @app.exception_handler(DeskError)
    async def desk_error(request: Request, exc: DeskError):
        if request.url.path.startswith("/api/"):
            body = {"detail": exc.message}
            if exc.deck is not None:
                body["deck"] = exc.deck
            headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
            return JSONResponse(body, status_code=exc.status, headers=headers)
        return app.state.pages.error(request, exc.status, exc.message)

    @app.exception_handler(NeedsOrganiser)
    async def needs_organiser(request: Request, exc: NeedsOrganiser):
        from urllib.parse import quote

        return RedirectResponse("/admin/login?next=" + quote(exc.next_path), status_code=303)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError):
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'][1:]) or 'body'}: {e['msg']}" for e in exc.errors())
        return JSONResponse({"detail": f"invalid request: {problems}"}, status_code=422)

    app.include_router(api_router)
    app.include_router(pages_router)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    return app
