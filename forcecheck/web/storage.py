"""The desk's storage: one interface over SQLite (default, a file next to the event) or PostgreSQL.

Nothing is ever deleted or rewritten: a registration's lists are append-only versions (the last
one counts), and every change is a row of the audit log, written in the same transaction as the
change. A submission is acknowledged only after its transaction committed, so a server killed
mid-submission loses nothing it acknowledged (SQLite runs in WAL mode with ``synchronous=FULL``).

The schema is created and upgraded by Alembic migrations shipped in ``migrations/``, run when
the store opens: an organisation's database outlives forcecheck versions, and Alembic is the
well-kept tool for changing a SQLAlchemy schema in place on both databases. The tables below
are Alembic's ``target_metadata``, and a test finds no difference between them and what the
migrations build. Migrations run under a database lock (SQLite's write lock, a PostgreSQL
advisory lock), so several desks may start at once on a new database.

A database that cannot be reached or written (a server down, a full disk) raises
:class:`StoreUnavailable` from any call; every write is one transaction, so nothing of it stays.

Why one module of this size: it is the desk's whole schema and every query on it; a
registration and its deck checks are written in one transaction, which a module per table
would scatter.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event as sa_event

metadata = sa.MetaData()

desk_secrets = sa.Table(
    "desk_secrets", metadata,
    sa.Column("name", sa.String(64), primary_key=True),
    sa.Column("value", sa.String(128), nullable=False),
)
events = sa.Table(
    "events", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("format", sa.String(128), nullable=False),
    sa.Column("date", sa.String(10), nullable=False),
    sa.Column("deadline", sa.String(32), nullable=False),
    sa.Column("banlist", sa.Text),
    sa.Column("created_at", sa.String(32), nullable=False),
    sa.Column("player_ids", sa.String(16), nullable=False, server_default="off"),  # off, optional, required
)
registrations = sa.Table(
    "registrations", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("event_id", sa.String(32), sa.ForeignKey("events.id"), nullable=False, index=True),
    sa.Column("token_hash", sa.String(64), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("created_at", sa.String(32), nullable=False),
    sa.Column("unlocked", sa.Boolean, nullable=False, server_default=sa.false()),  # may resubmit after the deadline
)
versions = sa.Table(
    "registration_versions", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("registration_id", sa.String(32), sa.ForeignKey("registrations.id"), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("player", sa.Text, nullable=False),
    sa.Column("filename", sa.Text, nullable=False),
    sa.Column("decklist", sa.Text, nullable=False),
    sa.Column("legal", sa.Boolean, nullable=False),
    sa.Column("fingerprint", sa.String(64)),
    sa.Column("deck_json", sa.Text, nullable=False),
    sa.Column("contents_json", sa.Text, nullable=False),
    sa.Column("submitted_at", sa.String(32), nullable=False),
    sa.Column("player_id", sa.Text),
    sa.UniqueConstraint("registration_id", "version", name="uq_registration_version"),
)
audit_log = sa.Table(
    "audit_log", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.String(32), nullable=False),
    sa.Column("actor", sa.Text, nullable=False),
    sa.Column("action", sa.String(64), nullable=False),
    sa.Column("event_id", sa.String(32), index=True),
    sa.Column("registration_id", sa.String(32), index=True),
    sa.Column("detail", sa.Text, nullable=False),
)
organiser_sessions = sa.Table(
    "organiser_sessions", metadata,
    sa.Column("id", sa.String(64), primary_key=True),  # the SHA-256 of the cookie's token, never the token
    sa.Column("admin", sa.String(64), nullable=False),  # which organiser token opened it: a new token ends it
    sa.Column("created_at", sa.String(32), nullable=False),
    sa.Column("expires_at", sa.String(32), nullable=False),
    sa.Column("ended_at", sa.String(32)),
)

publications = sa.Table(
    "publications", metadata,
    sa.Column("registration_id", sa.String(32), sa.ForeignKey("registrations.id"), primary_key=True),
    sa.Column("event_id", sa.String(32), sa.ForeignKey("events.id"), nullable=False, index=True),
    sa.Column("version", sa.Integer, nullable=False),  # the version published (a later one is published again by hand)
    sa.Column("canonical", sa.Text, nullable=False),  # the list in canonical form, written when published
    sa.Column("published_at", sa.String(32), nullable=False),
)
deck_checks = sa.Table(
    "deck_checks", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("event_id", sa.String(32), sa.ForeignKey("events.id"), nullable=False, index=True),
    sa.Column("registration_id", sa.String(32), sa.ForeignKey("registrations.id"), nullable=False),
    sa.Column("cycle", sa.Integer, nullable=False),  # 1 until every registration was picked once, then 2, ...
    sa.Column("how", sa.String(16), nullable=False),  # "random" or "added"
    sa.Column("seed", sa.Text),
    sa.Column("picked_at", sa.String(32), nullable=False),
    sa.Column("outcome_json", sa.Text),  # verify's answer at the table, once recorded
    sa.Column("outcome_at", sa.String(32)),
)
submission_keys = sa.Table(
    "submission_keys", metadata,
    sa.Column("event_id", sa.String(32), sa.ForeignKey("events.id"), primary_key=True),
    sa.Column("key_hash", sa.String(64), primary_key=True),  # SHA-256 of the event and the client's key, never the key
    sa.Column("request_hash", sa.String(64), nullable=False),  # what was submitted with it: the same key for another list is refused
    sa.Column("registration_id", sa.String(32), sa.ForeignKey("registrations.id"), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),  # the version that submission stored
    sa.Column("created_at", sa.String(32), nullable=False),
)

_EVENT_BY_ID = sa.select(events).where(events.c.id == sa.bindparam("event_id"))
_KEY_OF = sa.select(submission_keys).where(submission_keys.c.event_id == sa.bindparam("event_id"),
                                           submission_keys.c.key_hash == sa.bindparam("key_hash"))
_REGISTRATION_BY_ID = sa.select(registrations, versions).join(versions, sa.and_(
    versions.c.registration_id == registrations.c.id, versions.c.version == registrations.c.version)).where(
    registrations.c.id == sa.bindparam("registration_id"))
_BUMP_VERSION = (registrations.update().where(registrations.c.id == sa.bindparam("registration_id"))
                 .values(version=registrations.c.version + 1)
                 .returning(registrations.c.version, registrations.c.event_id, registrations.c.token_hash, registrations.c.created_at,
                            registrations.c.unlocked))
"""The statements of every submission, built once (SQLAlchemy then reuses their compiled form)."""

MIGRATION_LOCK = 0x666F7263  # "forc": the PostgreSQL advisory lock held while migrations run


def utc_now() -> datetime:
    return datetime.now(UTC)


def stamp(moment: datetime) -> str:
    """A UTC timestamp as stored: ISO 8601 with ``+00:00``, to the microsecond (sorts as text)."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def parse_stamp(text: str) -> datetime:
    return datetime.fromisoformat(text)


@dataclass(frozen=True)
class Event:
    id: str
    name: str
    format: str
    date: str
    deadline: datetime
    banlist: str | None
    created_at: datetime
    player_ids: str = "off"
    """Whether registrations carry a player ID: "off", "optional" or "required"."""

    def is_open(self, now: datetime) -> bool:
        return now < self.deadline

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "format": self.format, "date": self.date,
                "deadline": self.deadline.isoformat(), "banlist": self.banlist, "created_at": self.created_at.isoformat(), "player_id": self.player_ids}


@dataclass(frozen=True)
class Version:
    """One submitted list of a registration, as it was checked then."""

    registration_id: str
    version: int
    player: str
    filename: str
    decklist: str
    legal: bool
    fingerprint: str | None
    deck: dict[str, Any]
    contents: list[dict[str, Any]]
    submitted_at: datetime
    player_id: str | None = None


@dataclass(frozen=True)
class NewVersion:
    """What a submission stores (the desk has checked it already)."""

    player: str
    filename: str
    decklist: str
    deck: dict[str, Any]
    contents: list[dict[str, Any]]
    player_id: str | None = None


@dataclass(frozen=True)
class SubmissionKey:
    """A submission's idempotency key as the store keeps it: the hash of the event and the
    client's key, and the hash of what was submitted with it."""

    key_hash: str
    request_hash: str


@dataclass(frozen=True)
class KeyedSubmission:
    """What the first submission with a key stored: its registration and version."""

    registration_id: str
    version: int
    request_hash: str


class KeyTaken(Exception):
    """The key was stored already (by an earlier submission, or one that committed first): the
    write stored nothing, and ``stored`` says what the key's submission made."""

    def __init__(self, stored: KeyedSubmission):
        super().__init__(stored.registration_id)
        self.stored = stored


@dataclass(frozen=True)
class Registration:
    id: str
    event_id: str
    token_hash: str
    created_at: datetime
    latest: Version
    unlocked: bool = False
    """The organiser let this player resubmit after the deadline (until locked again)."""

    @property
    def player(self) -> str:
        return self.latest.player

    @property
    def player_id(self) -> str | None:
        return self.latest.player_id


@dataclass(frozen=True)
class Publication:
    """A registration's list as published (the version it was then, in canonical form)."""

    registration_id: str
    version: int
    canonical: str
    published_at: datetime
    player: str
    player_id: str | None
    fingerprint: str | None
    sections: dict[str, int]
    legal: bool


@dataclass(frozen=True)
class DeckCheck:
    """One registration picked for a deck check, and what verify said at the table."""

    id: int
    event_id: str
    registration_id: str
    cycle: int
    how: str
    seed: str | None
    picked_at: datetime
    outcome: dict[str, Any] | None
    outcome_at: datetime | None


@dataclass(frozen=True)
class AuditEntry:
    at: datetime
    actor: str
    action: str
    event_id: str | None
    registration_id: str | None
    detail: dict[str, Any]


class StoreError(Exception):
    """The database cannot be used (bad URL, unreachable server): one line for the operator."""


class StoreUnavailable(Exception):
    """The database cannot be reached or written just now (a server down or restarting, a full
    disk, every connection busy): the request is refused (503) with nothing stored, and the next
    one tries again."""


_UNAVAILABLE = (sa.exc.OperationalError, sa.exc.InterfaceError, sa.exc.TimeoutError)


def _unavailable(exc: Exception) -> bool:
    return isinstance(exc, _UNAVAILABLE) or (isinstance(exc, sa.exc.DBAPIError) and exc.connection_invalidated)


def alembic_config():
    """Alembic's configuration for the desk's migrations (``forcecheck.web:migrations``); the
    caller hands the connection over in ``config.attributes["connection"]``."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "forcecheck.web:migrations")
    return config


def engine_url(url: str) -> str:
    """Accept the URL forms people write: a bare path is a SQLite file; ``postgresql://`` and
    ``postgres://`` use psycopg (version 3), the PostgreSQL driver the web extra installs."""
    if "://" not in url:
        return "sqlite:///" + url
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


class Store:
    """All reads and writes of the desk's database. Methods are synchronous and thread-safe
    (each opens its own connection from the pool)."""

    def __init__(self, url: str):
        self.url = engine_url(url)
        try:
            sa_url = sa.engine.make_url(self.url)
        except sa.exc.ArgumentError as exc:
            raise StoreError(f"not a database URL: {url!r} ({exc})") from None
        self.dialect = sa_url.get_backend_name()
        if self.dialect == "sqlite":
            _refuse_foreign_sqlite(sa_url.database, self.describe())  # before a connection switches it to WAL
            self.engine = sa.create_engine(sa_url, connect_args={"check_same_thread": False, "timeout": 30},
                                           pool_size=8, max_overflow=16)
            _sqlite_setup(self.engine)
            database = sa_url.database
            self._writer = _WriterLock(database + "-writer") if database and database != ":memory:" else None
            self._group = GroupCommit(self)
        elif self.dialect == "postgresql":
            self._writer = None
            self._group = None
            try:
                self.engine = sa.create_engine(sa_url, pool_size=10, max_overflow=20, pool_pre_ping=True)
            except ImportError as exc:
                from forcecheck.install_hint import install_extra

                raise StoreError(f"PostgreSQL needs its driver ({exc.name} is not installed): {install_extra('web')}") from None
        else:
            raise StoreError(f"database {self.dialect!r} is not supported: use a SQLite file or a postgresql:// URL")

    def migrate(self) -> None:
        """Bring the schema to the newest migration (creates it in an empty database), under a
        lock: SQLite's write lock (BEGIN IMMEDIATE) or a PostgreSQL advisory lock held to the end
        of the transaction, so desks starting at once migrate one after the other and the later
        ones find the schema up to date."""
        from alembic import command
        from alembic.util import CommandError

        config = alembic_config()
        try:
            with self._writer.held() if self._writer else nullcontext(), \
                    self.engine.connect().execution_options(desk_write=True) as conn:
                with conn.begin():
                    if self.dialect == "postgresql":
                        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
                    _refuse_foreign_tables(sa.inspect(conn).get_table_names(), self.describe())
                    config.attributes["connection"] = conn
                    command.upgrade(config, "head")
        except sa.exc.OperationalError as exc:  # a server that refuses, a file that cannot be opened
            raise StoreError(f"cannot open the database {self.describe()}: {' '.join(str(exc.orig).split())}") from None
        except CommandError as exc:  # a migration history this forcecheck does not have
            raise StoreError(f"cannot use the database {self.describe()}: {exc} (made by a newer forcecheck, or not the desk's)") from None

    def describe(self) -> str:
        """The URL without its password, for messages."""
        return sa.engine.make_url(self.url).render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()
        if self._writer is not None:
            self._writer.close()

    @contextmanager
    def _write(self) -> Iterator[sa.Connection]:
        """A write transaction (on SQLite it takes the write lock at once: BEGIN IMMEDIATE, so two
        writers queue instead of failing on a lock upgrade). Rolled back whole on any error."""
        try:
            with self._writer.held() if self._writer else nullcontext():
                with self.engine.connect().execution_options(desk_write=True) as conn:
                    with conn.begin():
                        yield conn
        except Exception as exc:
            if _unavailable(exc):
                raise StoreUnavailable(str(exc).splitlines()[0]) from exc
            raise

    @contextmanager
    def _read(self) -> Iterator[sa.Connection]:
        try:
            with self.engine.connect() as conn:
                yield conn
        except Exception as exc:
            if _unavailable(exc):
                raise StoreUnavailable(str(exc).splitlines()[0]) from exc
            raise

    # -- secrets ---------------------------------------------------------------------------------
    def secret(self, name: str) -> str:
        """A random server key kept in the database (CSRF and session signing survive restarts,
        and every desk on the database signs alike). Desks starting at once agree on one: each
        offers its own and keeps the one stored first."""
        with self._read() as conn:
            found = conn.execute(sa.select(desk_secrets.c.value).where(desk_secrets.c.name == name)).scalar()
        if found:
            return found
        if self.dialect == "postgresql":
            from sqlalchemy.dialects.postgresql import insert
        else:
            from sqlalchemy.dialects.sqlite import insert
        insert = insert(desk_secrets)
        with self._write() as conn:
            conn.execute(insert.values(name=name, value=secrets.token_hex(32)).on_conflict_do_nothing())
            return conn.execute(sa.select(desk_secrets.c.value).where(desk_secrets.c.name == name)).scalar_one()

    # -- organiser sessions (kept here, so logging out ends a session on every desk) ---------------
    def open_session(self, session_hash: str, admin: str, now: datetime, expires: datetime) -> None:
        with self._write() as conn:
            conn.execute(organiser_sessions.insert().values(id=session_hash, admin=admin, created_at=stamp(now), expires_at=stamp(expires)))
            _log(conn, "organiser", "organiser.login", None, None, {"expires_at": stamp(expires)})

    def session_valid(self, session_hash: str, admin: str, now: datetime) -> bool:
        with self._read() as conn:
            row = conn.execute(sa.select(organiser_sessions).where(organiser_sessions.c.id == session_hash)).first()
        return bool(row) and row.admin == admin and row.ended_at is None and stamp(now) < row.expires_at

    def end_session(self, session_hash: str, now: datetime) -> None:
        with self._write() as conn:
            ended = conn.execute(organiser_sessions.update().where(organiser_sessions.c.id == session_hash)
                                 .where(organiser_sessions.c.ended_at.is_(None)).values(ended_at=stamp(now))).rowcount
            if ended:
                _log(conn, "organiser", "organiser.logout", None, None, {})

    # -- events ----------------------------------------------------------------------------------
    def create_event(self, event: Event, actor: str) -> Event:
        with self._write() as conn:
            conn.execute(events.insert().values(
                id=event.id, name=event.name, format=event.format, date=event.date, deadline=stamp(event.deadline),
                banlist=event.banlist, created_at=stamp(event.created_at), player_ids=event.player_ids))
            _log(conn, actor, "event.create", event.id, None, event.to_dict())
        return event

    def event(self, event_id: str) -> Event | None:
        with self._read() as conn:
            row = conn.execute(_EVENT_BY_ID, {"event_id": event_id}).first()
        return _event(row) if row else None

    def events(self) -> list[Event]:
        with self._read() as conn:
            rows = conn.execute(sa.select(events).order_by(events.c.date.desc(), events.c.created_at.desc())).all()
        return [_event(r) for r in rows]

    # -- registrations ---------------------------------------------------------------------------
    def add_registration(self, event_id: str, registration_id: str, token_hash: str, first: NewVersion,
                         now: datetime, actor: str, key: SubmissionKey | None = None) -> Registration:
        """Version 1 of a new registration; ``now`` is when the submission arrived. With a
        ``key`` already stored for the event nothing is written: KeyTaken says what it made."""

        def write(conn) -> Registration:
            _refuse_taken(conn, event_id, key)
            conn.execute(registrations.insert(), {"id": registration_id, "event_id": event_id, "token_hash": token_hash,
                                                  "version": 1, "created_at": stamp(now)})
            conn.execute(versions.insert(), _version_row(registration_id, 1, first, now))
            _log(conn, actor, "registration.create", event_id, registration_id,
                 {"version": 1, "player": first.player, "legal": first.deck["legal"], "fingerprint": first.deck.get("fingerprint"),
                  **({"player_id": first.player_id} if first.player_id else {})})
            _keep_key(conn, event_id, key, registration_id, 1, now)
            return Registration(registration_id, event_id, token_hash, _moment(now), _stored(registration_id, 1, first, now))

        return self._submission(write, event_id, key)

    def add_version(self, registration_id: str, new: NewVersion, now: datetime, actor: str,
                    action: str = "registration.resubmit", why: dict | None = None, key: SubmissionKey | None = None,
                    event_id: str | None = None) -> Registration:
        """Append a version; the registration's counter is bumped first, so two resubmissions at
        once get versions n+1 and n+2, never the same number. The answer is the version this
        call stored (never read back: another edit may have landed since). ``why`` (an
        organiser's reason) goes into the audit entry. A ``key`` (with the registration's
        ``event_id``) already stored writes nothing: KeyTaken."""

        def write(conn) -> Registration:
            _refuse_taken(conn, event_id, key)
            number = conn.execute(_BUMP_VERSION, {"registration_id": registration_id}).first()
            if number is None:
                raise KeyError(registration_id)
            conn.execute(versions.insert(), _version_row(registration_id, number.version, new, now))
            _log(conn, actor, action, number.event_id, registration_id,
                 {"version": number.version, "player": new.player, "legal": new.deck["legal"], "fingerprint": new.deck.get("fingerprint"),
                  **({"player_id": new.player_id} if new.player_id else {}), **(why or {})})
            _keep_key(conn, number.event_id, key, registration_id, number.version, now)
            return Registration(registration_id, number.event_id, number.token_hash, parse_stamp(number.created_at),
                                _stored(registration_id, number.version, new, now), number.unlocked)

        return self._submission(write, event_id, key)

    def _submission(self, write, event_id: str | None = None, key: SubmissionKey | None = None):
        """A submission's writes, committed before this returns: on SQLite together with the
        submissions that arrived meanwhile (GroupCommit); on PostgreSQL in a transaction of its
        own (the server already makes concurrent commits share their flush). Two submissions
        with one key at once (two desks, or a retry while the first is in flight): the later
        one's insert of the key fails when the first commits (PostgreSQL waits for it), and it is
        answered with what the first stored."""
        try:
            if self._group is not None:
                return self._group.run(write)
            with self._write() as conn:
                return write(conn)
        except sa.exc.IntegrityError:
            stored = self.keyed(event_id, key.key_hash) if key is not None and event_id is not None else None
            if stored is None:
                raise
            raise KeyTaken(stored) from None

    def keyed(self, event_id: str, key_hash: str) -> KeyedSubmission | None:
        """What the submission with this key stored for the event, if one did."""
        with self._read() as conn:
            return _keyed(conn, event_id, key_hash)

    def registration_at(self, registration_id: str, version: int) -> Registration | None:
        """The registration as it stood when ``version`` was stored (that version its latest)."""
        with self._read() as conn:
            row = conn.execute(sa.select(registrations, versions).join(versions, versions.c.registration_id == registrations.c.id)
                               .where(registrations.c.id == registration_id, versions.c.version == version)).first()
        return _registration(row) if row else None

    def registration(self, registration_id: str) -> Registration | None:
        with self._read() as conn:
            row = conn.execute(_REGISTRATION_BY_ID, {"registration_id": registration_id}).first()
        return _registration(row) if row else None

    def registrations(self, event_id: str) -> list[Registration]:
        """Every registration of the event with its latest version, oldest registration first."""
        with self._read() as conn:
            rows = conn.execute(
                sa.select(registrations, versions).join(versions, sa.and_(
                    versions.c.registration_id == registrations.c.id, versions.c.version == registrations.c.version))
                .where(registrations.c.event_id == event_id)
                .order_by(registrations.c.created_at, registrations.c.id)
            ).all()
        return [_registration(r) for r in rows]

    def versions(self, registration_id: str) -> list[Version]:
        with self._read() as conn:
            rows = conn.execute(sa.select(versions).where(versions.c.registration_id == registration_id)
                                .order_by(versions.c.version)).all()
        return [_version(r) for r in rows]

    def count_versions(self, event_id: str) -> int:
        with self._read() as conn:
            return conn.execute(
                sa.select(sa.func.count()).select_from(versions.join(registrations, versions.c.registration_id == registrations.c.id))
                .where(registrations.c.event_id == event_id)).scalar_one()

    # -- the organiser's controls ----------------------------------------------------------------
    def update_event(self, event_id: str, changes: dict[str, Any], actor: str, why: dict) -> Event:
        """Change an event's name, date, deadline or banlist (the values ``changes`` gives, as
        stored), with the old and new values in the audit log."""
        with self._write() as conn:
            before = conn.execute(_EVENT_BY_ID.with_for_update(), {"event_id": event_id}).first()
            if before is None:
                raise KeyError(event_id)
            stored = {k: stamp(v) if isinstance(v, datetime) else v for k, v in changes.items()}
            conn.execute(events.update().where(events.c.id == event_id).values(**stored))
            after = conn.execute(_EVENT_BY_ID, {"event_id": event_id}).first()
            _log(conn, actor, "event.update", event_id, None,
                 {"changed": {k: [getattr(before, k), v] for k, v in stored.items() if getattr(before, k) != v}, **why})
        return _event(after)

    def set_unlocked(self, registration_id: str, unlocked: bool, actor: str, why: dict) -> Registration:
        """Let one player resubmit after the deadline (or lock the list again), in the audit log."""
        with self._write() as conn:
            changed = conn.execute(registrations.update().where(registrations.c.id == registration_id)
                                   .values(unlocked=unlocked).returning(registrations.c.event_id)).first()
            if changed is None:
                raise KeyError(registration_id)
            _log(conn, actor, "registration.unlock" if unlocked else "registration.lock", changed.event_id, registration_id, why)
            row = conn.execute(_REGISTRATION_BY_ID, {"registration_id": registration_id}).first()
        return _registration(row)

    def publish(self, event_id: str, lists: list[tuple[str, int, str]], now: datetime, actor: str, why: dict) -> None:
        """Publish (or publish again) registrations' lists: (registration id, version, canonical text)."""
        with self._write() as conn:
            ids = [registration_id for registration_id, _v, _c in lists]
            if ids:
                conn.execute(publications.delete().where(publications.c.registration_id.in_(ids)))
                conn.execute(publications.insert(), [
                    {"registration_id": r, "event_id": event_id, "version": v, "canonical": c, "published_at": stamp(now)}
                    for r, v, c in lists])
            _log(conn, actor, "event.publish", event_id, None, {"registrations": len(ids), **why})

    def published(self, event_id: str) -> list[Publication]:
        """The event's published lists, each as the version that was published."""
        query = (sa.select(publications, versions.c.player, versions.c.player_id, versions.c.fingerprint, versions.c.deck_json,
                           versions.c.legal)
                 .join(versions, sa.and_(versions.c.registration_id == publications.c.registration_id,
                                         versions.c.version == publications.c.version))
                 .where(publications.c.event_id == event_id))
        with self._read() as conn:
            rows = conn.execute(query).all()
        return [Publication(r.registration_id, r.version, r.canonical, parse_stamp(r.published_at), r.player, r.player_id,
                            r.fingerprint, json.loads(r.deck_json).get("sections", {}), bool(r.legal)) for r in rows]

    def pick_for_deck_checks(self, event_id: str, choose, how: str, seed: str | None, now: datetime, actor: str) -> list[DeckCheck]:
        """Record the registrations ``choose(registration ids, earlier picks)`` names, as
        (registration id, cycle) pairs. The event's row is locked for the transaction, so two
        organisers picking at once pick one after the other, each seeing the other's picks."""
        with self._write() as conn:
            conn.execute(sa.select(events.c.id).where(events.c.id == event_id).with_for_update())
            ids = list(conn.execute(sa.select(registrations.c.id).where(registrations.c.event_id == event_id)
                                    .order_by(registrations.c.id)).scalars())
            earlier = [_deck_check(r) for r in conn.execute(
                sa.select(deck_checks).where(deck_checks.c.event_id == event_id).order_by(deck_checks.c.id)).all()]
            chosen = choose(ids, earlier)
            picked = []
            for registration_id, cycle in chosen:
                new_id = conn.execute(deck_checks.insert().values(
                    event_id=event_id, registration_id=registration_id, cycle=cycle, how=how, seed=seed, picked_at=stamp(now))
                    .returning(deck_checks.c.id)).scalar_one()
                picked.append(DeckCheck(new_id, event_id, registration_id, cycle, how, seed, _moment(now), None, None))
            _log(conn, actor, "deckcheck.pick", event_id, None,
                 {"how": how, **({"seed": seed} if seed is not None else {}), "registrations": [p.registration_id for p in picked]})
        return picked

    def deck_checks(self, event_id: str) -> list[DeckCheck]:
        with self._read() as conn:
            rows = conn.execute(sa.select(deck_checks).where(deck_checks.c.event_id == event_id).order_by(deck_checks.c.id)).all()
        return [_deck_check(r) for r in rows]

    def deck_check(self, check_id: int) -> DeckCheck | None:
        with self._read() as conn:
            row = conn.execute(sa.select(deck_checks).where(deck_checks.c.id == check_id)).first()
        return _deck_check(row) if row else None

    def record_outcome(self, check: DeckCheck, outcome: dict, now: datetime, actor: str) -> DeckCheck:
        """Verify's answer at the table, kept with the pick (a later verify replaces it; the log keeps each)."""
        with self._write() as conn:
            conn.execute(deck_checks.update().where(deck_checks.c.id == check.id)
                         .values(outcome_json=json.dumps(outcome, ensure_ascii=False), outcome_at=stamp(now)))
            _log(conn, actor, "deckcheck.verify", check.event_id, check.registration_id,
                 {"deck_check": check.id, "status": outcome.get("status"), "ok": outcome.get("ok"), "version": outcome.get("version")})
        return DeckCheck(check.id, check.event_id, check.registration_id, check.cycle, check.how, check.seed, check.picked_at,
                         outcome, _moment(now))

    # -- audit -------------------------------------------------------------------------------------
    def log(self, actor: str, action: str, event_id: str | None, registration_id: str | None, detail: dict) -> None:
        with self._write() as conn:
            _log(conn, actor, action, event_id, registration_id, detail)

    def audit(self, event_id: str | None = None, registration_id: str | None = None) -> list[AuditEntry]:
        query = sa.select(audit_log).order_by(audit_log.c.id)
        if event_id is not None:
            query = query.where(audit_log.c.event_id == event_id)
        if registration_id is not None:
            query = query.where(audit_log.c.registration_id == registration_id)
        with self._read() as conn:
            rows = conn.execute(query).all()
        return [AuditEntry(parse_stamp(r.at), r.actor, r.action, r.event_id, r.registration_id, json.loads(r.detail)) for r in rows]


_EXTENSION_TABLES = frozenset({"spatial_ref_sys"})
"""Tables a database extension puts in every new database (PostGIS): no other application's data."""


def _refuse_foreign_tables(tables: list[str], shown_url: str) -> None:
    """StoreError for a database that holds tables and no desk migration history: another
    application's (a card catalog named by mistake); the desk never adds its tables there."""
    tables = [t for t in tables if t not in _EXTENSION_TABLES]
    if tables and "alembic_version" not in tables:
        shown = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
        raise StoreError(f"{shown_url} is not a registration desk database (it holds other tables: {shown}); "
                         "name a new file or the desk's own database")


def _refuse_foreign_sqlite(path: str | None, shown_url: str) -> None:
    """For a SQLite file that exists: read-only, before the desk's engine opens it (opening
    switches the file to WAL, a change to someone else's database), is it a database and ours?"""
    import sqlite3

    from forcecheck.cards.store import read_only_uri

    if not path or path == ":memory:" or not os.path.isfile(path) or os.path.getsize(path) == 0:
        return
    try:
        conn = sqlite3.connect(read_only_uri(path), uri=True)
        try:
            tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"cannot open the database {shown_url}: {exc}") from None
    _refuse_foreign_tables([t for t in tables if not t.startswith("sqlite_")], shown_url)


def _log(conn, actor: str, action: str, event_id, registration_id, detail: dict) -> None:
    conn.execute(audit_log.insert(), {"at": stamp(utc_now()), "actor": actor, "action": action, "event_id": event_id,
                                      "registration_id": registration_id, "detail": json.dumps(detail, ensure_ascii=False)})


def _refuse_taken(conn, event_id: str | None, key: SubmissionKey | None) -> None:
    """KeyTaken, before anything is written, when the key was stored already (in this
    transaction too: GroupCommit writes a batch's submissions in one)."""
    if key is None:
        return
    stored = _keyed(conn, event_id, key.key_hash)
    if stored is not None:
        raise KeyTaken(stored)


def _keyed(conn, event_id: str | None, key_hash: str) -> KeyedSubmission | None:
    row = conn.execute(_KEY_OF, {"event_id": event_id, "key_hash": key_hash}).first()
    return KeyedSubmission(row.registration_id, row.version, row.request_hash) if row else None


def _keep_key(conn, event_id: str, key: SubmissionKey | None, registration_id: str, version: int, now: datetime) -> None:
    if key is not None:
        conn.execute(submission_keys.insert(), {"event_id": event_id, "key_hash": key.key_hash, "request_hash": key.request_hash,
                                                "registration_id": registration_id, "version": version, "created_at": stamp(now)})


def _version_row(registration_id: str, number: int, new: NewVersion, now: datetime) -> dict:
    return {
        "registration_id": registration_id, "version": number, "player": new.player, "filename": new.filename,
        "decklist": new.decklist, "legal": bool(new.deck["legal"]), "fingerprint": new.deck.get("fingerprint"),
        "deck_json": json.dumps(new.deck, ensure_ascii=False), "contents_json": json.dumps(new.contents, ensure_ascii=False),
        "submitted_at": stamp(now), "player_id": new.player_id,
    }


def _moment(now: datetime) -> datetime:
    """A moment as it reads back from the database (UTC, to the microsecond)."""
    return parse_stamp(stamp(now))


def _stored(registration_id: str, number: int, new: NewVersion, now: datetime) -> Version:
    """The Version a write stored, as a read would give it."""
    return Version(registration_id, number, new.player, new.filename, new.decklist, bool(new.deck["legal"]),
                   new.deck.get("fingerprint"), new.deck, new.contents, _moment(now), new.player_id)


def _event(row) -> Event:
    return Event(row.id, row.name, row.format, row.date, parse_stamp(row.deadline), row.banlist, parse_stamp(row.created_at),
                 row.player_ids)


def _version(row) -> Version:
    return Version(row.registration_id, row.version, row.player, row.filename, row.decklist, bool(row.legal),
                   row.fingerprint, json.loads(row.deck_json), json.loads(row.contents_json), parse_stamp(row.submitted_at),
                   row.player_id)


def _deck_check(row) -> DeckCheck:
    return DeckCheck(row.id, row.event_id, row.registration_id, row.cycle, row.how, row.seed, parse_stamp(row.picked_at),
                     json.loads(row.outcome_json) if row.outcome_json else None,
                     parse_stamp(row.outcome_at) if row.outcome_at else None)


def _registration(row) -> Registration:
    return Registration(row.id, row.event_id, row.token_hash, parse_stamp(row.created_at), _version(row), bool(row.unlocked))


class GroupCommit:
    """Group commit for SQLite, whose durable commit (an fsync, ~5 ms on a common disk) is one at
    a time: submissions that arrive while a commit is under way are written together in the next
    transaction, each in a savepoint of its own (one that fails, a constraint say, leaves the
    others), and committed with one fsync. Each caller is answered only after the commit that
    holds its write, so an acknowledged submission is as durable as before. The first caller
    to find no commit under way commits for the others (no thread of its own)."""

    def __init__(self, store: Store):
        self.store = store
        self._lock = threading.Lock()
        self._pending: list = []
        self._committing = False

    def run(self, write):
        from concurrent.futures import Future

        done: Future = Future()
        with self._lock:
            self._pending.append((write, done))
            lead = not self._committing
            self._committing = True
        if lead:
            self._lead()
        return done.result()

    def _lead(self) -> None:
        while True:
            with self._lock:
                batch, self._pending = self._pending, []
                if not batch:
                    self._committing = False
                    return
            try:
                self._commit(batch)
            except BaseException:
                with self._lock:
                    self._committing = False
                raise

    def _commit(self, batch: list) -> None:
        outcomes = []
        try:
            with self.store._write() as conn:
                for write, done in batch:
                    try:
                        with conn.begin_nested():
                            outcomes.append((done, write(conn), None))
                    except Exception as exc:
                        if _unavailable(exc):
                            raise  # the database itself failed: the whole transaction goes
                        outcomes.append((done, None, exc))
        except Exception as exc:
            for _write, done in batch:
                if not done.done():
                    done.set_exception(exc)
            return
        for done, value, exc in outcomes:
            if exc is not None:
                done.set_exception(exc)
            else:
                done.set_result(value)


class _WriterLock:
    """One SQLite writer at a time across the desk's threads and worker processes, queued by the
    kernel (``flock`` on a file beside the database) rather than by SQLite's busy handler, which
    sleeps and retries (up to 100 ms a try) and under a burst of submissions from several
    processes leaves the database idle while writers sleep."""

    def __init__(self, path: str):
        self.path = path
        self._thread = threading.Lock()
        self._fd: int | None = None

    @contextmanager
    def held(self) -> Iterator[None]:
        import fcntl

        with self._thread:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(self._fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)

    def close(self) -> None:
        with self._thread:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None


def _sqlite_setup(engine: sa.Engine) -> None:
    """WAL (readers never wait for the writer), FULL sync (an acknowledged commit survives a
    crash), foreign keys on; transactions begun by us, IMMEDIATE for writes."""

    @sa_event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = None  # the driver's own BEGIN off: see _on_begin
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @sa_event.listens_for(engine, "begin")
    def _on_begin(conn) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("desk_write") else "BEGIN")
