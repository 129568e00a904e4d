"""Rendering the desk's pages: one Jinja2 environment (autoescape on for every template), the
CSRF cookie, links, and the values every page needs. Templates only show what they are given."""

from __future__ import annotations

from typing import Any

import jinja2
from fastapi import Request
from fastapi.responses import HTMLResponse

from forcecheck.web.desk import Desk, show_time
from forcecheck.web.security import CSRF_COOKIE, Csrf

TITLES = {400: "Bad request", 401: "Organisers only", 403: "Not yours", 404: "Not found", 408: "Too slow",
          409: "Registration closed", 413: "Too large", 422: "Cannot use that", 429: "Too many requests",
          503: "The desk is busy"}


class Links:
    """Every link the desk writes: under ``public_url`` when the organiser gave one
    (``serve --public-url``), else relative to the desk's own root. Never from the request's
    Host header, which a client chooses."""

    def __init__(self, public_url: str | None = None):
        self.base = (public_url or "").rstrip("/")

    def __call__(self, path: str) -> str:
        return self.base + path


class Pages:
    def __init__(self, desk: Desk, csrf: Csrf, secure_cookies: bool, links: Links):
        self.desk = desk
        self.csrf = csrf
        self.secure = secure_cookies
        self.link = links
        self.env = jinja2.Environment(
            loader=jinja2.PackageLoader("forcecheck.web", "templates"),
            autoescape=True,  # every template, whatever its name: user text is never markup
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.filters["when"] = show_time
        self.env.globals["link"] = links

    def render(self, request: Request, template: str, status: int = 200, headers: dict | None = None,
               organiser: bool | None = None, **values: Any) -> HTMLResponse:
        """The page, with a CSRF token for its forms (and the cookie it is bound to, if new)."""
        cookie = request.cookies.get(CSRF_COOKIE)
        fresh = cookie is None or len(cookie) > 64
        if fresh:
            cookie = Csrf.new_cookie()
        if organiser is None:
            organiser = self._organiser(request)
        html = self.env.get_template(template).render(
            csrf=self.csrf.form_token(cookie), organiser=organiser, request_path=request.url.path, **values)
        response = HTMLResponse(html, status_code=status, headers=headers)
        if fresh:
            response.set_cookie(CSRF_COOKIE, cookie, httponly=True, samesite="lax", secure=self.secure, path="/")
        return response

    @staticmethod
    def _organiser(request: Request) -> bool:
        """Whether to show the organiser's menu (a page is still shown when the session cannot be
        looked up just now)."""
        from forcecheck.web.deps import is_organiser
        from forcecheck.web.storage import StoreUnavailable

        try:
            return is_organiser(request)
        except StoreUnavailable:
            return False

    def error(self, request: Request, status: int, message: str, headers: dict | None = None) -> HTMLResponse:
        return self.render(request, "error.html", status=status, headers=headers, title=TITLES.get(status, "Error"),
                           message=message, organiser=False if status == 503 else None)
