"""The desk's PDF deck sheets (``GET /api/events/{id}/sheets.pdf``): the registrations' last
versions as ``forcecheck.sheets`` prints them, by player name, in the organiser's language.

Each sheet's QR code is the registration's page for judges, at the address ``serve
--public-url`` gives; without one the desk knows no address a phone could open, so sheets
carry no QR code (the registration id is printed instead) and the event page says why.
"""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import Response

from forcecheck.web.desk import N_, Desk, DeskError


class CannotPrint(DeskError):
    """The sheets cannot be made on this machine (no font for a name): the organiser's to fix."""

    status = 500


def sheets_response(request: Request, desk: Desk, event, registration_id: str | None) -> Response:
    from forcecheck.sheets.fonts import NoFontFor
    from forcecheck.sheets.model import Sheet
    from forcecheck.sheets.pdf import write_sheets
    from forcecheck.web import i18n

    pages = request.app.state.pages
    lang = pages.language(request)
    _ = i18n.translations(lang).gettext
    info = desk.format_info(event)
    titles = i18n.section_titles(info, lang)
    links = request.app.state.links
    absolute = bool(links.base)
    sheets = []
    for found in desk.sheets(event, registration_id):
        reg = found["registration"]
        sections = [{**s, "title": titles.get(s.get("id"), s.get("title"))} for s in found["sections"]]
        sheets.append(Sheet(
            player=found["player"], sections=sections, event=event.name, date=event.date, format_title=info.title,
            banlist=event.banlist or _("none"), player_id=found["player_id"] if event.player_ids != "off" else None,
            ruler=found["ruler"], fingerprint=found["fingerprint"], version=found["version"],
            submitted=_when(found["submitted_at"]), legal=found["legal"],
            url=links(f"/admin/registrations/{reg.id}") if absolute else None, registration=reg.id,
            extra={"player_id_line": event.player_ids != "off"}))
    try:
        data = write_sheets(sheets, translate=_, event=event.name)
    except NoFontFor as exc:
        raise CannotPrint(N_("The deck sheets cannot be printed on this machine: {reason}"), reason=str(exc)) from None
    name = f"sheets-{event.id}" + (f"-{registration_id}" if registration_id else "") + ".pdf"
    return Response(data, media_type="application/pdf", headers={"Content-Disposition": f'inline; filename="{name}"'})


def _when(moment) -> str:
    from forcecheck.web.desk import show_time

    return show_time(moment)
