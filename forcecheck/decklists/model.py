"""What a reader makes of a decklist file: sections of entries, each with its source line.

Nothing the user wrote is dropped here: a line that is not a valid entry becomes a
``ReadProblem`` (reported as a violation) and an entry with a bad count is kept with the
count it had, so the report can name it.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import lru_cache
from typing import Any

from forcecheck.decklists.readings import Reading, ReadingKind  # noqa: F401 (re-exported: where readers look for them)
from forcecheck.lazyre import lazy
from forcecheck.records import Record

WIDTH_FOLD = str.maketrans(
    {**{chr(0xFF10 + d): str(d) for d in range(10)}, "\u3000": " ", "\t": " ", "\uff58": "x", "\uff38": "X",
     "\uff0a": "*", "\uff08": "(", "\uff09": ")", "\uff3b": "[", "\uff3d": "]", "\uff1a": ":", "\u00a0": " "}
)
"""Full-width digits, brackets, colons and spaces as their ASCII twins, one character for one
(so positions in the folded line are positions in the line as written)."""


def fold_width(text: str) -> str:
    return text.translate(WIDTH_FOLD)


_HEADER_COUNT = lazy(
    r"\s*(?::\s*|[-–—=]\s*|[xX×]\s*)?[(\[]?\s*(?P<n>\d{1,3})\s*(?:cards?|枚|张)?\s*(?:of\s+(?P<of>\d{1,3})(?:\s*cards?)?)?\s*[)\]]?\s*$"
    r"|\s*[(\[]?\s*\d{1,3}\s*[-〜~–]\s*\d{1,3}\s*(?:cards?|枚)?\s*[)\]]?\s*$"
    r"|\s*[(\[]\s*\d{1,3}\s+[A-Za-z][\w ]*[)\]]\s*$",
    re.IGNORECASE,
)
"""After a header title: ``(40)``, ``: 19``, ``- 15``, ``x 42``, ``22枚``, ``(26 of 40)``; a range
(``(25-28)``, ``5〜6枚``) or a note (``(10 Divinity)``) is read but announces no count."""


@lru_cache(maxsize=4096)
def header_key(title: str) -> str:
    """``"Main Deck (40):"`` -> ``"main deck"``: how section titles are compared. Kept for the
    titles met last (a batch writes the same few titles in deck after deck)."""
    text = split_header_count(title.rstrip(": "))[0]
    text = text.replace(":", " ").replace("_", " ").replace("-", " ").replace("/", " ")
    return " ".join(text.lower().split())


def split_header_count(title: str) -> tuple[str, int | None]:
    """``"Sideboard - 15"`` -> ``("Sideboard", 15)``; a title without a count is kept whole."""
    bare, count, _of = header_parts(title)
    return bare, count


def header_parts(title: str) -> tuple[str, int | None, int | None]:
    """``(title, announced count, count of the whole section)`` of a header as written."""
    folded = fold_width(title)
    match = _HEADER_COUNT.search(folded)
    if match and match.start() > 0:
        count = int(match.group("n")) if match.group("n") else None
        of = int(match.group("of")) if match.group("of") else None
        return title[: match.start()].strip(), count, of
    glued = re.match(r"^(.*?[^\W\d_])(\d{1,3})\s*(?:cards?|枚)?$", folded.strip())
    if glued and glued.group(1).strip():  # "Monster22", "モンスター24枚": a count glued to the title
        return glued.group(1).strip(), int(glued.group(2)), None
    return title.strip(), None, None


class Entry(Record, hidden=("_readings",), uncompared=("_readings",)):
    """One card line: ``count`` copies of ``name`` (as written), optional printing code."""

    name: str
    count: int
    line: int | None
    printing: str | None
    count_ok: bool
    """False when the written count was zero, negative, non-numeric or over the cap."""
    count_text: str | None
    _readings: Any
    count_last: tuple[str, str] | None
    """``(the count form, the line as written)`` when the count follows the name (``Name x4``,
    ``Name - 3``, ``名前 3枚``), else None: a title above a list may end in a number written as no
    card line of the list writes its count (``Grand Prix Tokyo - Top 8``)."""
    bracketed: bool
    """The count was written in brackets before the name (``(4) Name``), where Force of Will
    lists write a card's cost: resolve asks the card whether the number may be its cost."""

    __slots__ = ("name", "count", "line", "printing", "count_ok", "count_text", "_readings", "count_last", "bracketed")

    def __init__(
        self,
        name: str,
        count: int,
        line: int | None,
        printing: str | None = None,
        count_ok: bool = True,
        count_text: str | None = None,
        _readings: Any = (),
        count_last: tuple[str, str] | None = None,
        bracketed: bool = False,
    ) -> None:
        self.name = name
        self.count = count
        self.line = line
        self.printing = printing
        self.count_ok = count_ok
        self.count_text = count_text
        self._readings = _readings
        self.count_last = count_last
        self.bracketed = bracketed

    @property
    def alternatives(self) -> tuple[Reading, ...]:
        """Other readings of the line, tried in order when the catalog knows no card ``name``.
        A reader may leave a function here that works them out: most lines name a card as
        written, and their other readings are never asked for."""
        found = self._readings
        if callable(found):
            found = self._readings = found()
        return found

    @alternatives.setter
    def alternatives(self, value) -> None:
        self._readings = value


class Section(Record):
    """A titled part of a decklist (``Main Deck:``), as written; the format maps it to a section id.

    Three kinds besides a plain section: a *group* (``Monsters: 19`` inside the main deck:
    ``parent`` is the section it belongs to, or None when the list named none and the format's
    default applies; ``target`` is that section's id), a *loose* block (cards under no header,
    ``title`` empty: placement puts each card where the format says it goes) and a *table*
    block (lines after a header row naming several sections, ``columns``)."""

    title: str
    line: int | None
    entries: list[Entry]
    declared: int | None
    """The count a text header announced (``Main Deck (40):``), checked against the entries."""
    warn_if_empty: bool
    """False for markers a file format always writes (a .ydk's ``!side``), where empty is normal."""
    uniform: str | None
    """``"name"`` when the reader vouches that every entry is a plain name with a valid count,
    ``"printing"`` when every entry is one copy of a code alone (a .ydk passcode line): resolve may then look
    the whole section up in one go. None: entries vary, resolve goes entry by entry."""
    target: str | None
    """The section id the reader already knows this part belongs to (a group's section)."""
    parent: Section | None
    """For a group: the written section it is part of (its declared count covers the group)."""
    group: bool
    declared_section: int | None
    """A group header's count of its whole section (``Resonators: (26 of 40)``: 40)."""
    columns: tuple[str, ...]
    """For a table block: the header row's columns, left to right: a section id, or for a group
    ``section id/group key`` (``main/monsters``)."""
    breaks: list[int]
    """Indices of entries that start a new block: a wider blank gap than the list's usual
    spacing before them, or the line after a header that carried a card inline. Placement
    asks of each block whether its cards belong to the section at all."""

    __slots__ = (
        "title", "line", "entries", "declared", "warn_if_empty", "uniform", "target", "parent", "group",
        "declared_section", "columns", "breaks"
    )

    def __init__(
        self,
        title: str,
        line: int | None,
        entries: list[Entry] | None = None,
        declared: int | None = None,
        warn_if_empty: bool = True,
        uniform: str | None = None,
        target: str | None = None,
        parent: Section | None = None,
        group: bool = False,
        declared_section: int | None = None,
        columns: tuple[str, ...] = (),
        breaks: list[int] | None = None,
    ) -> None:
        self.title = title
        self.line = line
        self.entries = [] if entries is None else entries
        self.declared = declared
        self.warn_if_empty = warn_if_empty
        self.uniform = uniform
        self.target = target
        self.parent = parent
        self.group = group
        self.declared_section = declared_section
        self.columns = columns
        self.breaks = [] if breaks is None else breaks

    @property
    def loose(self) -> bool:
        """Cards under no header (or a table row): placement decides their sections."""
        return not self.title

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
        return entry.printing is None and entry.count_ok and not entry.bracketed
    return entry.printing == entry.name and entry.count == 1 and entry.count_ok


class ReadProblem(Record, frozen=True):
    """Bad deck content found while reading (not an unusable file): becomes a violation."""

    rule: str
    message: str
    line: int | None
    section: str | None
    card: str | None

    __slots__ = ("rule", "message", "line", "section", "card")

    def __init__(
        self,
        rule: str,
        message: str,
        line: int | None = None,
        section: str | None = None,
        card: str | None = None,
    ) -> None:
        _set = object.__setattr__
        _set(self, "rule", rule)
        _set(self, "message", message)
        _set(self, "line", line)
        _set(self, "section", section)
        _set(self, "card", card)


class Decklist(Record):
    path: str
    sections: list[Section]
    """Every written part in file order: sections, groups, loose blocks and table blocks."""
    format: str | None
    """Format named inside the file (YAML ``format:``)."""
    name: str | None
    """The deck's title (a YAML ``name:``, a ``# Name:`` comment, or the title line of a text list)."""
    metadata: dict[str, Any]
    """``player``, ``event``, ``date``, ... as the list states them (``Player: Jane D.``)."""
    problems: list[ReadProblem]
    notes: list[Note]
    """Lines that are not cards and were read as something else (a total, a table header row,
    a heading): kept, so nothing the user wrote goes unseen, and checked where they count."""

    beside: Decklist | None
    """A text list written around a deck code in the same file (``ydke://...`` in a post that also
    lists the cards): resolve compares the two, so a file is one deck said twice or an error, never
    the code's deck alone with the text's cards silently dropped."""

    __slots__ = ("path", "sections", "format", "name", "metadata", "problems", "notes", "beside")

    def __init__(
        self,
        path: str,
        sections: list[Section] | None = None,
        format: str | None = None,
        name: str | None = None,
        metadata: dict[str, Any] | None = None,
        problems: list[ReadProblem] | None = None,
        notes: list[Note] | None = None,
        beside: Decklist | None = None,
    ) -> None:
        self.beside = beside
        self.path = path
        self.sections = [] if sections is None else sections
        self.format = format
        self.name = name
        self.metadata = {} if metadata is None else metadata
        self.problems = [] if problems is None else problems
        self.notes = [] if notes is None else notes

    @property
    def loose(self) -> Section | None:
        """The first block of cards under no header (None when every card has one)."""
        return next((s for s in self.sections if s.loose), None)

    def add_loose(self, entry: Entry) -> Section:
        """Put ``entry`` in the loose block at the end of the list (starting one if needed)."""
        last = self.sections[-1] if self.sections else None
        if last is None or not last.loose or last.columns:
            last = Section(title="", line=entry.line)
            self.sections.append(last)
        last.entries.append(entry)
        return last


class Note(Record, frozen=True):
    """A line read as something other than a card: ``total`` (``Total: 41``, checked against
    the cards), ``metadata`` (``Player: Jane D.``), ``columns`` (a row of section titles heading a
    table), ``table-header`` (``| Qty | Name | Type |``), ``label`` (``Decklist:``, naming no section),
    ``heading`` (a line of prose above the cards), ``comment`` (``# ...``), ``remark`` (an editor's
    mark in brackets, ``[... the page ends here ...]``)."""

    kind: str
    text: str
    line: int | None
    count: int | None
    section: str | None
    """For a total that names its section (``Total cards main deck - 40``): the title as written."""

    __slots__ = ("kind", "text", "line", "count", "section")

    def __init__(
        self,
        kind: str,
        text: str,
        line: int | None,
        count: int | None = None,
        section: str | None = None,
    ) -> None:
        _set = object.__setattr__
        _set(self, "kind", kind)
        _set(self, "text", text)
        _set(self, "line", line)
        _set(self, "count", count)
        _set(self, "section", section)


class HeaderTable(Record, frozen=True):
    """What a format calls its sections, for a reader: header keys of each section id, the
    headers that are groups inside a section (``Monsters`` in the main deck) and which
    section is the sideboard (groups under a sideboard header belong to it)."""

    sections: dict[str, str | None]
    groups: dict[str, str]
    sideboard: str | None
    kinds: Any
    """The format's groups named by card kinds (``decklists.kinds.KindGroups``), or None."""

    __slots__ = ("sections", "groups", "sideboard", "kinds")

    def __init__(
        self,
        sections: dict[str, str | None] | None = None,
        groups: dict[str, str] | None = None,
        sideboard: str | None = None,
        kinds: Any = None,
    ) -> None:
        _set = object.__setattr__
        _set(self, "sections", {} if sections is None else sections)
        _set(self, "groups", {} if groups is None else groups)
        _set(self, "sideboard", sideboard)
        _set(self, "kinds", kinds)

    def __contains__(self, key: object) -> bool:
        return key in self.sections

    def __iter__(self):
        return iter(self.sections)

    @classmethod
    def of(cls, known: HeaderTable | Collection[str]) -> HeaderTable:
        if isinstance(known, HeaderTable):
            return known
        return cls(sections={key: None for key in known})
