"""Banned / Forbidden-Limited lists as data.

A ``Banlist`` caps copies per card (0 = forbidden), keyed by card name or passcode/printing
code; in a *whitelist* (EDOPro ``$whitelist``) every card not listed is forbidden. Lists come
from YGOPro / EDOPro ``lflist.conf`` files (``!name`` starts a list, ``id count --comment``
lines, ``#`` comments) and are stored in the catalog database by ``forcecheck banlist import``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from forcecheck.errors import ForcecheckError
from forcecheck.textfile import decode_text, read_bytes

_ENTRY = re.compile(r"^(\d+)\s+(-?\d+)\s*(?:(?:--|#)\s*(.*))?$")
_DATE = re.compile(r"(?<!\d)((?:19|20)\d\d)[.-](\d{1,2})(?:[.-](\d{1,2}))?(?!\d)")
_META = re.compile(r"^--\s*(StartDate|EndDate)\s+(\S+)", re.IGNORECASE)


@dataclass
class Banlist:
    name: str
    game: str
    entries: dict[str, int] = field(default_factory=dict)
    """Passcode, printing code or card name -> copies allowed (0 = forbidden)."""
    whitelist: bool = False
    source: str = ""
    date: str | None = None
    """Effective date (ISO) when the list's name carries one (``2011.3.1 OCG`` -> 2011-03-01)."""
    combinations: list[list[str]] = field(default_factory=list)
    """Cards that may not be used together (each list: two or more card names or codes)."""


@dataclass(frozen=True)
class LflistWarning:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


def date_of(name: str) -> str | None:
    match = _DATE.search(name)
    if not match:
        return None
    year, month, day = match.group(1), int(match.group(2)), int(match.group(3) or 1)
    if not 1 <= month <= 12 or not 1 <= day <= 31:
        return None
    return f"{year}-{month:02d}-{day:02d}"


def parse_lflist(text: str, source: str = "") -> tuple[list[Banlist], list[LflistWarning]]:
    """Every list in an lflist.conf text; broken lines are warnings with their line number."""
    lists: list[Banlist] = []
    warnings: list[LflistWarning] = []
    current: Banlist | None = None
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        meta = _META.match(line)
        if meta:  # EDOPro metadata: "--StartDate 2010-03-01"
            if current is not None and meta.group(1).lower() == "startdate" and date_of(meta.group(2)):
                start = date_of(meta.group(2))
                if start and start > "1970-01-01":
                    current.date = start
            continue
        if line.startswith("--"):
            continue
        if line.startswith("!"):
            name = line[1:].strip()
            if not name:
                warnings.append(LflistWarning(number, "a list with no name ('!' alone); its entries are skipped"))
                current = None
                continue
            current = Banlist(name=name, game="ygo", source=source, date=date_of(name))
            lists.append(current)
            continue
        if line.lower().startswith("$whitelist"):
            if current is None:
                warnings.append(LflistWarning(number, "$whitelist before any '!name' list; ignored"))
            else:
                current.whitelist = True
            continue
        if line.startswith("$"):
            continue  # other EDOPro directives have no deckbuilding meaning here
        match = _ENTRY.match(line)
        if not match:
            warnings.append(LflistWarning(number, f"not 'passcode count': {line[:60]!r}; skipped"))
            continue
        if current is None:
            warnings.append(LflistWarning(number, "entry before any '!name' list; skipped"))
            continue
        count = int(match.group(2))
        if count < 0:  # EDOPro uses -1 for "unlimited" in some lists
            current.entries.pop(str(int(match.group(1))), None)
            continue
        if count > 3:
            warnings.append(LflistWarning(number, f"count {count} is over 3; skipped"))
            continue
        current.entries[str(int(match.group(1)))] = count
    return lists, warnings


def read_lflist(path: Path) -> tuple[list[Banlist], list[LflistWarning]]:
    data = read_bytes(path, max_bytes=64 * 1024 * 1024)
    lists, warnings = parse_lflist(decode_text(data, path), source=str(path))
    if not lists:
        raise ForcecheckError("no lists in the file (an lflist starts each list with '!name')", path)
    return lists, warnings


def pick(lists: list[Banlist], name: str | None, where: str) -> Banlist:
    """The list called ``name`` (case-insensitive); the first one when no name is given."""
    if name is None:
        return lists[0]
    for banlist in lists:
        if banlist.name.lower() == name.lower():
            return banlist
    shown = ", ".join(b.name for b in lists[:12]) + (" ..." if len(lists) > 12 else "")
    raise ForcecheckError(f"no banlist {name!r} in {where} (lists: {shown})")


def in_force(candidates: list[Banlist], as_of: str) -> Banlist | None:
    """The dated list in force on ``as_of`` (ISO date): the latest one that took effect by then."""
    dated = [b for b in candidates if b.date and b.date <= as_of]
    return max(dated, key=lambda b: (b.date, b.name)) if dated else None
