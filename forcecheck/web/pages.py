"""Rendering the desk's pages: one Jinja2 environment (autoescape on for every template), the
CSRF cookie and the values every page needs. Templates only show what they are given."""

from __future__ import annotations

from typing import Any

import jinja2
from fastapi import Request
from fastapi.responses import HTMLResponse

from forcecheck.web.desk import Desk, show_time
from forcecheck.web.security import Csrf

EDIT_COOKIE_DAYS = 60


def edit_cookie_name(registration_id: str) -> str:
    return "fc_edit_" + registration_id


class Pages:
    def __init__(self, desk: Desk, csrf: Csrf, secure_cookies: bool):
        self.desk = desk
        self.csrf = csrf
        self.secure = secure_cookies
        self.env = jinja2.Environment(
            loader=jinja2.PackageLoader("forcecheck.web", "templates"),
            autoescape=True,  # every template, whatever its name: user text is never markup
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.filters["when"] = show_time

    def render(self, request: Request, template: str, status: int = 200, **values: Any) -> HTMLResponse:
        """The page, with a CSRF token for its forms (and the cookie it is bound to, if new)."""
        cookie = request.cookies.get(Csrf.COOKIE)
        fresh = cookie is None or len(cookie) > 64
        if fresh:
            cookie = Csrf.new_cookie()
        organiser = request.app.state.organiser.session_ok(request.cookies.get("fc_organiser"))
        html = self.env.get_template(template).render(
            csrf=self.csrf.form_token(cookie), organiser=organiser, request_path=request.url.path, **values)
        response = HTMLResponse(html, status_code=status)
        if fresh:
            response.set_cookie(Csrf.COOKIE, cookie, httponly=True, samesite="lax", secure=self.secure, path="/")
        return response

    def error(self, request: Request, status: int, message: str) -> HTMLResponse:
        titles = {400: "Bad request", 401: "Organisers only", 403: "Not yours", 404: "Not found",
                  409: "Registration closed", 413: "Too large", 422: "Cannot use that"}
        return self.render(request, "error.html", status=status, title=titles.get(status, "Error"), message=message)

    def csrf_ok(self, request: Request, form) -> bool:
        return self.csrf.ok(request.cookies.get(Csrf.COOKIE), form.get(Csrf.FIELD))
