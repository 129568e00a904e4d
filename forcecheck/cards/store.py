"""The imported card catalog: one SQLite file per user, read lazily.

Opening the catalog reads nothing but its metadata; a check looks up only the names and
printing codes in the deck (indexed), turning each found card's stored facts into a ``Card``
once. Fuzzy suggestions load the name list only when a deck has an unknown card.

Tables: ``meta`` (format marker, schema version, the name folds present), ``sources`` (one
row per imported file, with the language of its names), ``records`` (the source records as
imported, so importing another file re-derives merged facts), ``cards`` (facts as
``forcecheck-catalog/1`` JSON), ``card_names`` (every name of every card, tagged with its
language), ``names`` and ``printings`` (lookup keys: a name's keys in each fold, see
``names.index_keys``), ``warnings`` (what the importer could not read cleanly), ``banlists``,
``banlist_entries``, ``banlist_combinations`` and ``banlist_labels`` (the card names a list's
comments give its passcodes).

Why one module of this size: the tables, the import that writes them and the ``Catalog`` that
reads them share one layout and one schema version; a change to one is a change to all three.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from forcecheck.cards.model import Card
from forcecheck.cards.names import BARE, FOLDS, PLAIN, normalize_printing
from forcecheck.cards.protocol import MEMO_LIMIT, Catalog, NameRows, index_names
from forcecheck.errors import CatalogError
from forcecheck.memo import BoundedMemo

MARKER = "forcecheck-catalog"
SCHEMA_VERSION = 5
"""5: card facts carry construction conditions (forcecheck.cards.conditions) and banlists their
combination bans; a version-4 catalog has neither, so it is refused and re-imported."""
SQLITE_HEADER = b"SQLite format 3\x00"
_UNSEEN = object()

PROVENANCE_SCHEMA = """
CREATE TABLE IF NOT EXISTS provenance (
    address TEXT PRIMARY KEY,
    role TEXT NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    retrieved_at TEXT NOT NULL,
    via TEXT NOT NULL
);
"""
"""Where each imported file came from (a URL or a file), as a report names the data it judged
by: its address, size, sha256 and when it was fetched or imported; ``role`` is its place in a
mirror (``fow/cards.json``) for fetched files, else ``file``; ``via`` is ``fetch`` or
``import``. Added without a schema version: a catalog made before it gains the table at its
next import, and reads as having no provenance until then."""

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sources (
    id INTEGER PRIMARY KEY,
    importer TEXT NOT NULL,
    path TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    records INTEGER NOT NULL,
    imported_at TEXT NOT NULL,
    locale TEXT NOT NULL,
    UNIQUE (importer, path)
);
CREATE TABLE records (source_id INTEGER NOT NULL REFERENCES sources(id), seq INTEGER NOT NULL, body TEXT NOT NULL);
CREATE INDEX records_source ON records (source_id, seq);
CREATE TABLE cards (id INTEGER PRIMARY KEY, game TEXT NOT NULL, name TEXT NOT NULL, facts TEXT NOT NULL);
CREATE TABLE card_names (card_id INTEGER NOT NULL, lang TEXT NOT NULL, name TEXT NOT NULL, printed INTEGER NOT NULL, PRIMARY KEY (card_id, lang, name)) WITHOUT ROWID;
CREATE TABLE names (game TEXT NOT NULL, fold TEXT NOT NULL, key TEXT NOT NULL, card_id INTEGER NOT NULL, lang TEXT NOT NULL, PRIMARY KEY (game, fold, key, card_id)) WITHOUT ROWID;
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
CREATE TABLE banlist_combinations (banlist TEXT NOT NULL COLLATE NOCASE, combination INTEGER NOT NULL, key TEXT NOT NULL);
""" + PROVENANCE_SCHEMA
LABELS_TABLE = (
    "CREATE TABLE IF NOT EXISTS banlist_labels (banlist TEXT NOT NULL COLLATE NOCASE, key TEXT NOT NULL, "
    "name TEXT NOT NULL, PRIMARY KEY (banlist, key)) WITHOUT ROWID"
)
"""The card names a list's comments give its passcodes (``--Sangan``). Added after schema 5 was
released: a catalog written before has no such table, reads as a catalog whose lists name no
card in comments, and gets the table at its next banlist import."""
POINTS_TABLE = "CREATE TABLE IF NOT EXISTS banlist_points (banlist TEXT PRIMARY KEY COLLATE NOCASE)"
"""The lists whose entries are points, not copy caps (EDOPro ``$genesys``). Added after schema 5,
as ``banlist_labels`` was: a catalog written before holds no points list, and gets the table at
its next banlist import."""


def read_only_uri(path: str | Path) -> str:
    """The SQLite URI that opens ``path`` read-only. Written ``file:{path}?mode=ro``, a ``#``
    or ``?`` in the path would end the file name there (opening, or creating, another file)
    and a ``%`` would be decoded; the path is made absolute and percent-encoded instead."""
    return Path(os.path.abspath(path)).as_uri() + "?mode=ro"


def is_sqlite_file(path: Path) -> bool:
    """Whether ``path`` is a regular file that starts as SQLite files do. Opened without
    blocking and looked at before reading: a FIFO named as the catalog would otherwise hang
    every command until something wrote into it."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode) and os.read(fd, 16) == SQLITE_HEADER
    except OSError:
        return False
    finally:
        os.close(fd)


def damaged(path: Path, detail: str) -> CatalogError:
    """The error for a catalog whose content is broken: only a new import mends it."""
    return CatalogError(f"catalog is damaged ({detail}); re-import the card data (forcecheck catalog import ... --db NEW_PATH)", path)


def is_corruption(exc: sqlite3.DatabaseError) -> bool:
    """SQLite's own verdict that the file is damaged (SQLITE_CORRUPT, SQLITE_NOTADB), by code."""
    return getattr(exc, "sqlite_errorname", "") in ("SQLITE_CORRUPT", "SQLITE_NOTADB")


def check_ours(conn: sqlite3.Connection, path: Path) -> dict[str, str]:
    """Refuse a database that is not a forcecheck catalog, or of another schema version; its meta table."""
    try:
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    except UnicodeDecodeError:
        raise damaged(path, "a text value is not UTF-8") from None
    except sqlite3.DatabaseError as exc:
        if is_corruption(exc):
            raise damaged(path, "SQLite cannot read its structure") from None
        raise CatalogError("not a forcecheck catalog (an SQLite database without forcecheck's tables)", path) from None
    if meta.get("format") != MARKER:
        raise CatalogError("not a forcecheck catalog (no forcecheck marker in its meta table)", path)
    version = meta.get("schema_version")
    if version != str(SCHEMA_VERSION):
        raise CatalogError(
            f"catalog schema version {version} is not {SCHEMA_VERSION}; re-import the card data into a new catalog (--db NEW_PATH)",
            path,
        )
    return meta


class _Reading:
    """The read-only connection of a SqliteCatalog: every query's rows are fetched at once, and
    any SQLite error on the way (a damaged page, a vanished file) becomes one CatalogError that
    names the catalog, so the batch reports it per deck instead of stopping mid-document."""

    def __init__(self, conn: sqlite3.Connection, path: Path):
        self._conn = conn
        self._path = path

    def execute(self, sql: str, args: tuple = ()) -> _Rows:
        try:
            return _Rows(self._conn.execute(sql, args).fetchall())
        except sqlite3.DatabaseError as exc:
            raise damaged(self._path, f"SQLite: {exc}") from None
        except UnicodeDecodeError:  # a damaged byte inside a text value
            raise damaged(self._path, "a text value is not UTF-8") from None

    def close(self) -> None:
        self._conn.close()


class _Rows(list):
    """Fetched rows with the cursor methods the catalog uses."""

    def fetchone(self):
        return self[0] if self else None

    def fetchall(self):
        return self


_INHERITED: list = []
"""Connections a forked worker inherited: kept so that they are never closed there."""


class SqliteCatalog(Catalog):
    """A catalog database opened read-only; card facts are built only for the cards asked for."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.label = f"catalog {self.path}"
        if not self.path.is_file():
            raise CatalogError("no such catalog file", self.path)
        try:
            conn = sqlite3.connect(read_only_uri(self.path), uri=True)
            meta = check_ours(conn, self.path)
        except sqlite3.DatabaseError as exc:
            if is_corruption(exc):
                raise damaged(self.path, "SQLite cannot read it") from None
            raise CatalogError(f"cannot open catalog database ({exc})", self.path) from None
        self._conn = _Reading(conn, self.path)
        self._folds = frozenset(str(meta.get("name_folds", PLAIN)).split(",")) & frozenset(FOLDS)
        self._cards: dict[int, Card] = {}
        self._choices: dict[tuple[str, bool], tuple[list[str], list[str]]] = {}
        self._ids: BoundedMemo[tuple, object] = BoundedMemo(MEMO_LIMIT)
        """(kind, game, [fold,] key) -> card id (printings) or (card id, language) rows (names),
        remembered (bounded like Catalog.remembered)."""
        self._facts: dict[int, str] = {}
        """Stored facts of the cards of the games read for a batch (``read_for_batch``)."""
        self._names: dict[str, dict[tuple[str, str], tuple]] = {}
        """Per game read for a batch: (fold, key) -> (card id, language) rows of every name."""
        self._printed: dict[str, dict[str, int]] = {}
        """Per game read for a batch: printing code -> card id."""

    def after_fork(self) -> None:
        """A connection of this process's own, in a process forked from the one that opened the
        catalog. The inherited connection is kept, unused and never closed (SQLite forbids using
        or closing a connection in a forked child), so the cards remembered so far stay."""
        _INHERITED.append(self._conn)
        self._conn = _Reading(sqlite3.connect(read_only_uri(self.path), uri=True), self.path)

    def _card(self, card_id: int | None, facts: str | None = None) -> Card | None:
        """The card of an id, built once from its facts (``facts``: already fetched with the
        name that led here, which saves a query per card the first time a batch meets it)."""
        if card_id is None:
            return None
        card = self._cards.get(card_id)
        if card is None:
            from forcecheck.cards.records import card_from_record

            if facts is None:
                facts = self._facts.get(card_id)
            if facts is None:
                row = self._conn.execute("SELECT facts FROM cards WHERE id = ?", (card_id,)).fetchone()
                if row is None:
                    raise damaged(self.path, f"card {card_id} is indexed but missing")
                facts = row[0]
            try:
                card = self._cards[card_id] = card_from_record(json.loads(facts))
            except (ValueError, TypeError) as exc:  # RecordError and JSONDecodeError are ValueErrors
                raise damaged(self.path, f"the facts of card {card_id} are malformed: {exc}") from None
        return card

    def sharing_name(self, game: str, name: str) -> list[Card]:
        memo_key = ("sharing", game, name.casefold())
        ids = self._ids.get(memo_key, _UNSEEN)
        if ids is _UNSEEN:
            rows = self._conn.execute(
                "SELECT DISTINCT n.card_id FROM card_names n JOIN cards c ON c.id = n.card_id "
                "WHERE c.game = ? AND n.name = ? COLLATE NOCASE ORDER BY n.card_id", (game, name)).fetchall()
            ids = self._ids.remember(memo_key, tuple(row[0] for row in rows))
        return [self._card(card_id) for card_id in ids]

    def _one(self, sql: str, args: tuple) -> int | None:
        row = self._conn.execute(sql, args).fetchone()
        return row[0] if row else None

    def name_folds(self) -> frozenset[str]:
        return self._folds

    def name_rows(self, game: str, fold: str, key: str) -> NameRows:
        """Cards filed under a name key. Callers that look up many spellings go through
        Catalog.remembered, which keeps the answers per spelling; this keeps them per key."""
        read = self._names.get(game)
        if read is not None:
            return [(self._card(card_id), lang) for card_id, lang in read.get((fold, key), ())]
        memo_key = ("name", game, fold, key)
        rows = self._ids.get(memo_key, _UNSEEN)
        if rows is _UNSEEN:
            # the facts come along (a LEFT JOIN: a name whose card is missing is reported as damage)
            found = self._conn.execute(
                "SELECT n.card_id, n.lang, c.facts FROM names n LEFT JOIN cards c ON c.id = n.card_id "
                "WHERE n.game = ? AND n.fold = ? AND n.key = ? LIMIT 3", (game, fold, key)
            ).fetchall()
            for card_id, _lang, facts in found:
                if facts is not None:
                    self._card(card_id, facts)
            rows = self._ids.remember(memo_key, tuple((card_id, lang) for card_id, lang, _facts in found))
        return [(self._card(card_id), lang) for card_id, lang in rows]

    def read_for_batch(self, game: str) -> None:
        """Read every card's stored facts and every name and printing code of ``game`` in three
        queries, for a batch about to be checked: its decks then look cards up without a query
        each, and worker processes forked after this share what was read. Cards are still
        built one by one as decks name them (a batch of a few hundred lists meets a fraction
        of a game), and a card whose facts are damaged is still reported for the deck naming
        it. When SQLite cannot read the tables whole, the batch looks names up one by one, as
        without this, and meets the damage where it is."""
        if game in self._names:
            return
        try:
            facts = self._conn.execute("SELECT id, facts FROM cards WHERE game = ?", (game,))
            names = self._conn.execute("SELECT fold, key, card_id, lang FROM names WHERE game = ?", (game,))
            printed = self._conn.execute("SELECT code, card_id FROM printings WHERE game = ?", (game,))
        except CatalogError:
            return
        self._facts.update(facts)
        filed: dict[tuple[str, str], tuple] = {}
        for fold, key, card_id, lang in names:  # in key order, then card id: as the one-name query
            rows = filed.get((fold, key), ())
            if len(rows) < 3:  # the one-name query's LIMIT
                filed[(fold, key)] = (*rows, (card_id, lang))
        self._names[game] = filed
        self._printed[game] = dict(printed)

    def known_printings(self, game: str, codes) -> set[str]:
        """The printing codes of ``codes`` that name a card of ``game`` (normalised), in a few
        queries however many (a whitelist names thousands)."""
        keys = sorted({normalize_printing(c).lstrip("0") or "0" for c in codes})
        read = self._printed.get(game)
        if read is not None:
            return {k for k in keys if k in read}
        found: set[str] = set()
        for start in range(0, len(keys), 500):
            chunk = keys[start:start + 500]
            rows = self._conn.execute(
                f"SELECT code FROM printings WHERE game = ? AND code IN ({','.join('?' * len(chunk))})", (game, *chunk)
            )
            found.update(row[0] for row in rows)
        return found

    def by_printing(self, game: str, code: str) -> Card | None:
        read = self._printed.get(game)
        if read is not None:
            return self._card(read.get(normalize_printing(code)))
        memo_key = ("printing", game, normalize_printing(code))
        card_id = self._ids.get(memo_key, _UNSEEN)
        if card_id is _UNSEEN:
            card_id = self._ids.remember(memo_key, self._one("SELECT card_id FROM printings WHERE game = ? AND code = ?", memo_key[1:]))
        return self._card(card_id)

    def numbered_keys(self, game: str) -> list[str]:
        rows = self._conn.execute(
            "SELECT key FROM names WHERE game = ? AND fold = ? AND (key GLOB '[0-9]*' OR key GLOB '*[0-9]')", (game, PLAIN)
        ).fetchall()
        return [row[0] for row in rows]

    def name_index(self, game: str, unspaced: bool = False) -> tuple[list[str], list[str]]:
        """Loaded only when a deck has an unknown card: every key of the fold, and the card's
        printed name in the language of the name it came from."""
        if (game, unspaced) not in self._choices:
            rows = self._conn.execute(
                "SELECT n.key, cn.name FROM names n JOIN card_names cn ON cn.card_id = n.card_id AND cn.lang = n.lang "
                "AND cn.printed = 1 WHERE n.game = ? AND n.fold = ?",
                (game, BARE if unspaced else PLAIN),
            ).fetchall()
            self._choices[(game, unspaced)] = ([r[0] for r in rows], [r[1] for r in rows])
        return self._choices[(game, unspaced)]

    def cards(self, game: str | None = None) -> list[Card]:
        sql, args = "SELECT id FROM cards", ()
        if game is not None:
            sql, args = "SELECT id FROM cards WHERE game = ?", (game,)
        return [self._card(row[0]) for row in self._conn.execute(sql + " ORDER BY id", args).fetchall()]

    def has_cards(self, game: str) -> bool:
        return self._conn.execute("SELECT 1 FROM cards WHERE game = ? LIMIT 1", (game,)).fetchone() is not None

    def unchecked(self) -> list[Card]:
        """Cards with construction text not checked, found without building every card: only
        facts that mention the key are read."""
        rows = self._conn.execute("SELECT id FROM cards WHERE facts LIKE '%\"unchecked\"%' ORDER BY id").fetchall()
        return [card for card in (self._card(row[0]) for row in rows) if card.unchecked]

    def info(self) -> dict:
        counts = dict(self._conn.execute("SELECT game, COUNT(*) FROM cards GROUP BY game ORDER BY game").fetchall())
        sources = [
            {"importer": r[0], "path": r[1], "sha256": r[2], "records": r[3], "imported_at": r[4], "locale": r[5]}
            for r in self._conn.execute("SELECT importer, path, sha256, records, imported_at, locale FROM sources ORDER BY id")
        ]
        names: dict[str, dict[str, dict[str, int]]] = {}
        for game, lang, named, total in self._conn.execute(
            "SELECT c.game, cn.lang, SUM(cn.printed), COUNT(*) FROM card_names cn JOIN cards c ON c.id = cn.card_id "
            "GROUP BY c.game, cn.lang ORDER BY c.game, SUM(cn.printed) DESC, cn.lang"
        ):
            names.setdefault(game, {})[lang] = {"cards": named, "names": total}
        warnings = self._conn.execute("SELECT COUNT(*) FROM warnings").fetchone()[0]
        if any(not isinstance(s["records"], int) or not all(isinstance(s[k], str) for k in ("importer", "path", "sha256", "imported_at")) for s in sources):
            raise damaged(self.path, "its table of sources is malformed")
        return {
            "catalog": self.label, "path": str(self.path), "cards": counts, "names": names, "sources": sources,
            "warnings": warnings, "provenance": self.provenance(),
        }

    def banlists(self) -> list[dict]:
        rows = self._conn.execute(
            "SELECT b.name, b.game, b.whitelist, b.source, b.date, b.imported_at, "
            "(SELECT COUNT(*) FROM banlist_entries e WHERE e.banlist = b.name), "
            "(SELECT COUNT(DISTINCT c.combination) FROM banlist_combinations c WHERE c.banlist = b.name) "
            "FROM banlists b ORDER BY b.date, b.name"
        ).fetchall()
        keys = ("name", "game", "whitelist", "source", "date", "imported_at", "entries", "combinations")
        lists = [dict(zip(keys, row)) for row in rows]
        pointed = self._points_lists()
        for item in lists:
            _banlist_shape(self.path, item["name"], item["game"], item["whitelist"], item["source"], item["date"])
            item["points"] = item["name"].casefold() in pointed
        return lists

    def _points_lists(self) -> set[str]:
        """The names (case-folded) of the lists whose entries are points (``POINTS_TABLE``)."""
        if not self._conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'banlist_points'").fetchone():
            return set()
        names = [row[0] for row in self._conn.execute("SELECT banlist FROM banlist_points")]
        if not all(isinstance(n, str) for n in names):
            raise damaged(self.path, "the points lists' names are malformed")
        return {n.casefold() for n in names}

    def banlist(self, name: str):
        from forcecheck.banlists import Banlist  # here: banlists (list files) sits above the catalog

        row = self._conn.execute(
            "SELECT name, game, whitelist, source, date FROM banlists WHERE name = ?", (name,)
        ).fetchone()
        if row is None:
            return None
        _banlist_shape(self.path, *row)
        entries = dict(self._conn.execute("SELECT key, count FROM banlist_entries WHERE banlist = ?", (row[0],)).fetchall())
        if not all(isinstance(k, str) and isinstance(v, int) for k, v in entries.items()):
            raise damaged(self.path, f"the entries of banlist {row[0]!r} are malformed")
        combinations: dict[int, list[str]] = {}
        for number, key in self._conn.execute(
            "SELECT combination, key FROM banlist_combinations WHERE banlist = ? ORDER BY combination, rowid", (row[0],)
        ):
            combinations.setdefault(number, []).append(key)
        labels: dict[str, str] = {}
        if self._conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'banlist_labels'").fetchone():
            labels = dict(self._conn.execute("SELECT key, name FROM banlist_labels WHERE banlist = ?", (row[0],)).fetchall())
            if not all(isinstance(k, str) and isinstance(v, str) for k, v in labels.items()):
                raise damaged(self.path, f"the comments of banlist {row[0]!r} are malformed")
        return Banlist(name=row[0], game=row[1], whitelist=bool(row[2]), source=row[3], date=row[4], entries=entries,
                       combinations=list(combinations.values()), labels=labels, points=row[0].casefold() in self._points_lists())

    def provenance(self) -> list[dict]:
        """Every imported file's address, role, size, sha256, time and how it came (fetch,
        import), oldest first; none for a catalog made before the table existed."""
        if self._conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'provenance'").fetchone() is None:
            return []
        keys = ("address", "role", "size", "sha256", "retrieved_at", "via")
        rows = [dict(zip(keys, row)) for row in self._conn.execute(f"SELECT {', '.join(keys)} FROM provenance ORDER BY retrieved_at, rowid")]
        if any(not isinstance(r["size"], int) or not all(isinstance(r[k], str) for k in keys if k != "size") for r in rows):
            raise damaged(self.path, "its table of provenance is malformed")
        return rows

    def warnings(self) -> list[tuple[str, str, str]]:
        return self._conn.execute("SELECT importer, record, message FROM warnings ORDER BY rowid").fetchall()

    def close(self) -> None:
        self._conn.close()


def _banlist_shape(path: Path, name, game, whitelist, source, date) -> None:
    """A stored banlist row has the types forcecheck wrote, or the catalog is damaged."""
    if not (isinstance(name, str) and isinstance(game, str) and isinstance(whitelist, int) and isinstance(source, str)
            and (date is None or isinstance(date, str))):
        raise damaged(path, "its table of banlists is malformed")


def create_schema(conn: sqlite3.Connection) -> None:
    conn.executescript(SCHEMA)
    conn.execute(LABELS_TABLE)
    conn.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?)", [("format", MARKER), ("schema_version", str(SCHEMA_VERSION))]
    )


def replace_cards(conn: sqlite3.Connection, cards: list[Card]) -> None:
    """Rewrite the derived tables from ``cards``: facts, every name with its language, the
    names' lookup keys in each fold (``protocol.index_names``) and printing codes."""
    conn.execute("DELETE FROM cards")
    conn.execute("DELETE FROM card_names")
    conn.execute("DELETE FROM names")
    conn.execute("DELETE FROM printings")
    ids = {card: index for index, card in enumerate(cards, start=1)}
    conn.executemany(
        "INSERT INTO cards (id, game, name, facts) VALUES (?, ?, ?, ?)",
        [(i, c.game, c.name, json.dumps(c.to_dict(), ensure_ascii=False)) for c, i in ids.items()],
    )
    conn.executemany(
        "INSERT OR IGNORE INTO card_names (card_id, lang, name, printed) VALUES (?, ?, ?, ?)",
        [(i, lang, name, int(printed)) for c, i in ids.items() for lang, name, printed in c.all_names()],
    )
    index = index_names(cards)
    conn.executemany(
        "INSERT INTO names (game, fold, key, card_id, lang) VALUES (?, ?, ?, ?, ?)",
        [(game, fold, key, ids[card], lang) for (game, fold, key), rows in index.items() for card, lang in rows],
    )
    folds = sorted({fold for _game, fold, _key in index}, key=FOLDS.index)
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('name_folds', ?)", (",".join(folds),))
    conn.executemany(
        "INSERT OR IGNORE INTO printings (game, code, card_id) VALUES (?, ?, ?)",
        [(c.game, normalize_printing(p), i) for c, i in ids.items() for p in c.printings],
    )


def temp_path_for(path: Path) -> Path:
    """A sibling temporary file, so the final ``os.replace`` is atomic on the same file system."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


LOCK_TIMEOUT = 600.0
"""Seconds an import waits for another import into the same catalog to finish."""


def lock_path_for(path: Path) -> Path:
    return path.with_name(f"{path.name}.lock")


@contextmanager
def writers_lock(db: Path) -> Iterator[None]:
    """One writer per catalog at a time, across processes: an exclusive lock on ``DB.lock``.

    filelock takes an ``flock`` on POSIX (``msvcrt.locking`` on Windows): the kernel releases
    it when the holder exits, however it dies (SIGKILL included), so a killed import never
    leaves a lock that blocks the next one. Without it, two imports into one catalog each copy
    the old file and the second rename silently drops the first one's source.
    """
    from filelock import FileLock, Timeout

    lock = FileLock(str(lock_path_for(db)))
    try:
        lock.acquire(timeout=0)
    except Timeout:  # (a subclass of OSError: first)
        print(f"forcecheck: waiting for another import into {db} to finish ...", file=sys.stderr)
        try:
            lock.acquire(timeout=LOCK_TIMEOUT)
        except Timeout:
            raise CatalogError(
                f"another import into this catalog has held it for {LOCK_TIMEOUT:.0f} s; try again when it has finished", db
            ) from None
    except OSError as exc:  # a read-only or full folder: nothing can be written there
        raise CatalogError(f"cannot write the catalog ({exc.strerror or exc})", db) from None
    try:
        yield
    finally:
        lock.release()


def remove_leftovers(db: Path) -> list[Path]:
    """Temporary copies (and their SQLite journals) that imports killed mid-way left beside the
    catalog. Called with the writers' lock held, so none of them belongs to a live import."""
    removed = []
    for leftover in db.parent.glob(f".{glob_escape(db.name)}.*.tmp*"):
        if leftover.name.endswith((".tmp", ".tmp-journal", ".tmp-wal", ".tmp-shm")):
            with contextlib.suppress(OSError):
                leftover.unlink()
                removed.append(leftover)
    return removed


def glob_escape(name: str) -> str:
    import glob

    return glob.escape(name)


@contextmanager
def writable_catalog(db: Path) -> Iterator[sqlite3.Connection]:
    """A connection to a copy of the catalog (or a new one); committed and swapped in on success.

    Writers take turns (``writers_lock``) and clean up after imports that were killed. A
    foreign or old-schema file at ``db`` is refused before anything is written, a damaged one
    is reported as damaged, and any failure leaves the existing catalog exactly as it was.
    """
    db = Path(db)
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CatalogError(f"cannot write the catalog ({exc.strerror or exc})", db) from None
    with writers_lock(db):
        remove_leftovers(db)
        tmp = temp_path_for(db)
        existed = db.exists()
        try:
            if existed:
                if not is_sqlite_file(db):
                    raise CatalogError("not a forcecheck catalog (not an SQLite file); choose another --db", db)
                check = sqlite3.connect(read_only_uri(db), uri=True)
                try:
                    check_ours(check, db)
                    verdict = check.execute("PRAGMA quick_check(1)").fetchone()[0]  # an import that reads few pages would not notice
                    if verdict != "ok":
                        said = " ".join(str(verdict).replace("*** in database main ***", "").split())
                        raise damaged(db, f"SQLite's check says: {said}")
                except sqlite3.DatabaseError as exc:
                    if is_corruption(exc):
                        raise damaged(db, f"SQLite: {exc}") from None
                    raise
                finally:
                    check.close()
                shutil.copyfile(db, tmp)
            conn = sqlite3.connect(tmp)
            try:
                if not existed:
                    create_schema(conn)
                yield conn
                conn.commit()
            except sqlite3.DatabaseError as exc:
                if is_corruption(exc):
                    raise damaged(db, f"SQLite: {exc}") from None
                raise CatalogError(f"cannot write the catalog (SQLite: {exc})", db) from None
            except UnicodeDecodeError:
                raise damaged(db, "a text value is not UTF-8") from None
            finally:
                conn.close()
            os.replace(tmp, db)
        except OSError as exc:  # a full disk, a read-only folder: the old catalog stays
            tmp.unlink(missing_ok=True)
            Path(f"{tmp}-journal").unlink(missing_ok=True)
            raise CatalogError(f"cannot write the catalog ({exc.strerror or exc})", db) from None
        except BaseException:
            tmp.unlink(missing_ok=True)
            Path(f"{tmp}-journal").unlink(missing_ok=True)
            raise


def record_provenance(conn: sqlite3.Connection, address: str, role: str, size: int, sha256: str, retrieved_at: str, via: str) -> None:
    """Remember where an imported file came from (``PROVENANCE_SCHEMA``), replacing what an
    earlier import of the same address said."""
    conn.execute(PROVENANCE_SCHEMA)
    conn.execute(
        "INSERT OR REPLACE INTO provenance (address, role, size, sha256, retrieved_at, via) VALUES (?, ?, ?, ?, ?, ?)",
        (address, role, size, sha256, retrieved_at, via),
    )


def forget_fetched(conn: sqlite3.Connection, role: str, keep: str) -> None:
    """Drop what earlier fetches of ``role`` brought from another address (a mirror named
    once, the default address now): their card records and provenance. Their banlists stay
    until a list of the same name replaces them."""
    conn.execute(PROVENANCE_SCHEMA)
    old = [row[0] for row in conn.execute("SELECT address FROM provenance WHERE role = ? AND via = 'fetch' AND address != ?", (role, keep))]
    for address in old:
        for (source_id,) in conn.execute("SELECT id FROM sources WHERE path = ?", (address,)).fetchall():
            conn.execute("DELETE FROM records WHERE source_id = ?", (source_id,))
            conn.execute("DELETE FROM sources WHERE id = ?", (source_id,))
        conn.execute("DELETE FROM provenance WHERE address = ?", (address,))


def replace_banlists(conn: sqlite3.Connection, lists) -> None:
    """Store lists, replacing lists of the same name (names are unique, case-insensitively)."""
    now = datetime.now(UTC).isoformat(timespec="seconds")
    conn.execute(LABELS_TABLE)
    conn.execute(POINTS_TABLE)
    for banlist in lists:
        conn.execute("DELETE FROM banlist_labels WHERE banlist = ?", (banlist.name,))
        conn.execute("DELETE FROM banlist_points WHERE banlist = ?", (banlist.name,))
        if getattr(banlist, "points", False):
            conn.execute("INSERT INTO banlist_points (banlist) VALUES (?)", (banlist.name,))
        conn.execute("DELETE FROM banlist_entries WHERE banlist = ?", (banlist.name,))
        conn.execute("DELETE FROM banlist_combinations WHERE banlist = ?", (banlist.name,))
        conn.execute("DELETE FROM banlists WHERE name = ?", (banlist.name,))
        conn.execute(
            "INSERT INTO banlists (name, game, whitelist, source, date, imported_at) VALUES (?, ?, ?, ?, ?, ?)",
            (banlist.name, banlist.game, int(banlist.whitelist), banlist.source, banlist.date, now),
        )
        conn.executemany(
            "INSERT INTO banlist_entries (banlist, key, count) VALUES (?, ?, ?)",
            [(banlist.name, key, count) for key, count in banlist.entries.items()],
        )
        conn.executemany(
            "INSERT INTO banlist_combinations (banlist, combination, key) VALUES (?, ?, ?)",
            [(banlist.name, number, key) for number, combo in enumerate(banlist.combinations) for key in combo],
        )
        conn.executemany(
            "INSERT OR REPLACE INTO banlist_labels (banlist, key, name) VALUES (?, ?, ?)",
            [(banlist.name, key, name) for key, name in getattr(banlist, "labels", {}).items()],
        )
