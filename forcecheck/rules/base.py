"""Shared pieces of the rule kinds: the resolved deck they read and the findings they yield."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping

from forcecheck.cards.model import Card


@dataclass(slots=True)
class ResolvedEntry:
    """A decklist entry bound to its card: ``count`` copies on ``line`` of section ``section``."""

    card: Card
    count: int
    line: int | None
    section: str
    written: str


@dataclass(slots=True)
class RulerFacts:
    """What ruler-dependent rules read: the ruler cards, their keywords and attributes."""

    cards: list[Card] = field(default_factory=list)

    @property
    def present(self) -> bool:
        return bool(self.cards)

    @property
    def label(self) -> str:
        return " / ".join(c.name for c in self.cards) if self.cards else "(no ruler)"

    def keyword(self, name: str) -> int | None:
        values = [c.keywords[name] for c in self.cards if name in c.keywords]
        return max(values) if values else None

    @property
    def attributes(self) -> frozenset[str]:
        return frozenset().union(*(card.attributes for card in self.cards))

    @property
    def deck_attributes(self) -> frozenset[str]:
        """Attributes the ruler's text restricts the deck to; empty when it restricts nothing."""
        return frozenset().union(*(card.deck_attributes for card in self.cards))


@dataclass(slots=True)
class ResolvedDeck:
    path: str
    sections: dict[str, list[ResolvedEntry]]
    """Section id -> entries with a known card and a valid count, in file order."""
    titles: Mapping[str, str]
    ruler: RulerFacts
    section_lines: Mapping[str, int | None] = field(default_factory=dict)
    """Line of each section's header, where section-wide findings point."""
    unknown: Mapping[str, int] = field(default_factory=dict)
    """Copies of unknown cards per section: they still count toward the section's size, so a
    misspelling is reported as an unknown card, not also as a deck that is too small."""

    def line_of(self, section_ids: Iterable[str]) -> int | None:
        for section_id in section_ids:
            line = self.section_lines.get(section_id)
            if line is not None:
                return line
        return None

    _entries_cache: dict = field(default_factory=dict)

    def entries(self, section_ids: tuple[str, ...]) -> list[ResolvedEntry]:
        """The entries of these sections, in order (computed once per deck and section tuple)."""
        found = self._entries_cache.get(section_ids)
        if found is None:
            if len(section_ids) == 1:
                found = self.sections.get(section_ids[0], [])
            else:
                found = [e for s in section_ids for e in self.sections.get(s, ())]
            self._entries_cache[section_ids] = found
        return found


@dataclass(frozen=True, slots=True)
class Finding:
    """One breach as a rule sees it; the engine turns it into a ``Violation``."""

    message: str
    section: str | None = None
    card: str | None = None
    line: int | None = None
    found: int | None = None
    limit: str | None = None


Check = Callable[[ResolvedDeck], Iterable[Finding]]


def join_titles(deck: ResolvedDeck, section_ids: Iterable[str]) -> str:
    titles = [deck.titles.get(s, s) for s in section_ids]
    if len(titles) <= 2:
        return " and ".join(titles)
    return ", ".join(titles[:-1]) + " and " + titles[-1]


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
