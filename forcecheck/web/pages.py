"""Rendering the desk's pages: one Jinja2 environment per language (autoescape on for every
template, gettext from that language's catalog: ``i18n``), the CSRF cookie, links, and the
values every page needs. Templates only show what they are given."""

from __future__ import annotations

from typing import Any

import jinja2
from fastapi import Request
from fastapi.responses import HTMLResponse

from forcecheck.web import i18n
from forcecheck.web.desk import Desk, show_time
from forcecheck.web.security import CSRF_COOKIE, Csrf, new_token


def N_(text: str) -> str:
    """Marks a string for the catalogs (translated where it is shown)."""
    return text


TITLES = {400: N_("Bad request"), 401: N_("Organisers only"), 403: N_("Not yours"), 404: N_("Not found"), 408: N_("Too slow"),
          409: N_("Not now"), 413: N_("Too large"), 422: N_("Cannot use that"), 429: N_("Too many requests"),
          500: N_("Something went wrong"), 503: N_("The desk is busy")}
ERROR_TITLE = N_("Error")


ACTION_WORDS = {
    "event.create": N_("event created"), "event.update": N_("event changed"), "event.publish": N_("lists published"),
    "registration.create": N_("registered"), "registration.resubmit": N_("resubmitted"),
    "registration.edit": N_("list entered by the organiser"), "registration.recheck": N_("checked again"),
    "registration.unlock": N_("unlocked"), "registration.lock": N_("locked"), "verify": N_("verified at the table"),
    "deckcheck.pick": N_("picked for deck checks"), "deckcheck.verify": N_("deck check verified"),
    "organiser.login": N_("organiser logged in"), "organiser.logout": N_("organiser logged out"),
}
"""How the audit log's actions read on the pages."""
ACTOR_WORDS = {"organiser": N_("organiser"), "player": N_("player")}
OUTCOME_WORDS = {"identical": N_("identical"), "sideboard-exchange": N_("legal sideboard exchange"), "different": N_("NOT the registered list")}
STATUS_WORDS = (N_("legal"), N_("illegal"))


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
        self.envs = {lang: self._environment(lang) for lang in i18n.LANGUAGES}

    def _environment(self, lang: str) -> jinja2.Environment:
        env = jinja2.Environment(
            loader=jinja2.PackageLoader("forcecheck.web", "templates"),
            autoescape=True,  # every template, whatever its name: user text is never markup
            trim_blocks=True,
            lstrip_blocks=True,
            extensions=["jinja2.ext.i18n"],
        )
        env.install_gettext_translations(i18n.translations(lang), newstyle=True)
        env.filters["when"] = show_time
        env.globals["link"] = self.link
        env.globals["lang"] = lang
        env.globals["language_names"] = i18n.NAMES
        env.globals["action_words"] = ACTION_WORDS
        env.globals["actor_words"] = ACTOR_WORDS
        env.globals["outcome_words"] = OUTCOME_WORDS
        return env

    @staticmethod
    def language(request: Request) -> str:
        """The page's language (``i18n.choose``), kept on the request once chosen."""
        chosen = getattr(request.state, "lang", None)
        if chosen is None:
            chosen = i18n.choose(request.query_params.get("lang"), request.cookies.get(i18n.LANG_COOKIE),
                                 request.headers.get("accept-language"))
            request.state.lang = chosen
        return chosen

    def gettext(self, request: Request):
        return i18n.translations(self.language(request)).gettext

    def render(self, request: Request, template: str, status: int = 200, headers: dict | None = None,
               organiser: bool | None = None, **values: Any) -> HTMLResponse:
        """The page, with a CSRF token for its forms (and the cookie it is bound to, if new)."""
        cookie = request.cookies.get(CSRF_COOKIE)
        fresh = cookie is None or len(cookie) > 64
        if fresh:
            cookie = Csrf.new_cookie()
        if organiser is None:
            organiser = self._organiser(request)
        lang = self.language(request)
        titles = i18n.section_titles(values.get("info"), lang)

        def title_of(section) -> str:
            """A section's title in the page's language (the format's Japanese title on a Japanese page)."""
            return titles.get(section.get("id"), section.get("title")) if isinstance(section, dict) else titles.get(section, section)

        def lang_link(code: str) -> str:
            """This page in another language (the switch)."""
            from urllib.parse import urlencode

            params = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"] + [("lang", code)]
            return self.link(request.url.path) + "?" + urlencode(params)

        html = self.envs[lang].get_template(template).render(
            csrf=self.csrf.form_token(cookie), organiser=organiser, request_path=request.url.path, title_of=title_of,
            lang_link=lang_link, submission_key=new_token, **values)
        response = HTMLResponse(html, status_code=status, headers=headers)
        if fresh:
            response.set_cookie(CSRF_COOKIE, cookie, httponly=True, samesite="lax", secure=self.secure, path="/")
        if request.query_params.get("lang") in i18n.LANGUAGES and request.cookies.get(i18n.LANG_COOKIE) != lang:
            response.set_cookie(i18n.LANG_COOKIE, lang, max_age=365 * 86400, samesite="lax", secure=self.secure, path="/")
        response.headers["Content-Language"] = lang
        response.headers["Vary"] = "Accept-Language, Cookie"
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

    def said(self, request: Request, message) -> str:
        """A refusal's message in the page's language (a DeskError, or a string of the catalogs)."""
        _ = self.gettext(request)
        return message.said_in(_) if hasattr(message, "said_in") else _(message)

    def error(self, request: Request, status: int, message, headers: dict | None = None) -> HTMLResponse:
        _ = self.gettext(request)
        return self.render(request, "error.html", status=status, headers=headers, title=_(TITLES.get(status, ERROR_TITLE)),
                           message=self.said(request, message), organiser=False if status == 503 else None)
