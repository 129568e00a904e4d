"""Shared pieces of the rule kinds: the resolved deck they read and the findings they yield."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from forcecheck.cards.model import Card
from forcecheck.decklists.model import Entry
from forcecheck.records import Record


class ResolvedEntry(Record):
    """A decklist entry bound to its card: ``count`` copies on ``line`` of section ``section``."""

    card: Card
    count: int
    line: int | None
    section: str
    written: str
    printing: str | None
    """The printing code the line gives (a .ydk passcode), if any."""

    __slots__ = ("card", "count", "line", "section", "written", "printing")

    def __init__(self, card: Card, count: int, line: int | None, section: str, written: str, printing: str | None = None) -> None:
        self.card = card
        self.count = count
        self.line = line
        self.section = section
        self.written = written
        self.printing = printing


class RulerFacts(Record, hidden=("memo", "_keywords"), uncompared=("memo", "_keywords")):
    """What ruler-dependent rules read: the cards in the ruler area, their keywords and attributes.

    With partners every ruler in the ruler area counts, as the CR has it for the starting
    rulers (402.6a-1, 402.7a-1: "none of your starting rulers"); forcecheck reads [Grimoire]
    (402.5c: "your ruler") the same way."""

    cards: list[Card]
    memo: dict
    """What rules work out from the ruler alone, by the rule's own key: one RulerFacts is shared
    by every deck with the same rulers (``resolve``), so a batch works each out once per ruler."""

    __slots__ = ("cards", "memo", "_keywords")

    def __init__(
        self,
        cards: list[Card] | None = None,
        memo: dict | None = None,
        _keywords: dict | None = None,
    ) -> None:
        self.cards = [] if cards is None else cards
        self.memo = {} if memo is None else memo
        self._keywords = _keywords

    @property
    def present(self) -> bool:
        return bool(self.cards)

    @property
    def label(self) -> str:
        return " / ".join(c.name for c in self.cards) if self.cards else "(no ruler)"

    _keywords: dict | None

    def keyword(self, name: str) -> int | None:
        """The ruler's number for a keyword (the highest, with several rulers); None when no
        ruler card has it. Several rules ask per deck, so the union is made once."""
        if self._keywords is None:
            merged: dict[str, int] = {}
            for card in self.cards:
                for key, value in card.keywords.items():
                    if key not in merged or value > merged[key]:
                        merged[key] = value
            self._keywords = merged
        return self._keywords.get(name)

    @property
    def attributes(self) -> frozenset[str]:
        """The rulers' attributes, all of them together (CR 402.6d: "one of your starting
        rulers"); a sub-ruler beside them ([Aid]) is no ruler and adds none."""
        rulers = [card for card in self.cards if "ruler" in card.types] or self.cards
        return frozenset().union(*(card.attributes for card in rulers))

    @property
    def deck_attributes(self) -> frozenset[str]:
        """Attributes the ruler's text restricts the deck to; empty when it restricts nothing."""
        return frozenset().union(*(card.deck_attributes for card in self.cards))


_NO_CARDS: Mapping = {}


class ResolvedDeck(Record):
    path: str
    parts: dict[str, list[tuple[list[Entry], list[Card]]]]
    """Section id -> the written lines with a known card and a valid count, in file order,
    beside their cards (as resolve found them; ``sections`` makes entries of them)."""
    titles: Mapping[str, str]
    ruler: RulerFacts
    section_lines: Mapping[str, int | None]
    """Line of each section's header, where section-wide findings point."""
    unknown: Mapping[str, int]
    """Copies of unknown cards per section: they still count toward the section's size, so a
    misspelling is reported as an unknown card, not also as a deck that is too small."""
    tallies: dict[str, dict[Card, int]]
    """Section id -> card -> copies, each card once however many lines list it (resolve
    fills it in the same pass as ``parts``). Rules judge cards here, not lines: a .ydk
    lists a card once per copy, and most cards break no rule, so a rule's loop is short and
    only a breach goes back to the lines (``entries_of``)."""

    __slots__ = (
        "path", "parts", "titles", "ruler", "section_lines", "unknown", "tallies", "_merged", "_sections",
        "_filled", "candidates", "_index", "_asked", "counted"
    )

    def __init__(
        self,
        path: str,
        parts: dict[str, list[tuple[list[Entry], list[Card]]]],
        titles: Mapping[str, str],
        ruler: RulerFacts,
        section_lines: Mapping[str, int | None] | None = None,
        unknown: Mapping[str, int] | None = None,
        tallies: dict[str, dict[Card, int]] | None = None,
        _merged: dict | None = None,
        _sections: dict | None = None,
        _filled: set | None = None,
        candidates: dict[str, set] | None = None,
        _index: dict | None = None,
        _asked: int = 0,
        counted: dict[str, int] | None = None,
    ) -> None:
        self.path = path
        self.parts = parts
        self.titles = titles
        self.ruler = ruler
        self.section_lines = {} if section_lines is None else section_lines
        self.unknown = {} if unknown is None else unknown
        self.tallies = {} if tallies is None else tallies
        self._merged = _merged
        self._sections = _sections
        self._filled = _filled
        self.candidates = candidates
        self._index = _index
        self._asked = _asked
        self.counted = counted

    def line_of(self, section_ids: Iterable[str]) -> int | None:
        for section_id in section_ids:
            line = self.section_lines.get(section_id)
            if line is not None:
                return line
        return None

    _merged: dict | None
    _sections: dict | None
    _filled: set | None
    candidates: dict[str, set] | None
    """Rule id -> the cards that rule must look at, collected by the engine's card pass
    (None when no pass ran: a rule then finds its candidates itself)."""
    _index: dict | None
    _asked: int
    counted: dict[str, int] | None
    """Rule id -> the cards each counting rule (curves, quotas) counted in the engine's card
    pass (None when no pass ran); ``rules.requirements`` reads it instead of counting again."""

    @property
    def sections(self) -> dict[str, list[ResolvedEntry]]:
        """Section id -> entries with a known card and a valid count, in file order. Made on
        first use: the rules read ``tallies`` and come here only for the lines of a breach."""
        if self._sections is None:
            self._sections = {
                section_id: [
                    ResolvedEntry(card, entry.count, entry.line, section_id, entry.name, entry.printing)
                    for entries, cards in parts
                    for entry, card in zip(entries, cards)
                ]
                for section_id, parts in self.parts.items()
            }
        return self._sections

    def tally(self, section_ids: tuple[str, ...]) -> Mapping[Card, int]:
        """Card -> copies summed over these sections (merged once per deck and section tuple)."""
        if len(section_ids) == 1:
            return self.tallies.get(section_ids[0], _NO_CARDS)
        if self._merged is None:
            self._merged = {}
        found = self._merged.get(section_ids)
        if found is None:
            found = {}
            for section_id in section_ids:
                for card, copies in self.tallies.get(section_id, _NO_CARDS).items():
                    found[card] = found.get(card, 0) + copies
            self._merged[section_ids] = found
        return found

    def copies(self, card: Card, section_ids: tuple[str, ...]) -> int:
        """Copies of one card over these sections."""
        return sum(self.tallies.get(s, _NO_CARDS).get(card, 0) for s in section_ids)

    @property
    def filled(self) -> set[str]:
        """Ids of the sections that hold any card, known or unknown."""
        if self._filled is None:
            self._filled = {s for s, tally in self.tallies.items() if tally}.union(self.unknown)
        return self._filled

    def total(self, section_ids: tuple[str, ...]) -> int:
        """Copies of known cards in these sections."""
        tallies = self.tallies
        return sum(sum(tallies[s].values()) for s in section_ids if s in tallies)

    def candidates_for(self, rule_id: str, section_ids: tuple[str, ...], may_matter: Callable[[Card], bool]) -> Iterable[Card]:
        """The cards of these sections a rule must look at: as the engine's card pass collected
        them, or, when no pass ran (a rule checked on its own), the ones ``may_matter`` picks."""
        collected = self.candidates.get(rule_id) if self.candidates is not None else None
        if collected is not None:
            return collected
        return {card for section_id in section_ids for card in self.tally((section_id,)) if may_matter(card)}

    def entries_of(self, card: Card, section_ids: tuple[str, ...]) -> list[ResolvedEntry]:
        """The lines that list ``card`` in these sections: where a finding about it points.
        Read from the parts, so a finding does not make entries of the whole deck. The first
        few findings of a deck search the parts (in C); a deck with many findings (a huge list)
        gets an index of its lines per card instead, so its findings cost no search each."""
        found = []
        self._asked += 1
        index = self._index if self._asked <= _SEARCHED_FINDINGS else self._line_index()
        for section_id in section_ids:
            if card not in self.tallies.get(section_id, _NO_CARDS):
                continue
            if index is not None:
                for entry in index[section_id].get(card, ()):
                    found.append(ResolvedEntry(card, entry.count, entry.line, section_id, entry.name, entry.printing))
                continue
            for entries, cards in self.parts[section_id]:
                at = -1
                for _ in range(cards.count(card)):  # list.count and list.index search in C
                    at = cards.index(card, at + 1)
                    entry = entries[at]
                    found.append(ResolvedEntry(card, entry.count, entry.line, section_id, entry.name, entry.printing))
        return found

    def _line_index(self) -> dict[str, dict[Card, list[Entry]]]:
        if self._index is None:
            index: dict[str, dict[Card, list[Entry]]] = {}
            for section_id, parts in self.parts.items():
                lines = index[section_id] = {}
                for entries, cards in parts:
                    for entry, card in zip(entries, cards):
                        lines.setdefault(card, []).append(entry)
            self._index = index
        return self._index


_SEARCHED_FINDINGS = 16
"""Findings of one deck located by searching its lines; past that, the deck's lines are indexed."""


class Finding(Record, frozen=True):
    """One breach as a rule sees it; the engine turns it into a ``Violation``."""

    message: str
    section: str | None
    card: str | None
    line: int | None
    found: int | None
    limit: str | None
    lines: tuple[int, ...] | None
    """Every line of the card the finding is about, when it is listed on several."""

    __slots__ = ("message", "section", "card", "line", "found", "limit", "lines")

    def __init__(
        self,
        message: str,
        section: str | None = None,
        card: str | None = None,
        line: int | None = None,
        found: int | None = None,
        limit: str | None = None,
        lines: tuple[int, ...] | None = None,
    ) -> None:
        _set = object.__setattr__
        _set(self, "message", message)
        _set(self, "section", section)
        _set(self, "card", card)
        _set(self, "line", line)
        _set(self, "found", found)
        _set(self, "limit", limit)
        _set(self, "lines", lines)


def lines_of(entries) -> tuple[int | None, tuple[int, ...] | None, str]:
    """Where a finding about one card points: its first line, all its lines when there are
    several (a .ydk lists each copy on its own line), and ``" (lines 3, 4, 5)"`` for the
    message then. One card is one finding, however many lines list it."""
    lines = sorted({e.line for e in entries if e.line is not None})
    if len(lines) < 2:
        return (lines[0] if lines else None), None, ""
    return lines[0], tuple(lines), f" (lines {', '.join(map(str, lines))})"


Check = Callable[[ResolvedDeck], Iterable[Finding]]


def silent_when_empty(check: Check, sections: Iterable[str]) -> Check:
    """Mark ``check`` as one that finds nothing while its sections hold no cards (known or
    unknown): the engine then skips it for such decks, as most decks leave some auxiliary
    sections empty. A check without the mark always runs."""
    check.silent_when_empty = frozenset(sections)
    return check


def join_titles(deck: ResolvedDeck, section_ids: Iterable[str]) -> str:
    titles = [deck.titles.get(s, s) for s in section_ids]
    if len(titles) <= 2:
        return " and ".join(titles)
    return ", ".join(titles[:-1]) + " and " + titles[-1]


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
