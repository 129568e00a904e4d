"""What the registration desk does, whatever the door (HTML form or JSON API): the business rules.

Routes only translate HTTP to these calls, and templates only show what these return. Checks
go through ``forcecheck.api`` (a Checker over the Session ``serve`` built) on two lanes, a thread
each with its own Checker (a Checker serves one thread at a time): lists over ``LARGE_BYTES`` on
one, every other on the other, so a large list never makes an ordinary one wait behind it.
Storage goes through ``Store``. Deadlines are judged by the server's clock, against the time
the request arrived (never the client's clock, nor the time the desk got to the request).

Why one module of this size: every operation of the desk (event, registration, deck check,
publication) is judged under the same event state and deadline rules, kept here in one place
between the routes (which only translate HTTP) and the store (which only stores).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from forcecheck.api import Checker, DecklistTooLarge
from forcecheck.errors import ForcecheckError
from forcecheck.register import deck_row, finish
from forcecheck.web import names
from forcecheck.web.security import new_id, new_token, token_hash, token_matches
from forcecheck.web.storage import (
    DeckCheck,
    Event,
    KeyedSubmission,
    KeyTaken,
    NewVersion,
    Publication,
    Registration,
    Store,
    SubmissionKey,
    Version,
    utc_now,
)

PLAYER_ID_MODES = ("off", "optional", "required")
"""Whether an event's registrations carry a player ID (KONAMI ID, FoW player number)."""
MAX_REASON_CHARS = 500
"""An organiser's reason for an override: a sentence or two, kept in the audit log."""
MAX_DECK_CHECK_PICK = 1000
MAX_SEED_CHARS = 100
LARGE_BYTES = 64 * 1024
"""A list over this size is checked on the large-list lane (real decklists are a few KiB)."""
PAGE_ROWS = 50
"""Registrations per page of the organiser's table."""


def N_(text: str) -> str:
    """Marks a string for the message catalogs (pages translate it where they show it)."""
    return text


NAMED = (N_("player name"), N_("event name"), N_("organiser's name"))
"""What clean_name calls the names it refuses (``what``: translated on pages)."""


class DeskError(Exception):
    """A request the desk refuses, with the HTTP status that says why and one line for people.
    The line is ``template`` filled with ``params`` (str.format): the API answers it in English,
    a page in the reader's language (params named ``what`` are words to translate too)."""

    status = 400

    def __init__(self, template: str, deck: dict | None = None, **params):
        message = template.format(**params) if params else template
        super().__init__(message)
        self.message = message
        self.template = template
        self.params = params
        self.deck = deck

    def said_in(self, gettext) -> str:
        """The message in a page's language."""
        params = {k: gettext(v) if k.startswith("what") and isinstance(v, str) else v for k, v in self.params.items()}
        try:
            return gettext(self.template).format(**params) if params else gettext(self.template)
        except (KeyError, IndexError, ValueError):  # a catalog entry that lost a placeholder: say it in English
            return self.message


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


class KeyReused(Invalid):
    """An idempotency key sent again with another submission (422, as the IETF draft says): the
    first one stands; ``stored`` is what it made (the player's page shows it)."""

    def __init__(self, template: str, stored: KeyedSubmission, **params):
        super().__init__(template, **params)
        self.stored = stored


class TooLarge(DeskError):
    status = 413


class Conflict(DeskError):
    """The request does not fit the state it meets (a registration of another event)."""

    status = 409


@dataclass(frozen=True)
class Override:
    """Who did an organiser's override and why: in the audit log and on the event page."""

    reason: str
    by: str | None = None

    def detail(self) -> dict[str, str]:
        return {"reason": self.reason, **({"by": self.by} if self.by else {})}


@dataclass
class Submitted:
    registration: Registration
    deck: dict[str, Any]
    edit_token: str | None = None
    """Given once, when the registration is created; only its hash is stored (given again to
    the same submission sent again with its idempotency key)."""
    replayed: bool = False
    """The answer of an earlier submission with the same idempotency key: nothing was stored now."""


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
        self._key_signer = None

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

    def create_event(self, name: str, format_name: str, event_date: str, deadline: str | datetime,
                     player_ids: str = "off") -> Event:
        name = clean_name(name, "event name")
        if player_ids not in PLAYER_ID_MODES:
            raise Invalid(f"player_id {player_ids!r} is not one of {', '.join(PLAYER_ID_MODES)}")
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
        event = Event(new_id(), name, format_name, day, closes, banlist, now, player_ids)
        return self.store.create_event(event, actor="organiser")

    def update_event(self, event_id: str, name: str | None = None, event_date: str | None = None,
                     deadline: str | datetime | None = None, reason: str | None = None, by: str | None = None) -> Event:
        """Change an event's name, date or deadline (extend it, or close lists early). A new
        date applies the banlist in force that day: every registration is checked again under
        it (a new version of the same list, in the audit log), so no stored verdict is stale."""
        event = self.event(event_id)
        why = {"reason": clean_reason(reason)} if reason not in (None, "") else {}
        if by:
            why["by"] = clean_name(by, "organiser's name")
        changes: dict[str, Any] = {}
        if name is not None:
            changes["name"] = clean_name(name, "event name")
        if deadline is not None:
            changes["deadline"] = parse_deadline(deadline)
        if event_date is not None:
            try:
                day = date.fromisoformat(str(event_date).strip()).isoformat()
            except ValueError:
                raise Invalid(f"date {event_date!r} is not a date (YYYY-MM-DD)") from None
            if day != event.date:
                try:
                    changes["banlist"] = self._run(Checker.banlist_for, event.format, day)
                except ForcecheckError as exc:
                    raise Invalid(f"format {event.format!r} cannot be used on {day}: {exc}") from None
                changes["date"] = day
        if not changes:
            raise Invalid("nothing to change: give a name, date or deadline")
        updated = self.store.update_event(event.id, changes, "organiser", why)
        if "date" in changes:
            self._recheck_all(updated, why)
        return updated

    def _recheck_all(self, event: Event, why: dict) -> None:
        """Each registration's last list checked again under the event's (new) date."""
        for reg in self.store.registrations(event.id):
            latest = reg.latest
            new = self._checked_version(event, latest.player, latest.decklist, latest.filename, latest.player_id)
            self.store.add_version(reg.id, new, self.clock(), "organiser", "registration.recheck",
                                   {"because": f"event date changed to {event.date}", **why})

    def event(self, event_id: str) -> Event:
        found = self.store.event(event_id)
        if found is None:
            raise NotFound(N_("no event {id!r}"), id=event_id)
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

    def _checked_version(self, event: Event, player: str, text: str, filename: str, player_id: str | None = None) -> NewVersion:
        try:
            deck, contents = self._run(Checker.check_with_contents, text, event.format, event.date, filename, size=len(text))
        except DecklistTooLarge as exc:
            raise TooLarge(str(exc)) from None
        except ForcecheckError as exc:
            raise Invalid(str(exc)) from None
        if deck.get("error"):
            raise Invalid(deck["error"], deck)
        return NewVersion(player, filename, text, deck, contents, player_id)

    # -- players -----------------------------------------------------------------------------------
    def submit(self, event_id: str, player: str, text: str, filename: str = "decklist.txt",
               arrived: datetime | None = None, player_id: str | None = None, key: str | None = None) -> Submitted:
        """A new registration (version 1). Illegal lists are registered too (the organiser sees
        them first); a list forcecheck cannot read at all is refused with its error. ``arrived``
        (default: now) is judged against the deadline and recorded as the version's time.
        ``key`` (the client's idempotency key): the same submission sent again with it is
        answered with what the first stored, after the deadline too; nothing is stored twice."""
        arrived = arrived or self.clock()
        event = self.event(event_id)
        player = clean_name(player, "player name")
        player_id = self.player_id_for(event, player_id)
        filename = clean_filename(filename)
        keyed = self._submission_key(event, key, "register", player, filename, text, player_id)
        if keyed is not None and (stored := self.store.keyed(event.id, keyed.key_hash)) is not None:
            return self._replay(event, key, keyed, stored)
        self._require_open(event, arrived)
        new = self._checked_version(event, player, text, filename, player_id)
        token = self.keyed_token(event, key) if keyed is not None else new_token()
        try:
            registration = self.store.add_registration(event.id, new_id(12), token_hash(token), new, arrived, actor="player", key=keyed)
        except KeyTaken as taken:  # the same key committed meanwhile (a retry while the first was in flight)
            return self._replay(event, key, keyed, taken.stored)
        return Submitted(registration, new.deck, token)

    def resubmit(self, registration_id: str, edit_token: str | None, player: str, text: str, filename: str = "decklist.txt",
                 arrived: datetime | None = None, player_id: str | None = None, key: str | None = None) -> Submitted:
        """A new version of the player's own registration, if it arrived before the deadline
        (or the organiser unlocked it). A player ID not given keeps the one registered. With
        ``key``, as :meth:`submit`: sent again, the version it stored is the answer."""
        arrived = arrived or self.clock()
        registration = self.authorise(registration_id, edit_token)
        event = self.event(registration.event_id)
        player = clean_name(player, "player name")
        player_id = self.player_id_for(event, registration.player_id if player_id is None else player_id)
        filename = clean_filename(filename)
        keyed = self._submission_key(event, key, "resubmit " + registration.id, player, filename, text, player_id)
        if keyed is not None and (stored := self.store.keyed(event.id, keyed.key_hash)) is not None:
            return self._replay(event, None, keyed, stored)
        if not self.can_edit(registration, event, arrived):
            raise Closed(N_("registration for {event} closed at {time}; the list is locked"), event=event.name, time=show_time(event.deadline))
        new = self._checked_version(event, player, text, filename, player_id)
        try:
            return Submitted(self.store.add_version(registration.id, new, arrived, actor="player", key=keyed, event_id=event.id), new.deck)
        except KeyTaken as taken:
            return self._replay(event, None, keyed, taken.stored)

    # -- idempotency keys --------------------------------------------------------------------------
    def _submission_key(self, event: Event, key: str | None, *request: str | None) -> SubmissionKey | None:
        """The stored form of a client's key: the hash of event and key (the key itself is never
        kept), and the hash of what came with it (which call, player, file name, list, ID)."""
        if key is None:
            return None
        key = clean_key(key)
        import hashlib
        import json

        digest = hashlib.sha256(json.dumps([event.id, key]).encode("utf-8")).hexdigest()
        return SubmissionKey(digest, hashlib.sha256(json.dumps(list(request), ensure_ascii=False).encode("utf-8")).hexdigest())

    def keyed_token(self, event: Event, key: str | None) -> str:
        """The edit token of a registration made with an idempotency key: derived from the key
        with the desk's secret (so the same submission sent again is given it again, with only
        its hash stored); as unguessable as a random token to whoever does not hold the key."""
        import base64

        from forcecheck.web.security import Signer

        if self._key_signer is None:
            self._key_signer = Signer(self.store.secret("submission-keys"))
        signature = self._key_signer.sign("edit-token", event.id, clean_key(key or ""))
        return base64.urlsafe_b64encode(bytes.fromhex(signature)).rstrip(b"=").decode("ascii")

    def _replay(self, event: Event, key: str | None, keyed: SubmissionKey, stored: KeyedSubmission) -> Submitted:
        """The stored answer of the key's first submission; 422 when the key came with another."""
        if stored.request_hash != keyed.request_hash:
            raise KeyReused(N_("this Idempotency-Key came with another submission before (that one is stored): "
                               "a new submission needs a new key"), stored)
        registration = self.store.registration_at(stored.registration_id, stored.version)
        if registration is None:  # the key's rows are written together: only a hand-edited database gets here
            raise NotFound(N_("no registration {id!r}"), id=stored.registration_id)
        token = self.keyed_token(event, key) if key is not None else None
        return Submitted(registration, registration.latest.deck, token, replayed=True)

    def can_edit(self, registration: Registration, event: Event, at: datetime | None = None) -> bool:
        """Before the deadline, or after it while the organiser has unlocked this registration."""
        return registration.unlocked or self.is_open(event, at)

    def player_id_for(self, event: Event, value: str | None) -> str | None:
        """The player ID a registration of ``event`` stores: 422 when the event requires one and
        none is given, or takes none and one is given (never silently dropped)."""
        try:
            player_id = names.clean_player_id(value)
        except names.NameRefused as exc:
            raise Invalid(exc.template, **exc.params) from None
        if event.player_ids == "required" and not player_id:
            raise Invalid(N_("{event} requires a player ID with each registration"), event=event.name)
        if event.player_ids == "off" and player_id:
            raise Invalid(N_("{event} takes no player IDs (the organiser did not ask for them)"), event=event.name)
        return player_id

    def authorise(self, registration_id: str, edit_token: str | None) -> Registration:
        """The registration, if ``edit_token`` is its own; Forbidden otherwise (also for an id
        that does not exist, so ids cannot be probed)."""
        registration = self.store.registration(registration_id)
        if registration is None:
            token_matches(edit_token, "0" * 64)  # same work either way
            raise Forbidden(N_("this edit token does not open this registration"))
        if not token_matches(edit_token, registration.token_hash):
            raise Forbidden("this edit token does not open this registration")
        return registration

    def _require_open(self, event: Event, arrived: datetime) -> None:
        if not self.is_open(event, arrived):
            raise Closed(N_("registration for {event} closed at {time}; the list is locked"), event=event.name, time=show_time(event.deadline))

    def versions(self, registration: Registration) -> list[Version]:
        return self.store.versions(registration.id)

    # -- organisers --------------------------------------------------------------------------------
    def registration(self, registration_id: str) -> Registration:
        found = self.store.registration(registration_id)
        if found is None:
            raise NotFound(N_("no registration {id!r}"), id=registration_id)
        return found

    def registration_of(self, registration_id: str, event_id: str | None) -> Registration:
        """The registration (404 if there is none); 409 when ``event_id`` is given and the
        registration belongs to another event (a form or call meant for another event)."""
        registration = self.registration(registration_id)
        if event_id is not None and registration.event_id != event_id:
            raise Conflict(N_("registration {id!r} is not in event {event!r}"), id=registration_id, event=event_id)
        return registration

    def unlock(self, registration_id: str, why: Override, event_id: str | None = None) -> Registration:
        """Let this one player resubmit after the deadline, until :meth:`lock`."""
        registration = self.registration_of(registration_id, event_id)
        return self.store.set_unlocked(registration.id, True, "organiser", why.detail())

    def lock(self, registration_id: str, why: Override, event_id: str | None = None) -> Registration:
        registration = self.registration_of(registration_id, event_id)
        return self.store.set_unlocked(registration.id, False, "organiser", why.detail())

    def edit_for_player(self, registration_id: str, player: str, text: str, why: Override, filename: str = "decklist.txt",
                        player_id: str | None = None, event_id: str | None = None) -> Submitted:
        """A new version entered by the organiser on the player's behalf (a list handed in on
        paper, a correction the player asked for), whatever the deadline; who and why are in the
        audit log. A player ID not given keeps the one registered."""
        registration = self.registration_of(registration_id, event_id)
        event = self.event(registration.event_id)
        player = clean_name(player, "player name")
        player_id = self.player_id_for(event, registration.player_id if player_id is None else player_id)
        new = self._checked_version(event, player, text, clean_filename(filename), player_id)
        stored = self.store.add_version(registration.id, new, self.clock(), "organiser", "registration.edit", why.detail())
        return Submitted(stored, new.deck)

    # -- published lists ---------------------------------------------------------------------------
    def publish(self, event: Event, which: str | list[str], by: str | None = None) -> list[Publication]:
        """Publish every registration's list ("all") or those named, each as its last version
        in canonical form. Every id must be a registration of this event, or nothing is published."""
        regs = {r.id: r for r in self.store.registrations(event.id)}
        if which == "all":
            chosen = list(regs.values())
        else:
            if not which:
                raise Invalid('name the registrations to publish: "all" or a list of ids')
            chosen = []
            for registration_id in dict.fromkeys(which):
                if registration_id not in regs:
                    if self.store.registration(registration_id) is None:
                        raise NotFound(f"no registration {registration_id!r}")
                    raise Conflict(f"registration {registration_id!r} is not in event {event.id!r}")
                chosen.append(regs[registration_id])
        lists = [(r.id, r.latest.version, self.canonical(event, r.latest)) for r in chosen]
        self.store.publish(event.id, lists, self.clock(), "organiser", {"by": clean_name(by, "organiser's name")} if by else {})
        return self.published(event)

    def canonical(self, event: Event, version: Version) -> str:
        """The list in canonical form (``forcecheck fmt``), through the library, without the
        player's comments (published for anyone to read)."""
        try:
            return self._run(lambda checker: checker.canonical_text(version.decklist, event.format, event.date, version.filename,
                                                                    comments=False), size=len(version.decklist))
        except ForcecheckError:
            return version.decklist  # a list that cannot be rewritten is published as it was submitted

    def published(self, event: Event) -> list[Publication]:
        return sorted(self.store.published(event.id), key=lambda p: (names.sort_key(p.player), p.registration_id))

    # -- deck checks -------------------------------------------------------------------------------
    def pick_deck_checks(self, event: Event, count: int, seed: str | None = None) -> list[DeckCheck]:
        """``count`` registrations picked at random (from ``seed``: the same seed and the same
        earlier picks give the same players), never a player picked before until every
        registration of the event was picked once (then a new cycle starts)."""
        import secrets

        if not isinstance(count, int) or not 1 <= count <= MAX_DECK_CHECK_PICK:
            raise Invalid(f"count must be a whole number from 1 to {MAX_DECK_CHECK_PICK}")
        seed = secrets.token_hex(4) if seed in (None, "") else str(seed)
        if len(seed) > MAX_SEED_CHARS:
            raise Invalid(f"the seed is {len(seed)} characters long; at most {MAX_SEED_CHARS}")

        def choose(ids: list[str], earlier: list[DeckCheck]) -> list[tuple[str, int]]:
            if not ids:
                raise Invalid(f"{event.name} has no registrations to pick from")
            return random_picks(ids, earlier, count, seed)

        return self.store.pick_for_deck_checks(event.id, choose, "random", seed, self.clock(), "organiser")

    def add_deck_checks(self, event: Event, registration_ids: list[str]) -> list[DeckCheck]:
        """Registrations the organiser picks by hand (they count as picked in the current cycle)."""
        if not registration_ids:
            raise Invalid("name the registrations to add")
        wanted = list(dict.fromkeys(registration_ids))
        for registration_id in wanted:
            self.registration_of(registration_id, event.id)

        def choose(ids: list[str], earlier: list[DeckCheck]) -> list[tuple[str, int]]:
            cycle = max((p.cycle for p in earlier), default=1)
            return [(registration_id, cycle) for registration_id in wanted]

        return self.store.pick_for_deck_checks(event.id, choose, "added", None, self.clock(), "organiser")

    def deck_checks(self, event: Event) -> list[DeckCheck]:
        return self.store.deck_checks(event.id)

    def deck_check(self, check_id: int | str, event_id: str | None = None) -> DeckCheck:
        try:
            number = int(check_id)
        except (TypeError, ValueError):
            number = None
        found = self.store.deck_check(number) if number is not None and 0 < number < 2**31 else None
        if found is None:
            raise NotFound(f"no deck check {check_id!r}")
        if event_id is not None and found.event_id != event_id:
            raise Conflict(f"deck check {check_id!r} is not in event {event_id!r}")
        return found

    def verify_deck_check(self, check_id: int | str, played: str, event_id: str | None = None) -> tuple[DeckCheck, dict[str, Any]]:
        """Verify the list played at the table against the registered one (its last version)
        and keep the answer with the pick."""
        check = self.deck_check(check_id, event_id)
        registration = self.registration(check.registration_id)
        answer = self._verify(registration, played)
        outcome = {"version": registration.latest.version, "status": answer["status"], "ok": answer["ok"],
                   "reasons": answer.get("reasons", []), "played_violations": [v["code"] for v in answer["played_violations"]]}
        return self.store.record_outcome(check, outcome, self.clock(), "organiser"), answer

    # -- the table ---------------------------------------------------------------------------------
    def table(self, event: Event) -> list[RegistrationRow]:
        """The event's registrations, illegal first, players registered twice (names a person
        would read as one: names.same_player_key) and decks registered by two players flagged."""
        regs = self.store.registrations(event.id)
        decks: dict[str, int] = {}
        for reg in regs:
            if reg.latest.fingerprint:
                decks[reg.latest.fingerprint] = decks.get(reg.latest.fingerprint, 0) + 1
        twice = duplicate_players(regs)
        rows = [
            RegistrationRow(reg, "legal" if reg.latest.legal else "illegal", reg.id in twice,
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
                r.registration.player, r.registration.id, r.registration.latest.fingerprint or "", r.status,
                r.registration.player_id or "", *r.codes)))]
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
        regs = self.store.registrations(event.id)
        twice = duplicate_players(regs)
        rows = [deck_row({**reg.latest.deck, "player": reg.player}, reg.id, reg.player, event.format)
                | {"player_id": reg.player_id or "", "unlocked": reg.unlocked}
                for reg in regs]
        rows, summary = finish(rows)
        for row in rows:  # the same player by name (register's rule) or by player ID
            row["duplicate_player"] = bool(row["duplicate_player"]) or row["file"] in twice
        summary.update({"format": event.format, "as_of": event.date, "event": event.name, "event_id": event.id,
                        "catalog": self._run(lambda checker: checker.catalog.label)})
        return rows, summary

    def roster(self, event: Event) -> list[dict[str, Any]]:
        """What pairing software imports: player, player ID, legal, registration id (by player name)."""
        regs = sorted(self.store.registrations(event.id), key=lambda r: (names.sort_key(r.player), r.id))
        return [{"player": r.player, "player_id": r.player_id or "", "legal": r.latest.legal, "registration": r.id} for r in regs]

    def sheets(self, event: Event, registration_id: str | None = None) -> list[dict[str, Any]]:
        """One deck registration sheet per registration (its last version), by player name."""
        regs = [self.registration(registration_id)] if registration_id else self.store.registrations(event.id)
        if registration_id and regs[0].event_id != event.id:
            raise NotFound(f"no registration {registration_id!r} in this event")
        sheets = []
        for reg in sorted(regs, key=lambda r: names.sort_key(r.player)):
            ruler = reg.latest.deck.get("ruler")
            sheets.append({
                "registration": reg, "player": reg.player, "player_id": reg.player_id, "version": reg.latest.version,
                "ruler": " / ".join(ruler) if isinstance(ruler, list) else ruler,
                "sections": reg.latest.contents, "fingerprint": reg.latest.fingerprint, "legal": reg.latest.legal,
                "submitted_at": reg.latest.submitted_at,
            })
        return sheets

    def verify(self, registration_id: str, played: str, filename: str = "played.txt") -> dict[str, Any]:
        """``forcecheck verify``'s answer for the list played at the table against the
        registered one (the last version); recorded in the audit log."""
        registration = self.registration(registration_id)
        answer = self._verify(registration, played, filename)
        self.store.log("organiser", "verify", registration.event_id, registration.id,
                       {"version": registration.latest.version, "status": answer["status"], "ok": answer["ok"]})
        return answer

    def _verify(self, registration: Registration, played: str, filename: str = "played.txt") -> dict[str, Any]:
        event = self.event(registration.event_id)
        registered = registration.latest
        try:
            answer = self._run(Checker.verify_texts, registered.decklist, played, event.format, event.date,
                               (registered.filename, clean_filename(filename)), size=max(len(played), len(registered.decklist)))
        except DecklistTooLarge as exc:
            raise TooLarge(str(exc)) from None
        except ForcecheckError as exc:
            raise Invalid(str(exc)) from None
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
    # line -> how many name-corrected findings say a correction there
    said_on = {line.number: sum(1 for f in line.findings if f.get("rule") == "name-corrected") for line in lines}
    for correction in deck.get("corrections") or []:
        number = correction.get("line")
        if number and 1 <= number <= len(lines):
            if said_on[number]:  # each correction has its own name-corrected finding, unless FC012 is ignored
                said_on[number] -= 1
                continue
            lines[number - 1].corrections.append(correction)
    return Annotated(lines, general)


def duplicate_players(regs: list[Registration]) -> set[str]:
    """Ids of registrations of one player registered twice: names a person would read as one
    (names.same_player_key), or one player ID."""
    by_name: dict[str, list[str]] = {}
    by_id: dict[str, list[str]] = {}
    for reg in regs:
        by_name.setdefault(names.same_player_key(reg.player), []).append(reg.id)
        if reg.player_id:
            by_id.setdefault(names.player_id_key(reg.player_id), []).append(reg.id)
    return {i for groups in (by_name, by_id) for ids in groups.values() if len(ids) > 1 for i in ids}


def random_picks(ids: list[str], earlier: list[DeckCheck], count: int, seed: str) -> list[tuple[str, int]]:
    """(registration id, cycle) for ``count`` picks: first the registrations not yet picked in
    the current cycle, in an order drawn from ``seed``; when they run out a new cycle starts
    among the others (never one picked in this same call). Deterministic: same ids, earlier
    picks and seed, same answer."""
    import random

    rng = random.Random(f"forcecheck-deckcheck/1:{seed}")
    cycle = max((p.cycle for p in earlier), default=1)
    done = {p.registration_id for p in earlier if p.cycle == cycle}
    remaining = sorted(set(ids) - done)
    if not remaining:
        cycle, remaining = cycle + 1, sorted(ids)
    rng.shuffle(remaining)
    picks = [(i, cycle) for i in remaining[:count]]
    if len(picks) < count:
        taken = {i for i, _c in picks}
        others = sorted(set(ids) - taken)
        rng.shuffle(others)
        picks += [(i, cycle + 1) for i in others[:count - len(picks)]]
    return picks


def clean_reason(value: str | None) -> str:
    """An organiser's reason for an override: required, at most MAX_REASON_CHARS characters."""
    text = " ".join((value or "").split())
    if not text:
        raise Invalid(N_("give a reason (it is kept in the audit log and shown on the event page)"))
    if len(text) > MAX_REASON_CHARS:
        raise Invalid(N_("the reason is {length} characters long; at most {limit}"), length=len(text), limit=MAX_REASON_CHARS)
    shown = names.refused_character(text)
    if shown:
        raise Invalid(N_("the reason contains {char}: type it as plain text"), char=shown)
    return text


def override(reason: str | None, by: str | None = None) -> Override:
    """The checked reason and name of an organiser's override."""
    return Override(clean_reason(reason), clean_name(by, "organiser's name") if by else None)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


KEY_LENGTHS = (16, 255)
"""An idempotency key's length: 16 characters at least, so a key cannot be guessed (a UUID has 36)."""


def clean_key(value: str) -> str:
    """An idempotency key as the client sent it (surrounding spaces and a Structured Field's
    quotes taken off): 16 to 255 visible ASCII characters, else 400."""
    key = value.strip()
    if len(key) >= 2 and key[0] == key[-1] == '"':
        key = key[1:-1]
    low, high = KEY_LENGTHS
    if not low <= len(key) <= high or any(not 0x21 <= ord(c) <= 0x7E for c in key):
        raise DeskError(N_("an Idempotency-Key is {low} to {high} visible ASCII characters (a random UUID, say)"), low=low, high=high)
    return key


def clean_name(value: str | None, what: str) -> str:
    """A name as typed (names.clean_name); a refused one is 422 with its reason."""
    try:
        return names.clean_name(value, what)
    except names.NameRefused as exc:
        raise Invalid(exc.template, **exc.params) from None


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
    return moment.astimezone(UTC)


def show_time(moment: datetime) -> str:
    """A moment in the server's local time, with its zone: deadlines are the server's."""
    local = moment.astimezone()
    return local.strftime("%Y-%m-%d %H:%M ") + (local.tzname() or "")
