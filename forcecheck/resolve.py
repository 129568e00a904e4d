"""Binding a decklist to a format's sections and a catalog's cards.

Everything the user wrote ends up either in the ResolvedDeck (a known card with a valid
count in a known section) or as a Finding (unknown card, bad count, unknown section, ...):
nothing is silently dropped, and unknown names never turn into a size error alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from operator import attrgetter

from forcecheck.cards.catalog import Catalog
from forcecheck.cards.model import Card
from forcecheck.cards.names import normalize_name
from forcecheck.decklists.model import Decklist, Entry, Section, header_key
from forcecheck.rules.base import Finding, ResolvedDeck, RulerFacts

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

_NAME = attrgetter("name")
_COUNT = attrgetter("count")
_CODE_LIKE = re.compile(r"^(?:[A-Za-z0-9]+-[A-Za-z0-9^*]+|\d+)$")


@dataclass
class InputFinding:
    """A Finding from reading/resolving, tagged with its input check slug (``unknown-card``)."""

    rule: str
    finding: Finding


@dataclass
class Resolution:
    deck: ResolvedDeck
    findings: list[InputFinding] = field(default_factory=list)
    outside: dict[tuple[str, str], int] = field(default_factory=dict)
    """Copies of cards that stay out of the deck's sections (unknown, loose, unknown section)."""

    @property
    def content(self) -> dict[tuple[str, str], int]:
        """(section key, card key) -> copies: what the fingerprint hashes (see forcecheck.canonical).
        Worked out on demand, from the sections and what stayed outside them."""
        content = dict(self.outside)
        for section_id, entries in self.deck.sections.items():
            for entry in entries:
                item = (section_id, entry.card.name)
                content[item] = content.get(item, 0) + entry.count
        return content


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


def resolve(deck: Decklist, fmt, catalog: Catalog) -> Resolution:
    """Map sections through the format, cards through the catalog; collect input findings."""
    findings: list[InputFinding] = []
    parts: dict[str, list[tuple[list[Entry], list[Card]]]] = {}
    tallies: dict[str, dict[Card, int]] = {}
    section_lines: dict[str, int | None] = {}
    unknown: dict[str, int] = {}
    content: dict[tuple[str, str], int] = {}

    game = fmt.spec.game
    suggested = 0
    names = catalog.remembered("name", game)[0]
    printings = catalog.remembered("printing", game)[0]

    def add(rule: str, **kwargs) -> None:
        findings.append(InputFinding(rule, Finding(**kwargs)))

    for problem in deck.problems:
        section_id = fmt.section_id(problem.section) if problem.section else None
        add(problem.rule, message=problem.message, line=problem.line, section=section_id or problem.section, card=problem.card)

    loose = deck.loose
    for section in deck.all_sections():
        section_id = None if section is loose else fmt.section_id(section.title)
        if section_id is not None:
            if section_id not in section_lines:
                section_lines[section_id] = section.line
        elif section is not loose:
            _unknown_section(section, fmt, add)
        label = section_id or (section.title or None)
        if not section.entries and section.title and section.warn_if_empty:
            add("empty-section", message=f"the {section.title} header has no cards under it", line=section.line, section=label)
        if section.declared is not None:
            listed = sum(e.count for e in section.entries if e.count_ok)
            if listed != section.declared:
                add(
                    "declared-count-mismatch",
                    message=f"the {section.title} header says {section.declared} but {listed} cards are listed",
                    line=section.line,
                    section=label,
                    found=listed,
                    limit=str(section.declared),
                )
        target = tally = None
        if section_id is not None:
            target = parts.setdefault(section_id, [])
            tally = tallies.setdefault(section_id, {})
            if section.uniform is not None and section.entries:
                memo = names if section.uniform == "name" else printings
                if _take_whole_section(section, memo, target, tallies, section_id):
                    continue
        content_key = "-" if section is loose else (section_id or "?" + header_key(section.title))
        kept: list[Entry] = []
        kept_cards: list[Card] = []
        if target is not None:
            target.append((kept, kept_cards))
        for entry in section.entries:
            card, note = resolve_card(catalog, game, entry)
            if entry.count_ok and (card is None or target is None):
                # cards that stay out of the sections still count in the fingerprint content
                item = (content_key, card.name if card else "?" + normalize_name(entry.name))
                content[item] = content.get(item, 0) + entry.count
            if card is None and section is deck.loose and _is_title(deck, entry):
                # "Faria Knights by Jane" above the first header: a title, not a misspelt card
                add("deck-title", message=f"{entry.name!r} is read as the deck's title (it is no card and has no count)",
                    line=entry.line)
                deck.name = deck.name or entry.name
                continue
            if not entry.count_ok:
                add(
                    "invalid-count",
                    message=f"count {entry.count_text!r} for {entry.name} is not a whole number from 1 to 9,999; the line is not counted",
                    line=entry.line,
                    section=label,
                    card=card.name if card else entry.name,
                )
            if card is None:
                if _CODE_LIKE.match(entry.name.strip()):
                    hint = f" (not in the {catalog.label})"  # a code has no near spelling worth suggesting
                elif suggested < SUGGESTIONS_PER_DECK:
                    suggested += 1
                    suggestions = catalog.suggest(game, entry.name)
                    hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else f" (not in the {catalog.label})"
                else:
                    hint = f" (not in the {catalog.label}; names are suggested for the first {SUGGESTIONS_PER_DECK} unknown cards of a deck)"
                add(
                    "unknown-card",
                    message=f"unknown card {entry.name!r}{' (' + entry.printing + ')' if entry.printing and entry.printing != entry.name else ''}{hint}",
                    line=entry.line,
                    section=label,
                    card=entry.name,
                )
                if section_id is not None and entry.count_ok:
                    unknown[section_id] = unknown.get(section_id, 0) + entry.count
                continue
            if note:
                add("printing-mismatch", message=note, line=entry.line, section=label, card=card.name)
            if section is loose:
                add(
                    "card-outside-section",
                    message=f"{card.name} is listed before any section header; put it under one (e.g. Main Deck:)",
                    line=entry.line,
                    card=card.name,
                )
                continue
            if target is None or not entry.count_ok:
                continue
            kept.append(entry)
            kept_cards.append(card)
            tally[card] = tally.get(card, 0) + entry.count

    ruler = RulerFacts(
        [card for card in tallies.get(fmt.spec.ruler.section, ()) if fmt.ruler_selected(card)] if fmt.spec.ruler else []
    )
    resolved = ResolvedDeck(
        path=deck.path, parts=parts, titles=fmt.titles, ruler=ruler, section_lines=section_lines, unknown=unknown,
        tallies=tallies,
    )
    return Resolution(resolved, findings, content)


def _take_whole_section(section: Section, memo: dict, target: list, tallies: dict, section_id: str) -> bool:
    """Resolve a section the reader vouches for (every line a plain name, or one .ydk passcode,
    with a good count) in one go: True when every card is one this batch has met before, and
    the section is then done. No per-line objects are made (ResolvedDeck builds them only if a
    rule or the fingerprint asks for lines). False leaves the section to the entry-by-entry path."""
    entries = section.entries
    cards = list(map(memo.get, map(_NAME, entries)))
    if None in cards:
        return False
    target.append((entries, cards))
    tally = tallies[section_id]
    if section.uniform == "printing":  # one copy per line: counted in C
        _count_into(tally, cards)
        return True
    if not tally:  # each card on one line, as text lists have it: one C-level step
        tally.update(zip(cards, map(_COUNT, entries)))
        if len(tally) == len(cards):
            return True
        tally.clear()  # a card on two lines: add up below
    for card, entry in zip(cards, entries):
        tally[card] = tally.get(card, 0) + entry.count
    return True


def _is_title(deck: Decklist, entry: Entry) -> bool:
    """The first line of the file, written without a count, before any section."""
    return entry.count_text is None and entry is deck.loose.entries[0] and bool(deck.sections)


def _unknown_section(section: Section, fmt, add) -> None:
    known = ", ".join(s.title for s in fmt.spec.sections)
    add(
        "unknown-section",
        message=f"unknown section {section.title!r} in format {fmt.spec.name} (sections: {known}); its cards are not counted",
        line=section.line,
        section=section.title,
    )
