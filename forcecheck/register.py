"""Tournament registration: check every submitted decklist and write the registration table.

Every file of the submissions folder gets a row, so nothing handed in goes unseen: a
decklist is legal, illegal or unreadable; any other file is "not a decklist". Players named
twice are flagged. The table is written as ``registrations.csv`` and ``registrations.json``
(illegal decks first). Checks run in worker processes with ``jobs > 1``; each worker opens
the catalog and compiles the format once, and rows stream back in order, so memory holds the
table and nothing else that grows with the number of submissions.
"""

from __future__ import annotations

import csv
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from forcecheck.decklists.readers import DECKLIST_EXTENSIONS
from forcecheck.textfile import atomic_write

COLUMNS = ["status", "file", "player", "format", "legal", "violations", "warnings", "codes", "fingerprint", "banlist", "duplicate_player", "error"]
STATUS_ORDER = {"illegal": 0, "unreadable": 1, "not-a-decklist": 2, "legal": 3}


@dataclass(frozen=True)
class Options:
    format_name: str | None
    catalog: str | None
    banlist: object
    as_of: str | None
    format_dirs: tuple[str, ...] = ()
    root: str | None = None
    """The submissions folder: files are shown relative to it."""


def submission_files(folder: Path) -> list[Path]:
    """Every non-hidden file under ``folder``, in name order (symlinked folders not followed):
    every file handed in gets a row, decklist or not."""
    from forcecheck.checking import walk_files

    return list(walk_files(str(folder), decklists_only=False))


_STATE: dict = {}


def _init(options: Options) -> None:
    """Per process: open the catalog and prepare the format cache once."""
    from forcecheck.cards.catalog import open_catalog
    from forcecheck.checking import FormatCache

    catalog = open_catalog(options.catalog)
    _STATE["catalog"] = catalog
    _STATE["formats"] = FormatCache(options.format_dirs, options.banlist, catalog, options.as_of)
    _STATE["options"] = options


def check_submission(path: Path) -> dict:
    """One table row for one submitted file."""
    from forcecheck.checking import check_file

    options: Options = _STATE["options"]
    row = {c: "" for c in COLUMNS}
    shown = os.path.relpath(path, options.root) if options.root else str(path)
    row.update(file=shown, player=path.stem, format=options.format_name or "", legal=False, violations=0, warnings=0, duplicate_player=False)
    if path.suffix.lower() not in DECKLIST_EXTENSIONS:
        row.update(status="not-a-decklist", error=f"not a decklist file ({path.suffix or 'no extension'}); not checked")
        return row
    report = check_file(path, _STATE["catalog"], _STATE["formats"], options.format_name)
    row.update(deck_row(report.to_dict(), shown, path.stem, row["format"]))
    row["error"] = row["error"].replace(str(path), shown)
    return row


def deck_row(deck: dict, file: str, player: str, format_name: str = "") -> dict:
    """The table row of one checked deck, from its JSON deck object (``DeckReport.to_dict``):
    the registration desk builds its export from the same function, so both tables agree."""
    violations = deck.get("violations") or []
    errors = sum(1 for v in violations if v["severity"] == "error")
    error = deck.get("error")
    return {
        "status": "unreadable" if error else ("legal" if deck["legal"] else "illegal"),
        "file": file,
        "player": deck.get("player") or player,
        "format": deck.get("format") or format_name,
        "legal": bool(deck["legal"]),
        "violations": errors,
        "warnings": len(violations) - errors,
        "codes": " ".join(sorted({v["code"] for v in violations})),
        "fingerprint": deck.get("fingerprint") or "",
        "banlist": deck.get("banlist") or "",
        "duplicate_player": False,
        "error": error or "",
    }


def run_rows(files: list[Path], options: Options, jobs: int, progress: Callable[[int], None] | None = None) -> Iterator[dict]:
    """Rows in file order, checked in ``jobs`` processes."""
    if jobs <= 1 or len(files) < 2:
        _init(options)
        for path in files:
            yield check_submission(path)
            if progress:
                progress(1)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs, initializer=_init, initargs=(options,)) as pool:
        for row in pool.map(check_submission, files, chunksize=max(1, min(64, len(files) // (jobs * 8) or 1))):
            yield row
            if progress:
                progress(1)


def _player_key(name: str) -> str:
    return re.sub(r"\s+", " ", name).strip().casefold()


def finish(rows: list[dict]) -> tuple[list[dict], dict]:
    """Flag duplicate players, sort (illegal first) and summarise."""
    counts: dict[str, int] = {}
    for row in rows:
        if row["status"] != "not-a-decklist":
            key = _player_key(row["player"])
            counts[key] = counts.get(key, 0) + 1
    shown: dict[str, str] = {}
    for row in sorted(rows, key=lambda r: r["file"]):
        key = _player_key(row["player"])
        if row["status"] != "not-a-decklist" and counts[key] > 1:
            shown.setdefault(key, row["player"].strip())
    duplicates = sorted(shown.values(), key=str.casefold)
    for row in rows:
        row["duplicate_player"] = row["status"] != "not-a-decklist" and counts[_player_key(row["player"])] > 1
    rows.sort(key=lambda r: (STATUS_ORDER[r["status"]], r["file"]))
    summary = {
        "files": len(rows),
        "decklists": sum(1 for r in rows if r["status"] != "not-a-decklist"),
        "legal": sum(1 for r in rows if r["status"] == "legal"),
        "illegal": sum(1 for r in rows if r["status"] == "illegal"),
        "unreadable": sum(1 for r in rows if r["status"] == "unreadable"),
        "not_decklists": sum(1 for r in rows if r["status"] == "not-a-decklist"),
        "duplicate_players": duplicates,
        "banlists": sorted({r["banlist"] for r in rows if r["banlist"]}),
    }
    return rows, summary


def write_tables(rows: list[dict], summary: dict, output_dir: Path) -> tuple[Path, Path]:
    """registrations.csv and registrations.json, streamed to temporary files and renamed (no
    second copy of the table is built in memory, and a failed write leaves the old files)."""
    output_dir.mkdir(parents=True, exist_ok=True)
    csv_path = output_dir / "registrations.csv"
    json_path = output_dir / "registrations.json"

    atomic_write(csv_path, lambda fh: write_csv(rows, fh))
    atomic_write(json_path, lambda fh: write_json(rows, summary, fh))
    return csv_path, json_path


def write_csv(rows: list[dict], fh) -> None:
    """The registration table as CSV (the columns of COLUMNS, one row per submission)."""
    writer = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)


def write_json(rows: list[dict], summary: dict, fh) -> None:
    """The registration table as JSON, ``{"summary": ..., "registrations": [...]}``, one row a line."""
    fh.write('{\n  "summary": ' + json.dumps(summary, ensure_ascii=False) + ',\n  "registrations": [')
    for index, row in enumerate(rows):
        fh.write(("," if index else "") + "\n    " + json.dumps(row, ensure_ascii=False))
    fh.write("\n  ]\n}\n")
