"""What a reader makes of a decklist file: sections of entries, each with its source line.

Nothing the user wrote is dropped here: a line that is not a valid entry becomes a
``ReadProblem`` (reported as a violation) and an entry with a bad count is kept with the
count it had, so the report can name it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


HEADER_COUNT = re.compile(
    r"\s*(?:[-\u2013\u2014:=]\s*)?[(\[]?\s*(\d{1,3})\s*(?:cards?|枚|张)?\s*[)\]]?\s*:?\s*$", re.IGNORECASE
)
"""A count after a section title: ``Main Deck (40)``, ``Sideboard - 15``, ``Side [15]``, ``Main 40 cards``."""


def split_header_count(title: str) -> tuple[str, int | None]:
    """``"Sideboard - 15"`` -> ``("Sideboard", 15)``; a title without a count is kept whole."""
    match = HEADER_COUNT.search(title)
    if match and match.start() > 0:
        return title[: match.start()].strip(), int(match.group(1))
    return title.strip(), None


def header_key(title: str) -> str:
    """``"Main Deck (40):"`` -> ``"main deck"``: how section titles are compared."""
    text = split_header_count(title.rstrip(": "))[0]
    text = text.replace(":", " ").replace("_", " ").replace("-", " ")
    return " ".join(text.lower().split())


@dataclass(slots=True)
class Entry:
    """One card line: ``count`` copies of ``name`` (as written), optional printing code."""

    name: str
    count: int
    line: int | None
    printing: str | None = None
    count_ok: bool = True
    """False when the written count was zero, negative, non-numeric or over the cap."""
    count_text: str | None = None


@dataclass(slots=True)
class Section:
    """A titled part of a decklist (``Main Deck:``), as written; the format maps it to a section id."""

    title: str
    line: int | None
    entries: list[Entry] = field(default_factory=list)
    declared: int | None = None
    """The count a text header announced (``Main Deck (40):``), checked against the entries."""
    warn_if_empty: bool = True
    """False for markers a file format always writes (a .ydk's ``!side``), where empty is normal."""
    uniform: str | None = None
    """``"name"`` when the reader vouches that every entry is a plain name with a valid count,
    ``"printing"`` when every entry is one copy of a code alone (a .ydk passcode line): resolve may then look
    the whole section up in one go. None: entries vary, resolve goes entry by entry."""

    @property
    def key(self) -> str:
        return header_key(self.title)

    def add(self, entry: Entry) -> None:
        """Append an entry; the section stays ``uniform`` only while every entry fits it."""
        self.entries.append(entry)
        if self.uniform is not None and not _fits(self.uniform, entry):
            self.uniform = None


def _fits(uniform: str, entry: Entry) -> bool:
    if uniform == "name":
        return entry.printing is None and entry.count_ok
    return entry.printing == entry.name and entry.count == 1 and entry.count_ok


@dataclass(frozen=True, slots=True)
class ReadProblem:
    """Bad deck content found while reading (not an unusable file): becomes a violation."""

    rule: str
    message: str
    line: int | None = None
    section: str | None = None
    card: str | None = None


@dataclass(slots=True)
class Decklist:
    path: str
    sections: list[Section] = field(default_factory=list)
    format: str | None = None
    """Format named inside the file (YAML ``format:``)."""
    name: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    problems: list[ReadProblem] = field(default_factory=list)
    loose: Section | None = None
    """Cards written before any section header."""

    def all_sections(self) -> list[Section]:
        return ([self.loose] if self.loose else []) + self.sections
