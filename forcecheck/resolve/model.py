"""What resolving a decklist gives: the resolution, its input findings, and one card line as resolved."""

from __future__ import annotations

from operator import attrgetter

from forcecheck.cards.catalog import Catalog
from forcecheck.cards.model import Card
from forcecheck.decklists.model import Entry, Note
from forcecheck.decklists.readings import ReadingKind
from forcecheck.lazyre import lazy
from forcecheck.records import Record
from forcecheck.rules.base import Finding, ResolvedDeck

try:  # the C helper behind collections.Counter: counts into a plain dict, without Counter's overhead
    from collections import _count_elements as _count_into
except ImportError:  # pragma: no cover - CPython has it; another interpreter may not

    def _count_into(mapping: dict, iterable) -> None:
        for item in iterable:
            mapping[item] = mapping.get(item, 0) + 1


SUGGESTIONS_PER_DECK = 20
"""Unknown names of one deck that get spelling suggestions. A suggestion searches the whole
catalog (milliseconds each); a file of thousands of made-up names must not take minutes, and
a deck with more than a few unknown cards has a wider problem (another game, format or catalog)."""

CORRECTIONS_PER_DECK = 40
"""Distinct unknown spellings of one deck that are tried for a correction (each a search of
the catalog, as a suggestion is); the rest stay unknown cards."""

_NAME = attrgetter("name")
_COUNT = attrgetter("count")
_SET_CODE = lazy(r"^(?=(?:[A-Z0-9]*[A-Z]){2})(?=[A-Z]*\d)[A-Z][A-Z0-9]{1,5}$|^[A-Z]{3,5}\d?$")
"""A set code alone on a line (``TSHD``, ``WC09``): tried as a card first, then read as no card."""
_CODE_LIKE = lazy(r"^(?:[A-Za-z0-9]+-[A-Za-z0-9^*]+|\d+)$")



class InputFinding(Record):
    """A Finding from reading/resolving, tagged with its input check slug (``unknown-card``)
    and, for ``line-read-as``, the kind of reading made (``fmt`` refuses the readings that
    leave words of a line out)."""

    rule: str
    finding: Finding
    reading: ReadingKind | None

    def __init__(self, rule: str, finding: Finding, reading: ReadingKind | None = None) -> None:
        self.rule = rule
        self.finding = finding
        self.reading = reading


class Resolution(Record):
    deck: ResolvedDeck
    findings: list[InputFinding]
    outside: dict[tuple[str, str], int]
    """Copies of cards that stay out of the deck's sections (unknown, loose, unknown section)."""
    corrections: list[dict]
    """Names read as another card's: ``{"line", "written", "read_as"}`` each, in file order."""
    layout: list[tuple[str, str, Entry, Card | None]] | None
    """With ``resolve(..., layout=True)``: every card line as read, in file order, with the
    key of the section it ended in (a section id, ``?`` + header key for a section the format
    does not know, ``-`` for a card no section takes) and that section's title as written."""
    title: str | None
    """The deck's title: the one the list states (``Decklist.name``), else the line above the
    cards that resolve read as its title (FC010). The decklist itself is never written to:
    resolving one list twice gives the same resolution."""
    headings: list[Note]
    """Lines above (or between) the cards read as headings, no card (kind ``heading``), and lines
    of prose inside or after the list (kind ``prose``, FC016): kept, so ``fmt`` writes them back."""
    listed: dict[int, int]
    """id(written section or group) -> copies read under it: what its announced count is measured
    against (``rules.announced``)."""
    title_lines: set[int | None]
    """Lines read as the title or a heading (no cards: a total above them does not count them)."""

    def __init__(
        self,
        deck: ResolvedDeck,
        findings: list[InputFinding] | None = None,
        outside: dict[tuple[str, str], int] | None = None,
        corrections: list[dict] | None = None,
        layout: list[tuple[str, str, Entry, Card | None]] | None = None,
        title: str | None = None,
        headings: list[Note] | None = None,
        listed: dict[int, int] | None = None,
        title_lines: set[int | None] | None = None,
    ) -> None:
        self.deck = deck
        self.findings = [] if findings is None else findings
        self.outside = {} if outside is None else outside
        self.corrections = [] if corrections is None else corrections
        self.layout = layout
        self.title = title
        self.headings = [] if headings is None else headings
        self.listed = {} if listed is None else listed
        self.title_lines = set() if title_lines is None else title_lines

    @property
    def content(self) -> dict[tuple[str, str], int]:
        """(section key, card key) -> copies: what the fingerprint hashes (see forcecheck.canonical).
        Worked out on demand, from the sections and what stayed outside them."""
        content = dict(self.outside)
        for section_id, tally in self.deck.tallies.items():  # the lines' copies, added up per card
            for card, copies in tally.items():
                item = (section_id, card.name)
                content[item] = content.get(item, 0) + copies
        return content

    @property
    def section_counts(self) -> dict[str, int]:
        """Section id -> cards in it as placed (known cards and unknown ones with a good count)."""
        deck = self.deck
        counts = {section_id: sum(tally.values()) for section_id, tally in deck.tallies.items()}
        for section_id, copies in deck.unknown.items():
            counts[section_id] = counts.get(section_id, 0) + copies
        order = {section_id: index for index, section_id in enumerate(deck.titles)}
        return {k: counts[k] for k in sorted(counts, key=lambda k: order.get(k, len(order))) if counts[k]}


def resolve_card(catalog: Catalog, game: str, entry: Entry) -> tuple[Card | None, str | None]:
    """The entry's card and, if the printing and name disagree, a note. Printing codes win."""
    by_name = catalog.remembered("name", game)[1]
    by_printing = catalog.remembered("printing", game)[1]
    if entry.printing:
        printed = by_printing(entry.printing)
        if printed is not None:
            if entry.name == entry.printing:  # a .ydk line: the passcode is all there is
                return printed, None
            named = by_name(entry.name)
            if named is not None and named is not printed:
                return printed, f"printing {entry.printing} is {printed.name}, not {entry.name}"
            return printed, None
    named = by_name(entry.name)
    if named is not None:
        return named, None
    if _CODE_LIKE.match(entry.name.strip()):
        return by_printing(entry.name.strip()), None
    return None, None


class _Item(Record):
    """One card a line names, as resolved: the entry to report it on and its card (or None)."""

    entry: Entry
    card: Card | None
    note: str | None
    said: tuple[tuple[str, str], ...]
    """What reading the line assumed (``(rule, message)``): reported with the section it lands in."""

    __slots__ = ("entry", "card", "note", "said")

    def __init__(
        self,
        entry: Entry,
        card: Card | None,
        note: str | None = None,
        said: tuple[tuple[str, str], ...] = (),
    ) -> None:
        self.entry = entry
        self.card = card
        self.note = note
        self.said = said
