"""Finding the list in a page: which blocks of lines are the page's text around the list.

A page pasted whole (a tournament report, a blog post, a forum thread) holds the list and text
around it: info lines above it (``Time: 1:00 PM``, ``Entry fee: $5``), a report under it
(``Round 1 vs. Burn - 2-1``), comments, a blog's archive (``▼ 2008 (34)``), headings of
their own (``NOTES``, ``Round by round:``). Read line by line, each of them is an unknown card,
an unknown section, a count of 38 ``Players``. This step decides per *block* (a run of lines
with no blank line between, a header starting a new one) before any of its lines is bound:

A block is the page's text when **no line of it names a card in any way the resolver reads
names** (as written, by another reading, by the corrector), **no line is a counted card line**
(a count first, ``3 Name``; only a paragraph or a page footer that begins with a number is
exempt, ``42 comments``, and a number before no word at all, ``► 2009 (12)``), **it is not the list's own block** (the block a known section header
heads, or the one right after such a header alone), and **the page says it is text**: the block
holds a sentence or an info line the reader took for text, or it follows a block of text, or an
unknown header that names no section heads it (``Notes:``, ``Thanks to:``, then the header is a
heading too, not an unknown section).

Never falsely legal: a line that names a card keeps its whole block in the list, and so does
a counted line; what is left out binds no card and is said in one finding (FC016) with its lines.
"""

from __future__ import annotations

from forcecheck.decklists.lines import looks_like_prose, looks_like_text
from forcecheck.decklists.model import Entry, Section, header_key
from forcecheck.lazyre import lazy
from forcecheck.resolve.model import resolve_card

_TEXT_NOTES = frozenset({"prose", "metadata", "deck-name"})
"""Notes that are the page's text: a sentence, an info line (``Event: ...``, ``Deck: Tele-DAD``)."""
_NEUTRAL_NOTES = frozenset({"comment", "total", "label", "table-header", "columns", "remark", "header-corrected"})
_REPORT_LINE = lazy(r"\svs?\.?\s|\b[0-9]-[0-9]\b|[0-9０-９]回戦|[○×●◯✕]{2,}\s*$")
"""A match result (``Round 2 vs. Burn - 2-1``, ``予選1回戦　BF　○×○``): a sign of a report, never alone the reason a line is
text (the line must still name no card)."""
_HEADING_ALONE = lazy(r"^[^\W\d_][^\W\d_'’]*(?: [^\W\d_'’]+){0,3}:?$")
"""A line of one to four words alone (``Rounds``, ``Round by round``): above a block of text, its heading."""
_GENERIC_WORDS = frozenset({"deck", "the", "of", "and", "a", "cards", "card", "list", "decklist"})
"""Words of section titles that say nothing of which section (``About the Deck`` names none)."""


def page_text_possible(deck, fmt) -> bool:
    """Whether a list may hold text of a page at all: a line read as text or info, a header the
    format does not know, or a match result. A clean list (a .ydk, a plain list) skips the step."""
    if any(note.kind in _TEXT_NOTES for note in deck.notes):
        return True
    if any(section.title and not section.group and (section.target or fmt.section_id(section.title)) is None
           for section in deck.sections):
        return True
    return any(_REPORT_LINE.search(entry.name) for section in deck.sections for entry in section.entries)


_INFO_KEY = lazy(r"^[^\W\d_][^\W\d_ ]*(?: [^\W\d_]+){0,2}:\s+\S")
"""``Structure: 5 rounds Swiss, best of 3, 50 minutes``: a word or three and a colon before a value."""


def _info_lines(entries: list[Entry]) -> set[int]:
    """Lines of an info line cut into pieces at its commas (``Structure: 5 rounds Swiss, best of 3,
    50 minutes, top 4 cut``): the first piece is the key and its value, no counted card line, so
    a later piece's number (``50 minutes``) is the info's, not a count. The pieces must still name
    no card to be text."""
    first: dict[int, Entry] = {}
    several: set[int] = set()
    for entry in entries:
        if entry.line is None:
            continue
        if entry.line in first:
            several.add(entry.line)
        else:
            first[entry.line] = entry
    return {line for line in several
            if (first[line].count_text is None or first[line].count_last is not None) and _INFO_KEY.match(first[line].name)}


def _numbered(entries: list[Entry]) -> bool:
    """``1. Lumia - WW``, ``2. Sol - WLW``, ...: lines numbered 1, 2, 3 in order are an enumeration
    (the rounds of a report, the comments of a thread, a top 8), their numbers no counts; a
    heading may be its first line (``TOP 8``: its number after its word)."""
    if entries and entries[0].count_last is not None:
        entries = entries[1:]
    return len(entries) >= 3 and all(
        e.count_text is not None and e.count_last is None and e.count == n for n, e in enumerate(entries, start=1))


class _Block:
    __slots__ = ("head", "entries", "text", "neutral", "loose")

    def __init__(self, head: Section | None):
        self.head = head
        self.entries: list[Entry] = []
        self.text = False
        """A line of it is text of the page (a sentence, an info line)."""
        self.neutral = False
        self.loose = True
        """Every line of it is under no header (a loose block's): above the list, the title logic reads it."""


class PageText:
    """The blocks of a page that are its text, not its list (mixed into ``binding._Resolver``)."""

    def _find_page_text(self) -> set[int]:
        """ids of the entries that are the page's text (and of unknown headers that head it)."""
        blocks = self._blocks_of_page()
        if not blocks:
            return set()
        found: set[int] = set()
        previous_text = False
        """The block before is text of the page (notes only, an unknown heading, a block found text)."""
        previous_head_only: Section | None = None
        started = False
        """The list has begun: a known header or a counted line was met (lines above it are its title)."""
        for block in blocks:
            head = block.head
            head_known = head is not None and self._known_header(head)
            heading = head is not None and not head_known and self._names_no_section(head.title)
            if not block.entries:
                if head is not None:  # a header alone: an unknown heading is text, a known one opens the list
                    previous_text, previous_head_only = heading, head
                elif block.text:  # a paragraph, info lines; a comment or a total alone changes nothing
                    previous_text, previous_head_only = True, None
                continue
            anchored = head_known or (head is None and previous_head_only is not None and self._known_header(previous_head_only))
            after_heading = head is None and previous_head_only is not None and not self._known_header(previous_head_only) \
                and self._names_no_section(previous_head_only.title)
            previous_head_only = None
            evidence = block.text or previous_text or heading or after_heading or any(
                _REPORT_LINE.search(e.name) or looks_like_prose(e.name) or looks_like_text(e.name) for e in block.entries)
            numbered = _numbered(block.entries)
            if not started:  # above the list, a line under no header that is no card is its title or a heading (FC010)
                started = anchored or (not numbered and any(e.count_text is not None for e in block.entries))
                if not started and block.loose and not numbered and not (previous_text and block.entries[1:]):
                    # a top 8 above the list (1. Name - Deck, 2. ...) and lines after text are the page's
                    previous_text = False
                    continue
            info = _info_lines(block.entries)
            if anchored or not evidence or not all(self._no_card_here(e, numbered or e.line in info) for e in block.entries):
                previous_text = False
                continue
            found.update(id(e) for e in block.entries)
            if heading:
                found.add(id(head))
            previous_text = True
        for block, following in zip(blocks, blocks[1:], strict=False):  # "Rounds" alone above a report: its heading
            if (block.head is None and len(block.entries) == 1 and id(block.entries[0]) not in found
                    and following.entries and all(id(e) in found for e in following.entries)
                    and _HEADING_ALONE.match(block.entries[0].name) and block.entries[0].count_text is None
                    and self._no_card_here(block.entries[0])):
                found.add(id(block.entries[0]))
        if found:
            for section in self.deck.sections:  # "Thanks to:" whose every line is text: a heading of the page
                if (section.title and section.entries and not self._known_header(section) and self._names_no_section(section.title)
                        and all(id(e) in found for e in section.entries)):
                    found.add(id(section))
        return found

    def _blocks_of_page(self) -> list[_Block]:
        """The page's lines in blocks: a blank line (a line number no part of the reading holds)
        or a header starts a new block."""
        records: list[tuple[int, int, object]] = []  # (line, order, what)
        order = 0
        named = {note.line for note in self.deck.notes if note.kind == "deck-name"}
        for section in self.deck.sections:
            if section.title and section.line is not None and section.line not in named:  # "Deck: Tele-DAD" named the deck
                records.append((section.line, order, section))
                order += 1
            for entry in section.entries:
                if entry.line is not None:
                    records.append((entry.line, order, (entry, bool(section.title))))
                    order += 1
        for note in self.deck.notes:
            if note.line is not None and (note.kind in _TEXT_NOTES or note.kind in _NEUTRAL_NOTES):
                records.append((note.line, order, note))
                order += 1
        if not records:
            return []
        records.sort(key=lambda r: (r[0], r[1]))
        blocks: list[_Block] = []
        block: _Block | None = None
        last_line = None
        for line, _order, what in records:
            if isinstance(what, Section):
                if block is not None and block.head is what:
                    continue
                block = _Block(what)
                blocks.append(block)
            elif block is None or last_line is None or line > last_line + 1:
                block = _Block(None)
                blocks.append(block)
            if isinstance(what, tuple):
                block.entries.append(what[0])
                block.loose = block.loose and not what[1]
            elif not isinstance(what, Section):
                if what.kind in _TEXT_NOTES:
                    block.text = True
                else:
                    block.neutral = True
            last_line = line
        return blocks

    def _known_header(self, section: Section) -> bool:
        return section.group or (section.target or self.fmt.section_id(section.title)) is not None

    def _names_no_section(self, title: str) -> bool:
        """An unknown header that has no word of a section's title (``Notes``, ``Thanks to``,
        ``About the Deck``): a heading of the page, where ``Side Deck 2`` or ``Extra Sideboard``
        may be a section written wrong (FC004 stays)."""
        words = self._section_words
        if words is None:
            words = set()
            for spec in self.fmt.spec.sections:
                for name in (spec.title, spec.id, *(spec.aliases or ())):
                    words.update(header_key(str(name)).replace("-", " ").replace("_", " ").split())
            words -= _GENERIC_WORDS
            self._section_words = words
        return not (set(header_key(title).replace("-", " ").split()) & words)

    def _no_card_here(self, entry: Entry, numbered: bool = False) -> bool:
        """A line of a text block: no counted card line, and no card by any reading of it."""
        if entry.count_text is not None and entry.count_last is None and not numbered and any(ch.isalpha() for ch in entry.name):
            whole = f"{entry.count_text} {entry.name}"
            if not (looks_like_text(whole) or looks_like_prose(whole)):
                return False  # "3 Name": a card line, whatever it names
        if entry.printing:
            return False
        if resolve_card(self.catalog, self.game, entry)[0] is not None:
            return False
        return self._no_card_meant(entry)
