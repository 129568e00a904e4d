"""The imported card catalog: one SQLite file per user, read lazily.

Opening the catalog reads nothing but its metadata; a check looks up only the names and
printing codes in the deck (indexed), turning each found card's stored facts into a ``Card``
once. Fuzzy suggestions load the name list only when a deck has an unknown card.

Tables: ``meta`` (format marker and schema version), ``sources`` (one row per imported file),
``records`` (the source records as imported, so importing another file re-derives merged
facts), ``cards`` (facts as ``forcecheck-catalog/1`` JSON), ``names`` and ``printings``
(lookup keys), ``warnings`` (what the importer could not read cleanly).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

from forcecheck.cards.catalog import MEMO_LIMIT, Catalog
from forcecheck.cards.model import Card
from forcecheck.cards.names import normalize_name, normalize_printing
from forcecheck.errors import CatalogError

MARKER = "forcecheck-catalog"
SCHEMA_VERSION = 3
SQLITE_HEADER = b"SQLite format 3\x00"
_UNSEEN = object()

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sources (
    id INTEGER PRIMARY KEY,
    importer TEXT NOT NULL,
    path TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    records INTEGER NOT NULL,
    imported_at TEXT NOT NULL,
    UNIQUE (importer, path)
);
CREATE TABLE records (source_id INTEGER NOT NULL REFERENCES sources(id), seq INTEGER NOT NULL, body TEXT NOT NULL);
CREATE INDEX records_source ON records (source_id, seq);
CREATE TABLE cards (id INTEGER PRIMARY KEY, game TEXT NOT NULL, name TEXT NOT NULL, facts TEXT NOT NULL);
CREATE TABLE names (game TEXT NOT NULL, key TEXT NOT NULL, card_id INTEGER NOT NULL, PRIMARY KEY (game, key)) WITHOUT ROWID;
CREATE TABLE printings (game TEXT NOT NULL, code TEXT NOT NULL, card_id INTEGER NOT NULL, PRIMARY KEY (game, code)) WITHOUT ROWID;
CREATE TABLE warnings (importer TEXT NOT NULL, record TEXT NOT NULL, message TEXT NOT NULL);
CREATE TABLE banlists (
    name TEXT PRIMARY KEY COLLATE NOCASE,
    game TEXT NOT NULL,
    whitelist INTEGER NOT NULL,
    source TEXT NOT NULL,
    date TEXT,
    imported_at TEXT NOT NULL
);
CREATE TABLE banlist_entries (banlist TEXT NOT NULL COLLATE NOCASE, key TEXT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (banlist, key)) WITHOUT ROWID;
"""


def default_db_path() -> Path:
    """Where ``catalog import`` writes and ``check`` looks when no catalog is named."""
    from platformdirs import user_data_path

    return user_data_path("forcecheck", appauthor=False) / "catalog.sqlite3"


def is_sqlite_file(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(16) == SQLITE_HEADER
    except OSError:
        return False


def check_ours(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse a database that is not a forcecheck catalog, or of another schema version."""
    try:
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.DatabaseError:
        raise CatalogError("not a forcecheck catalog (an SQLite database without forcecheck's tables)", path) from None
    if meta.get("format") != MARKER:
        raise CatalogError("not a forcecheck catalog (no forcecheck marker in its meta table)", path)
    version = meta.get("schema_version")
    if version != str(SCHEMA_VERSION):
        raise CatalogError(
            f"catalog schema version {version} is not {SCHEMA_VERSION}; re-import the card data into a new catalog (--db NEW_PATH)",
            path,
        )


class SqliteCatalog(Catalog):
    """A catalog database opened read-only; card facts are built only for the cards asked for."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.label = f"catalog {self.path}"
        if not self.path.is_file():
            raise CatalogError("no such catalog file", self.path)
        try:
            self._conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
            check_ours(self._conn, self.path)
        except sqlite3.DatabaseError as exc:
            raise CatalogError(f"cannot open catalog database ({exc})", self.path) from None
        self._cards: dict[int, Card] = {}
        self._names: dict[str, tuple[list[str], list[str]]] = {}
        self._ids: dict[tuple[str, str, str], int | None] = {}
        """(kind, game, normalised key) -> card id, remembered (bounded like Catalog.remembered)."""

    def _card(self, card_id: int | None) -> Card | None:
        if card_id is None:
            return None
        card = self._cards.get(card_id)
        if card is None:
            (facts,) = self._conn.execute("SELECT facts FROM cards WHERE id = ?", (card_id,)).fetchone()
            card = self._cards[card_id] = Card.from_dict(json.loads(facts))
        return card

    def _one(self, sql: str, args: tuple) -> int | None:
        row = self._conn.execute(sql, args).fetchone()
        return row[0] if row else None

    _QUERIES = {
        "name": ("SELECT card_id FROM names WHERE game = ? AND key = ?", normalize_name),
        "printing": ("SELECT card_id FROM printings WHERE game = ? AND code = ?", normalize_printing),
    }

    def _lookup(self, kind: str, game: str, written: str) -> Card | None:
        """The card for a name or code as written. Callers that look up many spellings go
        through Catalog.remembered, which keeps the answers per spelling."""
        sql, normalise = self._QUERIES[kind]
        key = (kind, game, normalise(written))
        card_id = self._ids.get(key, _UNSEEN)
        if card_id is _UNSEEN:
            if len(self._ids) >= MEMO_LIMIT:
                self._ids.clear()
            card_id = self._ids[key] = self._one(sql, key[1:])
        return self._card(card_id)

    def by_name(self, game: str, name: str) -> Card | None:
        return self._lookup("name", game, name)

    def by_printing(self, game: str, code: str) -> Card | None:
        return self._lookup("printing", game, code)

    def name_index(self, game: str) -> tuple[list[str], list[str]]:
        if game not in self._names:
            rows = self._conn.execute(
                "SELECT n.key, c.name FROM names n JOIN cards c ON c.id = n.card_id WHERE n.game = ?", (game,)
            ).fetchall()
            self._names[game] = ([r[0] for r in rows], [r[1] for r in rows])
        return self._names[game]

    def cards(self, game: str | None = None) -> list[Card]:
        sql, args = "SELECT id FROM cards", ()
        if game is not None:
            sql, args = "SELECT id FROM cards WHERE game = ?", (game,)
        return [self._card(row[0]) for row in self._conn.execute(sql + " ORDER BY id", args).fetchall()]

    def info(self) -> dict:
        counts = dict(self._conn.execute("SELECT game, COUNT(*) FROM cards GROUP BY game ORDER BY game").fetchall())
        sources = [
            {"importer": r[0], "path": r[1], "sha256": r[2], "records": r[3], "imported_at": r[4]}
            for r in self._conn.execute("SELECT importer, path, sha256, records, imported_at FROM sources ORDER BY id")
        ]
        warnings = self._conn.execute("SELECT COUNT(*) FROM warnings").fetchone()[0]
        return {"catalog": self.label, "path": str(self.path), "cards": counts, "sources": sources, "warnings": warnings}

    def banlists(self) -> list[dict]:
        rows = self._conn.execute(
            "SELECT b.name, b.game, b.whitelist, b.source, b.date, b.imported_at, COUNT(e.key) FROM banlists b "
            "LEFT JOIN banlist_entries e ON e.banlist = b.name GROUP BY b.name ORDER BY b.date, b.name"
        ).fetchall()
        keys = ("name", "game", "whitelist", "source", "date", "imported_at", "entries")
        return [dict(zip(keys, row)) for row in rows]

    def banlist(self, name: str):
        from forcecheck.banlists import Banlist

        row = self._conn.execute(
            "SELECT name, game, whitelist, source, date FROM banlists WHERE name = ?", (name,)
        ).fetchone()
        if row is None:
            return None
        entries = dict(self._conn.execute("SELECT key, count FROM banlist_entries WHERE banlist = ?", (row[0],)).fetchall())
        return Banlist(name=row[0], game=row[1], whitelist=bool(row[2]), source=row[3], date=row[4], entries=entries)

    def warnings(self) -> list[tuple[str, str, str]]:
        return self._conn.execute("SELECT importer, record, message FROM warnings ORDER BY rowid").fetchall()

    def close(self) -> None:
        self._conn.close()


def create_schema(conn: sqlite3.Connection) -> None:
    conn.executescript(SCHEMA)
    conn.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?)", [("format", MARKER), ("schema_version", str(SCHEMA_VERSION))]
    )


def replace_cards(conn: sqlite3.Connection, cards: list[Card]) -> None:
    """Rewrite the derived tables from ``cards``: names first, then aliases, then printing codes."""
    conn.execute("DELETE FROM cards")
    conn.execute("DELETE FROM names")
    conn.execute("DELETE FROM printings")
    ids: list[tuple[int, Card]] = []
    for index, card in enumerate(cards, start=1):
        conn.execute(
            "INSERT INTO cards (id, game, name, facts) VALUES (?, ?, ?, ?)",
            (index, card.game, card.name, json.dumps(card.to_dict(), ensure_ascii=False)),
        )
        ids.append((index, card))
    conn.executemany(
        "INSERT OR IGNORE INTO names (game, key, card_id) VALUES (?, ?, ?)",
        [(c.game, normalize_name(c.name), i) for i, c in ids],
    )
    conn.executemany(
        "INSERT OR IGNORE INTO names (game, key, card_id) VALUES (?, ?, ?)",
        [(c.game, normalize_name(a), i) for i, c in ids for a in c.aliases],
    )
    conn.executemany(
        "INSERT OR IGNORE INTO printings (game, code, card_id) VALUES (?, ?, ?)",
        [(c.game, normalize_printing(p), i) for i, c in ids for p in c.printings],
    )


def temp_path_for(path: Path) -> Path:
    """A sibling temporary file, so the final ``os.replace`` is atomic on the same file system."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


@contextmanager
def writable_catalog(db: Path) -> Iterator[sqlite3.Connection]:
    """A connection to a copy of the catalog (or a new one); committed and swapped in on success.

    A foreign or old-schema file at ``db`` is refused before anything is written, and any
    failure leaves the existing catalog exactly as it was.
    """
    db = Path(db)
    db.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_path_for(db)
    existed = db.exists()
    try:
        if existed:
            if not is_sqlite_file(db):
                raise CatalogError("not a forcecheck catalog (not an SQLite file); choose another --db", db)
            check = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
            try:
                check_ours(check, db)
            finally:
                check.close()
            shutil.copyfile(db, tmp)
        conn = sqlite3.connect(tmp)
        try:
            if not existed:
                create_schema(conn)
            yield conn
            conn.commit()
        finally:
            conn.close()
        os.replace(tmp, db)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def replace_banlists(conn: sqlite3.Connection, lists) -> None:
    """Store lists, replacing lists of the same name (names are unique, case-insensitively)."""
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    for banlist in lists:
        conn.execute("DELETE FROM banlist_entries WHERE banlist = ?", (banlist.name,))
        conn.execute("DELETE FROM banlists WHERE name = ?", (banlist.name,))
        conn.execute(
            "INSERT INTO banlists (name, game, whitelist, source, date, imported_at) VALUES (?, ?, ?, ?, ?, ?)",
            (banlist.name, banlist.game, int(banlist.whitelist), banlist.source, banlist.date, now),
        )
        conn.executemany(
            "INSERT INTO banlist_entries (banlist, key, count) VALUES (?, ?, ?)",
            [(banlist.name, key, count) for key, count in banlist.entries.items()],
        )
