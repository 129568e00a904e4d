"""YGOPro ``.ydk`` decklists: ``#main``, ``#extra``, ``!side`` and one passcode per line.

``#created by ...`` and any other ``#`` line that is not a section marker is a comment.
CRLF or LF, leading zeros and a missing final newline are fine. Unlike YGOPro, nothing is
moved or dropped: every passcode stays on its line in the section it was written in, and a
line that is not a passcode becomes an ``invalid-entry`` problem on that line.
"""

from __future__ import annotations

import re

from forcecheck.decklists.model import Decklist, Entry, ReadProblem, Section
from forcecheck.lazyre import lazy

SECTION_MARKERS = {"#main": "main", "#extra": "extra", "!side": "side"}
MAX_PASSCODE_DIGITS = 10


_LINE = lazy(r"^[ \t]*(?:([1-9]\d{0,9})[ \t\r]*$|[^\n]*$)", re.MULTILINE)
"""One match per line; group 1 is a plain passcode (no leading zero, at most 10 digits)."""


def read_ydk(text: str, path: str) -> Decklist:
    deck = Decklist(path=path)
    current: Section | None = None
    for number, match in enumerate(_LINE.finditer(text), start=1):
        code = match.group(1)
        if code is not None and current is not None:
            current.entries.append(Entry(code, 1, number, code))  # the common line, straight in
            continue
        line = match.group(0).strip()
        if not line:
            continue
        marker = SECTION_MARKERS.get(line.lower())
        if marker is not None:
            current = Section(title=marker, line=number, warn_if_empty=False, uniform="printing")
            deck.sections.append(current)
            continue
        if line.startswith("#") or line.startswith("!"):
            continue  # "#created by ...", other comments and unknown markers
        if not (line.isascii() and line.isdigit()):
            deck.problems.append(
                ReadProblem("invalid-entry", f"{line[:40]!r} is not a passcode (a .ydk line holds one card id)", number,
                            current.title if current else None)
            )
            continue
        if len(line.lstrip("0")) > MAX_PASSCODE_DIGITS:
            deck.problems.append(
                ReadProblem("invalid-entry", f"passcode {line[:24]}... has {len(line)} digits; passcodes have at most {MAX_PASSCODE_DIGITS}",
                            number, current.title if current else None)
            )
            continue
        code = line.lstrip("0") or "0"  # leading zeros are fine; int() would refuse 4,300+ digits
        entry = Entry(name=code, count=1, line=number, printing=code)
        if current is None:  # before #main: placed by what the card is (an extra deck monster, else main)
            deck.add_loose(entry)
        else:
            current.add(entry)
    return deck
