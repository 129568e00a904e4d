"""The desk's outermost ASGI middleware: every answer, whoever writes it, passes through here.

``Guard`` stamps each request's arrival time and adds the security headers; ``BodyLimit``
refuses a body over the limit before anything parses it. ``send_refusal`` writes such a refusal
(``{"detail"}`` for the API, a short page for people).
"""

from __future__ import annotations

import json

from forcecheck.web.deps import wants_json

SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                 b"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
HSTS = (b"strict-transport-security", b"max-age=63072000")
NO_STORE_PREFIXES = ("/admin", "/r/", "/api/")


class Guard:
    """ASGI middleware around everything: the arrival time of each request (on the desk's clock,
    ``scope["state"]["arrived"]``), and the security headers on every answer, whoever wrote it
    (a route, a refusal, an error page); HSTS when the desk is served over HTTPS."""

    def __init__(self, app, clock, secure: bool):
        self.app = app
        self.clock = clock
        self.headers = SECURITY_HEADERS + ([HSTS] if secure else [])

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        scope.setdefault("state", {})["arrived"] = self.clock()
        no_store = scope["path"].startswith(NO_STORE_PREFIXES)

        async def guarded_send(message):
            if message["type"] == "http.response.start":
                have = {name.lower() for name, _ in message.get("headers", ())}
                extra = [(n, v) for n, v in self.headers if n not in have]
                if no_store and b"cache-control" not in have:
                    extra.append((b"cache-control", b"no-store"))
                message = {**message, "headers": list(message.get("headers", ())) + extra}
            await send(message)

        return await self.app(scope, receive, guarded_send)


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes gets 413 before the app sees it,
    whether it announces its length or streams (chunked). The body is read here (at most
    ``limit`` bytes) and replayed to the app; its size is left in ``scope["state"]["body_bytes"]``
    (what a check costs the client's allowance)."""

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
        scope.setdefault("state", {})["body_bytes"] = size
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
        await send_refusal(scope, send, status, text)


async def send_refusal(scope, send, status: int, text: str, headers: list | None = None) -> None:
    """A refusal written before the application runs: ``{"detail"}`` for the API, a short page
    for people; the connection is closed after it."""
    from html import escape

    if wants_json(scope):
        body, kind = json.dumps({"detail": text}).encode(), b"application/json"
    else:
        body = (f"<!doctype html><meta charset=utf-8><meta name=viewport content=\"width=device-width, initial-scale=1\">"
                f"<title>{status}</title><p>{escape(text)}</p>").encode()
        kind = b"text/html; charset=utf-8"
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode()), (b"connection", b"close"),
                            *(headers or [])]})
    await send({"type": "http.response.body", "body": body})
