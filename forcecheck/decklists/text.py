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

from forcecheck.decklists.lines import (
    MAX_COUNT,
    MAX_LINE_CHARS,
    cell_texts,
    column_titles,
    is_list_label,
    is_table_header_row,
    known_header_lines,
    list_on_one_line,
    looks_like_prose,
    metadata_of,
    parse_entry,
    read_header,
    split_at_headers,
    strip_markup,
    total_of,
    with_title_in_name,
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

__all__ = ["MAX_COUNT", "MAX_LINE_CHARS", "parse_entry", "read_text_decklist"]

_COMMENT_METADATA = lazy(
    r"^\s*(?:#|//)\s*(player|name|deck|event|date|author|place|format)\s*:\s*(\S.*?)\s*$", re.IGNORECASE
)


def comment_metadata(line: str) -> tuple[str, str] | None:
    """``# Player: Jane Doe`` -> ("player", "Jane Doe"): the comments that carry metadata."""
    match = _COMMENT_METADATA.match(line)
    return (match.group(1).lower(), match.group(2)) if match else None
_TRAILING_COMMENT = lazy(r"\s+#\s.*$|\s{2,}//(?:\s.*)?$")
"""``4 Name # my note``, ``4 Name   // my note``. A `` // `` with single spaces is no comment but
the mark between a card's faces (``Ruler // J-ruler``)."""
_MARKDOWN_HEADING = lazy(r"^(?:#+|//)\s*")
_BULLET = lazy(r"^(?:[-*]\s+|[•·●▪►>|]\s*)+(?=\S)")
"""``- 4x Name``, ``* Name``, ``• Name``: list items (``-1 Name`` is a negative count, no bullet)."""
_RULE_LINE = lazy(r"^[\s|+=_~*・･·•\-–—:]*$")
_EDITORS_NOTE = lazy(r"^[\[［].*(?:\.\.\.|…).*[\]］]$")
"""A whole line in square brackets with an ellipsis: an editor's mark (``[... the page ends here ...]``)."""
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
    for number, match in enumerate(_LINE.finditer(text), start=1):
        count_text = match.group(1)
        current = reader.current
        if count_text is not None and current is not None and match.end() - match.start() <= MAX_LINE_CHARS:
            name = match.group(2).rstrip()  # greedy (a lazy pattern is 5x slower): trim here
            if not name.endswith(":") and (name.isascii() or _DIGIT.search(name) is None):
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


_CARD_LINES: dict[str, Entry] = {}
"""Card lines that begin with a count but are no plain line (``1 Alchemics 102``, ``4 Name (x)``)
-> the entry read from the first of them: a batch writes the same lines in deck after deck,
and reading one the general way costs ten times a plain line. The entry's other readings
do not depend on its line number, so every copy shares the first one's."""
_CARD_LINES_KEPT = 50_000


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

    def gap(self, section: Section) -> None:
        """Remember the blank lines before the next entry of ``section``."""
        self.gaps.append((section, len(section.entries), self.blank))
        self.blank = 0

    def read(self, line: str, number: int) -> None:
        """Any line but the plain card line under a header."""
        deck = self.deck
        known = self.header_lines.get(line)
        if known is not None:  # "Main Deck:" again: read as it was the last time (never changed after)
            self._header(known, number)
            return
        template = _CARD_LINES.get(line)
        if template is not None:  # a card line read before (in this list or another of the batch)
            self._entry(Entry(template.name, template.count, number, template.printing, template.count_ok,
                              template.count_text, template._readings, template.count_last, template.bracketed))
            return
        original = line
        if "[" in line:
            line = strip_markup(line)  # "[deck]...[/deck]", "[b]Main Deck[/b]": forum markup, never a card
            if not line:
                self.blank += 1
                return
        if line.startswith(("#", "//")):
            meta = comment_metadata(line)
            if meta:  # "# Player: Jane Doe" comments carry registration metadata
                self._metadata(*meta)
                return
            heading = _MARKDOWN_HEADING.sub("", line)
            header = read_header(heading, self.headers) if heading and not looks_like_prose(heading) else None
            if header is None or not header.known:
                deck.notes.append(Note("comment", line, number))  # fmt keeps it
                return
            self._header(header, number)
            return
        if _BULLET.match(line):
            line = _BULLET.sub("", line)  # "- 4x Name", "• Name x2": a list item
        if _RULE_LINE.match(line):
            self.blank += 1  # "|", "---", "===": a table border or a rule, as good as a blank line
            return
        if _EDITORS_NOTE.match(line):  # "[... TRUNCATED ...]", "[…]": an editor's mark in a copied page, no card
            deck.notes.append(Note("remark", line, number))
            return
        commented = False
        if "#" in line or "  //" in line:
            uncommented = _TRAILING_COMMENT.sub("", line).strip()
            if uncommented != line:
                commented = True
                deck.notes.append(Note("trailing-comment", line[len(uncommented):].strip(), number))
            line = uncommented
            if not line:
                return
        total = total_of(line)
        if total is not None:
            deck.notes.append(Note("total", line, number, total[0], total[1]))
            self.blank = 0
            return
        meta = metadata_of(line)
        if meta is not None and header_key(meta[0]) not in self.headers.sections:
            self._metadata(*meta)
            deck.notes.append(Note("metadata", line, number))
            self.blank = 0
            return
        if is_table_header_row(line):  # "| Qty | Name | Type |": a table's header row
            deck.notes.append(Note("table-header", line, number))
            self.blank = 0
            return
        if not line[0].isdigit():
            if is_list_label(line) and header_key(line.rstrip(":： ")) not in self.headers.sections:
                # "Decklist:", "デッキレシピ": announces the list, names no section
                deck.notes.append(Note("label", line, number))
                self.current = self.written = None
                self.blank = 0
                return
            header = read_header(line, self.headers)
            if header is not None:
                if header.known and not header.inline:
                    self.header_lines[line] = header
                self._header(header, number)
                return
            columns = column_titles(line, self.headers)
            if columns is not None:
                self._table(columns, line, number)
                return
            pieces = split_at_headers(line, self.headers)
            if pieces is not None:  # a whole list collapsed onto one line: read it piece by piece
                for piece in pieces:
                    self.read(piece, number)
                return
        pieces = list_on_one_line(line)
        if pieces is not None:  # "2:Name, 3:Name, 1:Name", "2 A | 3 B | 1 C": a list written on one line
            for piece in pieces:
                self._entry(parse_entry(piece, number))
            return
        entry = parse_entry(line, number)
        if line[0].isdigit() and not commented:  # how such a line reads depends on its text alone, not on the format or the list
            if len(_CARD_LINES) >= _CARD_LINES_KEPT:
                _CARD_LINES.clear()
            _CARD_LINES[original] = entry
        self._entry(entry)

    def _metadata(self, key: str, value: str) -> None:
        if key in ("name", "deck"):
            self.deck.name = self.deck.name or value
        else:
            self.deck.metadata.setdefault(key, value)

    def _header(self, header, number: int) -> None:
        self.blank = 0
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
                self._entry(with_title_in_name(parse_entry(header.inline, number), header.title))
            self.blank = _AFTER_INLINE  # "Ruler: Faria" is complete: the next line starts a new block

    def _entry_or_line(self, text: str, number: int) -> None:
        self._entry(parse_entry(text, number))

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
