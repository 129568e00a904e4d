"""Binding a decklist to a format's sections and a catalog's cards: the resolver.

Written sections, loose blocks and tables, placement, the findings of a whole list; one line's
readings are ``resolve.lines``'. The resolver never writes into the decklist it reads.

Why one module of this size: ``_Resolver`` is one pass over a list whose steps share its state
(the tallies, the placer, the findings, the corrections so far); the parts with no state already
live apart (``resolve.model``, ``resolve.lines``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from forcecheck.cards.catalog import Catalog
from forcecheck.cards.model import Card
from forcecheck.cards.names import normalize_name
from forcecheck.decklists.model import Decklist, Entry, Note, Section, header_key
from forcecheck.decklists.readings import ReadingKind
from forcecheck.lazyre import lazy
from forcecheck.resolve.lines import _COMMENTED_CARD, LineReading
from forcecheck.resolve.model import (
    _CODE_LIKE,
    _COUNT,
    _NAME,
    SUGGESTIONS_PER_DECK,
    InputFinding,
    Resolution,
    _count_into,
    _Item,
)
from forcecheck.resolve.page_text import PageText, page_text_possible
from forcecheck.rules.base import Finding, ResolvedDeck, RulerFacts

if TYPE_CHECKING:
    from forcecheck.placement import Placer


_KINDS_NEVER_MIXED = frozenset({"monster", "spell", "trap", "resonator"})
"""Kinds a group header names that players keep apart (Monsters / Spells / Traps, Resonators and
the rest); a Force of Will ``Chants`` group often holds additions too, and says nothing."""


def resolve(deck: Decklist, fmt, catalog: Catalog, layout: bool = False) -> Resolution:
    """Map sections through the format, cards through the catalog; place what no header
    places; collect input findings. ``layout`` keeps every line as read (for ``fmt``)."""
    return _Resolver(deck, fmt, catalog, layout).run()


class _Resolver(LineReading, PageText):
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
        self.ruler_spellings: dict[Card, tuple[str, str | None]] = {}
        """A ruler card -> how its first line wrote it (name, printing code): which face it named."""
        self.title_lines: set[int | None] = set()
        self.title: str | None = deck.name
        self.headings: list[Note] = []
        self.unknown_lines: dict[tuple, list[int | None]] = {}
        """(section, spelling, printing) of each unknown card -> the lines that list it."""
        self.readings: dict[tuple[ReadingKind, str], list[tuple[int | None, str, str]]] = {}
        """How lines were read other than plainly, by kind (and its words): one finding per kind per deck."""
        self.prose: list[Entry] = []
        """Lines read as prose inside or after the list (FC016)."""
        self.text_near: set[int] | None = None
        """The lines read as text so far (``_beside_text``), once asked."""
        self.card_lines: set[int] | None = None
        """The lines of the deck's card entries (``_among_cards``), once asked."""
        self.text_lines: list[tuple[int | None, str]] = []
        """Every line read as text of the page, the reader's and the resolver's: one FC016 finding."""
        self.counted: bool | None = None
        self.page_text: set[int] = set()
        """ids of the entries (and unknown headers) that are the page's text around the list (``resolve.page_text``)."""
        self._section_words: set[str] | None = None
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
        if page_text_possible(deck, fmt):  # before the notes: a sentence beside the page's text is not among the cards
            self.page_text = self._find_page_text()
        for note in deck.notes:
            if note.kind == "table-header":
                self._read_as(ReadingKind.TABLE_HEADER_ROW, note.line, note.text, "nothing")
            elif note.kind == "label":
                self.add("deck-title", line=note.line,
                         message=f"{note.text!r} is read as a heading above the list (it names no section; the cards under it are placed)")
            elif note.kind == "comment" and _COMMENTED_CARD.match(note.text):
                self._commented_card(note)
            elif note.kind == "prose":
                self._text_line(note)
            elif note.kind == "remark":
                self._remark_line(note)
            elif note.kind == "header-corrected":
                self._corrected_header(note)
            elif note.kind == "metadata":
                self._metadata_line(note)
            elif note.kind == "deck-name":
                self.add("deck-title", line=note.line,
                         message=f"{note.text!r} is read as the deck's name, not as a card: a header of the same section follows it")
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
            self.headings.extend(Note("prose", entry.name, entry.line) for entry in self.prose)
            self.text_lines.extend((entry.line, entry.name) for entry in self.prose)
        if self.text_lines:
            self._prose_finding()
        ruler = _ruler_facts(fmt, self.tallies)
        resolved = ResolvedDeck(
            path=deck.path, parts=self.parts, titles=fmt.titles, ruler=ruler, section_lines=self.section_lines,
            unknown=self.unknown, tallies=self.tallies,
        )
        resolution = Resolution(resolved, self.findings, self.outside, self.corrections, self.layout, self.title, self.headings,
                                self.listed, self.title_lines)
        if deck.beside is not None:
            self._list_beside_code(resolution)
        return resolution

    def _list_beside_code(self, resolution: Resolution) -> None:
        """A text list in the same file as a deck code: the same deck said twice is a note; another
        deck is an error that says where they differ (FC014). Text that binds no card stays the
        code's comments, as before."""
        text = resolve(self.deck.beside, self.fmt, self.catalog, layout=True)
        lines = sorted({entry.line for _key, _title, entry, card in text.layout or () if card is not None and entry.line is not None})
        if not lines:
            return
        code_line = next((s.line for s in self.deck.sections if s.line is not None), None)
        where = f"lines {lines[0]}-{lines[-1]}" if len(lines) > 1 else f"line {lines[0]}"  # the list's extent, its headers within
        ours, theirs = resolution.content, text.content
        if ours == theirs:
            self.add("line-read-as", line=lines[0], lines=tuple(lines),
                     message=f"the text list on {where} is the same deck as the deck code on line {code_line}: read once")
            return
        differs = next(key for key in sorted(set(ours) | set(theirs)) if ours.get(key, 0) != theirs.get(key, 0))
        section, card = differs
        self.add("ambiguous-line", line=code_line, section=section, card=card.lstrip("?"),
                 message=f"the deck code on line {code_line} and the text list on {where} are two different decks "
                         f"({card.lstrip('?')} in the {self.fmt.titles.get(section, section)}: {ours.get(differs, 0)} in the code, "
                         f"{theirs.get(differs, 0)} in the text); a decklist is one deck: keep one, or give each a file of its own")

    # --- written sections ---------------------------------------------------------------

    def _written(self, section: Section, has_groups: bool) -> None:
        fmt = self.fmt
        section_id = section.target or fmt.section_id(section.title)
        label = section_id or section.title
        if section_id is None:
            if not section.entries and not section.group:  # "About the Deck:", "NOTES:" over text: a heading, no cards lost
                self.text_lines.append((section.line, section.title))
                return
            if id(section) in self.page_text:  # "Round by round:" over match results that name no card: the page's text
                self.text_lines.append((section.line, section.title))
                self.prose.extend(section.entries)
                return
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
        binds = fmt.binds.get(section_id) if section_id is not None else None
        if (section_id is not None and section.uniform is not None and not claims and self.layout is None and twin is None
                and binds is None and not (ruler and (self.ruler_spellings or len(entries) > 1))):  # the ruler area: a face written twice is one card
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
                if section.group:
                    self._group_kinds(section, target[-1][0], target[-1][1])
                if ruler:
                    for entry, card in zip(*target[-1]):
                        self.ruler_spellings.setdefault(card, (entry.name, entry.printing))
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
        if binds is not None:
            items = [[self._bound(item, binds) for item in line] for line in items]
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
        if section.group:
            self._group_kinds(section, [item.entry for item in flat], [item.card for item in flat])
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

    def _bound(self, item: _Item, binds) -> _Item:
        """A card named in a section that binds names to a kind (``SectionSpec.binds``): when the
        name is another card's too and only that card is of the kind, it is the one meant
        (``Destiny Draw`` under ``Skill Card:`` is the Skill, not the Spell). A card named by its
        code, or a name no card of the kind carries, stays as read."""
        card, entry = item.card, item.entry
        if card is None or binds(card):
            return item
        if entry.printing and self.catalog.by_printing(self.game, entry.printing) is card:
            return item
        meant = [other for other in self.catalog.sharing_name(self.game, card.name) if other is not card and binds(other)]
        if len(meant) != 1:
            return item
        return _Item(entry, meant[0], item.note, item.said)

    def _group_kinds(self, section: Section, entries: list[Entry], cards: list) -> None:
        """A card under a group header of another kind (``Celestia x1`` under ``Monsters``: the
        Field Spell of that name, where a monster was likely meant): counted as the card it
        names, and said on its line (FC011), never silently."""
        kinds = self.fmt.known_headers.kinds
        parts = kinds.kinds(section.title) if kinds is not None else ()
        named = frozenset().union(*parts) & _KINDS_NEVER_MIXED
        if not named:
            return  # "Chants" over additions too, "Others": groups players write loosely
        for entry, card in zip(entries, cards):
            if card is not None and card.types.isdisjoint(named):
                kind = " ".join(t.title() for t in sorted(card.types)) or "card"
                self.add("card-placed", line=entry.line, card=card.name, section=section.target,
                         message=f"{card.name} ({kind}) is listed under the {section.title!r} header (line {section.line}), "
                                 f"which names other cards: counted as {card.name}; if another card is meant, write its whole name")

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
            if not line_items and id(entry) in self.page_text:  # the page's text (a top 8 above the list): no card seen yet
                continue
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
            self.ruler_spellings.setdefault(card, (entry.name, entry.printing))
        self.parts.setdefault(section_id, []).append(([entry], [card]))
        tally[card] = tally.get(card, 0) + entry.count

    def _same_ruler(self, entry: Entry, card: Card) -> bool:
        """A line naming a ruler already listed by its other face (``J-Ruler: <back face>``,
        ``Astema [J-Ruler]``, ``SDAO1-026J``, one copy): the same card, not a second ruler. The
        same face written again, with a count or without, by its name or its code, is a second
        copy (CR 404.3): two bare ``Faria`` lines, or ``1 Faria`` and ``1 SDAO1-026``."""
        seen = self.ruler_spellings.get(card)
        if seen is None or entry.count != 1:
            return False
        before, now = _face_of(card, *seen), _face_of(card, entry.name, entry.printing)
        if before is None or now is None:
            return _face_key(entry.name) != _face_key(seen[0]) and entry.printing == seen[1]
        return before != now

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
                from forcecheck.wording import lines_listed

                where = lines_listed([n for n, _w, _r in lines if n is not None])
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
            from forcecheck.wording import line_span

            where = line_span(run.lines)
            self.add("card-placed", line=min(run.lines) if run.lines else None, section=run.section,
                     message=f"{run.copies} card(s) on {where} read as the {fmt.titles[run.section]}: {run.why}")


_J_TAG = lazy(r"\bj[-\s]?ruler\b", re.IGNORECASE)


def _face_of(card: Card, written: str, printing: str | None) -> int | None:
    """Which face of ``card`` a line names: 0 its front, 1.. its other faces (a J-ruler), None
    when the line says neither (a name the card is known by that is no face's)."""
    code = printing or (written.strip() if _CODE_LIKE.match(written.strip()) else None)
    if code:
        return 1 if code.upper().endswith("J") and card.faces else 0
    if _J_TAG.search(written):
        return 1
    key = normalize_name(written)
    if key == normalize_name(card.name):
        return 0
    return next((at for at, face in enumerate(card.faces, start=1) if normalize_name(face.name) == key), None)


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
