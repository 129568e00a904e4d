"""The server-rendered pages: forms that work without JavaScript (desk.js only adds a live
check as the player types). Every POST carries the CSRF token; organiser pages need a session."""

from __future__ import annotations

from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse
from starlette.concurrency import run_in_threadpool

from forcecheck.web.app import NeedsOrganiser
from forcecheck.web.desk import Desk, DeskError, Forbidden, annotate
from forcecheck.web.pages import EDIT_COOKIE_DAYS, Pages, edit_cookie_name

router = APIRouter()

EXPIRED = "This form had expired (or came from another site); nothing was saved. Check your list below and press the button again."


def _desk(request: Request) -> Desk:
    return request.app.state.desk


def _pages(request: Request) -> Pages:
    return request.app.state.pages


def _organiser(request: Request) -> None:
    organiser = request.app.state.organiser
    if organiser.session_ok(request.cookies.get("fc_organiser")) or organiser.bearer_ok(request.headers.get("authorization")):
        return
    raise NeedsOrganiser(request.url.path)


async def _form(request: Request):
    return await request.form(max_part_size=request.app.state.config.body_limit)


async def _decklist_from(form, desk: Desk) -> tuple[str, str]:
    """(text, filename): an uploaded file wins over the text box (and is shown in it after)."""
    upload = form.get("file")
    if upload is not None and not isinstance(upload, str) and upload.filename:
        data = await upload.read()
        if data:
            return await run_in_threadpool(desk.decode_upload, data, upload.filename), upload.filename
    return str(form.get("decklist") or ""), "decklist.txt"


# -- home ------------------------------------------------------------------------------------------
@router.get("/", include_in_schema=False)
def home(request: Request):
    return _pages(request).render(request, "home.html")


# -- players -----------------------------------------------------------------------------------------
def _event_page(request: Request, event, status: int = 200, **values):
    desk = _desk(request)
    values.setdefault("player", "")
    values.setdefault("decklist", "")
    values.setdefault("deck", None)
    values.setdefault("message", None)
    annotated = annotate(values["decklist"], values["deck"]) if values["deck"] else None
    return _pages(request).render(request, "event.html", status=status, event=event, open=desk.is_open(event),
                                  info=desk.format_info(event), annotated=annotated, **values)


@router.get("/e/{event_id}", name="event_page", include_in_schema=False)
def event_page(event_id: str, request: Request):
    return _event_page(request, _desk(request).event(event_id))


@router.post("/e/{event_id}", include_in_schema=False)
async def event_post(event_id: str, request: Request):
    desk, pages = _desk(request), _pages(request)
    event = await run_in_threadpool(desk.event, event_id)
    form = await _form(request)
    player = str(form.get("player") or "")
    text = str(form.get("decklist") or "")
    if not pages.csrf_ok(request, form):
        return await run_in_threadpool(lambda: _event_page(request, event, 403, player=player, decklist=text, message=EXPIRED))
    try:
        text, filename = await _decklist_from(form, desk)
        if form.get("action") == "submit":
            submitted = await run_in_threadpool(desk.submit, event_id, player, text, filename)
            response = RedirectResponse(f"/r/{submitted.registration.id}", status_code=303)
            response.set_cookie(edit_cookie_name(submitted.registration.id), submitted.edit_token, max_age=EDIT_COOKIE_DAYS * 86400,
                                path=f"/r/{submitted.registration.id}", httponly=True, samesite="lax", secure=pages.secure)
            return response
        deck = await run_in_threadpool(desk.check, event, text, filename)
        return await run_in_threadpool(lambda: _event_page(request, event, player=player, decklist=text, deck=deck))
    except DeskError as exc:
        error = exc
        return await run_in_threadpool(lambda: _event_page(request, event, error.status, player=player, decklist=text,
                                                           deck=error.deck, message=error.message))


def _receipt(request: Request, registration, token: str, status: int = 200, **values):
    desk = _desk(request)
    event = desk.event(registration.event_id)
    deck = values.pop("deck", None)
    decklist = values.pop("decklist", registration.latest.decklist)
    shown = deck or registration.latest.deck
    return _pages(request).render(
        request, "receipt.html", status=status, event=event, registration=registration, token=token,
        open=desk.is_open(event), versions=desk.versions(registration), decklist=decklist, checked=deck is not None,
        annotated=annotate(decklist, shown), deck=shown, player=values.pop("player", registration.player),
        message=values.pop("message", None), **values)


def _edit_token(request: Request, registration_id: str) -> str | None:
    return request.cookies.get(edit_cookie_name(registration_id))


@router.get("/r/{registration_id}", include_in_schema=False)
def receipt(registration_id: str, request: Request):
    desk = _desk(request)
    token = _edit_token(request, registration_id)
    try:
        registration = desk.authorise(registration_id, token)
    except Forbidden:
        return _pages(request).render(request, "code.html", status=403 if token else 200, registration_id=registration_id,
                                      message="That edit code does not open this registration." if token else None)
    return _receipt(request, registration, token)


@router.post("/r/{registration_id}/code", include_in_schema=False)
async def receipt_code(registration_id: str, request: Request):
    desk, pages = _desk(request), _pages(request)
    form = await _form(request)
    code = str(form.get("code") or "").strip()
    if not pages.csrf_ok(request, form):
        return pages.render(request, "code.html", status=403, registration_id=registration_id, message=EXPIRED)
    try:
        await run_in_threadpool(desk.authorise, registration_id, code)
    except Forbidden:
        return pages.render(request, "code.html", status=403, registration_id=registration_id,
                            message="That edit code does not open this registration.")
    response = RedirectResponse(f"/r/{registration_id}", status_code=303)
    response.set_cookie(edit_cookie_name(registration_id), code, max_age=EDIT_COOKIE_DAYS * 86400,
                        path=f"/r/{registration_id}", httponly=True, samesite="lax", secure=pages.secure)
    return response


@router.post("/r/{registration_id}", include_in_schema=False)
async def receipt_post(registration_id: str, request: Request):
    desk, pages = _desk(request), _pages(request)
    token = _edit_token(request, registration_id)
    registration = await run_in_threadpool(desk.authorise, registration_id, token)
    form = await _form(request)
    player = str(form.get("player") or "")
    text = str(form.get("decklist") or "")
    if not pages.csrf_ok(request, form):
        return await run_in_threadpool(lambda: _receipt(request, registration, token, 403, player=player, decklist=text, message=EXPIRED))
    try:
        text, filename = await _decklist_from(form, desk)
        if form.get("action") == "submit":
            await run_in_threadpool(desk.resubmit, registration_id, token, player, text, filename)
            return RedirectResponse(f"/r/{registration_id}", status_code=303)
        event = await run_in_threadpool(desk.event, registration.event_id)
        deck = await run_in_threadpool(desk.check, event, text, filename)
        return await run_in_threadpool(lambda: _receipt(request, registration, token, player=player, decklist=text, deck=deck))
    except DeskError as exc:
        error = exc
        return await run_in_threadpool(lambda: _receipt(request, registration, token, error.status, player=player, decklist=text,
                                                        deck=error.deck, message=error.message))


# -- organisers --------------------------------------------------------------------------------------
def _safe_next(path: str | None) -> str:
    """Only our own organiser pages: a login link cannot send the organiser elsewhere."""
    if path and path.startswith("/admin") and not urlsplit(path).netloc and not path.startswith("//"):
        return path
    return "/admin"


@router.get("/admin/login", include_in_schema=False)
def login_page(request: Request, next: str | None = None):
    return _pages(request).render(request, "login.html", next=_safe_next(next), message=None)


@router.post("/admin/login", include_in_schema=False)
async def login(request: Request):
    pages = _pages(request)
    form = await _form(request)
    target = _safe_next(str(form.get("next") or ""))
    if not pages.csrf_ok(request, form):
        return pages.render(request, "login.html", status=403, next=target, message=EXPIRED)
    organiser = request.app.state.organiser
    if not organiser.bearer_ok("Bearer " + str(form.get("token") or "")):
        return pages.render(request, "login.html", status=401, next=target, message="That is not the organiser token.")
    response = RedirectResponse(target, status_code=303)
    response.set_cookie("fc_organiser", organiser.new_session(), httponly=True, samesite="lax", secure=pages.secure, path="/")
    return response


@router.post("/admin/logout", include_in_schema=False)
async def logout(request: Request):
    form = await _form(request)
    if not _pages(request).csrf_ok(request, form):
        return _pages(request).error(request, 403, EXPIRED)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie("fc_organiser", path="/")
    return response


def _admin_home(request: Request, status: int = 200, message: str | None = None, values: dict | None = None):
    desk = _desk(request)
    return _pages(request).render(request, "admin_home.html", status=status, events=desk.events(), formats=desk.formats(),
                                  message=message, values=values or {}, now=desk.clock())


@router.get("/admin", include_in_schema=False)
def admin_home(request: Request):
    _organiser(request)
    return _admin_home(request)


@router.post("/admin/events", include_in_schema=False)
async def admin_create_event(request: Request):
    _organiser(request)
    desk, pages = _desk(request), _pages(request)
    form = await _form(request)
    values = {k: str(form.get(k) or "") for k in ("name", "format", "date", "deadline")}
    if not pages.csrf_ok(request, form):
        return await run_in_threadpool(_admin_home, request, 403, EXPIRED, values)
    try:
        event = await run_in_threadpool(desk.create_event, values["name"], values["format"], values["date"], values["deadline"])
    except DeskError as exc:
        return await run_in_threadpool(_admin_home, request, exc.status, exc.message, values)
    return RedirectResponse(f"/admin/events/{event.id}", status_code=303)


@router.get("/admin/events/{event_id}", include_in_schema=False)
def admin_event(event_id: str, request: Request):
    _organiser(request)
    desk = _desk(request)
    event = desk.event(event_id)
    rows = desk.table(event)
    return _pages(request).render(
        request, "admin_event.html", event=event, rows=rows, open=desk.is_open(event), info=desk.format_info(event),
        share=str(request.url_for("event_page", event_id=event.id)), audit=desk.audit(event)[-30:][::-1],
        counts={"registrations": len(rows), "legal": sum(r.status == "legal" for r in rows),
                "illegal": sum(r.status == "illegal" for r in rows)})


@router.get("/admin/events/{event_id}/sheets", include_in_schema=False)
def admin_sheets(event_id: str, request: Request, registration: str | None = None):
    _organiser(request)
    desk = _desk(request)
    event = desk.event(event_id)
    return _pages(request).render(request, "sheets.html", event=event, info=desk.format_info(event),
                                  sheets=desk.sheets(event, registration))


def _admin_registration(request: Request, registration_id: str, status: int = 200, **values):
    desk = _desk(request)
    registration = desk.registration(registration_id)
    event = desk.event(registration.event_id)
    values.setdefault("verdict", None)
    values.setdefault("played", "")
    values.setdefault("message", None)
    return _pages(request).render(
        request, "admin_registration.html", status=status, event=event, registration=registration,
        versions=desk.versions(registration), annotated=annotate(registration.latest.decklist, registration.latest.deck),
        deck=registration.latest.deck, audit=desk.audit(event, registration.id)[::-1], **values)


@router.get("/admin/registrations/{registration_id}", include_in_schema=False)
def admin_registration(registration_id: str, request: Request):
    _organiser(request)
    return _admin_registration(request, registration_id)


@router.post("/admin/registrations/{registration_id}/verify", include_in_schema=False)
async def admin_verify(registration_id: str, request: Request):
    _organiser(request)
    desk, pages = _desk(request), _pages(request)
    form = await _form(request)
    played = str(form.get("played") or "")
    if not pages.csrf_ok(request, form):
        return await run_in_threadpool(lambda: _admin_registration(request, registration_id, 403, played=played, message=EXPIRED))
    try:
        verdict = await run_in_threadpool(desk.verify, registration_id, played)
    except DeskError as exc:
        error = exc
        return await run_in_threadpool(lambda: _admin_registration(request, registration_id, error.status, played=played, message=error.message))
    return await run_in_threadpool(lambda: _admin_registration(request, registration_id, played=played, verdict=verdict))


__all__ = ["router"]
