"""The JSON API (documented by the OpenAPI the app serves at /openapi.json): thin over Desk.

Errors are ``{"detail": "one line"}`` (``deps.wants_json``); organiser calls declare the one
organiser guard (``deps.organiser``); checks and submissions spend the client's allowance.
"""

from __future__ import annotations

import io
from typing import Any, Literal

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from forcecheck.register import write_json
from forcecheck.web.deps import allowance, arrived, bearer_ok, desk, is_organiser, organiser
from forcecheck.web.desk import Desk, Invalid, Submitted, Unauthorized, override

router = APIRouter(prefix="/api")
OrganiserOnly = [Depends(organiser)]
Limited = [Depends(allowance)]


class EventIn(BaseModel):
    name: str = Field(description="The event's name, as players will see it.")
    format: str = Field(description="Format name (`forcecheck formats list`).")
    date: str = Field(description="Event date, YYYY-MM-DD: the banlist versions in force that day apply.")
    deadline: str = Field(description="Submission deadline, ISO 8601; without an offset it is the server's local time.")
    player_id: Literal["off", "optional", "required"] = Field(
        "off", description="Whether each registration carries a player ID (KONAMI ID, FoW player number).")


class EventPatch(BaseModel):
    name: str | None = None
    date: str | None = Field(None, description="A new date: the banlist in force that day applies and every registration is checked again.")
    deadline: str | None = Field(None, description="A new deadline (extend it, or close lists early), ISO 8601.")
    reason: str | None = Field(None, max_length=2000, description="Why (kept in the audit log).")
    by: str | None = Field(None, description="Who made the change (kept in the audit log).")


class RegistrationIn(BaseModel):
    player: str
    decklist: str = Field(description="The decklist's text, in any shape forcecheck reads (text, YAML, .ydk).")
    filename: str | None = Field(None, description="Optional file name; its extension picks the reader (.ydk, .yaml, .txt).")
    player_id: str | None = Field(None, description="The player's ID, where the event takes them.")


class ResubmitIn(RegistrationIn):
    edit_token: str | None = Field(None, description="The edit_token returned when the registration was created (the player's call).")
    reason: str | None = Field(None, description="With the organiser token instead of an edit_token: why the organiser enters this list "
                                                 "on the player's behalf (required, at most 500 characters; in the audit log).")
    by: str | None = Field(None, description="Who entered it (in the audit log).")
    event: str | None = Field(None, description="The event the registration must belong to (a guard against a mistyped id).")


class OverrideIn(BaseModel):
    reason: str | None = Field(None, description="Why (required, at most 500 characters; in the audit log and on the event page).")
    by: str | None = Field(None, description="Who (in the audit log).")
    event: str | None = Field(None, description="The event the registration must belong to (a guard against a mistyped id).")


class PublishIn(BaseModel):
    registrations: Literal["all"] | list[str] = Field(description='"all", or the ids of the registrations to publish.')
    by: str | None = None


class DeckCheckIn(BaseModel):
    count: int | None = Field(None, description="How many registrations to pick at random.")
    seed: str | None = Field(None, description="The random pick's seed (given back; the same seed and earlier picks pick the same players).")
    registrations: list[str] | None = Field(None, description="Registrations the organiser adds by id (instead of a random pick).")


class DeckCheckVerifyIn(BaseModel):
    decklist: str = Field(description="The list played at the table.")


class RegistrationState(BaseModel):
    id: str
    event: str
    player: str
    player_id: str | None
    version: int
    unlocked: bool


class PublishedList(BaseModel):
    """A published list, for anyone: the player's ID (a personal number) is not published."""

    id: str
    player: str
    version: int
    fingerprint: str | None
    legal: bool
    sections: dict[str, int]
    canonical: str = Field(description="The list in canonical form (as `forcecheck fmt` writes it).")
    published_at: str


class PublishedLists(BaseModel):
    event: str
    name: str
    registrations: list[PublishedList]


class DeckCheckOut(BaseModel):
    id: int
    registration: str
    player: str
    player_id: str | None
    cycle: int
    how: Literal["random", "added"]
    seed: str | None
    picked_at: str
    outcome: dict[str, Any] | None
    outcome_at: str | None
    url: str


class DeckChecks(BaseModel):
    registrations: list[DeckCheckOut]


class DeckCheckVerified(BaseModel):
    deck_check: DeckCheckOut
    verify: dict[str, Any]


class DecklistIn(BaseModel):
    decklist: str
    filename: str | None = None


class VerifyIn(BaseModel):
    decklist: str = Field(description="The list played at the table.")


def registration_json(submitted: Submitted) -> dict[str, Any]:
    """The contract: ``id``, ``legal``, ``violations``, ``sections``, ``fingerprint`` (and
    ``edit_token`` once, on creation), with the deck's other fields beside them."""
    reg, deck = submitted.registration, submitted.deck
    out = {
        "id": reg.id, "event": reg.event_id, "player": reg.player, "version": reg.latest.version,
        "submitted_at": reg.latest.submitted_at.isoformat(),
        "legal": deck["legal"], "violations": deck["violations"], "sections": deck.get("sections", {}),
        "fingerprint": deck.get("fingerprint"), "format": deck.get("format"), "banlist": deck.get("banlist"),
        "ruler": deck.get("ruler"), "corrections": deck.get("corrections", []),
    }
    if submitted.edit_token:
        out["edit_token"] = submitted.edit_token
    return out


KEY_HEADER = "Idempotency-Key"
"""The IETF draft's header (draft-ietf-httpapi-idempotency-key-header): a submission sent again
with the same key is answered with what the first stored, and stores nothing."""
REPLAYED_HEADER = "Idempotent-Replayed"
KEY_DOC = ("A random key (16-255 visible ASCII characters, e.g. a UUID) for this submission: sent again with the same key, "
           "the call answers what the first stored (header Idempotent-Replayed: true) and stores nothing; the same key "
           "with another submission is 422. Keys are kept per event.")


def _answer(submitted: Submitted, status: int) -> JSONResponse:
    """The registration's JSON; a replayed answer says so in a header (its body is the first's)."""
    headers = {REPLAYED_HEADER: "true"} if submitted.replayed else None
    return JSONResponse(registration_json(submitted), status_code=status, headers=headers)


_BODY_DOC = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/RegistrationIn"}},
            "multipart/form-data": {"schema": {"type": "object", "required": ["player", "file"], "properties": {
                "player": {"type": "string"}, "file": {"type": "string", "format": "binary",
                                                        "description": "a .txt, .yaml or .ydk decklist"}}}},
        },
    }
}


async def _registration_body(request: Request, desk: Desk) -> tuple[str, str, str, str | None]:
    """(player, decklist text, filename, player ID) from a JSON body or a multipart upload."""
    kind = request.headers.get("content-type", "")
    if kind.startswith("multipart/form-data"):
        form = await request.form(max_part_size=request.app.state.config.body_limit)
        upload = form.get("file")
        if upload is None or isinstance(upload, str):
            raise Invalid("the multipart form needs a 'file' part (the decklist) and a 'player' field")
        data = await upload.read()
        text = await run_in_threadpool(desk.decode_upload, data, upload.filename or "decklist.txt")
        player_id = form.get("player_id")
        return str(form.get("player") or ""), text, upload.filename or "decklist.txt", str(player_id) if player_id is not None else None
    try:
        body = RegistrationIn.model_validate_json(await request.body())
    except ValueError as exc:
        raise Invalid(f"invalid request: expected JSON {{\"player\", \"decklist\"}} or a multipart upload ({_first_error(exc)})") from None
    return body.player, body.decklist, body.filename or "decklist.txt", body.player_id


def _first_error(exc: ValueError) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        first = errors()[0]
        return f"{'.'.join(str(p) for p in first['loc']) or 'body'}: {first['msg']}"
    return str(exc)


@router.get("/formats", summary="Formats an event may use")
def formats(the_desk: Desk = Depends(desk)) -> list[str]:
    return the_desk.formats()


@router.post("/events", status_code=201, summary="Create an event (organiser)", dependencies=OrganiserOnly)
def create_event(body: EventIn, request: Request, the_desk: Desk = Depends(desk)) -> dict[str, Any]:
    event = the_desk.create_event(body.name, body.format, body.date, body.deadline, body.player_id)
    return event.to_dict() | {"url": request.app.state.links(f"/e/{event.id}")}


@router.patch("/events/{event_id}", summary="Change an event's name, date or deadline (organiser)", dependencies=OrganiserOnly)
def update_event(event_id: str, body: EventPatch, the_desk: Desk = Depends(desk)) -> dict[str, Any]:
    event = the_desk.update_event(event_id, body.name, body.date, body.deadline, body.reason, body.by)
    return event.to_dict() | {"open": the_desk.is_open(event)}


@router.get("/events/{event_id}", summary="An event's public facts")
def get_event(event_id: str, the_desk: Desk = Depends(desk)) -> dict[str, Any]:
    event = the_desk.event(event_id)
    return event.to_dict() | {"open": the_desk.is_open(event)}


@router.post("/events/{event_id}/check", summary="Check a decklist for this event without registering it", dependencies=Limited)
def check(event_id: str, body: DecklistIn, the_desk: Desk = Depends(desk)) -> dict[str, Any]:
    return the_desk.check(the_desk.event(event_id), body.decklist, body.filename or "decklist.txt")


@router.post("/events/{event_id}/registrations", status_code=201, openapi_extra=_BODY_DOC, dependencies=Limited,
             summary="Register a decklist (JSON or multipart upload); returns the edit_token once")
async def register(event_id: str, request: Request,
                   idempotency_key: str | None = Header(None, alias=KEY_HEADER, description=KEY_DOC)) -> JSONResponse:
    the_desk = desk(request)
    player, text, filename, player_id = await _registration_body(request, the_desk)
    submitted = await run_in_threadpool(the_desk.submit, event_id, player, text, filename, arrived(request), player_id,
                                        idempotency_key)
    return _answer(submitted, 201)


@router.put("/registrations/{registration_id}", dependencies=Limited,
            summary="Resubmit your list (its edit_token), or enter one on the player's behalf (organiser token and a reason)")
def resubmit(registration_id: str, body: ResubmitIn, request: Request, the_desk: Desk = Depends(desk),
             idempotency_key: str | None = Header(None, alias=KEY_HEADER, description=KEY_DOC)) -> Any:
    filename = body.filename or "decklist.txt"
    if body.edit_token is None:
        if not bearer_ok(request):
            raise Unauthorized("give the registration's edit_token, or the organiser token (Authorization: Bearer) and a reason")
        why = override(body.reason, body.by)
        return registration_json(the_desk.edit_for_player(registration_id, body.player, body.decklist, why, filename,
                                                          body.player_id, body.event))
    submitted = the_desk.resubmit(registration_id, body.edit_token, body.player, body.decklist, filename, arrived(request),
                                  body.player_id, idempotency_key)
    return _answer(submitted, 200)


def _state(reg) -> RegistrationState:
    return RegistrationState(id=reg.id, event=reg.event_id, player=reg.player, player_id=reg.player_id,
                             version=reg.latest.version, unlocked=reg.unlocked)


@router.post("/registrations/{registration_id}/unlock", dependencies=OrganiserOnly,
             summary="Let this one player resubmit after the deadline, until locked (organiser; a reason)")
def unlock(registration_id: str, body: OverrideIn, the_desk: Desk = Depends(desk)) -> RegistrationState:
    return _state(the_desk.unlock(registration_id, override(body.reason, body.by), body.event))


@router.post("/registrations/{registration_id}/lock", dependencies=OrganiserOnly,
             summary="Lock an unlocked registration again (organiser; a reason)")
def lock(registration_id: str, body: OverrideIn, the_desk: Desk = Depends(desk)) -> RegistrationState:
    return _state(the_desk.lock(registration_id, override(body.reason, body.by), body.event))


@router.get("/registrations/{registration_id}", summary="Your registration (X-Edit-Token header) or any (organiser)")
def get_registration(registration_id: str, request: Request, the_desk: Desk = Depends(desk)) -> dict[str, Any]:
    if is_organiser(request):
        reg = the_desk.registration(registration_id)
    else:
        reg = the_desk.authorise(registration_id, request.headers.get("x-edit-token"))
    out = registration_json(Submitted(reg, reg.latest.deck))
    out["unlocked"] = reg.unlocked
    out["versions"] = [{"version": v.version, "submitted_at": v.submitted_at.isoformat(), "legal": v.legal,
                        "fingerprint": v.fingerprint, "player": v.player} for v in the_desk.versions(reg)]
    return out


@router.get("/events/{event_id}/registrations", summary="Every registration, illegal first (organiser)", dependencies=OrganiserOnly)
def list_registrations(event_id: str, the_desk: Desk = Depends(desk)) -> list[dict[str, Any]]:
    return [
        {"id": row.registration.id, "player": row.registration.player, "player_id": row.registration.player_id,
         "unlocked": row.registration.unlocked, "legal": row.registration.latest.legal,
         "status": row.status, "fingerprint": row.registration.latest.fingerprint, "version": row.registration.latest.version,
         "submitted_at": row.registration.latest.submitted_at.isoformat(),
         "duplicate_player": row.duplicate_player, "duplicate_deck": row.duplicate_deck}
        for row in the_desk.table(the_desk.event(event_id))
    ]


@router.get("/events/{event_id}/export.csv", summary="The registration table as `forcecheck register` writes it (organiser)",
            response_class=Response, dependencies=OrganiserOnly)
def export_csv(event_id: str, the_desk: Desk = Depends(desk)) -> Response:
    from forcecheck.web.exports import registrations_csv

    rows, _summary = the_desk.export(the_desk.event(event_id))
    return Response(registrations_csv(rows), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="registrations-{event_id}.csv"'})


@router.get("/events/{event_id}/export.json", dependencies=OrganiserOnly,
            summary="The registration table as JSON, as `forcecheck register` writes it (organiser)")
def export_json(event_id: str, the_desk: Desk = Depends(desk)) -> Response:
    rows, summary = the_desk.export(the_desk.event(event_id))
    out = io.StringIO()
    write_json(rows, summary, out)
    return Response(out.getvalue(), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="registrations-{event_id}.json"'})


@router.post("/registrations/{registration_id}/verify", summary="Verify the list played at the table (organiser)",
             dependencies=OrganiserOnly + Limited)
def verify(registration_id: str, body: VerifyIn, the_desk: Desk = Depends(desk)) -> dict[str, Any]:
    return the_desk.verify(registration_id, body.decklist)


@router.get("/events/{event_id}/audit", summary="The event's audit log (organiser)", dependencies=OrganiserOnly)
def audit(event_id: str, the_desk: Desk = Depends(desk)) -> JSONResponse:
    entries = the_desk.audit(the_desk.event(event_id))
    return JSONResponse([{"at": e.at.isoformat(), "actor": e.actor, "action": e.action,
                          "registration": e.registration_id, "detail": e.detail} for e in entries])


@router.get("/events/{event_id}/roster.csv", response_class=Response, dependencies=OrganiserOnly,
            summary="The players for pairing software: player, player_id, legal, registration (organiser)")
def roster_csv(event_id: str, the_desk: Desk = Depends(desk)) -> Response:
    from forcecheck.web.exports import roster_csv as write_roster

    return Response(write_roster(the_desk.roster(the_desk.event(event_id))), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="roster-{event_id}.csv"'})


# -- published lists ------------------------------------------------------------------------------------
@router.post("/events/{event_id}/publish", summary="Publish every list, or those named (organiser)", dependencies=OrganiserOnly)
def publish(event_id: str, body: PublishIn, request: Request, the_desk: Desk = Depends(desk)) -> PublishedLists:
    event = the_desk.event(event_id)
    the_desk.publish(event, body.registrations, body.by)
    return published(event_id, the_desk)


@router.get("/events/{event_id}/published", summary="The event's published lists (anyone; empty until published)")
def published(event_id: str, the_desk: Desk = Depends(desk)) -> PublishedLists:
    event = the_desk.event(event_id)
    return PublishedLists(event=event.id, name=event.name, registrations=[
        PublishedList(id=p.registration_id, player=p.player, version=p.version, fingerprint=p.fingerprint,
                      legal=p.legal, sections=p.sections, canonical=p.canonical, published_at=p.published_at.isoformat())
        for p in the_desk.published(event)])


# -- deck checks ----------------------------------------------------------------------------------------
def _deck_check_out(request: Request, the_desk: Desk, check, regs: dict | None = None) -> DeckCheckOut:
    reg = regs[check.registration_id] if regs else the_desk.registration(check.registration_id)
    return DeckCheckOut(id=check.id, registration=check.registration_id, player=reg.player, player_id=reg.player_id,
                        cycle=check.cycle, how=check.how, seed=check.seed, picked_at=check.picked_at.isoformat(),
                        outcome=check.outcome, outcome_at=check.outcome_at.isoformat() if check.outcome_at else None,
                        url=request.app.state.links(f"/admin/registrations/{check.registration_id}"))


def _registrations_by_id(the_desk: Desk, event) -> dict:
    return {r.id: r for r in the_desk.store.registrations(event.id)}


@router.post("/events/{event_id}/deckchecks", dependencies=OrganiserOnly,
             summary="Pick registrations for deck checks: {count, seed} at random, or {registrations: [ids]} by hand (organiser)")
def pick_deck_checks(event_id: str, body: DeckCheckIn, request: Request, the_desk: Desk = Depends(desk)) -> DeckChecks:
    event = the_desk.event(event_id)
    if body.registrations is not None and body.count is None:
        picks = the_desk.add_deck_checks(event, body.registrations)
    elif body.count is not None and body.registrations is None:
        picks = the_desk.pick_deck_checks(event, body.count, body.seed)
    else:
        raise Invalid('give either "count" (and a "seed") for a random pick, or "registrations" to add by id')
    regs = _registrations_by_id(the_desk, event)
    return DeckChecks(registrations=[_deck_check_out(request, the_desk, p, regs) for p in picks])


@router.get("/events/{event_id}/deckchecks", summary="Every deck check of the event, with its outcome (organiser)",
            dependencies=OrganiserOnly)
def list_deck_checks(event_id: str, request: Request, the_desk: Desk = Depends(desk)) -> DeckChecks:
    event = the_desk.event(event_id)
    regs = _registrations_by_id(the_desk, event)
    return DeckChecks(registrations=[_deck_check_out(request, the_desk, p, regs) for p in the_desk.deck_checks(event)])


@router.post("/deckchecks/{check_id}/verify", dependencies=OrganiserOnly + Limited,
             summary="Verify the list played at the table and record the outcome against the pick (organiser)")
def verify_deck_check(check_id: str, body: DeckCheckVerifyIn, request: Request, the_desk: Desk = Depends(desk)) -> DeckCheckVerified:
    check, answer = the_desk.verify_deck_check(check_id, body.decklist)
    return DeckCheckVerified(deck_check=_deck_check_out(request, the_desk, check), verify=answer)


# -- printed sheets -------------------------------------------------------------------------------------
@router.get("/events/{event_id}/sheets.pdf", response_class=Response, dependencies=OrganiserOnly,
            summary="Deck registration sheets as one PDF: a page per registration, by player name (organiser)")
def sheets_pdf(event_id: str, request: Request, registration: str | None = None, the_desk: Desk = Depends(desk)) -> Response:
    from forcecheck.web.printing import sheets_response

    return sheets_response(request, the_desk, the_desk.event(event_id), registration)
