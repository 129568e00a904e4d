"""The plain text decklists players publish, read the way a judge at the registration desk reads them.

    Player: Jane D.            metadata lines (also Event:, Date:, # Player: comments)
    Faria Knights              a title line above the cards (resolve decides it is no card)
    Ruler: Faria // J-ruler    a header may carry a card inline
    Main Deck (40):            a section header, optionally with the count it announces
    Monsters: 19               a group inside the main deck (the format says which headers are groups)
    4 Name                     4x Name, 3 x Name, x4 – Name, Name x4, Name ×4, Name 2枚, Name (x3), 3《Name》
    2 Name (CMF-001)           a printing code, anywhere on the line
    Total: 41                  not a card: checked against the cards read
    # comment, // comment

A header is a known section or group title (any decoration, count or colon), or any short
line ending in a colon (a section the format does not know, reported). Cards under no header
stay in *loose* blocks, and a row of section titles (``Main Deck Stone Deck Side Board``, a
table flattened by a web page) starts a *table* block: resolve places both by what their
cards are. Blank lines matter only where they are wider than the list's usual spacing.
"""

from __future__ import annotations

import re

from forcecheck.decklists.classify import LineKind, classify, comment_metadata
from forcecheck.decklists.lines import (
    MAX_COUNT,
    MAX_LINE_CHARS,
    cell_texts,
    known_header_lines,
    list_on_one_line,
    looks_like_text,
    parse_entry,
    split_at_headers,
    strip_markup,
    with_title_in_name,
    without_paired_tags,
)
from forcecheck.decklists.model import (
    Decklist,
    Entry,
    HeaderTable,
    Note,
    ReadProblem,
    Section,
    header_key,
)
from forcecheck.lazyre import lazy
from forcecheck.memo import BoundedMemo

__all__ = ["MAX_COUNT", "MAX_LINE_CHARS", "comment_metadata", "parse_entry", "read_text_decklist"]

_CONTINUED = lazy(r"\S\s*//$")
"""A line that ends in ``//``: the card's other face is on the next line."""
_AFTER_INLINE = 1_000
"""The gap recorded after a header that carried a card inline: always a block boundary."""

_LINE = lazy(
    r"^[ \t\f\v]*(?:(\d{1,4})[ \t]*[xX\u00d7]?[ \t]+(?![Cc]ards?\b)(?![xX\u00d7][ \t])([^\s()\[\]#/:\d《【{|•][^\n()\[\]#/0-9{|]*(?:\([^\d()\[\]\n#/]*\))?)|[^\n]*)$",
    re.MULTILINE,
)
"""One match per line. Groups 1-2 catch the common ``4 Name`` / ``4x Name`` card line (no
printing code, digit, comment or colon in the name); every other line goes the general way.
The name's body excludes the ASCII digits only (a plain character set, much faster to match
than one with the digit category); a name that is not ASCII is then searched for other
digits (``_DIGIT``), which send the line the general way as well."""
_DIGIT = lazy(r"\d")


def read_text_decklist(text: str, path: str, known_headers: HeaderTable | object = ()) -> Decklist:
    """Parse text into a Decklist; ``known_headers`` is the format's HeaderTable (or a plain
    collection of section header keys)."""
    reader = _Reader(Decklist(path=path), HeaderTable.of(known_headers))
    if "[/" in text:
        text = without_paired_tags(text, reader.headers)
    for number, match in enumerate(_LINE.finditer(text), start=1):
        count_text = match.group(1)
        current = reader.current
        if count_text is not None and current is not None and match.end() - match.start() <= MAX_LINE_CHARS:
            name = match.group(2).rstrip()  # greedy (a lazy pattern is 5x slower): trim here
            if not name.endswith((":", ")")) and (name.isascii() or _DIGIT.search(name) is None):
                count = int(count_text)
                count_ok = 0 < count <= MAX_COUNT
                if reader.blank:
                    reader.gap(current)
                current.entries.append(Entry(name, count, number, None, count_ok, count_text))
                if not count_ok:
                    current.uniform = None
                continue
        raw = match.group(0)
        if len(raw) > MAX_LINE_CHARS and not raw.lstrip().startswith(("#", "//")):  # a long comment is still a comment
            if looks_like_text(raw):  # a paragraph of the page: text, whatever its length (the file's size is bounded)
                reader.read(raw.strip(), number)
                continue
            pieces = _pieces(raw.strip(), reader.headers) if len(raw) <= MAX_COLLAPSED_CHARS else None
            if pieces is None:
                reader.deck.problems.append(ReadProblem(
                    "line-too-long", f"line is {len(raw):,} characters (limit {MAX_LINE_CHARS}); not read", number))
                continue
            for piece in pieces:  # a whole list collapsed onto one line: read piece by piece
                reader.read(piece, number)
            continue
        line = raw.strip()
        if not line:
            reader.blank += 1
            continue
        if reader.pending is not None:  # "Astema (TST-067) //" then "Astema [J-Ruler] (TST-067J)": one line
            line, number = f"{reader.pending[0]} {line}", reader.pending[1]
            reader.pending = None
        elif _CONTINUED.search(line) and not line.startswith(("#", "//")):
            reader.pending = (line, number)
            continue
        reader.read(line, number)
    if reader.pending is not None:
        reader.read(*reader.pending)
    return reader.finish()


_CARD_LINES: BoundedMemo[str, Entry] = BoundedMemo(50_000)
"""Card lines that begin with a count but are no plain line (``1 Alchemics 102``, ``4 Name (x)``)
-> the entry read from the first of them: a batch writes the same lines in deck after deck,
and reading one the general way costs ten times a plain line. The entry's other readings
do not depend on its line number, so every copy shares the first one's."""


MAX_COLLAPSED_CHARS = 20_000
"""A line over MAX_LINE_CHARS is read only as a list collapsed onto one line (cut at its
section titles and counts into pieces of at most MAX_LINE_CHARS each), up to this length."""


def _pieces(line: str, headers: HeaderTable) -> list[str] | None:
    """A collapsed list cut into pieces no longer than a line may be, or None."""
    out: list[str] = []
    for part in split_at_headers(line, headers) or [line]:
        if len(part) <= MAX_LINE_CHARS:
            out.append(part)
            continue
        cells = list_on_one_line(strip_markup(part)) or cell_texts(part)
        if not cells or any(len(cell) > MAX_LINE_CHARS for cell in cells):
            return None
        out.extend(cells)
    return out if len(out) > 1 else None


class _Reader:
    """The state of reading one list: where cards go now, and the blank gaps seen."""

    def __init__(self, deck: Decklist, headers: HeaderTable):
        self.deck = deck
        self.headers = headers
        self.current: Section | None = None
        """Where card lines go: a section, a group, a table block; None before the first header
        (cards then start a loose block)."""
        self.written: Section | None = None
        """The last section header written (not a group): groups under it may belong to it."""
        self.blank = 0
        self.gaps: list[tuple[Section, int, int]] = []
        self.header_lines = known_header_lines(headers)
        self.pending: tuple[str, int] | None = None
        """A line ending in ``//``, waiting for the next line (the card's other face)."""
        self.named_deck: tuple[Section, Entry, str] | None = None
        """``Deck: Dark Armed Dragon`` (the bare word Deck, one card named after it, no count): the
        deck's name if a header of the same section follows (``Main Deck: 40``), else its card."""

    def gap(self, section: Section) -> None:
        """Remember the blank lines before the next entry of ``section``."""
        self.gaps.append((section, len(section.entries), self.blank))
        self.blank = 0

    def read(self, line: str, number: int) -> None:
        """Any line but the plain card line under a header: classified (``decklists.classify``),
        then applied to the reader's state."""
        known = self.header_lines.get(line)
        if known is not None:  # "Main Deck:" again: read as it was the last time (never changed after)
            self._header(known, number)
            return
        template = _CARD_LINES.get(line)
        if template is not None:  # a card line read before (in this list or another of the batch)
            self._entry(Entry(template.name, template.count, number, template.printing, template.count_ok,
                              template.count_text, template._readings, template.count_last, template.bracketed))
            return
        token = classify(line, self.headers)
        kind = token.kind
        deck = self.deck
        if token.trailing is not None:
            deck.notes.append(Note("trailing-comment", token.trailing, number))
        if kind is LineKind.CARD:
            entry = parse_entry(token.text, number)
            if token.text[0].isdigit() and token.trailing is None and token.text == line:
                # how such a line reads depends on its text alone, not on the format or the list
                _CARD_LINES.remember(line, entry)
            self._entry(entry)
        elif kind is LineKind.HEADER:
            header = token.header
            if header.known and not header.inline and token.trailing is None:
                self.header_lines.remember(line, header)
            self._header(header, number)
        elif kind is LineKind.BLANK:
            self.blank += 1
        elif kind is LineKind.COMMENT:
            if token.text:
                deck.notes.append(Note("comment", token.text, number))  # fmt keeps it
        elif kind is LineKind.COMMENT_METADATA:
            self._metadata(*token.value)
        elif kind is LineKind.MISSPELT_HEADER:
            deck.notes.append(Note("header-corrected", token.text, number))
            self._header(token.header, number)
        elif kind is LineKind.TEXT:
            deck.notes.append(Note("prose", token.text, number))  # the resolver looks it up whole, then reports it
        elif kind is LineKind.REMARK:
            deck.notes.append(Note("remark", token.text, number))
        elif kind is LineKind.TOTAL:
            deck.notes.append(Note("total", token.text, number, *token.value))
            self.blank = 0
        elif kind is LineKind.TOTALS:
            for count, title in token.value:
                deck.notes.append(Note("total", token.text, number, count, title))
            self.blank = 0
        elif kind is LineKind.METADATA:
            self._metadata(*token.value)
            deck.notes.append(Note("metadata", token.text, number))
            self.blank = 0
        elif kind is LineKind.TABLE_HEADER:
            deck.notes.append(Note("table-header", token.text, number))
            self.blank = 0
        elif kind is LineKind.LABEL:
            deck.notes.append(Note("label", token.text, number))
            self.current = self.written = None
            self.blank = 0
        elif kind is LineKind.COLUMNS:
            self._table(token.header, token.text, number)
        elif kind is LineKind.COLLAPSED:  # a whole list collapsed onto one line: read it piece by piece
            for piece in token.pieces:
                self.read(piece, number)
        elif kind is LineKind.LIST:  # "2:Name, 3:Name, 1:Name", "2 A | 3 B | 1 C": a list written on one line
            for piece in token.pieces:
                self._entry(parse_entry(piece, number))

    def _metadata(self, key: str, value: str) -> None:
        if key in ("name", "deck"):
            self.deck.name = self.deck.name or value
        else:
            self.deck.metadata.setdefault(key, value)

    def _header(self, header, number: int) -> None:
        self.blank = 0
        if self.named_deck is not None and header.group is None:
            self._deck_named_after(header)
        if header.group is not None:
            parent = self.written
            parent_id = self.headers.sections.get(header_key(parent.title)) if parent is not None else None
            kinds = self.headers.kinds
            if parent is None or parent_id is None or (
                    parent_id not in (header.group, self.headers.sideboard)
                    and not (kinds is not None and kinds.belongs_under(header.title, parent_id))):
                parent = None
            section = Section(
                title=header.title, line=number, declared=header.declared, uniform="name", group=True,
                parent=parent, target=parent_id if parent is not None else header.group,
                declared_section=header.declared_section,
            )
        else:
            named = header.section is not None and header_key(header.title) not in self.headers.sections
            section = Section(title=header.title, line=number, declared=header.declared, uniform="name",
                              declared_section=header.declared_section,
                              target=header.section if named else None)  # "Here's my sideboard:" names the Side Deck
            self.written = section
        self.deck.sections.append(section)
        self.current = section
        if header.inline:
            pieces = split_at_headers(header.inline, self.headers)
            if pieces is not None and len(pieces) > 1:  # "Ruler: A Main Deck: 40 4 B ...": one line, many parts
                self._entry_or_line(pieces[0], number)
                for piece in pieces[1:]:
                    self.read(piece, number)
                return
            pieces = list_on_one_line(header.inline)
            if pieces is not None:  # "Main Deck: 2 A, 3 B, 1 C"
                for piece in pieces:
                    self._entry(parse_entry(piece, number))
            else:  # "Ruler: Faria", or "Arcana: Leader of the Kabuki x1": a card whose name begins with a section's title
                entry = with_title_in_name(parse_entry(header.inline, number), header.title)
                self._entry(entry)
                if header_key(header.title) == "deck" and entry.count_text is None and header.group is None:
                    self.named_deck = (section, entry, f"{header.title.rstrip(': ')}: {header.inline}")
            self.blank = _AFTER_INLINE  # "Ruler: Faria" is complete: the next line starts a new block

    def _deck_named_after(self, header) -> None:
        """A header of the section that ``Deck: X`` opened follows it (``Main Deck: 40``): ``X``
        was the deck's name, as a judge reads a deck profile, and no card of it (said on its line,
        FC010). Counted, it made a 39-card main deck of a profile 40."""
        section, entry, text = self.named_deck
        self.named_deck = None
        ids = self.headers.sections
        if ids.get(header_key(header.title)) != ids.get(header_key(section.title)) or entry not in section.entries:
            return
        section.entries.remove(entry)
        self.deck.name = self.deck.name or entry.name
        self.deck.notes.append(Note("deck-name", text, entry.line))

    def _entry_or_line(self, text: str, number: int) -> None:
        """The inline part of a header before the next section's title: one card, or a list on one line."""
        pieces = list_on_one_line(text)
        for piece in pieces or (text,):
            self._entry(parse_entry(piece, number))

    def _table(self, columns, line: str, number: int) -> None:
        ids = []
        for header in columns:
            ids.append(header.section or f"{header.group}/{header.title}")
        if len({h.group for h in columns}) == 1 and all(h.group for h in columns):  # "Monsters Spells Traps": groups of one section
            header = columns[0]
            header.title = line.strip()
            self._header(header, number)
            return
        section = Section(title="", line=number, columns=tuple(ids))
        self.deck.notes.append(Note("columns", line, number))
        self.deck.sections.append(section)
        self.current = section
        self.blank = 0

    def _entry(self, entry: Entry) -> None:
        if self.current is None:
            self.current = self.deck.add_loose(entry)
            self.blank = 0
            return
        if self.blank:
            self.gap(self.current)
        self.current.add(entry)

    def finish(self) -> Decklist:
        """Blank gaps wider than the list's usual spacing become block boundaries."""
        deck = self.deck
        if self.gaps:
            entries = sum(len(s.entries) for s in deck.sections)
            counts: dict[int, int] = {0: entries - len(self.gaps)}
            for _section, _index, run in self.gaps:
                if run < _AFTER_INLINE:
                    counts[run] = counts.get(run, 0) + 1
            usual = max(counts, key=lambda run: (counts[run], -run))
            for section, index, run in self.gaps:
                if run > usual and index > 0:
                    section.breaks.append(index)
        return deck
