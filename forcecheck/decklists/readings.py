"""The ways a card line may be read other than as written, each a kind with its rank and words.

A line usually names one card as written (``4 Gawain, the Knight of the Sun``). Some lines say
more or less than that: both faces of a ruler (``Faria // Faria [J-Ruler]``), a flattened table
row of several cards, a remark after the name, a number that is part of the name. The reader
offers such a line's other readings; resolve takes one only when the catalog bears it out, and
reports it on its line (FC013 ``line-read-as``).

Code decides by the kind, never by the words: the words may improve, the kind does not change.
``drops_words`` says that the reading leaves words of the line out of the card (``fmt`` must
then refuse to rewrite the list, or the words would be lost).
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

from forcecheck.records import Record

if TYPE_CHECKING:
    from forcecheck.decklists.model import Entry


class ReadingKind(Enum):
    """One way of reading a line, in the order readings are tried (``rank``)."""

    REMARK_IN_BRACKETS = (10, "a remark in brackets after the name", True)
    MARKUP_GLUED = (15, "a forum tag glued to the name, stripped", False)
    ANNOTATIONS_AFTER = (17, "a price, rarity or set code after the name", True)
    COST_FIRST = (20, "a cost before the name", False)
    LABEL_FIRST = (30, "a label and a dash before the name", False)
    FACES = (40, "faces of one card", False)
    TWO_CARDS = (45, "two cards on one line, not faces of one card", False)
    REMARK_AFTER_SLASHES = (50, "the text after '//' read as a remark", True)
    NUMBER_AT_END_IN_NAME = (60, "the number at the end is part of the name", False)
    NUMBER_FIRST_IN_NAME = (70, "the number is part of the name", False)
    TABLE_ROW = (80, "a table row of several cards", False)
    TABLE_CELL = (85, "another cell of a table row", False)
    ROW_REST = (90, "the rest of a table row after the name", False)
    GLUED_REMARK = (100, "text glued before the count read as a remark", True)
    TITLE_BEFORE_CARD = (110, "a title before the card line", True)
    TITLE_IN_NAME = (5, "the header's title is the start of the card's name", False)
    SET_CODE_ALONE = (200, "a set code alone on a line, no card", True)
    TABLE_HEADER_ROW = (210, "a table's header row, no card", False)
    HEADER_CORRECTED = (220, "a misspelt section or group title", False)

    def __init__(self, rank: int, words: str, drops_words: bool) -> None:
        self.rank = rank
        self.words = words
        self.drops_words = drops_words


class Reading(Record, frozen=True):
    """One way to read a card line: the cards it names, as entries (the line's number is the
    line's own), and the kind of reading. ``detail`` refines the words (``a table row of 3
    cards``) without changing the kind."""

    parts: tuple[Entry, ...]
    kind: ReadingKind
    detail: str | None

    __slots__ = ("parts", "kind", "detail")

    def __init__(self, parts: tuple[Entry, ...], kind: ReadingKind, detail: str | None = None) -> None:
        _set = object.__setattr__
        _set(self, "parts", parts)
        _set(self, "kind", kind)
        _set(self, "detail", detail)

    @property
    def why(self) -> str:
        """What the reading assumes, in words, for the report."""
        return self.detail or self.kind.words
