"""One card line resolved: as written, else by another reading, else corrected; and the
judgements a line's number, a comment or prose call for.

A mixin of the resolver (``binding._Resolver``): these methods read the resolver's state (the
catalog, the game, the deck, the findings) and record what they assumed, each a finding on its
line (``line-read-as``, ``name-corrected``, ``ambiguous-line``, ``commented-card``, ``prose``).
"""

from __future__ import annotations

from forcecheck.cards.names import normalize_name
from forcecheck.decklists.lines import looks_like_prose
from forcecheck.decklists.model import Entry, Note
from forcecheck.decklists.readings import Reading, ReadingKind
from forcecheck.lazyre import lazy
from forcecheck.resolve.model import _CODE_LIKE, _SET_CODE, CORRECTIONS_PER_DECK, _Item, resolve_card
from forcecheck.wording import line_ranges

_COMMENTED_CARD = lazy(r"^(?:#+|//+)\s*\d{1,4}\s*[xX×]?\s*\S")
"""A comment whose words begin with a count: it may be a card line commented out (``#1 Name``)."""
_COMMENT_MARK = lazy(r"^(?:#+|//+)\s*")
_DIGIT = lazy(r"\d")


_CARD_NAMED_KEYS = frozenset({"name", "archetype", "format"})
"""Metadata a card's name may be the value of (a deck named after its best card)."""

_NAME_THEN_NOTE = lazy(r"\s*(?:[:：]|\s[-–—]{1,2}\s|\u3000)\s*")
"""Where a note begins after a card's name: ``Cyber Dragon: I side this in ...``, ``Name - ...``,
``サイバー・ドラゴン　機械族対策``."""
_LONGEST_NAME_LINE = 160
"""Longer than any card's name with its count and a remark (the longest names of both games are
under 100 characters): a text line this long is looked up as no card."""


class LineReading:
    """How the resolver reads one card line (mixed into ``binding._Resolver``)."""

    def _resolve_entry(self, entry: Entry) -> list[_Item]:
        """The cards a line names: as written, else by another reading, else corrected."""
        if self.page_text and id(entry) in self.page_text:
            self.prose.append(entry)  # a line of a block of the page's text (resolve.page_text): no card
            return []
        card, note = resolve_card(self.catalog, self.game, entry)
        if card is not None and entry.printing and entry.count_text is None and _DIGIT.search(entry.name):
            # "Top 8: 2pcs Soulhunt (SKL-079)": the code names the card, but the words hold a count: read them first
            for reading in entry.alternatives:
                found = self._reading(entry, reading, correct=False)
                if found is not None and any(item.card is card for item in found):
                    return found
        if card is not None and entry.printing and entry.name != entry.printing:
            coded = self._coded(entry, card, note)
            if coded is not None:
                return coded
            note = None
        if card is not None:
            if entry.count_text is not None and (entry.bracketed or card in self._rivals()):
                return self._settle_number(entry, _Item(entry, card, note))
            return [_Item(entry, card, note)]
        if _CODE_LIKE.match(entry.name.strip()) and not entry.alternatives:
            return [_Item(entry, None)]
        if entry.count_text is None and self.card_seen and self._beside_text(entry) and self._no_card_meant(entry):
            self.prose.append(entry)  # "NOTES" above a paragraph, "1st match- A VS. B" under one: the page's text
            return []
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

    def _coded(self, entry: Entry, card, note: str | None) -> list[_Item] | None:
        """A line whose printing code names ``card``: every word beside the code is accounted for.
        Words that are the card's name (or a typo of it) are the card; words that also hold other
        cards (``1 A (CODE) // B``, ``A (CODE), B``) are read as those cards too, or the line is
        ambiguous; words that name another card (``1 B (A's code)``) make it ambiguous (FC014),
        never a card judged on the code alone. None: read the code's card as usual."""
        words = entry.name.strip()
        named = self.catalog.remembered("name", self.game)[1](words) if normalize_name(words) else card
        if named is card:
            return None
        for reading in entry.alternatives:
            if reading.kind in (ReadingKind.FACES, ReadingKind.TABLE_ROW):
                found = self._reading(entry, reading, correct=False)
                if found is not None and any(item.card is card for item in found) and len(found) > 1:
                    return found
        if named is None and not _CODE_LIKE.match(words):
            found = self.catalog.correct(self.game, words)
            if found is not None and found[0] is card:
                return None  # "Mirorr Force (44095762)": the code and the words agree
            named = found[0] if found is not None else self._other_card_in(words, card)
        if named is None:
            if note is None:
                return [_Item(entry, card, f"printing {entry.printing} is {card.name}; the words {words!r} beside it name no card: read by the code")]
            return None
        message = (f"{self._line_text(entry)!r} names {card.name} by its code {entry.printing} and {named.name} by its words, "
                   "and nothing on the line tells which; write the card's name and its own code")
        return [_Item(entry, card, None, (("ambiguous-line", message),))]

    def _other_card_in(self, words: str, card):
        """Another card the words name beside the code's card (``Mirror Force, Monster Reborn``):
        the words with the card's name taken off, before or after, looked up as a card line."""
        from forcecheck.decklists.lines import parse_entry_simple

        by_name = self.catalog.remembered("name", self.game)[1]
        folded, name = words.casefold(), card.name.casefold()
        rest = words[len(name):] if folded.startswith(name) else words[: -len(name)] if folded.endswith(name) else words
        rest = rest.strip(" ,;&+/|-–—:")
        if not rest or rest == words:
            return None  # the card's name is not at either end: nothing else to look up
        entry = parse_entry_simple(rest)
        return by_name(rest) or by_name(entry.name) or (self.catalog.correct(self.game, entry.name) or (None,))[0]

    @staticmethod
    def _line_text(entry: Entry) -> str:
        written = entry.name if entry.count_text is None else f"{entry.count_text} {entry.name}"
        return f"{written} ({entry.printing})"

    def _beside_text(self, entry: Entry) -> bool:
        """Whether a line sits next to text of the page (a sentence or paragraph the reader took
        for text, or a line already read as text), at most one blank line between: a heading
        above a paragraph, an info line under one."""
        line = entry.line
        if line is None:
            return False
        near = self.text_near
        if near is None:
            near = self.text_near = {note.line for note in self.deck.notes if note.kind == "prose" and note.line is not None}
        found = any(line + step in near for step in (-2, -1, 1, 2))
        if found:
            near.add(line)
        return found

    def _no_card_meant(self, entry: Entry) -> bool:
        """Whether a line names no card in any way the resolver reads names: no other reading of
        it is a card and the corrector finds none (a near miss beside a paragraph is still a card)."""
        for reading in entry.alternatives:
            if self._reading(entry, reading, correct=False) is not None:
                return False
        if normalize_name(entry.name) and not _CODE_LIKE.match(entry.name.strip()):
            return self.catalog.correct(self.game, entry.name) is None
        return True

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

    def _text_line(self, note: Note) -> None:
        """A line the reader took for text of the page (``looks_like_text``) is looked up whole:
        a card named so (``And War it Shall Be!``, ``3 On Your Mark, Get Set, DUEL!``) makes the
        line ambiguous (FC014, both readings named), never a card silently lost as text."""
        from forcecheck.decklists.lines import parse_entry

        self.text_lines.append((note.line, note.text))
        if len(note.text) > _LONGEST_NAME_LINE:
            return  # a paragraph: longer than any card's name with a count
        by_name = self.catalog.remembered("name", self.game)[1]
        entry = parse_entry(note.text, note.line)
        for name, count in ((note.text, 1), (note.text.rstrip(".!?,;: "), 1), (entry.name, entry.count if entry.count_ok else 1)):
            card = by_name(name) if name else None
            if card is not None:
                self.add("ambiguous-line", line=note.line, card=card.name,
                         message=f"{note.text!r} reads as a sentence of the page around the list or as {count} {card.name}, "
                                 "and nothing in the list tells which; write the card as a card line (e.g. '1 Name') "
                                 "or the sentence in a comment")
                return
        head = _NAME_THEN_NOTE.split(note.text.strip(), 1)
        card = by_name(head[0]) if len(head) > 1 and head[0] else None
        if card is not None and self._among_cards(note.line):
            self.add("ambiguous-line", line=note.line, card=card.name,
                     message=f"{note.text!r} reads as a note about {card.name} or as 1 {card.name} with a note, among the "
                             "list's cards, and nothing in the list tells which; write the card as a card line (e.g. '1 Name') "
                             "or the note in a comment")

    def _among_cards(self, line: int | None) -> bool:
        """Whether the line touches the list's card lines (one right above or below it, no blank
        between): a sentence there that begins with a card's name may be that card with a note.
        Lines of the page's text are no card lines (a matchups block: ``Machina — bad.``)."""
        if line is None:
            return False
        lines = self.card_lines
        if lines is None:
            lines = self.card_lines = {e.line for section in self.deck.sections for e in section.entries
                                       if e.line is not None and id(e) not in self.page_text}
        return line - 1 in lines or line + 1 in lines

    def _metadata_line(self, note: Note) -> None:
        """A metadata line whose value is a card line (``Player: 1 Dark Hole``) or, for a key no
        card names (player, date, event, place...), a card's exact name (``Event: Dark Hole``):
        ambiguous (FC014), never a card silently kept out of the deck. A deck named after a card
        (``Deck: Dark Magician``) is the deck's name, as a judge reads it."""
        from forcecheck.decklists.lines import metadata_of, parse_entry

        found = metadata_of(note.text)
        if found is None:
            return
        key, value = found
        by_name = self.catalog.remembered("name", self.game)[1]
        entry = parse_entry(value, note.line)
        card, count = None, 1
        if entry.count_text is not None and entry.count_ok:
            card, count = by_name(entry.name), entry.count
        if card is None and key not in _CARD_NAMED_KEYS:
            card = by_name(value)
        if card is not None:
            self.add("ambiguous-line", line=note.line, card=card.name,
                     message=f"{note.text!r} reads as the list's {key} or as {count} {card.name}, and nothing in the list tells "
                             "which; write the card as a card line under its section, or the value as it is meant")

    def _remark_line(self, note: Note) -> None:
        """A line in brackets read as a remark (``(各一枚ずつ)``): where its words are a card's name
        exactly (``(Pot of Greed)``), the line is ambiguous (FC014), never a card lost as a remark."""
        inner = note.text.strip()[1:-1].strip()
        card = resolve_card(self.catalog, self.game, Entry(inner, 1, note.line))[0] if inner else None
        if card is not None:
            self.add("ambiguous-line", line=note.line, card=card.name,
                     message=f"{note.text!r} reads as a remark in brackets or as 1 {card.name}, and nothing in the list "
                             "tells which; write the card without brackets (e.g. '1 Name') or the remark in a comment")

    def _corrected_header(self, note: Note) -> None:
        """``Spels`` read as the Spells header: said on its line; where its words are a card's
        name (exactly, or by the corrector), the line is ambiguous (FC014), never a card lost."""
        section = next((s for s in self.deck.sections if s.line == note.line and s.title), None)
        title = section.title if section is not None else note.text
        written = note.text.rstrip(":： ")
        card = resolve_card(self.catalog, self.game, Entry(written, 1, note.line))[0]
        if card is None and normalize_name(written):
            found = self.catalog.correct(self.game, written)
            card = found[0] if found is not None else None
        if card is not None:
            self.add("ambiguous-line", line=note.line, card=card.name,
                     message=f"{note.text!r} reads as a misspelt section title or as 1 {card.name}, and nothing in the "
                             "list tells which; write the header plainly (e.g. 'Spells:') or the card with its count")
            return
        self._read_as(ReadingKind.HEADER_CORRECTED, note.line, note.text, f"the {title!r} header")

    def _prose_finding(self) -> None:
        found = sorted(self.text_lines, key=lambda pair: pair[0] or 0)
        lines = [line for line, _text in found if line is not None]
        first_line, first_text = found[0]
        shown_text = first_text if len(first_text) <= 80 else first_text[:77] + "..."
        if len(found) == 1:
            message = (f"{shown_text!r} is read as text of the page, no card (a sentence, or no count and no card name); "
                       "it is not counted")
        else:
            message = (f"{len(found)} lines read as text of the page, no card (sentences, or no count and no card name; "
                       f"lines {line_ranges(lines)}), e.g. {shown_text!r}; they are not counted")
        self.add("prose", line=first_line, lines=tuple(lines) if len(lines) > 1 else None, message=message)

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
            if reading.kind is ReadingKind.ANNOTATIONS_AFTER:
                return self._annotated(entry, reading, part, correct)
            card, note = resolve_card(self.catalog, self.game, part)
            if card is not None and reading.kind is ReadingKind.COST_FIRST and not card.cost:
                return None  # "(3) Name" read as a cost, but the card has none: no such reading
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

    def _annotated(self, entry: Entry, reading: Reading, part: Entry, correct: bool) -> list[_Item] | None:
        """The line without a price, rarity or set code after the name (``Mezuki (Rare) - $1.25
        ea``), read again as a whole line (its faces, codes and corrections as any line's). Every
        card it names must be a card; a set code taken off must be that card's or no card's: a
        code of another card makes the line no such reading (it stays unknown, never judged on
        one of its two names)."""
        if correct:
            return None  # read once, on the first pass: the line read again corrects its own names
        from forcecheck.decklists.lines import parse_entry

        plain = part.name if entry.count_text is None else f"{entry.count_text} {part.name}"
        again = parse_entry(plain, entry.line)
        if again.name == entry.name or (again.count != entry.count and entry.count_text is not None):
            return None  # a count read before the annotation stands; one only the line read again shows (Name (x2) - $1) is its count
        prose = len(self.prose)
        items = self._resolve_entry(again)
        if len(self.prose) != prose:
            del self.prose[prose:]  # read as text: then the line is not a card with annotations either
            return None
        if not items or any(item.card is None for item in items):
            return None
        if part.printing:
            coded = self.catalog.remembered("printing", self.game)[1](part.printing)
            if coded is not None and all(coded is not item.card for item in items):
                return None
        written = entry.name if entry.count_text is None else f"{entry.count_text} {entry.name}"
        read = "; ".join(f"{item.entry.count} {item.card.name}" for item in items)
        self._read_as(reading.kind, entry.line, written, read, reading.why)
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
