"""The server-rendered pages: forms that work without JavaScript (desk.js only adds a live
check as the player types).

Routes are plain functions FastAPI runs in its thread pool. What they all ask is declared once
(``deps``): the desk, the organiser guard, the CSRF-checked form, the client's allowance. A
form's route names the page it came from (``@refills(page)``): any refusal on the way (an
expired form, a closed deadline, a name that cannot be used, too many requests) shows that page
again with what was typed and the reason, from one handler in ``app``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from urllib.parse import urlencode, urlsplit

from fastapi import APIRouter, Depends, Request
from fastapi.responses import RedirectResponse
from starlette.datastructures import FormData

from forcecheck.web.deps import allowance, arrived, checked_form, desk, form_values, organiser, organiser_token_ok
from forcecheck.web.desk import N_, Desk, DeskError, Forbidden, Invalid, KeyReused, annotate, override
from forcecheck.web.pages import Pages
from forcecheck.web.security import EDIT_COOKIE_DAYS, ORGANISER_COOKIE, edit_cookie_name

router = APIRouter(include_in_schema=False)
OrganiserOnly = [Depends(organiser)]


def _pages(request: Request) -> Pages:
    return request.app.state.pages


def _redirect(request: Request, path: str) -> RedirectResponse:
    return RedirectResponse(request.app.state.links(path), status_code=303)


def refills(page: Callable) -> Callable:
    """Mark a form's route with the page that shows the form again after a refusal:
    ``page(request, status, message, deck, values)``."""

    def mark(route):
        def again(request: Request, error: DeskError, headers: dict):
            values = form_values(request)
            if getattr(request.state, "decklist", None) is not None:
                values["decklist"] = request.state.decklist
            response = page(request, error.status, _pages(request).said(request, error), error.deck, values)
            response.headers.update(headers)
            return response

        route.refill = again
        return route

    return mark


def _decklist_from(request: Request, form: FormData, the_desk: Desk) -> tuple[str, str]:
    """(text, filename): an uploaded file wins over the text box (and is shown in it after)."""
    upload = form.get("file")
    text, filename = str(form.get("decklist") or ""), "decklist.txt"
    if upload is not None and not isinstance(upload, str) and upload.filename:
        upload.file.seek(0)
        data = upload.file.read()
        if data:
            text, filename = the_desk.decode_upload(data, upload.filename), upload.filename
    request.state.decklist = text
    return text, filename


def _submission_key(form: FormData) -> str | None:
    """The page's idempotency key (a hidden field, new on every page shown): the same page sent
    twice (an answer lost, Submit pressed again) is one submission."""
    value = form.get("submission")
    return value if isinstance(value, str) and value else None


def _keep_edit_token(request: Request, response, registration_id: str, token: str | None) -> None:
    """The edit token in a cookie for the registration's pages, in the browser that registered."""
    response.set_cookie(edit_cookie_name(registration_id), token, max_age=EDIT_COOKIE_DAYS * 86400,
                        path=request.app.state.links(f"/r/{registration_id}"), httponly=True, samesite="lax",
                        secure=_pages(request).secure)


# -- home ------------------------------------------------------------------------------------------
@router.get("/")
def home(request: Request):
    return _pages(request).render(request, "home.html")


# -- players -----------------------------------------------------------------------------------------
def _event_page(request: Request, event, status: int = 200, **values):
    the_desk = desk(request)
    values.setdefault("player", "")
    values.setdefault("player_id", "")
    values.setdefault("decklist", "")
    values.setdefault("deck", None)
    values.setdefault("message", None)
    annotated = annotate(values["decklist"], values["deck"]) if values["deck"] else None
    return _pages(request).render(request, "event.html", status=status, event=event, open=the_desk.is_open(event),
                                  info=the_desk.format_info(event), annotated=annotated,
                                  published=bool(the_desk.store.published(event.id)), **values)


def _event_again(request: Request, status: int, message: str, deck, values: dict):
    event = desk(request).event(request.path_params["event_id"])
    return _event_page(request, event, status, player=values.get("player", ""), decklist=values.get("decklist", ""),
                       player_id=values.get("player_id", ""), deck=deck, message=message)


@router.get("/e/{event_id}", name="event_page")
def event_page(event_id: str, request: Request, the_desk: Desk = Depends(desk)):
    return _event_page(request, the_desk.event(event_id))


@router.post("/e/{event_id}")
@refills(_event_again)
def event_post(event_id: str, request: Request, form: FormData = Depends(checked_form), _spent=Depends(allowance),
               the_desk: Desk = Depends(desk)):
    event = the_desk.event(event_id)
    player = str(form.get("player") or "")
    player_id = form.get("player_id")
    text, filename = _decklist_from(request, form, the_desk)
    if form.get("action") == "submit":
        key = _submission_key(form)
        try:
            submitted = the_desk.submit(event_id, player, text, filename, arrived(request), str(player_id or ""), key)
        except KeyReused as reused:
            # this page was submitted before (its answer lost) with another list: that one is
            # registered; show it, with the list just sent in the form, not yet submitted
            registration = the_desk.registration(reused.stored.registration_id)
            token = the_desk.keyed_token(event, key)
            response = _receipt(request, registration, token, player=player, player_id=str(player_id or ""), decklist=text,
                                message=_pages(request).said(request, N_(
                                    "This page was submitted before, with another list: that one is registered (below). "
                                    "The list in the form is not submitted yet: press Submit to make it a new version.")))
            _keep_edit_token(request, response, registration.id, token)
            return response
        registration_id = submitted.registration.id
        response = _redirect(request, f"/r/{registration_id}")
        _keep_edit_token(request, response, registration_id, submitted.edit_token)
        return response
    deck = the_desk.check(event, text, filename)
    return _event_page(request, event, player=player, player_id=str(player_id or ""), decklist=text, deck=deck)


@router.get("/e/{event_id}/lists")
def published_page(event_id: str, request: Request, the_desk: Desk = Depends(desk)):
    """The lists the organiser published (open decklists), for anyone."""
    event = the_desk.event(event_id)
    return _pages(request).render(request, "published.html", event=event, info=the_desk.format_info(event),
                                  lists=the_desk.published(event))


def _receipt(request: Request, registration, token: str, status: int = 200, **values):
    the_desk = desk(request)
    event = the_desk.event(registration.event_id)
    deck = values.pop("deck", None)
    decklist = values.pop("decklist", registration.latest.decklist)
    shown = deck or registration.latest.deck
    return _pages(request).render(
        request, "receipt.html", status=status, event=event, registration=registration, token=token,
        open=the_desk.can_edit(registration, event), event_open=the_desk.is_open(event), info=the_desk.format_info(event),
        versions=the_desk.versions(registration), decklist=decklist, checked=deck is not None,
        annotated=annotate(decklist, shown), deck=shown, player=values.pop("player", registration.player),
        player_id=values.pop("player_id", registration.player_id or ""), message=values.pop("message", None), **values)


def _edit_token(request: Request, registration_id: str) -> str | None:
    return request.cookies.get(edit_cookie_name(registration_id))


def _receipt_again(request: Request, status: int, message: str, deck, values: dict):
    registration_id = request.path_params["registration_id"]
    token = _edit_token(request, registration_id)
    registration = desk(request).authorise(registration_id, token)
    return _receipt(request, registration, token, status, player=values.get("player", registration.player),
                    player_id=values.get("player_id", registration.player_id or ""),
                    decklist=values.get("decklist", registration.latest.decklist), deck=deck, message=message)


@router.get("/r/{registration_id}")
def receipt(registration_id: str, request: Request, the_desk: Desk = Depends(desk)):
    token = _edit_token(request, registration_id)
    try:
        registration = the_desk.authorise(registration_id, token)
    except Forbidden:
        return _pages(request).render(request, "code.html", status=403 if token else 200, registration_id=registration_id,
                                      message=_pages(request).said(request, N_("That edit code does not open this registration.")) if token else None)
    return _receipt(request, registration, token)


def _code_again(request: Request, status: int, message: str, deck, values: dict):
    return _pages(request).render(request, "code.html", status=status, registration_id=request.path_params["registration_id"],
                                  message=message)


@router.post("/r/{registration_id}/code")
@refills(_code_again)
def receipt_code(registration_id: str, request: Request, form: FormData = Depends(checked_form), the_desk: Desk = Depends(desk)):
    code = str(form.get("code") or "").strip()
    try:
        the_desk.authorise(registration_id, code)
    except Forbidden:
        raise Forbidden(N_("That edit code does not open this registration.")) from None
    response = _redirect(request, f"/r/{registration_id}")
    _keep_edit_token(request, response, registration_id, code)
    return response


@router.post("/r/{registration_id}")
@refills(_receipt_again)
def receipt_post(registration_id: str, request: Request, form: FormData = Depends(checked_form), _spent=Depends(allowance),
                 the_desk: Desk = Depends(desk)):
    token = _edit_token(request, registration_id)
    registration = the_desk.authorise(registration_id, token)
    player = str(form.get("player") or "")
    player_id = form.get("player_id")
    text, filename = _decklist_from(request, form, the_desk)
    if form.get("action") == "submit":
        try:
            the_desk.resubmit(registration_id, token, player, text, filename, arrived(request),
                              str(player_id) if player_id is not None else None, _submission_key(form))
        except KeyReused:
            return _receipt(request, the_desk.authorise(registration_id, token), token, player=player, player_id=str(player_id or ""),
                            decklist=text, message=_pages(request).said(request, N_(
                                "This page was submitted before, with another list: that version is stored (below). "
                                "The list in the form is not submitted yet: press Submit to make it a new version.")))
        return _redirect(request, f"/r/{registration_id}")
    deck = the_desk.check(the_desk.event(registration.event_id), text, filename)
    return _receipt(request, registration, token, player=player, player_id=str(player_id or ""), decklist=text, deck=deck)


# -- organisers --------------------------------------------------------------------------------------
def _safe_next(path: str | None) -> str:
    """Only our own organiser pages: a login link cannot send the organiser elsewhere."""
    if path and path.startswith("/admin") and not urlsplit(path).netloc and not path.startswith("//"):
        return path
    return "/admin"


@router.get("/admin/login")
def login_page(request: Request, next: str | None = None):
    return _pages(request).render(request, "login.html", next=_safe_next(next), message=None)


def _login_again(request: Request, status: int, message: str, deck, values: dict):
    return _pages(request).render(request, "login.html", status=status, next=_safe_next(values.get("next")), message=message)


class WrongToken(DeskError):
    status = 401


@router.post("/admin/login")
@refills(_login_again)
def login(request: Request, form: FormData = Depends(checked_form)):
    organiser_ = request.app.state.organiser
    if not organiser_token_ok(request, str(form.get("token") or "").strip(), "login"):  # the organiser's door: waits, lock-outs
        raise WrongToken(N_("That is not the organiser token."))
    response = _redirect(request, _safe_next(str(form.get("next") or "")))
    response.set_cookie(ORGANISER_COOKIE, organiser_.new_session(), httponly=True, samesite="lax", secure=_pages(request).secure,
                        path="/")
    return response


@router.post("/admin/logout")
def logout(request: Request, form: FormData = Depends(checked_form)):
    """Ends the session on the server (every desk on the database), not only in this browser."""
    request.app.state.organiser.end_session(request.cookies.get(ORGANISER_COOKIE))
    response = _redirect(request, "/")
    response.delete_cookie(ORGANISER_COOKIE, path="/")
    return response


def _admin_home(request: Request, status: int = 200, message: str | None = None, values: dict | None = None):
    the_desk = desk(request)
    return _pages(request).render(request, "admin_home.html", status=status, events=the_desk.events(), formats=the_desk.formats(),
                                  message=message, values=values or {}, now=the_desk.clock())


def _admin_home_again(request: Request, status: int, message: str, deck, values: dict):
    return _admin_home(request, status, message, {k: values.get(k, "") for k in ("name", "format", "date", "deadline", "player_id")})


@router.get("/admin", dependencies=OrganiserOnly)
def admin_home(request: Request):
    return _admin_home(request)


@router.post("/admin/events", dependencies=OrganiserOnly)
@refills(_admin_home_again)
def admin_create_event(request: Request, form: FormData = Depends(checked_form), the_desk: Desk = Depends(desk)):
    values = {k: str(form.get(k) or "") for k in ("name", "format", "date", "deadline", "player_id")}
    event = the_desk.create_event(values["name"], values["format"], values["date"], values["deadline"], values["player_id"] or "off")
    return _redirect(request, f"/admin/events/{event.id}")


OVERRIDES = ("event.update", "registration.unlock", "registration.lock", "registration.edit", "registration.recheck")
"""Audit actions the event page lists as overrides (who and why, visible to every organiser)."""


def _admin_event(request: Request, event_id: str, status: int = 200, message: str | None = None, notice: str | None = None,
                 q: str = "", sort: str = "status", order: str = "asc", page: int = 1):
    the_desk = desk(request)
    event = the_desk.event(event_id)
    table = the_desk.table_page(event, q, sort, order == "desc", page)
    regs = the_desk.store.registrations(event.id)
    players = {r.id: r.player for r in regs}
    audit = the_desk.audit(event)

    def table_link(**changes) -> str:
        """This page of the table with some of its settings changed."""
        params = {"q": table.query, "sort": table.sort, "order": "desc" if table.descending else "asc", "page": table.page}
        params.update(changes)
        shown = {k: v for k, v in params.items() if v not in ("", None) and not (k == "page" and v == 1)}
        return request.app.state.links(f"/admin/events/{event.id}") + ("?" + urlencode(shown) if shown else "")

    checks = [{"check": c, "player": players.get(c.registration_id, c.registration_id)} for c in the_desk.deck_checks(event)]
    refused = [{"minute": datetime.fromtimestamp(minute * 60, UTC), "too_many": too_many, "busy": busy}
               for minute, too_many, busy in request.app.state.limits.refusals(the_desk.clock().timestamp())]
    return _pages(request).render(
        request, "admin_event.html", status=status, event=event, table=table, table_link=table_link, open=the_desk.is_open(event),
        info=the_desk.format_info(event), share=request.app.state.links(f"/e/{event.id}"),
        audit=audit[-30:][::-1], overrides=[a for a in audit if a.action in OVERRIDES][::-1], players=players,
        counts=table.counts, unlocked=sum(r.unlocked for r in regs), published=len(the_desk.store.published(event.id)),
        deck_checks=checks, deadline_local=event.deadline.astimezone().strftime("%Y-%m-%dT%H:%M"), message=message, notice=notice,
        qr=bool(request.app.state.links.base), refused=refused)


@router.get("/admin/events/{event_id}", dependencies=OrganiserOnly)
def admin_event(event_id: str, request: Request, q: str = "", sort: str = "status", order: str = "asc", page: int = 1):
    return _admin_event(request, event_id, q=q, sort=sort, order=order, page=page)


def _admin_event_again(request: Request, status: int, message: str, deck, values: dict):
    return _admin_event(request, request.path_params["event_id"], status, message)


@router.post("/admin/events/{event_id}/settings", dependencies=OrganiserOnly)
@refills(_admin_event_again)
def admin_event_settings(event_id: str, request: Request, form: FormData = Depends(checked_form), the_desk: Desk = Depends(desk)):
    event = the_desk.event(event_id)
    changes = {k: str(form.get(k) or "") or None for k in ("name", "date", "deadline")}
    if changes["deadline"] and changes["deadline"] == event.deadline.astimezone().strftime("%Y-%m-%dT%H:%M"):
        changes["deadline"] = None  # the form shows the deadline to the minute: unchanged, not moved to :00
    if changes["name"] == event.name:
        changes["name"] = None
    if changes["date"] == event.date:
        changes["date"] = None
    if any(changes.values()):
        the_desk.update_event(event_id, changes["name"], changes["date"], changes["deadline"], str(form.get("reason") or ""))
    return _redirect(request, f"/admin/events/{event_id}")


@router.post("/admin/events/{event_id}/publish", dependencies=OrganiserOnly)
@refills(_admin_event_again)
def admin_publish(event_id: str, request: Request, form: FormData = Depends(checked_form), the_desk: Desk = Depends(desk)):
    the_desk.publish(the_desk.event(event_id), "all")
    return _redirect(request, f"/e/{event_id}/lists")


@router.post("/admin/events/{event_id}/deckchecks", dependencies=OrganiserOnly)
@refills(_admin_event_again)
def admin_pick_deck_checks(event_id: str, request: Request, form: FormData = Depends(checked_form), the_desk: Desk = Depends(desk)):
    try:
        count = int(str(form.get("count") or "").strip())
    except ValueError:
        raise Invalid(N_("Give the number of players to pick.")) from None
    the_desk.pick_deck_checks(the_desk.event(event_id), count, str(form.get("seed") or "").strip() or None)
    return _redirect(request, f"/admin/events/{event_id}")


@router.get("/admin/events/{event_id}/sheets.pdf", dependencies=OrganiserOnly)
def admin_sheets(event_id: str, request: Request, registration: str | None = None, the_desk: Desk = Depends(desk)):
    """The deck sheets PDF (as the API's sheets.pdf) in the page's language; a refusal is a page."""
    from forcecheck.web.printing import sheets_response

    return sheets_response(request, the_desk, the_desk.event(event_id), registration)


@router.get("/admin/events/{event_id}/sheets", dependencies=OrganiserOnly)
def admin_sheets_page(event_id: str, request: Request, registration: str | None = None):
    """The address of the sheets when they were an HTML page to print: now the PDF."""
    query = urlencode({"registration": registration} if registration else {})
    return _redirect(request, f"/admin/events/{event_id}/sheets.pdf" + (f"?{query}" if query else ""))


def _admin_registration(request: Request, registration_id: str, status: int = 200, **values):
    the_desk = desk(request)
    registration = the_desk.registration(registration_id)
    event = the_desk.event(registration.event_id)
    values.setdefault("verdict", None)
    values.setdefault("played", "")
    values.setdefault("message", None)
    values.setdefault("notice", None)
    values.setdefault("open_control", None)
    values.setdefault("edit", {"player": registration.player, "player_id": registration.player_id or "",
                               "decklist": registration.latest.decklist})
    check_id = values.pop("deckcheck", None) or request.query_params.get("deckcheck")
    deck_check = None
    if check_id:
        try:
            deck_check = the_desk.deck_check(check_id, event.id)
        except DeskError:
            deck_check = None
        if deck_check is not None and deck_check.registration_id != registration.id:
            deck_check = None
    return _pages(request).render(
        request, "admin_registration.html", status=status, event=event, registration=registration, info=the_desk.format_info(event),
        event_open=the_desk.is_open(event), versions=the_desk.versions(registration), deck_check=deck_check,
        annotated=annotate(registration.latest.decklist, registration.latest.deck),
        deck=registration.latest.deck, audit=the_desk.audit(event, registration.id)[::-1], **values)


def _registration_again(request: Request, status: int, message: str, deck, values: dict):
    control = {"unlock": "lock", "lock": "lock", "edit": "edit"}.get(request.url.path.rsplit("/", 1)[-1])
    extra = {}
    if control == "edit":
        extra["edit"] = {k: values.get(k, "") for k in ("player", "player_id", "decklist")}
    return _admin_registration(request, request.path_params["registration_id"], status, played=values.get("played", ""),
                               message=message, open_control=control, deckcheck=values.get("deckcheck"), **extra)


@router.get("/admin/registrations/{registration_id}", dependencies=OrganiserOnly)
def admin_registration(registration_id: str, request: Request):
    return _admin_registration(request, registration_id)


@router.post("/admin/registrations/{registration_id}/verify", dependencies=OrganiserOnly)
@refills(_registration_again)
def admin_verify(registration_id: str, request: Request, form: FormData = Depends(checked_form), _spent=Depends(allowance),
                 the_desk: Desk = Depends(desk)):
    """Verify at the table; with a deck check's number, its outcome is recorded against the pick."""
    played = str(form.get("played") or "")
    check_id = str(form.get("deckcheck") or "")
    if check_id:
        registration = the_desk.registration(registration_id)
        check = the_desk.deck_check(check_id, registration.event_id)
        if check.registration_id != registration_id:
            raise Invalid(N_("That deck check is another player's."))
        _check, verdict = the_desk.verify_deck_check(check_id, played)
    else:
        verdict = the_desk.verify(registration_id, played)
    return _admin_registration(request, registration_id, played=played, verdict=verdict, deckcheck=check_id or None)


@router.post("/admin/registrations/{registration_id}/unlock", dependencies=OrganiserOnly)
@refills(_registration_again)
def admin_unlock(registration_id: str, request: Request, form: FormData = Depends(checked_form), the_desk: Desk = Depends(desk)):
    the_desk.unlock(registration_id, override(str(form.get("reason") or ""), str(form.get("by") or "") or None))
    return _redirect(request, f"/admin/registrations/{registration_id}")


@router.post("/admin/registrations/{registration_id}/lock", dependencies=OrganiserOnly)
@refills(_registration_again)
def admin_lock(registration_id: str, request: Request, form: FormData = Depends(checked_form), the_desk: Desk = Depends(desk)):
    the_desk.lock(registration_id, override(str(form.get("reason") or ""), str(form.get("by") or "") or None))
    return _redirect(request, f"/admin/registrations/{registration_id}")


@router.post("/admin/registrations/{registration_id}/edit", dependencies=OrganiserOnly)
@refills(_registration_again)
def admin_edit(registration_id: str, request: Request, form: FormData = Depends(checked_form), the_desk: Desk = Depends(desk)):
    why = override(str(form.get("reason") or ""), str(form.get("by") or "") or None)
    player_id = form.get("player_id")
    the_desk.edit_for_player(registration_id, str(form.get("player") or ""), str(form.get("decklist") or ""), why,
                             player_id=str(player_id) if player_id is not None else None)
    return _redirect(request, f"/admin/registrations/{registration_id}")


@router.post("/admin/registrations/{registration_id}/deckcheck", dependencies=OrganiserOnly)
@refills(_registration_again)
def admin_add_deck_check(registration_id: str, request: Request, form: FormData = Depends(checked_form), the_desk: Desk = Depends(desk)):
    registration = the_desk.registration(registration_id)
    [check] = the_desk.add_deck_checks(the_desk.event(registration.event_id), [registration_id])
    return _redirect(request, f"/admin/registrations/{registration_id}?deckcheck={check.id}")


@router.post("/admin/registrations/{registration_id}/publish", dependencies=OrganiserOnly)
@refills(_registration_again)
def admin_publish_one(registration_id: str, request: Request, form: FormData = Depends(checked_form), the_desk: Desk = Depends(desk)):
    registration = the_desk.registration(registration_id)
    the_desk.publish(the_desk.event(registration.event_id), [registration_id])
    return _redirect(request, f"/e/{registration.event_id}/lists#{registration_id}")


__all__ = ["router"]
