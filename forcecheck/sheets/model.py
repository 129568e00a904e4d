"""What one deck registration sheet holds, and the words printed on it.

The words are English here, each marked with ``N_`` so the desk's message catalogs carry them
(``pybabel extract`` reads this file): the desk prints a sheet in the reader's language by
translating each, ``forcecheck sheet`` prints them as they are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


def N_(text: str) -> str:
    """Marks a string for the message catalogs; translated where it is printed."""
    return text


LABELS: dict[str, str] = {
    "title": N_("Deck registration sheet"),
    "continued": N_("continued"),
    "event": N_("Event"),
    "date": N_("Date"),
    "format": N_("Format"),
    "banlist": N_("Banlist"),
    "player": N_("Player"),
    "player_id": N_("Player ID"),
    "registration": N_("Registration"),
    "ruler": N_("Ruler"),
    "none": N_("none"),
    "unknown_card": N_("unknown card"),
    "total": N_("Total"),
    "cards": N_("cards"),
    "fingerprint": N_("Fingerprint"),
    "version": N_("Version"),
    "submitted": N_("submitted"),
    "legal": N_("legal when submitted"),
    "not_legal": N_("NOT LEGAL when submitted"),
    "page": N_("page"),
    "player_signature": N_("Player's signature"),
    "judge_signature": N_("Judge"),
    "judges_page": N_("Judges: this registration"),
    "empty_title": N_("No registrations yet"),
    "empty_text": N_("This event has no registered lists to print. Sheets are made from the registrations: print them once players have registered."),
}


@dataclass
class Sheet:
    """One registration (or one deck printed at home) as its sheet shows it."""

    player: str | None
    sections: list[dict[str, Any]]
    """``api.Checker.contents``: each with ``title``, ``count`` and ``cards`` (``name``, ``count``, ``known``)."""
    event: str | None = None
    date: str | None = None
    format_title: str = ""
    banlist: str | None = None
    player_id: str | None = None
    ruler: str | None = None
    fingerprint: str | None = None
    version: int | None = None
    submitted: str | None = None
    legal: bool | None = None
    url: str | None = None
    """The registration's page for judges: printed as a QR code with the address under it."""
    registration: str | None = None
    """The registration's id, printed where there is no address for a QR code."""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(int(s.get("count") or 0) for s in self.sections)

    def texts(self) -> list[str]:
        """Every text the sheet prints from the deck and the event (what its fonts must cover)."""
        out = [self.player or "", self.event or "", self.date or "", self.format_title, self.banlist or "", self.player_id or "",
               self.ruler or "", self.fingerprint or "", self.submitted or "", self.url or "", self.registration or ""]
        for section in self.sections:
            out.append(str(section.get("title", "")))
            out.extend(str(card.get("name", "")) for card in section.get("cards", ()))
        return out
