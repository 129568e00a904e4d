"""Tournament registration: every submitted file checked, and the registration table.

Every file of the submissions folder gets a row, so nothing handed in goes unseen: a
decklist is legal, illegal or unreadable; any other file is "not a decklist". The player is
the one the decklist names (a ``Player:`` line, a ``# Player:`` comment, YAML ``player:``),
else the file name; the deck's title is its own column and never stands for the player.
Players named twice are flagged, and so are identical decks (same fingerprint) handed in by
different players. The table is written as ``registrations.csv`` and ``registrations.json``
(illegal decks first), with every violation's message. The checks themselves run through the
run's Session (``Session.check_paths``), in worker processes with ``--jobs``.
"""

from __future__ import annotations

import csv
import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from forcecheck.decklists.readers import DECKLIST_EXTENSIONS
from forcecheck.textfile import atomic_write

if TYPE_CHECKING:
    from forcecheck.checking import WalkProblem

COLUMNS = [
    "status", "file", "player", "format", "legal", "violations", "warnings", "codes", "fingerprint", "banlist",
    "duplicate_player", "error", "title", "messages", "same_deck_as",  # new columns go last: readers keep their places
]
STATUS_ORDER = {"illegal": 0, "unreadable": 1, "not-a-decklist": 2, "legal": 3}
MESSAGE_SEPARATOR = " | "
"""Between the messages of one row in the CSV (the JSON keeps them as a list)."""


def submission_files(folder: Path, own: tuple[Path, ...] = ()) -> tuple[list[str | WalkProblem], list[str]]:
    """Every non-hidden file under ``folder``, in name order (symlinked folders not followed),
    as ``checking.walk_files`` gives them (the text of each path, a WalkProblem for what could
    not be listed): every file handed in gets a row, decklist or not. ``own``: the registration
    tables this run writes; where they land inside the folder (``register .``, the default
    output folder) they are the last run's tables, not submissions. Returns the submissions
    and the files passed over as the run's own tables (for the caller to say so)."""
    from forcecheck.checking import walk_files  # here: only the CLI walks a folder (the desk uses the table alone)

    files = list(walk_files(str(folder), decklists_only=False))
    ours = {os.path.realpath(path) for path in own}
    skipped = [f for f in files if isinstance(f, str) and os.path.realpath(f) in ours]
    return [f for f in files if f not in skipped], skipped


def deck_row(deck: dict, file: str, player: str, format_name: str = "") -> dict:
    """The table row of one checked deck, from its JSON deck object (``DeckReport.to_dict``);
    ``player`` is the fallback (the file name) when the decklist names no player."""
    violations = deck.get("violations") or []
    errors = sum(1 for v in violations if v["severity"] == "error")
    error = deck.get("error")
    return {
        "status": "unreadable" if error else ("legal" if deck["legal"] else "illegal"),
        "file": file,
        "player": str(deck.get("player") or "").strip() or player,
        "title": deck.get("name") or "",
        "format": deck.get("format") or format_name,
        "legal": bool(deck["legal"]),
        "violations": errors,
        "warnings": len(violations) - errors,
        "codes": " ".join(sorted({v["code"] for v in violations})),
        "messages": [f"line {v['line'] or '-'}: {v['code']} {v['message']}" for v in violations],
        "fingerprint": deck.get("fingerprint") or "",
        "same_deck_as": "",
        "banlist": deck.get("banlist") or "",
        "duplicate_player": False,
        "error": error or "",
    }


def row_for(report, root: Path | str | None) -> dict:
    """The row of one submitted file's report (a file that is not a decklist has its own status).
    Names are printable (``forcecheck.escape``): a file name's control characters are shown escaped."""
    from forcecheck.escape import printable

    path = Path(report.path)
    shown = printable(os.path.relpath(path, root) if root else str(path))
    if path.suffix.lower() not in DECKLIST_EXTENSIONS and not path.is_dir():  # a folder's row says why it went unread
        row = {c: "" for c in COLUMNS}
        row.update(status="not-a-decklist", file=shown, player=printable(path.stem), legal=False, violations=0, warnings=0,
                   messages=[], duplicate_player=False, error=f"not a decklist file ({path.suffix or 'no extension'}); not checked")
        return row
    row = deck_row(report.to_dict(), shown, printable(path.stem), report.format or "")
    row["player"] = printable(row["player"])
    row["error"] = row["error"].replace(printable(str(path)), shown)
    return row


def _key(name: str) -> str:
    """A player name as compared: spacing, case and width (``ＡＮＡ`` is ``Ana``: NFKC) aside."""
    import unicodedata

    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", name)).strip().casefold()


def finish(rows: list[dict]) -> tuple[list[dict], dict]:
    """Flag players registered twice and identical decks of different players, sort (illegal
    first) and summarise."""
    decklists = [r for r in rows if r["status"] != "not-a-decklist"]
    by_player: dict[str, list[dict]] = {}
    for row in decklists:
        by_player.setdefault(_key(row["player"]), []).append(row)
    duplicates = []
    for group in by_player.values():
        if len(group) > 1:
            for row in group:
                row["duplicate_player"] = True
            duplicates.append(min(group, key=lambda r: r["file"])["player"].strip())
    by_deck: dict[str, list[dict]] = {}
    for row in decklists:
        if row["fingerprint"]:
            by_deck.setdefault(row["fingerprint"], []).append(row)
    identical = []
    for fingerprint, group in sorted(by_deck.items()):
        players = sorted({_key(r["player"]): r["player"].strip() for r in group}.values(), key=str.casefold)
        if len(players) < 2:
            continue
        identical.append({"fingerprint": fingerprint, "players": players})
        for row in group:
            row["same_deck_as"] = ", ".join(p for p in players if _key(p) != _key(row["player"]))
    rows.sort(key=lambda r: (STATUS_ORDER[r["status"]], r["file"]))
    summary = {
        "files": len(rows),
        "decklists": len(decklists),
        "legal": sum(1 for r in rows if r["status"] == "legal"),
        "illegal": sum(1 for r in rows if r["status"] == "illegal"),
        "unreadable": sum(1 for r in rows if r["status"] == "unreadable"),
        "not_decklists": sum(1 for r in rows if r["status"] == "not-a-decklist"),
        "warnings": sum(r["warnings"] for r in rows),
        "duplicate_players": sorted(duplicates, key=str.casefold),
        "identical_decks": identical,
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
    """The registration table as CSV (the columns of COLUMNS, one row per submission; a row's
    messages joined by `` | ``). A text cell a spreadsheet would take for a formula (it starts
    with ``= + - @``, a tab or a carriage return: a player named ``=HYPERLINK(...)``) gets a
    leading ``'``, as spreadsheets show text; the JSON table keeps every value as written."""
    writer = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        row = {**row, "messages": MESSAGE_SEPARATOR.join(row["messages"])}
        writer.writerow({key: _as_text_cell(value) for key, value in row.items()})


_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _as_text_cell(value):
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


def write_json(rows: list[dict], summary: dict, fh) -> None:
    """The registration table as JSON, ``{"summary": ..., "registrations": [...]}``, one row a line
    (characters a terminal would act on, and file names' undecodable bytes, escaped: ``json_text``)."""
    from forcecheck.escape import json_text

    fh.write('{\n  "summary": ' + json_text(json.dumps(summary, ensure_ascii=False)) + ',\n  "registrations": [')
    for index, row in enumerate(rows):
        fh.write(("," if index else "") + "\n    " + json_text(json.dumps(row, ensure_ascii=False)))
    fh.write("\n  ]\n}\n")
