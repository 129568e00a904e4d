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
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from forcecheck.cards import store
from forcecheck.errors import CatalogError
from forcecheck.importers import ImportWarning, fowsim, locales, ygopro
from forcecheck.records import Record, replace

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
    lists: list = field(default_factory=list)
    """Banlists stored with the cards (``catalog fetch ygo``: the lflist.conf's lists)."""


class SourceFile(Record):
    """One source file read and checked, ready to store: its records (or lists), the language of
    its names, and where it came from (``address``: the file's absolute path or the URL it was
    fetched from; ``role``: its place in a mirror for a fetched file, else ``file``)."""

    importer: str
    address: str
    sha256: str
    size: int
    records: list
    locale: str
    role: str
    via: str

    def __init__(self, importer: str, address: str, sha256: str, size: int, records: list, locale: str = "en",
                 role: str = "file", via: str = "import") -> None:
        self.importer = importer
        self.address = address
        self.sha256 = sha256
        self.size = size
        self.records = records
        self.locale = locale
        self.role = role
        self.via = via


def read_card_file(importer: str, path: Path, locale: str | None = None, address: str | None = None) -> SourceFile:
    """A card data file read and checked by its importer (raises before anything is written),
    in ``locale`` (else the language its names are written in)."""
    module = IMPORTERS[importer]
    records = module.read_source(path)
    lang = locales.locale_code(locale) if locale else locales.detect_locale((r.get("name") for r in records if isinstance(r, dict)), path)
    return SourceFile(importer, address or str(path.resolve()), _sha256(path), path.stat().st_size, records, lang)


def import_files(importer: str, files: Iterable[str | Path], db: Path, locale: str | None = None) -> ImportResult:
    """Import ``files`` (all of them in ``locale`` when given, else each in the language its
    names are written in) and re-derive the catalog's cards."""
    if importer not in IMPORTERS:
        raise CatalogError(f"unknown importer {importer!r} (importers: {', '.join(sorted(IMPORTERS))})")
    if locale is not None and locales.locale_code(locale) is None:
        raise CatalogError(f"--locale {locale!r} is not a language code (e.g. en, ja)")
    start = time.perf_counter()
    sources = [read_card_file(importer, Path(raw), locale) for raw in files]
    return store_sources(sources, db, start=start)


def store_sources(sources: list[SourceFile], db: Path, lists: Iterable[tuple[SourceFile, list]] = (), start: float | None = None) -> ImportResult:
    """Store card files and banlist files in one swap of the catalog (all or nothing), re-derive
    every card, and remember where each file came from. A fetched file replaces what an earlier
    fetch of the same role brought from another address."""
    start = time.perf_counter() if start is None else start
    lists = list(lists)
    with store.writable_catalog(Path(db)) as conn:
        now = datetime.now(UTC).isoformat(timespec="seconds")
        for source in [*sources, *(file for file, _found in lists)]:
            if source.via == "fetch":
                store.forget_fetched(conn, source.role, source.address)
        for source in sources:
            _store_source(conn, source.importer, source.address, source.sha256, source.records, now, source.locale)
        cards, warnings_by_importer = _derive(conn, Path(db)) if sources else ([], {})
        for _file, found in lists:
            store.replace_banlists(conn, found)
        for source in [*sources, *(file for file, _found in lists)]:
            store.record_provenance(conn, source.address, source.role, source.size, source.sha256, now, source.via)
    counts: dict[str, int] = {}
    names: dict[str, int] = {}
    games = {IMPORTERS[s.importer].GAME for s in sources}
    for card in cards:
        counts[card.game] = counts.get(card.game, 0) + 1
        if card.game in games:
            for lang in card.languages:
                names[lang] = names.get(lang, 0) + 1
    return ImportResult(
        db=Path(db),
        files=len(sources),
        records=sum(len(s.records) for s in sources),
        cards=counts,
        warnings=[w for s in dict.fromkeys(s.importer for s in sources) for w in warnings_by_importer.get(s, [])],
        seconds=time.perf_counter() - start,
        locales=[s.locale for s in sources],
        names=names,
        lists=[b for _file, found in lists for b in found],
    )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _store_source(conn: sqlite3.Connection, importer: str, path: str, digest: str, records: list, now: str, locale: str) -> None:
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
    """Read every list of every file (lflist.conf or banned-list JSON) first, then store them all
    in one swap. A list with a line that cannot be read is refused, naming the file and the line
    (``banlists.refuse_unread``), and nothing is stored: once imported it would be applied without
    that line, and a card named there would go unchecked."""
    from forcecheck.banlists import read_banlist_file, refuse_unread

    read, warnings = [], []
    for raw in files:
        path = Path(raw)
        found, problems = read_banlist_file(path)
        for banlist in found:
            refuse_unread(banlist, str(raw))
        read.append((SourceFile("banlist", str(path.resolve()), _sha256(path), path.stat().st_size, []), found))
        warnings += [(str(raw), w) for w in problems]
    store_sources([], db, read)
    return BanlistImportResult(db=Path(db), lists=[b for _file, found in read for b in found], warnings=warnings)
