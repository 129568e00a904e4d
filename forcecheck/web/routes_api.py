"""The JSON API (documented by the OpenAPI the app serves at /openapi.json): thin over Desk.

Errors are ``{"detail": "one line"}`` (``deps.wants_json``); organiser calls declare the one
organiser guard (``deps.organiser``); checks and submissions spend the client's allowance.
"""

from __future__ import annotations

import io
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from forcecheck.web.deps import allowance, arrived, desk, is_organiser, organiser
from forcecheck.web.desk import Desk, Invalid, Submitted

router = APIRouter(prefix="/api")
OrganiserOnly = [Depends(organiser)]
Limited = [Depends(allowance)]


class EventIn(BaseModel):
    name: str = Field(description="The event's name, as players will see it.")
    format: str = Field(description="Format name (`forcecheck formats list`).")
    date: str = Field(description="Event date, YYYY-MM-DD: the banlist versions in force that day apply.")
    deadline: str = Field(description="Submission deadline, ISO 8601; without an offset it is the server's local time.")


class RegistrationIn(BaseModel):
    player: str
    decklist: str = Field(description="The decklist's text, in any shape forcecheck reads (text, YAML, .ydk).")
    filename: str | None = Field(None, description="Optional file name; its extension picks the reader (.ydk, .yaml, .txt).")


class ResubmitIn(RegistrationIn):
    edit_token: str = Field(description="The edit_token returned when the registration was created.")


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


async def _registration_body(request: Request, desk: Desk) -> tuple[str, str, str]:
    """(player, decklist text, filename) from a JSON body or a multipart upload."""
    kind = request.headers.get("content-type", "")
    if kind.startswith("multipart/form-data"):
        form = await request.form(max_part_size=request.app.state.config.body_limit)
        upload = form.get("file")
        if upload is None or isinstance(upload, str):
            raise Invalid("the multipart form needs a 'file' part (the decklist) and a 'player' field")
        data = await upload.read()
        text = await run_in_threadpool(desk.decode_upload, data, upload.filename or "decklist.txt")
        return str(form.get("player") or ""), text, upload.filename or "decklist.txt"
    try:
        body = RegistrationIn.model_validate_json(await request.body())
    except ValueError as exc:
        raise Invalid(f"invalid request: expected JSON {{\"player\", \"decklist\"}} or a multipart upload ({_first_error(exc)})") from None
    return body.player, body.decklist, body.filename or "decklist.txt"


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
    event = the_desk.create_event(body.name, body.format, body.date, body.deadline)
    return event.to_dict() | {"url": request.app.state.links(f"/e/{event.id}")}


@router.get("/events/{event_id}", summary="An event's public facts")
def get_event(event_id: str, the_desk: Desk = Depends(desk)) -> dict[str, Any]:
    event = the_desk.event(event_id)
    return event.to_dict() | {"open": the_desk.is_open(event)}


@router.post("/events/{event_id}/check", summary="Check a decklist for this event without registering it", dependencies=Limited)
def check(event_id: str, body: DecklistIn, the_desk: Desk = Depends(desk)) -> dict[str, Any]:
    return the_desk.check(the_desk.event(event_id), body.decklist, body.filename or "decklist.txt")


@router.post("/events/{event_id}/registrations", status_code=201, openapi_extra=_BODY_DOC, dependencies=Limited,
             summary="Register a decklist (JSON or multipart upload); returns the edit_token once")
async def register(event_id: str, request: Request) -> dict[str, Any]:
    the_desk = desk(request)
    player, text, filename = await _registration_body(request, the_desk)
    submitted = await run_in_threadpool(the_desk.submit, event_id, player, text, filename, arrived(request))
    return registration_json(submitted)


@router.put("/registrations/{registration_id}", summary="Resubmit your list (needs its edit_token)", dependencies=Limited)
def resubmit(registration_id: str, body: ResubmitIn, request: Request, the_desk: Desk = Depends(desk)) -> dict[str, Any]:
    submitted = the_desk.resubmit(registration_id, body.edit_token, body.player, body.decklist, body.filename or "decklist.txt",
                                  arrived(request))
    return registration_json(submitted)


@router.get("/registrations/{registration_id}", summary="Your registration (X-Edit-Token header) or any (organiser)")
def get_registration(registration_id: str, request: Request, the_desk: Desk = Depends(desk)) -> dict[str, Any]:
    if is_organiser(request):
        reg = the_desk.registration(registration_id)
    else:
        reg = the_desk.authorise(registration_id, request.headers.get("x-edit-token"))
    out = registration_json(Submitted(reg, reg.latest.deck))
    out["versions"] = [{"version": v.version, "submitted_at": v.submitted_at.isoformat(), "legal": v.legal,
                        "fingerprint": v.fingerprint, "player": v.player} for v in the_desk.versions(reg)]
    return out


@router.get("/events/{event_id}/registrations", summary="Every registration, illegal first (organiser)", dependencies=OrganiserOnly)
def list_registrations(event_id: str, the_desk: Desk = Depends(desk)) -> list[dict[str, Any]]:
    return [
        {"id": row.registration.id, "player": row.registration.player, "legal": row.registration.latest.legal,
         "status": row.status, "fingerprint": row.registration.latest.fingerprint, "version": row.registration.latest.version,
         "submitted_at": row.registration.latest.submitted_at.isoformat(),
         "duplicate_player": row.duplicate_player, "duplicate_deck": row.duplicate_deck}
        for row in the_desk.table(the_desk.event(event_id))
    ]


@router.get("/events/{event_id}/export.csv", summary="The registration table as `forcecheck register` writes it (organiser)",
            response_class=Response, dependencies=OrganiserOnly)
def export_csv(event_id: str, the_desk: Desk = Depends(desk)) -> Response:
    from forcecheck.register import write_csv

    rows, _summary = the_desk.export(the_desk.event(event_id))
    out = io.StringIO()
    write_csv(rows, out)
    return Response(out.getvalue(), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="registrations-{event_id}.csv"'})


@router.get("/events/{event_id}/export.json", dependencies=OrganiserOnly,
            summary="The registration table as JSON, as `forcecheck register` writes it (organiser)")
def export_json(event_id: str, the_desk: Desk = Depends(desk)) -> Response:
    from forcecheck.register import write_json

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
