"""``forcecheck catalog import``: source files -> records -> card facts -> the SQLite catalog.

Every source file is read and validated before the catalog is touched. The new catalog is
written to a copy and swapped in (``store.writable_catalog``): a failed or interrupted import
leaves the existing catalog as it was.
Records of every imported file are kept, so importing another file re-derives all facts
together (printings of one name from two files merge; a well-formed printing wins).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable

from forcecheck.cards import store
from forcecheck.errors import CatalogError
from forcecheck.importers import ImportWarning, fowsim, ygopro

IMPORTERS = {"fowsim": fowsim, "ygopro": ygopro}
"""Importer name -> module with ``GAME``, ``read_source(path)`` and ``convert(records)``."""


@dataclass
class ImportResult:
    db: Path
    files: int
    records: int
    cards: dict[str, int]
    warnings: list[ImportWarning] = field(default_factory=list)
    seconds: float = 0.0


def import_files(importer: str, files: Iterable[str | Path], db: Path) -> ImportResult:
    if importer not in IMPORTERS:
        raise CatalogError(f"unknown importer {importer!r} (importers: {', '.join(sorted(IMPORTERS))})")
    start = time.perf_counter()
    module = IMPORTERS[importer]
    sources = []
    for raw in files:
        path = Path(raw)
        records = module.read_source(path)  # raises before anything is written
        digest = _sha256(path)
        sources.append((path.resolve(), digest, records))

    with store.writable_catalog(Path(db)) as conn:
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        for path, digest, records in sources:
            _store_source(conn, importer, path, digest, records, now)
        cards, warnings_by_importer = _derive(conn)
    counts: dict[str, int] = {}
    for card in cards:
        counts[card.game] = counts.get(card.game, 0) + 1
    return ImportResult(
        db=Path(db),
        files=len(sources),
        records=sum(len(r) for _p, _d, r in sources),
        cards=counts,
        warnings=warnings_by_importer.get(importer, []),
        seconds=time.perf_counter() - start,
    )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _store_source(conn: sqlite3.Connection, importer: str, path: Path, digest: str, records: list, now: str) -> None:
    row = conn.execute("SELECT id FROM sources WHERE importer = ? AND path = ?", (importer, str(path))).fetchone()
    if row:
        source_id = row[0]
        conn.execute("DELETE FROM records WHERE source_id = ?", (source_id,))
        conn.execute(
            "UPDATE sources SET sha256 = ?, records = ?, imported_at = ? WHERE id = ?",
            (digest, len(records), now, source_id),
        )
    else:
        cursor = conn.execute(
            "INSERT INTO sources (importer, path, sha256, records, imported_at) VALUES (?, ?, ?, ?, ?)",
            (importer, str(path), digest, len(records), now),
        )
        source_id = cursor.lastrowid
    conn.executemany(
        "INSERT INTO records (source_id, seq, body) VALUES (?, ?, ?)",
        ((source_id, seq, json.dumps(record, ensure_ascii=False)) for seq, record in enumerate(records)),
    )


def _derive(conn: sqlite3.Connection):
    """Re-derive every card from all stored records, importer by importer; warnings by importer."""
    all_cards = []
    all_warnings: dict[str, list[ImportWarning]] = {}
    conn.execute("DELETE FROM warnings")
    for importer, module in IMPORTERS.items():
        rows = conn.execute(
            "SELECT r.body FROM records r JOIN sources s ON s.id = r.source_id WHERE s.importer = ? ORDER BY s.id, r.seq",
            (importer,),
        )
        records = [json.loads(body) for (body,) in rows]
        if not records:
            continue
        cards, warnings = module.convert(records)
        all_cards.extend(cards)
        all_warnings[importer] = warnings
        conn.executemany(
            "INSERT INTO warnings (importer, record, message) VALUES (?, ?, ?)",
            [(importer, w.record, w.message) for w in warnings],
        )
    store.replace_cards(conn, all_cards)
    return all_cards, all_warnings


@dataclass
class BanlistImportResult:
    db: Path
    lists: list
    warnings: list = field(default_factory=list)


def import_banlists(files: Iterable[str | Path], db: Path) -> BanlistImportResult:
    """Read every list of every lflist file first, then store them all in one swap."""
    from forcecheck.banlists import read_lflist

    lists, warnings = [], []
    for raw in files:
        found, problems = read_lflist(Path(raw))
        lists += found
        warnings += [(str(raw), w) for w in problems]
    with store.writable_catalog(Path(db)) as conn:
        store.replace_banlists(conn, lists)
    return BanlistImportResult(db=Path(db), lists=lists, warnings=warnings)
