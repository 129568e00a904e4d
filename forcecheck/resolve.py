"""Binding a decklist to a format's sections and a catalog's cards.

Everything the user wrote ends up either in the ResolvedDeck (a known card with a valid
count in a section) or as a Finding (unknown card, bad count, unknown section, ...):
nothing is silently dropped, and unknown names never turn into a size error alone.

Reading a published list takes judgement, and every judgement is a finding on its line:
a line read in another way than the plain one (a table row of several cards, a count after
the name; ``line-read-as``), a misspelt name read as the card clearly meant
(``name-corrected``, ``cards.correct``), cards under no header placed where the format says
they go (``card-placed``, ``forcecheck.placement``), a title above the list (``deck-title``).
"""

from __future__ import annotations

import re
from operator import attrgetter
from typing import TYPE_CHECKING

from forcecheck.cards.catalog import Catalog
from forcecheck.cards.model import Card
from forcecheck.cards.names import normalize_name
from forcecheck.decklists.lines import looks_like_prose
from forcecheck.decklists.model import Decklist, Entry, Note, Section, header_key
from forcecheck.decklists.readings import Reading, ReadingKind
from forcecheck.records import Record
from forcecheck.rules.base import Finding, ResolvedDeck, RulerFacts

if TYPE_CHECKING:
    from forcecheck.placement import Placer
from forcecheck.lazyre import lazy

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


def resolve(deck: Decklist, fmt, catalog: Catalog, layout: bool = False) -> Resolution:
    """Map sections through the format, cards through the catalog; place what no header
    places; collect input findings. ``layout`` keeps every line as read (for ``fmt``)."""
    return _Resolver(deck, fmt, catalog, layout).run()


class _Resolver:
    def __init__(self, deck: Decklist, fmt, catalog: Catalog, layout: bool = False):
        self.deck, self.fmt, self.catalog = deck, fmt, catalog
        self.layout: list | None = [] if layout else None
        self.game = fmt.spec.game
        self.ruler_section: str | None = fmt.spec.ruler.section if fmt.spec.ruler else None
        self.findings: list[InputFinding] = []
        self.parts: dict[str, list[tuple[list[Entry], list[Card]]]] = {}
        self.tallies: dict[str, dict[Card, int]] = {}
        self.section_lines: dict[str, int | None] = {}
        self.unknown: dict[str, int] = {}
        self.outside: dict[tuple[str, str], int] = {}
        self.corrections: list[dict] = []
        self.listed: dict[int, int] = {}
        """id(written section) -> copies kept in it, for announced counts (``rules.announced``)."""
        self.seen_ids: list[str] = []
        self.placer: Placer | None = None
        self.card_seen = False
        self.suggested = 0
        self.corrected = 0
        self.ruler_spellings: dict[Card, str] = {}
        self.title_lines: set[int | None] = set()
        self.title: str | None = deck.name
        self.headings: list[Note] = []
        self.unknown_lines: dict[tuple, list[int | None]] = {}
        """(section, spelling, printing) of each unknown card -> the lines that list it."""
        self.readings: dict[tuple[ReadingKind, str], list[tuple[int | None, str, str]]] = {}
        """How lines were read other than plainly, by kind (and its words): one finding per kind per deck."""
        self.prose: list[Entry] = []
        """Lines read as prose inside or after the list (FC016)."""
        self.counted: bool | None = None
        self.rivals: frozenset | None = None
        self.bracketed: str | None = None
        """How this list means ``(N) Name`` (``_bracket_convention``), once asked."""
        self.names: dict | None = None
        self.printings: dict | None = None
        """The catalog's memos of spellings and printing codes (``Catalog.remembered``), once used."""

    def add(self, rule: str, reading: ReadingKind | None = None, **kwargs) -> None:
        self.findings.append(InputFinding(rule, Finding(**kwargs), reading))

    def run(self) -> Resolution:
        deck, fmt = self.deck, self.fmt
        for problem in deck.problems:
            section_id = fmt.section_id(problem.section) if problem.section else None
            self.add(problem.rule, message=problem.message, line=problem.line, section=section_id or problem.section, card=problem.card)
        for note in deck.notes:
            if note.kind == "table-header":
                self._read_as(ReadingKind.TABLE_HEADER_ROW, note.line, note.text, "nothing")
            elif note.kind == "label":
                self.add("deck-title", line=note.line,
                         message=f"{note.text!r} is read as a heading above the list (it names no section; the cards under it are placed)")
            elif note.kind == "comment" and _COMMENTED_CARD.match(note.text):
                self._commented_card(note)
        sections = deck.sections
        parents = {id(s.parent) for s in sections if s.group and s.parent is not None}
        for section in sections:
            if not section.title:  # a loose block or a table (Section.loose, without the property call)
                self._loose(section, section.entries)
            else:
                self._written(section, bool(parents) and id(section) in parents)
        if self.unknown_lines:
            self._unknown_on_several_lines()
        if self.placer is not None:
            self._placed_findings()
        if self.readings:
            self._reading_findings()
        if self.prose:
            self._prose_finding()
            self.headings.extend(Note("prose", entry.name, entry.line) for entry in self.prose)
        ruler = _ruler_facts(fmt, self.tallies)
        resolved = ResolvedDeck(
            path=deck.path, parts=self.parts, titles=fmt.titles, ruler=ruler, section_lines=self.section_lines,
            unknown=self.unknown, tallies=self.tallies,
        )
        return Resolution(resolved, self.findings, self.outside, self.corrections, self.layout, self.title, self.headings,
                          self.listed, self.title_lines)

    # --- written sections ---------------------------------------------------------------

    def _written(self, section: Section, has_groups: bool) -> None:
        fmt = self.fmt
        section_id = section.target or fmt.section_id(section.title)
        label = section_id or section.title
        if section_id is None:
            self._unknown_section(section)
        elif section_id not in self.section_lines:
            self.section_lines[section_id] = section.line
        entries = section.entries
        if not entries:
            if section.warn_if_empty and not has_groups and not self._continued(section, section_id):
                self.add("empty-section", message=f"the {section.title} header has no cards under it", line=section.line, section=label)
            return
        # "Deck: Zero Control" where another header heads the same section: maybe the deck's name
        twin = (self._twin_header(section, section_id) if len(entries) == 1 and entries[0].count_text is None
                and entries[0].line == section.line and section_id is not None and section_id != self.ruler_section
                and not section.group else None)
        card_seen, self.card_seen = self.card_seen, True
        claims = section_id is not None and section.breaks and self._placer().claimed.get(section_id)
        ruler = section_id == self.ruler_section
        if (section_id is not None and section.uniform is not None and not claims and self.layout is None and twin is None
                and not (ruler and (self.ruler_spellings or len(entries) > 1))):  # the ruler area: a face written twice is one card
            if section.uniform == "name":
                memo = self.names
                if memo is None:
                    memo = self.names = self.catalog.remembered("name", self.game)[0]
            else:
                memo = self.printings
                if memo is None:
                    memo = self.printings = self.catalog.remembered("printing", self.game)[0]
            target = self.parts.setdefault(section_id, [])
            rivals = self._rivals() if section.uniform == "name" else _NO_CARDS
            met = _take_whole_section(section, memo, target, self.tallies.setdefault(section_id, {}), section_id, rivals)
            if met is None:
                if ruler:
                    for entry, card in zip(*target[-1]):
                        self.ruler_spellings.setdefault(card, entry.name)
                if self.placer is None:
                    self.seen_ids.append(section_id)
                else:
                    self.placer.saw(section_id, len(entries))
                if section.declared is not None or has_groups:
                    self.listed[id(section)] = sum(map(_COUNT, entries))
                return
            # a spelling the batch has not met (a new card, or no card): the cards it has met are
            # what resolve_card would find for them, the others go the whole way
            items = [[_Item(entry, card)] if card is not None else self._resolve_entry(entry) for entry, card in zip(entries, met)]
        else:
            items = [self._resolve_entry(entry) for entry in entries]
        if twin is not None and len(items[0]) == 1 and items[0][0].card is None and not items[0][0].note:
            self.card_seen = card_seen  # a name above the cards, not a card
            self._deck_name_after_header(section, twin, entries[0])
            return
        blocks = _blocks(items, section.breaks) if claims else [items]
        kept = blocks[0]
        detached: list[list[_Item]] = []
        for block in blocks[1:]:
            if detached or self._placer().detached(section_id, [i.card for line in block for i in line]):
                detached.append(block)
            else:
                kept = kept + block
        flat = [item for line in kept for item in line]
        if section_id is None:
            content_key = "?" + header_key(section.title)
            copies = 0
            for item in flat:
                self._report(item, label)
                self._lay(content_key, section.title, item)
                if item.entry.count_ok:
                    copies += item.entry.count
                    self._outside(content_key, item)
            self.listed[id(section)] = copies  # not counted in the deck, but what its header announces is measured on it
            return
        copies = 0
        plain = section_id != self.ruler_section and self.layout is None
        parts = self.parts.setdefault(section_id, []) if plain else None
        tally = self.tallies.setdefault(section_id, {}) if plain else None
        for item in flat:
            entry, card = item.entry, item.card
            if plain and card is not None and entry.count_ok and not item.note and not item.said:
                # a known card read as written: nothing to report, counted as _keep counts it
                copies += entry.count
                parts.append(([entry], [card]))
                tally[card] = tally.get(card, 0) + entry.count
                continue
            self._report(item, label)
            if entry.count_ok:
                copies += entry.count
                self._keep(section_id, item)
            else:
                self._lay(section_id, self.fmt.titles[section_id], item)
        self.listed[id(section)] = copies
        self._saw(section_id, copies)
        for block in detached:
            self._loose_items(block, None)

    def _continued(self, section: Section, section_id: str | None) -> bool:
        """Whether the next part of the list is a header of the same section (``Ruler:`` above
        ``Arcana: Leader of the Kabuki``, ``J-Ruler: ...``): the section goes on there, not empty."""
        sections = self.deck.sections
        at = next((i for i, other in enumerate(sections) if other is section), None)
        if section_id is None or at is None or at + 1 >= len(sections):
            return False
        following = sections[at + 1]
        return bool(following.title) and not following.group and (following.target or self.fmt.section_id(following.title)) == section_id

    def _twin_header(self, section: Section, section_id: str) -> Section | None:
        """Another header of the list that heads the same section (``Main Deck:`` beside
        ``Deck: Zero Control``, ``Deck`` being a title of the main deck too), or None."""
        fmt = self.fmt
        return next((o for o in self.deck.sections if o is not section and o.title and not o.group
                     and (o.target or fmt.section_id(o.title)) == section_id), None)

    def _deck_name_after_header(self, section: Section, twin: Section, entry: Entry) -> None:
        """The text after ``Deck:`` names no card and has no count, and ``twin`` heads the section:
        it is the deck's name (or a heading, after a title), said as a title is (FC010)."""
        self.title_lines.add(entry.line)
        why = f"it names no card and has no count, and the {twin.title!r} header on line {twin.line} heads that section"
        if self.title is None:
            self.title = entry.name
            self.add("deck-title", message=f"{entry.name!r} after '{section.title}:' is read as the deck's name ({why})", line=entry.line)
        else:
            self.headings.append(Note("heading", entry.name, entry.line))
            self.add("deck-title", message=f"{entry.name!r} after '{section.title}:' is read as a heading ({why})", line=entry.line)

    # --- loose blocks and tables --------------------------------------------------------

    def _loose(self, section: Section, entries: list[Entry]) -> None:
        items = []
        for entry in entries:
            line_items = self._resolve_entry(entry)
            if (not self.card_seen and len(line_items) == 1 and line_items[0].card is None and not line_items[0].note
                    and not _CODE_LIKE.match(entry.name.strip())
                    and (entry.count_text is None or self._number_is_no_count(entry))):
                self._heading(entry)
                continue
            if any(item.card is not None for item in line_items) or entry.count_text is not None:
                self.card_seen = True
            items.append(line_items)
        self._loose_items(items, section.columns or None)

    def _number_is_no_count(self, entry: Entry) -> bool:
        """Whether the number on a line that names no card, above every card, is part of a title
        rather than a count: it is written as (nearly) no card line of the list writes its count,
        either after the name in another form (``Grand Prix Tokyo - Top 8`` above ``4 Name`` or
        ``Name x4`` lines) or with three digits or more where no count has them (``2010 World
        Championship``). Judged against at least five other counted lines, at most one in ten alike."""
        form = entry.count_last[0] if entry.count_last is not None else None
        big = len(entry.count_text.lstrip("+-")) >= 3
        if form is None and not big:
            return False
        alike = others = 0
        for section in self.deck.sections:
            for other in section.entries:
                if other.count_text is None or other is entry:
                    continue
                others += 1
                if form is not None:
                    alike += other.count_last is not None and other.count_last[0] == form
                else:
                    alike += len(other.count_text.lstrip("+-")) >= 3
        return others >= 5 and alike * 10 <= others

    def _heading(self, entry: Entry) -> None:
        """A line that is no card above every card: the deck's title, or a heading. Its text is
        kept whole (``Top 8`` is part of a title, not a count)."""
        self.title_lines.add(entry.line)
        text, why = entry.name, "it is no card and has no count"
        if entry.count_text is not None:
            text = entry.count_last[1] if entry.count_last is not None else f"{entry.count_text} {entry.name}"
            why = "it is no card, and its number is no count: no card line of the list writes its count so"
        if self.title is None:
            self.title = text
            self.add("deck-title", message=f"{text!r} is read as the deck's title ({why})", line=entry.line)
        else:
            self.headings.append(Note("heading", text, entry.line))
            self.add("deck-title", message=f"{text!r} is read as a heading above the list ({why})", line=entry.line)

    def _loose_items(self, lines: list[list[_Item]], columns: tuple[str, ...] | None) -> None:
        placer = self._placer()
        down = bool(columns) and all(len(line_items) == 1 for line_items in lines)
        placer.column = 0
        for line_items in lines:
            if not line_items:
                continue
            if not placer.can_place:
                for item in line_items:
                    self._report(item, None)
                    self._lay("-", "", item)
                    if item.card is not None:
                        self.add("card-outside-section", line=item.entry.line, card=item.card.name,
                                 message=f"{item.card.name} is listed before any section header; put it under one (e.g. Main Deck:)")
                    if item.entry.count_ok:
                        self._outside("-", item)
                continue
            counts = [item.entry.count if item.entry.count_ok else 0 for item in line_items]
            if columns:
                targets = placer.place_row([i.card for i in line_items], columns, line_items[0].entry.line, counts, down)
            else:
                targets = [placer.place(item.card, item.entry.line, count) for item, count in zip(line_items, counts)]
            for item, section_id in zip(line_items, targets):
                self._report(item, section_id)
                if not item.entry.count_ok:
                    self._lay(section_id, self.fmt.titles[section_id], item)
                    continue
                if section_id not in self.section_lines:
                    self.section_lines[section_id] = item.entry.line
                self._keep(section_id, item)

    def _placer(self) -> Placer:
        if self.placer is None:
            from forcecheck.placement import Placer  # only lists with cards under no header need it

            self.placer = Placer(self.fmt)
            for section_id in self.seen_ids:
                self.placer.saw(section_id, 1)
        return self.placer

    def _saw(self, section_id: str, copies: int) -> None:
        if self.placer is not None:
            self.placer.saw(section_id, copies)
        else:
            self.seen_ids.append(section_id)

    # --- one entry ----------------------------------------------------------------------

    def _resolve_entry(self, entry: Entry) -> list[_Item]:
        """The cards a line names: as written, else by another reading, else corrected."""
        card, note = resolve_card(self.catalog, self.game, entry)
        if card is not None:
            if entry.count_text is not None and (entry.bracketed or card in self._rivals()):
                return self._settle_number(entry, _Item(entry, card, note))
            return [_Item(entry, card, note)]
        if _CODE_LIKE.match(entry.name.strip()) and not entry.alternatives:
            return [_Item(entry, None)]
        if entry.count_text is None and _SET_CODE.match(entry.name):
            # "TSHD", "WC09" alone on a line: a table cell naming the set a card is from
            self._read_as(ReadingKind.SET_CODE_ALONE, entry.line, entry.name, "nothing")
            return []
        for reading in entry.alternatives:
            found = self._reading(entry, reading, correct=False)
            if found is not None:
                return found
        corrected = self._correct(entry, entry.name)
        if corrected is not None:
            return [corrected]
        for reading in entry.alternatives:
            found = self._reading(entry, reading, correct=True)
            if found is not None:
                return found
        if entry.count_text is None and self.card_seen and self._counted_list() and (
                looks_like_prose(entry.name) or self._signed_under_prose(entry)):
            self.prose.append(entry)  # "Thanks in advance,": no count, no card, a sentence: no card line
            return []
        return [_Item(entry, None)]

    def _signed_under_prose(self, entry: Entry) -> bool:
        """A short line right under prose (``Thanks in advance,`` then ``Jane``): the sign-off's name."""
        last = self.prose[-1].line if self.prose else None
        return (last is not None and entry.line is not None and 0 < entry.line - last <= 2
                and len(entry.name.split()) <= 3 and not any(ch.isdigit() for ch in entry.name))

    def _counted_list(self) -> bool:
        """Whether the list's card lines carry counts (at least five, two in three of the lines
        that are no sentences): then a sentence among them, with no count and no card, is prose,
        not a card written without one."""
        found = self.counted
        if found is None:
            counted = uncounted = 0
            for section in self.deck.sections:
                for entry in section.entries:
                    if entry.count_text is not None:
                        counted += 1
                    elif not looks_like_prose(entry.name):
                        uncounted += 1
            found = self.counted = counted >= 5 and counted >= 2 * uncounted
        return found

    def _prose_finding(self) -> None:
        lines = [entry.line for entry in self.prose if entry.line is not None]
        first = self.prose[0]
        if len(lines) == 1:
            message = f"{first.name!r} is read as prose, no card (it has no count and names no card); it is not counted"
        else:
            shown = ", ".join(map(str, lines[:8])) + (", ..." if len(lines) > 8 else "")
            message = (f"{len(lines)} lines read as prose, no card (no count, no card name; lines {shown}), "
                       f"e.g. {first.name!r}; they are not counted")
        self.add("prose", line=first.line, lines=tuple(lines) if len(lines) > 1 else None, message=message)

    def _commented_card(self, note: Note) -> None:
        """``#1 Pot of Greed``, ``// 1 Name``: a comment that reads as a card line is not counted
        (it is a comment), but never silently: a finding on its line says so (FC015)."""
        from forcecheck.decklists.lines import parse_entry

        body = _COMMENT_MARK.sub("", note.text)
        entry = parse_entry(body, note.line)
        if entry.count_text is None or not entry.count_ok:
            return
        card = resolve_card(self.catalog, self.game, entry)[0]
        if card is None:
            found = self.catalog.correct(self.game, entry.name) if normalize_name(entry.name) else None
            card = found[0] if found is not None else None
        if card is not None:
            self.add("commented-card", line=note.line, card=card.name,
                     message=f"{note.text!r} reads as a card line ({entry.count} {card.name}) but is a comment: it is not counted "
                             "(remove the comment mark to count it, or write the note in words)")

    # --- a number that reads two ways -------------------------------------------------------

    def _rivals(self) -> frozenset:
        """Cards on which a number beside the name may be part of another card's name."""
        rivals = self.rivals
        if rivals is None:
            first, last = self.catalog.numbered_rivals(self.game)
            rivals = self.rivals = first | last
        return rivals

    def _settle_number(self, entry: Entry, item: _Item) -> list[_Item]:
        """A line whose number reads two ways, both naming cards: ``(3) Name`` (three copies, or
        one with its cost of 3 written first) and ``Jinzo 7`` (seven Jinzo, or one Jinzo #7). A
        reading the card rules out is no reading (a cost the card does not have, no card of
        the other name); where both stand, the list's own way of writing counts decides, and
        where it does not, the line is ambiguous (FC014): never a silent guess."""
        card = item.card
        if entry.bracketed:
            if not card.cost or card.total_cost != entry.count:
                return [item]  # no cost of this card: a count
            other = _Item(Entry(card.name, 1, entry.line, entry.printing), card)
            how = (f"{entry.count} {card.name} (a count in brackets)", f"1 {card.name} (its cost of {entry.count} before the name)")
            convention = self._bracket_convention()
            if convention == "cost":
                self._read_as(ReadingKind.COST_FIRST, entry.line, f"({entry.count_text}) {entry.name}", f"1 {card.name}")
                return [other]
            if convention == "count":
                return [item]
        else:
            first = entry.count_last is None
            bases = self.catalog.numbered_rivals(self.game)[0 if first else 1]
            if card not in bases or (entry.count_last is not None and entry.count_last[0] != "bare"):
                return [item]
            whole = f"{entry.count_text} {entry.name}" if first else f"{entry.name} {entry.count_text}"
            rival = self.catalog.remembered("name", self.game)[1](whole)
            if rival is None or rival is card:
                return [item]
            how = (f"{entry.count} {card.name}", f"1 {rival.name} (the number is part of its name)")
            if self._usual_form(entry):
                return [item]
        written = f"({entry.count_text}) {entry.name}" if entry.bracketed else (
            f"{entry.count_text} {entry.name}" if entry.count_last is None else entry.count_last[1])
        self.add("ambiguous-line", line=entry.line, card=card.name,
                 message=f"{written!r} reads as {how[0]} or as {how[1]}, and nothing in the list tells which; "
                         "write the count plainly (e.g. '4 Name')")
        return [item]

    def _bracket_convention(self) -> str | None:
        """How this list means ``(N) Name``: ``count`` when one such line's number is no cost of
        its card, ``cost`` when at least three such lines each give their card's cost, else None."""
        found = self.bracketed
        if found is None:
            matches = mismatches = 0
            by_name = self.catalog.remembered("name", self.game)[1]
            for section in self.deck.sections:
                for other in section.entries:
                    if other.bracketed:
                        card = by_name(other.name)
                        if card is not None and card.cost:
                            if card.total_cost == other.count:
                                matches += 1
                            else:
                                mismatches += 1
            found = self.bracketed = "count" if mismatches else ("cost" if matches >= 3 else "")
        return found or None

    def _usual_form(self, entry: Entry) -> bool:
        """Whether the list writes its counts as this line does: at least five other counted
        lines, four in five of them in this line's form (count first, or a bare count last)."""
        form = "first" if entry.count_last is None else entry.count_last[0]
        same = others = 0
        for section in self.deck.sections:
            for other in section.entries:
                if other is entry or other.count_text is None or other.line == entry.line:
                    continue
                others += 1
                same += ("first" if other.count_last is None else other.count_last[0]) == form
        return others >= 5 and same * 5 >= others * 4

    def _reading(self, entry: Entry, reading: Reading, correct: bool) -> list[_Item] | None:
        """The cards of one reading of the line, or None when the catalog does not bear it out:
        every part must be a card, except in a table row, where most must (the others stay
        unknown cards, each reported on the line)."""
        if correct and reading.kind is ReadingKind.ROW_REST:
            return None  # the start of a wiki row is read as a name only when it is one exactly
        items: list[_Item] = []
        row = correct and len(reading.parts) > 1 and reading.kind is ReadingKind.TABLE_ROW
        misses = 0
        for written in reading.parts:
            name = written.name
            part = Entry(name, written.count, entry.line, written.printing, written.count_ok, written.count_text)
            card, note = resolve_card(self.catalog, self.game, part)
            if card is not None:
                items.append(_Item(part, card, note))
                continue
            fixed = self._correct(part, name) if correct else None
            if fixed is None and row:
                fixed = self._faces(part)
            if fixed is None and row:
                glued = self._glued(part)
                if glued is not None:
                    items.extend(glued)
                    continue
            if fixed is None:
                if not row:
                    return None
                misses += 1
                items.append(_Item(part, None))
                continue
            items.append(fixed)
        if row and (misses * 2 > len(reading.parts) or len(items) - misses < 2):
            return None
        kind, words = reading.kind, reading.why
        if kind is ReadingKind.FACES:
            if len({id(item.card) for item in items}) == 1:  # "Ruler // J-ruler": one card
                first = items[0]
                said = tuple(s for item in items for s in item.said)
                return [_Item(Entry(first.entry.name, entry.count, entry.line, first.entry.printing, entry.count_ok,
                                    entry.count_text), first.card, first.note, said)]
            kind, words = ReadingKind.TWO_CARDS, ReadingKind.TWO_CARDS.words  # "Faria // Melgis": two rulers
        written = entry.name if entry.count_text is None else f"{entry.count_text} {entry.name}"
        read = "; ".join(f"{item.entry.count} {item.card.name if item.card else repr(item.entry.name)}" for item in items)
        self._read_as(kind, entry.line, written, read, words)
        return items

    def _read_as(self, kind: ReadingKind, line: int | None, written: str, read: str, words: str | None = None) -> None:
        """Remember a line read in another way than as written (reported once per kind)."""
        self.readings.setdefault((kind, words or kind.words), []).append((line, written, read))

    def _faces(self, part: Entry) -> _Item | None:
        """A table cell naming both faces of one card (``Blazer Gill Rabus/Blazer Gill Rabus``)."""
        from forcecheck.decklists.lines import face_names

        cards = {id(card): card for card in (resolve_card(self.catalog, self.game, Entry(n, 1, None))[0] for n in face_names(part.name))}
        if len(cards) != 1 or None in cards.values() or id(None) in cards:
            return None
        card = next(iter(cards.values()))
        return _Item(Entry(card.name, part.count, part.line, None, part.count_ok, part.count_text), card)

    def _glued(self, part: Entry) -> list[_Item] | None:
        """A table cell holding two names, the second without its count (a web page lost the
        cell boundary: ``Lancelot, the Knight of Mad Demon Blessing of Athena``): both read
        exactly, at one word boundary only."""
        words = part.name.split()
        found = []
        for cut in range(1, len(words)):
            first = Entry(" ".join(words[:cut]), part.count, part.line, None, part.count_ok, part.count_text)
            second = Entry(" ".join(words[cut:]), 1, part.line)
            a = resolve_card(self.catalog, self.game, first)[0]
            b = resolve_card(self.catalog, self.game, second)[0] if a is not None else None
            if b is not None:
                found.append((_Item(first, a), _Item(second, b)))
        if len(found) != 1:
            return None
        return list(found[0])

    def _correct(self, entry: Entry, written: str) -> _Item | None:
        if self.corrected >= CORRECTIONS_PER_DECK or _CODE_LIKE.match(written.strip()) or not normalize_name(written):
            return None
        self.corrected += 1
        found = self.catalog.correct(self.game, written)
        if found is None:
            return None
        card, correction = found
        shown = correction.name  # the card's name in the language the list wrote it in
        self.corrections.append({"line": entry.line, "written": written, "read_as": shown})
        fixed = Entry(shown, entry.count, entry.line, None, entry.count_ok, entry.count_text)
        return _Item(fixed, card, said=(("name-corrected", f"read {written!r} as {shown!r} ({correction.why})"),))

    def _lay(self, key: str, title: str, item: _Item) -> None:
        if self.layout is not None:
            self.layout.append((key, title, item.entry, item.card))

    def _report(self, item: _Item, label: str | None) -> None:
        """Findings of one resolved card line: a bad count, an unknown card, a printing note,
        and what reading it assumed."""
        entry, card = item.entry, item.card
        for rule, message in item.said:
            self.add(rule, message=message, line=entry.line, section=label, card=card.name if card else None)
        if not entry.count_ok:
            self.add("invalid-count", line=entry.line, section=label, card=card.name if card else entry.name,
                     message=f"count {entry.count_text!r} for {entry.name} is not a whole number from 1 to 9,999; the line is not counted")
        if card is None:
            key = (label, entry.name.strip().casefold(), entry.printing)
            seen = self.unknown_lines.get(key)
            if seen is not None:  # a .ydk lists each copy on its own line: one finding per card, with its lines
                seen.append(entry.line)
                return
            self.unknown_lines[key] = [entry.line]
            self.add("unknown-card", message=self._unknown_message(entry), line=entry.line, section=label, card=entry.name)
        elif item.note:
            self.add("printing-mismatch", message=item.note, line=entry.line, section=label, card=card.name)

    def _unknown_message(self, entry: Entry) -> str:
        catalog = self.catalog
        written = entry.name.strip()
        if entry.printing and entry.printing == entry.name and written.isdigit():
            return f"unknown passcode {written} (not in the catalog)"
        if _CODE_LIKE.match(written):
            return f"unknown card {entry.name!r} (not in the catalog)"  # a code has no near spelling
        if self.suggested < SUGGESTIONS_PER_DECK:
            self.suggested += 1
            suggestions = catalog.suggest(self.game, entry.name)
            from forcecheck.wording import did_you_mean  # names quoted: card names hold commas

            hint = f"; {did_you_mean(suggestions)}" if suggestions else " (not in the catalog)"
        else:
            hint = f" (not in the catalog; names are suggested for the first {SUGGESTIONS_PER_DECK} unknown cards of a deck)"
        printing = f" ({entry.printing})" if entry.printing and entry.printing != entry.name else ""
        return f"unknown card {entry.name!r}{printing}{hint}"

    def _keep(self, section_id: str, item: _Item) -> None:
        """Count a card line with a good count in its section (an unknown card as unknown)."""
        entry, card = item.entry, item.card
        if card is None or not (section_id == self.ruler_section and self._same_ruler(entry, card)):
            self._lay(section_id, self.fmt.titles[section_id], item)
        tally = self.tallies.setdefault(section_id, {})
        if card is None:
            self.unknown[section_id] = self.unknown.get(section_id, 0) + entry.count
            self._outside(section_id, item)
            return
        if section_id == self.ruler_section:
            if self._same_ruler(entry, card):
                self.add("card-placed", line=entry.line, section=section_id, card=card.name,
                         message=f"{entry.name!r} names {card.name} again (or its other face), already in the {self.fmt.titles[section_id]}: read as the same card")
                return
            self.ruler_spellings.setdefault(card, entry.name)
        self.parts.setdefault(section_id, []).append(([entry], [card]))
        tally[card] = tally.get(card, 0) + entry.count

    def _same_ruler(self, entry: Entry, card: Card) -> bool:
        """A line naming a ruler already listed by its other face (``J-Ruler: <back face>``,
        ``Astema [J-Ruler]``, one copy) or written again with no count: the same card, not a
        second ruler. The same name written twice with its count is two copies (CR 404.3)."""
        seen = self.ruler_spellings.get(card)
        if seen is None:
            return False
        return entry.count_text is None or (entry.count == 1 and _face_key(entry.name) != _face_key(seen))

    def _outside(self, key: str, item: _Item) -> None:
        card_key = item.card.name if item.card else "?" + normalize_name(item.entry.name)
        self.outside[(key, card_key)] = self.outside.get((key, card_key), 0) + item.entry.count

    def _unknown_section(self, section: Section) -> None:
        known = ", ".join(s.title for s in self.fmt.spec.sections)
        self.add("unknown-section", line=section.line, section=section.title,
                 message=f"unknown section {section.title!r} in format {self.fmt.spec.name} (sections: {known}); its cards are not counted")

    def _unknown_on_several_lines(self) -> None:
        """An unknown card listed on several lines is one finding naming every line."""
        several = {(key[0], key[1]): lines for key, lines in self.unknown_lines.items() if len(lines) > 1}
        if not several:
            return
        from forcecheck.records import replace

        for item in self.findings:
            finding = item.finding
            if item.rule != "unknown-card" or finding.card is None:
                continue
            lines = several.get((finding.section, finding.card.strip().casefold()))
            if lines and finding.line == lines[0]:
                shown = ", ".join(str(n) for n in lines if n is not None)
                item.finding = replace(finding, lines=tuple(n for n in lines if n is not None),
                                       message=f"{finding.message} (lines {shown})")

    def _reading_findings(self) -> None:
        for (kind, why), lines in self.readings.items():
            line, written, read = lines[0]
            if len(lines) == 1:
                message = f"read {written!r} as {read} ({why})"
            else:
                from forcecheck.placement import describe_lines

                where = describe_lines([n for n, _w, _r in lines if n is not None])
                message = f"{len(lines)} lines read as {why} ({where}), e.g. {written!r} as {read}"
            numbers = tuple(n for n, _w, _r in lines if n is not None)
            self.add("line-read-as", reading=kind, line=line, message=message, lines=numbers if len(numbers) > 1 else None)

    def _placed_findings(self) -> None:
        if self.placer is None:
            return
        fmt = self.fmt
        for run in self.placer.runs.values():
            if not run.copies and not run.lines:
                continue
            from forcecheck.placement import describe_lines

            where = describe_lines(run.lines)
            self.add("card-placed", line=min(run.lines) if run.lines else None, section=run.section,
                     message=f"{run.copies} card(s) on {where} read as the {fmt.titles[run.section]}: {run.why}")


_J_TAG = lazy(r"\bj[-\s]?ruler\b", re.IGNORECASE)


def _face_key(written: str) -> tuple[str, bool]:
    """Which face of a ruler a line names: its name as keyed, and whether it is tagged J-ruler
    (``Astema [J-Ruler]`` keys as ``Astema`` does, but names the other face)."""
    return normalize_name(written), bool(_J_TAG.search(written))


def _ruler_facts(fmt, tallies: dict) -> RulerFacts:
    """The deck's ruler facts, one shared object per set of ruler cards in the format (so the
    keywords and attributes several rules ask for are merged once per ruler, not per deck)."""
    if not fmt.spec.ruler:
        return RulerFacts([])
    cards = tuple(filter(fmt.ruler_selected, tallies.get(fmt.spec.ruler.section, ())))
    known = fmt.derived.setdefault("ruler facts", {})
    found = known.get(cards)
    if found is None:
        if len(known) >= 10_000:
            known.clear()
        found = known[cards] = RulerFacts(list(cards))
    return found


def _blocks(items: list[list[_Item]], breaks: list[int]) -> list[list[list[_Item]]]:
    """Split a section's lines at its block boundaries."""
    out: list[list[list[_Item]]] = []
    start = 0
    for index in sorted(set(breaks)):
        if 0 < index < len(items):
            out.append(items[start:index])
            start = index
    out.append(items[start:])
    return out


_COMMENTED_CARD = lazy(r"^(?:#+|//+)\s*\d{1,4}\s*[xX×]?\s*\S")
"""A comment whose words begin with a count: it may be a card line commented out (``#1 Name``)."""
_COMMENT_MARK = lazy(r"^(?:#+|//+)\s*")

_NO_CARDS: frozenset = frozenset()


def _take_whole_section(section: Section, memo: dict, target: list, tally: dict, section_id: str,
                        rivals: frozenset = _NO_CARDS) -> list | None:
    """Resolve a section the reader vouches for (every line a plain name, or one .ydk passcode,
    with a good count) in one go: None when every card is one this batch has met before, and
    the section is then done. No per-line objects are made (ResolvedDeck builds them only if a
    rule or the fingerprint asks for lines). Otherwise the section is left to the entry-by-entry
    path, and the cards met are returned (None for each spelling not met, or met as no card)."""
    entries = section.entries
    cards = list(map(memo.get, map(_NAME, entries)))
    if not all(cards):  # a spelling not met yet (None): cards themselves are always true
        return cards
    if not rivals.isdisjoint(cards):  # "Jinzo 7": a number that may be a count or part of another card's name
        return [None if card in rivals else card for card in cards]
    target.append((entries, cards))
    if section.uniform == "printing":  # one copy per line: counted in C
        _count_into(tally, cards)
        return None
    if not tally:  # each card on one line, as text lists have it: one C-level step
        tally.update(zip(cards, map(_COUNT, entries)))
        if len(tally) == len(cards):
            return None
        tally.clear()  # a card on two lines: add up below
    for card, entry in zip(cards, entries):
        tally[card] = tally.get(card, 0) + entry.count
    return None
