"""``forcecheck catalog import``: source files -> records -> card facts -> the SQLite catalog.

Every source file is read and validated before the catalog is touched. The new catalog is
written to a copy and swapped in (``store.writable_catalog``): a failed or interrupted import
leaves the existing catalog as it was.
Records of every imported file are kept, so importing another file re-derives all facts
together (printings of one name from two files merge; a well-formed printing wins).
Each file's names are in one language (``--locale``, or read from the names' script): the
base language's files give the facts, the others add their names by printing code
(``importers.locales``), so importing ``cards.cdb`` and ``cards-ja.cdb`` together or one after
the other gives the same catalog.
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
from forcecheck.importers import ImportWarning, fowsim, locales, ygopro
from forcecheck.records import replace

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
    locales: list[str] = field(default_factory=list)
    """The language of each file's names, in the order given."""
    names: dict[str, int] = field(default_factory=dict)
    """Cards of the importer's game with a name in each language."""


def import_files(importer: str, files: Iterable[str | Path], db: Path, locale: str | None = None) -> ImportResult:
    """Import ``files`` (all of them in ``locale`` when given, else each in the language its
    names are written in) and re-derive the catalog's cards."""
    if importer not in IMPORTERS:
        raise CatalogError(f"unknown importer {importer!r} (importers: {', '.join(sorted(IMPORTERS))})")
    if locale is not None and locales.locale_code(locale) is None:
        raise CatalogError(f"--locale {locale!r} is not a language code (e.g. en, ja)")
    start = time.perf_counter()
    module = IMPORTERS[importer]
    sources = []
    for raw in files:
        path = Path(raw)
        records = module.read_source(path)  # raises before anything is written
        lang = locales.locale_code(locale) if locale else locales.detect_locale((r.get("name") for r in records if isinstance(r, dict)), path)
        digest = _sha256(path)
        sources.append((path.resolve(), digest, records, lang))

    with store.writable_catalog(Path(db)) as conn:
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        for path, digest, records, lang in sources:
            _store_source(conn, importer, path, digest, records, now, lang)
        cards, warnings_by_importer = _derive(conn, Path(db))
    counts: dict[str, int] = {}
    names: dict[str, int] = {}
    for card in cards:
        counts[card.game] = counts.get(card.game, 0) + 1
        if card.game == module.GAME:
            for lang in card.languages:
                names[lang] = names.get(lang, 0) + 1
    return ImportResult(
        db=Path(db),
        files=len(sources),
        records=sum(len(r) for _p, _d, r, _l in sources),
        cards=counts,
        warnings=warnings_by_importer.get(importer, []),
        seconds=time.perf_counter() - start,
        locales=[lang for _p, _d, _r, lang in sources],
        names=names,
    )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _store_source(conn: sqlite3.Connection, importer: str, path: Path, digest: str, records: list, now: str, locale: str) -> None:
    row = conn.execute("SELECT id FROM sources WHERE importer = ? AND path = ?", (importer, str(path))).fetchone()
    if row:
        source_id = row[0]
        conn.execute("DELETE FROM records WHERE source_id = ?", (source_id,))
        conn.execute(
            "UPDATE sources SET sha256 = ?, records = ?, imported_at = ?, locale = ? WHERE id = ?",
            (digest, len(records), now, locale, source_id),
        )
    else:
        cursor = conn.execute(
            "INSERT INTO sources (importer, path, sha256, records, imported_at, locale) VALUES (?, ?, ?, ?, ?, ?)",
            (importer, str(path), digest, len(records), now, locale),
        )
        source_id = cursor.lastrowid
    conn.executemany(
        "INSERT INTO records (source_id, seq, body) VALUES (?, ?, ?)",
        ((source_id, seq, json.dumps(record, ensure_ascii=False)) for seq, record in enumerate(records)),
    )


def _derive(conn: sqlite3.Connection, db: Path):
    """Re-derive every card from all stored records, importer by importer; warnings by importer.

    An importer's records are converted language by language: the base language's (see
    ``locales.choose_base``) give the cards, every other language's cards add their names. A stored record
    that is not the JSON object the importer wrote means the catalog is damaged."""
    all_cards = []
    all_warnings: dict[str, list[ImportWarning]] = {}
    conn.execute("DELETE FROM warnings")
    for importer, module in IMPORTERS.items():
        rows = conn.execute(
            "SELECT s.locale, r.body FROM records r JOIN sources s ON s.id = r.source_id WHERE s.importer = ? ORDER BY s.id, r.seq",
            (importer,),
        )
        by_locale: dict[str, list[dict]] = {}
        for locale, body in rows:
            by_locale.setdefault(locale, []).append(_stored_record(body, db))
        if not by_locale:
            continue
        base = locales.choose_base(by_locale)
        converted = {}
        warnings = []
        for locale, records in by_locale.items():
            cards, problems = module.convert(records)
            if locale == base and locale != locales.BASE_LANGUAGE:  # the other languages' cards only lend their names
                cards = [replace(card, lang=locale) for card in cards]
            converted[locale] = locales.attach_record_names(cards, records, locale)
            warnings += [ImportWarning(w.record, f"{w.message} ({locale} data)") if locale != base else w for w in problems]
        cards = locales.merge_locales(
            converted[base], [(locale, found) for locale, found in converted.items() if locale != base], warnings
        )
        all_cards.extend(cards)
        all_warnings[importer] = warnings
        conn.executemany(
            "INSERT INTO warnings (importer, record, message) VALUES (?, ?, ?)",
            [(importer, w.record, w.message) for w in warnings],
        )
    store.replace_cards(conn, all_cards)
    return all_cards, all_warnings


def _stored_record(body: str, db: Path) -> dict:
    try:
        record = json.loads(body)
    except (ValueError, TypeError):
        record = None
    if not isinstance(record, dict):
        raise store.damaged(db, f"a stored source record is not a JSON object: {str(body)[:40]!r}")
    return record


@dataclass
class BanlistImportResult:
    db: Path
    lists: list
    warnings: list = field(default_factory=list)


def import_banlists(files: Iterable[str | Path], db: Path) -> BanlistImportResult:
    """Read every list of every file (lflist.conf or banned-list JSON) first, then store them all in one swap."""
    from forcecheck.banlists import read_banlist_file

    lists, warnings = [], []
    for raw in files:
        found, problems = read_banlist_file(Path(raw))
        lists += found
        warnings += [(str(raw), w) for w in problems]
    with store.writable_catalog(Path(db)) as conn:
        store.replace_banlists(conn, lists)
    return BanlistImportResult(db=Path(db), lists=lists, warnings=warnings)
