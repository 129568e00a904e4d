"""What the registration desk does, whatever the door (HTML form or JSON API): the business rules.

Routes only translate HTTP to these calls, and templates only show what these return. Checks
go through ``forcecheck.api`` (a Checker over the Session ``serve`` built) on two lanes, a thread
each with its own Checker (a Checker serves one thread at a time): lists over ``LARGE_BYTES`` on
one, every other on the other, so a large list never makes an ordinary one wait behind it.
Storage goes through ``Store``. Deadlines are judged by the server's clock, against the time
the request arrived (never the client's clock, nor the time the desk got to the request).
"""

from __future__ import annotations

import math
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from typing import Any, Callable

from forcecheck.api import Checker, DecklistTooLarge
from forcecheck.errors import ForcecheckError
from forcecheck.web import names
from forcecheck.web.security import new_id, new_token, token_hash, token_matches
from forcecheck.web.storage import Event, NewVersion, Registration, Store, Version, utc_now

LARGE_BYTES = 64 * 1024
"""A list over this size is checked on the large-list lane (real decklists are a few KiB)."""
PAGE_ROWS = 50
"""Registrations per page of the organiser's table."""


class DeskError(Exception):
    """A request the desk refuses, with the HTTP status that says why and one line for people."""

    status = 400

    def __init__(self, message: str, deck: dict | None = None):
        super().__init__(message)
        self.message = message
        self.deck = deck


class Unauthorized(DeskError):
    """An organiser's call without the organiser token."""

    status = 401


class NotFound(DeskError):
    status = 404


class Forbidden(DeskError):
    status = 403


class Closed(DeskError):
    """The deadline has passed: the list is locked."""

    status = 409


class Invalid(DeskError):
    status = 422


class TooLarge(DeskError):
    status = 413


@dataclass
class Submitted:
    registration: Registration
    deck: dict[str, Any]
    edit_token: str | None = None
    """Given once, when the registration is created; only its hash is stored."""


@dataclass
class Line:
    number: int
    text: str
    findings: list[dict] = field(default_factory=list)
    corrections: list[dict] = field(default_factory=list)

    @property
    def worst(self) -> str | None:
        """"error" when a finding on the line is an error, "warning" for warnings only, else None
        (the page marks the line accordingly: an assumption is not a problem)."""
        if any(f.get("severity") == "error" for f in self.findings):
            return "error"
        return "warning" if self.findings else None


@dataclass
class Annotated:
    """A decklist's lines with each finding and correction beside its line; ``general`` holds
    findings about no one line (deck-wide)."""

    lines: list[Line]
    general: list[dict]


@dataclass
class RegistrationRow:
    registration: Registration
    status: str
    duplicate_player: bool
    duplicate_deck: bool

    @property
    def errors(self) -> int:
        return sum(1 for v in self.registration.latest.deck.get("violations", ()) if v["severity"] == "error")

    @property
    def codes(self) -> list[str]:
        return sorted({v["code"] for v in self.registration.latest.deck.get("violations", ())})


@dataclass
class TablePage:
    """One page of the organiser's table, searched and sorted."""

    rows: list[RegistrationRow]
    matched: int
    total: int
    page: int
    pages: int
    first: int
    """The number of the page's first row among the matched (1-based; 0 when none matched)."""
    query: str
    sort: str
    descending: bool
    counts: dict[str, int]


SORTS = {
    "status": lambda r: (r.status != "illegal", names.sort_key(r.registration.player)),
    "player": lambda r: (names.sort_key(r.registration.player), r.registration.id),
    "problems": lambda r: (r.errors, names.sort_key(r.registration.player)),
    "version": lambda r: (r.registration.latest.version, names.sort_key(r.registration.player)),
    "submitted": lambda r: (r.registration.latest.submitted_at, r.registration.id),
}


class Desk:
    def __init__(self, store: Store, checker: Checker, clock: Callable[[], datetime] = utc_now):
        self.store = store
        self.checker = checker
        self.clock = clock
        self._checks = ThreadPoolExecutor(max_workers=1, thread_name_prefix="forcecheck-check")
        self._large = ThreadPoolExecutor(max_workers=1, thread_name_prefix="forcecheck-check-large")
        self._large_checker: Checker | None = None

    def close(self) -> None:
        self._checks.shutdown(wait=True)
        self._large.shutdown(wait=True)
        self.store.close()

    def _run(self, fn, *args, size: int = 0):
        """Run a call with a Checker on its lane's thread and wait for it: ``fn(checker, *args)``."""
        if size > LARGE_BYTES:
            return self._large.submit(lambda: fn(self._large_lane(), *args)).result()
        return self._checks.submit(lambda: fn(self.checker, *args)).result()

    def _large_lane(self) -> Checker:
        if self._large_checker is None:
            self._large_checker = self.checker.twin()
        return self._large_checker

    # -- events ------------------------------------------------------------------------------------
    def formats(self) -> list[str]:
        return self._run(Checker.format_names)

    def create_event(self, name: str, format_name: str, event_date: str, deadline: str | datetime) -> Event:
        name = clean_name(name, "event name")
        try:
            day = date.fromisoformat(str(event_date).strip()).isoformat()
        except ValueError:
            raise Invalid(f"date {event_date!r} is not a date (YYYY-MM-DD)") from None
        closes = parse_deadline(deadline)
        try:
            banlist = self._run(Checker.banlist_for, format_name, day)
        except ForcecheckError as exc:
            raise Invalid(f"format {format_name!r} cannot be used: {exc}") from None
        now = self.clock()
        event = Event(new_id(), name, format_name, day, closes, banlist, now)
        return self.store.create_event(event, actor="organiser")

    def event(self, event_id: str) -> Event:
        found = self.store.event(event_id)
        if found is None:
            raise NotFound(f"no event {event_id!r}")
        return found

    def events(self) -> list[Event]:
        return self.store.events()

    def is_open(self, event: Event, at: datetime | None = None) -> bool:
        return event.is_open(at or self.clock())

    def format_info(self, event: Event):
        return self._run(Checker.describe_format, event.format, event.date)

    # -- checking ----------------------------------------------------------------------------------
    def decode_upload(self, data: bytes, filename: str) -> str:
        try:
            return Checker.decode_upload(data, filename)
        except DecklistTooLarge as exc:
            raise TooLarge(str(exc)) from None
        except ForcecheckError as exc:
            raise Invalid(str(exc)) from None

    def check(self, event: Event, text: str, filename: str = "decklist.txt") -> dict[str, Any]:
        """The JSON deck object for ``text`` under the event's format and date (nothing stored)."""
        try:
            return self._run(Checker.check_text, text, event.format, event.date, filename, size=len(text))
        except DecklistTooLarge as exc:
            raise TooLarge(str(exc)) from None
        except ForcecheckError as exc:
            raise Invalid(str(exc)) from None

    def _checked_version(self, event: Event, player: str, text: str, filename: str) -> NewVersion:
        try:
            deck, contents = self._run(Checker.check_with_contents, text, event.format, event.date, filename, size=len(text))
        except DecklistTooLarge as exc:
            raise TooLarge(str(exc)) from None
        except ForcecheckError as exc:
            raise Invalid(str(exc)) from None
        if deck.get("error"):
            raise Invalid(deck["error"], deck)
        return NewVersion(player, filename, text, deck, contents)

    # -- players -----------------------------------------------------------------------------------
    def submit(self, event_id: str, player: str, text: str, filename: str = "decklist.txt",
               arrived: datetime | None = None) -> Submitted:
        """A new registration (version 1). Illegal lists are registered too (the organiser sees
        them first); a list forcecheck cannot read at all is refused with its error. ``arrived``
        (default: now) is judged against the deadline and recorded as the version's time."""
        arrived = arrived or self.clock()
        event = self.event(event_id)
        player = clean_name(player, "player name")
        self._require_open(event, arrived)
        new = self._checked_version(event, player, text, clean_filename(filename))
        token = new_token()
        registration = self.store.add_registration(event.id, new_id(12), token_hash(token), new, arrived, actor="player")
        return Submitted(registration, new.deck, token)

    def resubmit(self, registration_id: str, edit_token: str | None, player: str, text: str, filename: str = "decklist.txt",
                 arrived: datetime | None = None) -> Submitted:
        """A new version of the player's own registration, if it arrived before the deadline."""
        arrived = arrived or self.clock()
        registration = self.authorise(registration_id, edit_token)
        event = self.event(registration.event_id)
        player = clean_name(player, "player name")
        self._require_open(event, arrived)
        new = self._checked_version(event, player, text, clean_filename(filename))
        return Submitted(self.store.add_version(registration.id, new, arrived, actor="player"), new.deck)

    def authorise(self, registration_id: str, edit_token: str | None) -> Registration:
        """The registration, if ``edit_token`` is its own; Forbidden otherwise (also for an id
        that does not exist, so ids cannot be probed)."""
        registration = self.store.registration(registration_id)
        if registration is None:
            token_matches(edit_token, "0" * 64)  # same work either way
            raise Forbidden("this edit token does not open this registration")
        if not token_matches(edit_token, registration.token_hash):
            raise Forbidden("this edit token does not open this registration")
        return registration

    def _require_open(self, event: Event, arrived: datetime) -> None:
        if not self.is_open(event, arrived):
            raise Closed(f"registration for {event.name} closed at {show_time(event.deadline)}; the list is locked")

    def versions(self, registration: Registration) -> list[Version]:
        return self.store.versions(registration.id)

    # -- organisers --------------------------------------------------------------------------------
    def registration(self, registration_id: str) -> Registration:
        found = self.store.registration(registration_id)
        if found is None:
            raise NotFound(f"no registration {registration_id!r}")
        return found

    def table(self, event: Event) -> list[RegistrationRow]:
        """The event's registrations, illegal first, players registered twice (names a person
        would read as one: names.same_player_key) and decks registered by two players flagged."""
        regs = self.store.registrations(event.id)
        players: dict[str, int] = {}
        decks: dict[str, int] = {}
        for reg in regs:
            key = names.same_player_key(reg.player)
            players[key] = players.get(key, 0) + 1
            if reg.latest.fingerprint:
                decks[reg.latest.fingerprint] = decks.get(reg.latest.fingerprint, 0) + 1
        rows = [
            RegistrationRow(reg, "legal" if reg.latest.legal else "illegal", players[names.same_player_key(reg.player)] > 1,
                            bool(reg.latest.fingerprint) and decks[reg.latest.fingerprint] > 1)
            for reg in regs
        ]
        rows.sort(key=lambda r: (*SORTS["status"](r), r.registration.created_at))
        return rows

    def table_page(self, event: Event, query: str = "", sort: str = "status", descending: bool = False,
                   page: int = 1, per_page: int = PAGE_ROWS) -> TablePage:
        """A page of the table: rows whose player, registration id, fingerprint, status or rule
        codes hold ``query`` (case and width aside), sorted by ``sort``."""
        rows = self.table(event)
        counts = {"registrations": len(rows), "legal": sum(r.status == "legal" for r in rows),
                  "illegal": sum(r.status == "illegal" for r in rows)}
        query = " ".join((query or "").split())[:200]
        if query:
            wanted = names.sort_key(query)
            rows = [r for r in rows if wanted in names.sort_key(" ".join((
                r.registration.player, r.registration.id, r.registration.latest.fingerprint or "", r.status, *r.codes)))]
        sort = sort if sort in SORTS else "status"
        rows.sort(key=SORTS[sort], reverse=descending)
        pages = max(1, math.ceil(len(rows) / per_page))
        page = min(max(1, page), pages)
        shown = rows[(page - 1) * per_page: page * per_page]
        return TablePage(shown, len(rows), counts["registrations"], page, pages, (page - 1) * per_page + 1 if shown else 0,
                         query, sort, descending, counts)

    def export(self, event: Event) -> tuple[list[dict], dict]:
        """The rows and summary of ``forcecheck register``'s table (register.deck_row), one row
        per registration (its last version), ``file`` being the registration id."""
        from forcecheck.register import deck_row, finish

        rows = [deck_row({**reg.latest.deck, "player": reg.player}, reg.id, reg.player, event.format)
                for reg in self.store.registrations(event.id)]
        rows, summary = finish(rows)
        summary.update({"format": event.format, "as_of": event.date, "event": event.name, "event_id": event.id,
                        "catalog": self._run(lambda checker: checker.catalog.label)})
        return rows, summary

    def sheets(self, event: Event, registration_id: str | None = None) -> list[dict[str, Any]]:
        """One deck registration sheet per registration (its last version), by player name."""
        regs = [self.registration(registration_id)] if registration_id else self.store.registrations(event.id)
        if registration_id and regs[0].event_id != event.id:
            raise NotFound(f"no registration {registration_id!r} in this event")
        sheets = []
        for reg in sorted(regs, key=lambda r: names.sort_key(r.player)):
            ruler = reg.latest.deck.get("ruler")
            sheets.append({
                "registration": reg, "player": reg.player, "version": reg.latest.version,
                "ruler": " / ".join(ruler) if isinstance(ruler, list) else ruler,
                "sections": reg.latest.contents, "fingerprint": reg.latest.fingerprint, "legal": reg.latest.legal,
                "submitted_at": reg.latest.submitted_at,
            })
        return sheets

    def verify(self, registration_id: str, played: str, filename: str = "played.txt") -> dict[str, Any]:
        """``forcecheck verify``'s answer for the list played at the table against the
        registered one (the last version); recorded in the audit log."""
        registration = self.registration(registration_id)
        event = self.event(registration.event_id)
        registered = registration.latest
        try:
            answer = self._run(Checker.verify_texts, registered.decklist, played, event.format, event.date,
                               (registered.filename, clean_filename(filename)), size=max(len(played), len(registered.decklist)))
        except DecklistTooLarge as exc:
            raise TooLarge(str(exc)) from None
        except ForcecheckError as exc:
            raise Invalid(str(exc)) from None
        self.store.log("organiser", "verify", event.id, registration.id,
                       {"version": registered.version, "status": answer["status"], "ok": answer["ok"]})
        return answer

    def audit(self, event: Event, registration_id: str | None = None):
        return self.store.audit(event.id, registration_id)


def annotate(text: str, deck: dict[str, Any]) -> Annotated:
    """Each line of the list with the findings and corrections on it (what the player reads)."""
    lines = [Line(i, t) for i, t in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1)]
    if lines and lines[-1].text == "" and len(lines) > 1:
        lines.pop()
    general = []
    for finding in deck.get("violations") or []:
        number = finding.get("line")
        if number and 1 <= number <= len(lines):
            lines[number - 1].findings.append(finding)
        else:
            general.append(finding)
    if deck.get("error"):
        general.append({"severity": "error", "code": "", "message": deck["error"]})
    for correction in deck.get("corrections") or []:
        number = correction.get("line")
        if number and 1 <= number <= len(lines):
            line = lines[number - 1]
            said = any(f.get("code") == "FC012" and str(correction.get("written")) in str(f.get("message")) for f in line.findings)
            if not said:  # shown on its own only where no name-corrected finding says it (FC012 ignored)
                line.corrections.append(correction)
    return Annotated(lines, general)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def clean_name(value: str | None, what: str) -> str:
    """A name as typed (names.clean_name); a refused one is 422 with its reason."""
    try:
        return names.clean_name(value, what)
    except names.NameRefused as exc:
        raise Invalid(str(exc)) from None


def clean_filename(name: str | None) -> str:
    """The base name of an uploaded file (browsers may send a path), ``decklist.txt`` if none."""
    base = re.split(r"[\\/]", name or "")[-1].strip()
    return base[:100] if base and not _CONTROL.search(base) else "decklist.txt"


def parse_deadline(value: str | datetime) -> datetime:
    """An ISO 8601 date-time; without an offset it is the server's local time (an organiser
    types the deadline as the clock on the wall shows it)."""
    if isinstance(value, datetime):
        moment = value
    else:
        try:
            moment = datetime.fromisoformat(str(value).strip().replace("Z", "+00:00"))
        except ValueError:
            raise Invalid(f"deadline {value!r} is not a date and time (YYYY-MM-DDTHH:MM)") from None
    if moment.tzinfo is None:
        moment = moment.astimezone()  # the server's local zone
    return moment.astimezone(timezone.utc)


def show_time(moment: datetime) -> str:
    """A moment in the server's local time, with its zone: deadlines are the server's."""
    local = moment.astimezone()
    return local.strftime("%Y-%m-%d %H:%M ") + (local.tzname() or "")
