"""The desk's tables as files: the registration table (``forcecheck register``'s columns, and
the desk's own after them) and the roster pairing software imports."""

from __future__ import annotations

import csv
import io

from forcecheck.register import COLUMNS, MESSAGE_SEPARATOR, _as_text_cell

DESK_COLUMNS = ["player_id", "unlocked"]
"""The desk's columns after ``register.COLUMNS`` (new columns go last: readers keep their places)."""
ROSTER_COLUMNS = ["player", "player_id", "legal", "registration"]


def registrations_csv(rows: list[dict]) -> str:
    """The registration table as ``register`` writes it, with the desk's columns after its own."""
    return _csv(COLUMNS + DESK_COLUMNS, ({**row, "messages": MESSAGE_SEPARATOR.join(row["messages"])} for row in rows))


def roster_csv(rows: list[dict]) -> str:
    """One line per registration, by player name: what pairing software imports as players."""
    return _csv(ROSTER_COLUMNS, rows)


def _csv(columns: list[str], rows) -> str:
    """CSV whose text cells a spreadsheet would take for a formula get a leading ``'``
    (``register``'s rule: a player named ``=HYPERLINK(...)`` stays text)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n", extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        writer.writerow({key: _as_text_cell(row.get(key, "")) for key in columns})
    return out.getvalue()
