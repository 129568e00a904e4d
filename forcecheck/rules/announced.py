"""FC006: what a list announces about itself (``Main Deck (40):``, ``Monsters: 19``, ``(26 of 40)``,
``Total: 41``) against the cards read from it.

An input check, run by the engine (and by ``fmt``, which refuses to drop an announced count the
cards do not match) on the resolution of a list: binding a list to sections and cards is the
resolver's job, comparing what it says with what it holds is this rule's.
"""

from __future__ import annotations

from collections.abc import Iterator

from forcecheck.rules.base import Finding

SLUG = "declared-count-mismatch"

_COMMENTS = ("comment", "trailing-comment", "remark")
"""Notes of lines that only comment; they announce no count."""


AMBIGUOUS = "ambiguous-line"

SMALL_COUNT = 4
"""A group header announcing at most this many cards (``Magic 1枚``, ``Traps (2)``) reads as a card
line too (a card named as the group, with its copies): where the cards under it disagree, the
line is ambiguous, never a header taken on trust."""


def announced_count_findings(deck, fmt, resolution) -> Iterator[tuple[str, Finding]]:
    """Every announced count of ``deck`` that the cards read (``resolution``) do not match, as
    ``(rule slug, finding)``: FC006, or FC014 for a group header that may be a card line."""
    announced = [s for s in deck.sections if s.declared is not None or s.declared_section is not None]
    if not announced and all(note.kind in _COMMENTS for note in deck.notes):
        return  # most lists announce no counts and have no total lines
    listed = dict(resolution.listed)
    for section in deck.sections:
        if section.group and section.parent is not None:
            listed[id(section.parent)] = listed.get(id(section.parent), 0) + listed.get(id(section), 0)
    totals = _totals(resolution.deck)
    checked: set[tuple[str, int]] = set()
    for section in announced:
        label = section.target or fmt.section_id(section.title) or section.title or None
        if section.declared is not None:
            found = listed.get(id(section), 0)
            if found != section.declared and section.group and section.declared <= SMALL_COUNT:
                yield AMBIGUOUS, Finding(
                    f"{section.title!r} with {section.declared} reads as a group header announcing {section.declared} card(s), "
                    f"but {found} are listed under it, or as {section.declared} copies of a card named {section.title!r}, which "
                    "the catalog does not know; write a group's count in brackets and a card's count before its name",
                    section=label, line=section.line, found=found, limit=str(section.declared))
            elif found != section.declared:
                what = "group" if section.group else "header"
                yield SLUG, Finding(f"the {section.title} {what} says {section.declared} but {found} cards are listed",
                                    section=label, line=section.line, found=found, limit=str(section.declared))
        if section.declared_section is not None and section.target and (section.target, section.declared_section) not in checked:
            checked.add((section.target, section.declared_section))
            found = totals.get(section.target, 0)
            if found != section.declared_section:
                yield SLUG, Finding(f"the {section.title} header says the {fmt.titles[section.target]} has {section.declared_section} "
                              f"cards but {found} are listed",
                              section=section.target, line=section.line, found=found, limit=str(section.declared_section))
    yield from _total_lines(deck, fmt, resolution, totals)


def _totals(resolved) -> dict[str, int]:
    """Section id -> copies read in it, known cards and unknown ones with a good count."""
    totals = {section_id: sum(tally.values()) for section_id, tally in resolved.tallies.items()}
    for section_id, copies in resolved.unknown.items():
        totals[section_id] = totals.get(section_id, 0) + copies
    return totals


def _total_lines(deck, fmt, resolution, totals: dict[str, int]) -> Iterator[tuple[str, Finding]]:
    """A ``Total`` line is no card; it should agree with what it sums: the cards above it,
    since the last total, in one section, or in the whole deck."""
    notes = [n for n in deck.notes if n.kind == "total"]
    if not notes:
        return
    headings = {note.line for note in resolution.headings} | resolution.title_lines
    lines = sorted((entry.line or 0, entry.count) for section in deck.sections for entry in section.entries
                   if entry.count_ok and entry.line not in headings)
    grand = sum(totals.values())
    previous = 0
    for note in notes:
        if note.section:
            section_id = fmt.section_id(note.section)
            sums = {totals.get(section_id, 0)} if section_id else {grand}
        else:
            above = sum(count for line, count in lines if line < (note.line or 0))
            since = sum(count for line, count in lines if previous < line < (note.line or 0))
            sums = {above, since, grand, *totals.values()}
        if note.count not in sums:
            shown = max(sums) if note.section else sum(count for line, count in lines if line < (note.line or 0))
            yield SLUG, Finding(f"the line {note.text!r} says {note.count} but {shown} cards are listed" + ("" if note.section else " above it"),
                                line=note.line, found=shown, limit=str(note.count))
        previous = note.line or 0
