"""Placing the cards a list wrote under no header, the way a judge would.

A list with no headers, cards before the first header, a block after a header that cannot be
that section's, a table flattened by a web page: each card goes where the format says it can
only go (``placement`` selectors in the format's sections: a ruler to the ruler area, magic
stones to the magic stone deck, Fusion and Synchro monsters to the extra deck, ...), every
other card to the section marked ``placement: rest`` (the main deck). Cards that come after a
section the sideboard follows (``sideboard.follows``: the magic stone deck, the extra deck)
and that cannot belong to it are the sideboard. Explicit headers always win; every
assumption becomes a finding on its lines (``card-placed``), once per section per deck.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from forcecheck.cards.model import Card


@dataclass
class PlacedRun:
    """Cards placed in one section, for the one finding that says so."""

    section: str
    why: str
    lines: list[int] = field(default_factory=list)
    copies: int = 0


class Placer:
    """Walks the list in file order, placing loose cards and noting the explicit sections seen."""

    def __init__(self, fmt):
        self.fmt = fmt
        self.placements = fmt.placements
        self.claimed = dict(fmt.placements)
        self.rest = fmt.rest
        sideboard = fmt.spec.sideboard
        self.side = sideboard.section if sideboard else None
        self.follows = set(getattr(sideboard, "follows", ()) or ()) if sideboard else set()
        self.ruler_section = fmt.spec.ruler.section if fmt.spec.ruler else None
        self.seen_rest = False
        self.side_mode = False
        self.after: str | None = None
        """The section the sideboard now follows (for the finding's words)."""
        self.filled: set[str] = set()
        self.runs: dict[str, PlacedRun] = {}
        self.column = 0
        """The column a table flattened column by column has reached."""

    @property
    def can_place(self) -> bool:
        return self.rest is not None or bool(self.placements)

    def saw(self, section_id: str | None, copies: int) -> None:
        """An explicit section (or a placed card) with ``copies`` cards went by."""
        if section_id is None or not copies:
            return
        self.filled.add(section_id)
        if section_id == self.rest:
            self.seen_rest = True
        elif section_id in self.follows and self.seen_rest and self.side is not None:
            self.side_mode = True
            self.after = section_id

    def claim(self, card: Card) -> str | None:
        """The section whose placement claims ``card`` (None: no selector does)."""
        for section_id, claims in self.placements:
            if claims(card):
                return section_id
        return None

    def place(self, card: Card | None, line: int | None, copies: int) -> str | None:
        """The section for a loose card (None only when the format places nothing)."""
        section_id, why = self._choose(card)
        if section_id is not None:
            self._note(section_id, why, line, copies)
            self.saw(section_id, copies)
        return section_id

    def _choose(self, card: Card | None) -> tuple[str | None, str]:
        claimed = self.claim(card) if card is not None else None
        if claimed is not None:
            if claimed == self.ruler_section and self.side_mode and claimed in self.filled:
                return self.side, f"they follow the {self.fmt.titles[self.after]} and cannot be in it"
            title = self.fmt.titles[claimed]
            return claimed, f"cards that can only be in the {title}"
        if self.side_mode:
            return self.side, f"they follow the {self.fmt.titles[self.after]} and cannot be in it"
        if self.rest is None:
            return None, ""
        return self.rest, "cards under no section header"

    def place_row(self, cards: list[Card | None], columns: tuple[str, ...], line: int | None, copies: list[int],
                  down: bool = False) -> list[str | None]:
        """A row of a flattened table: each card to the next column (left to right) that can
        hold it. ``down``: the table was flattened column by column (a card a line), so the
        column reached stays for the next lines, until a card it cannot hold."""
        out: list[str | None] = []
        at = self.column if down else 0
        sections = [column.split("/", 1)[0] for column in columns]
        words = ", ".join(dict.fromkeys(self.fmt.titles.get(s, s) for s in sections))
        for card, count in zip(cards, copies):
            chosen = None
            claimed = self.claim(card) if card is not None else None
            if claimed in sections[at:]:  # a card that can only be in one of the columns goes there
                at = sections.index(claimed, at)
                chosen = claimed
            else:
                for index in range(at, len(columns)):
                    if self._holds(columns[index], card):
                        chosen, at = sections[index], index
                        break
            if chosen is None:
                out.append(self.place(card, line, count))
                continue
            if not down:
                at += 1
            self._note(chosen, f"a table whose columns are {words}", line, count)
            self.saw(chosen, count)
            out.append(chosen)
        if down:
            self.column = at
        return out

    def _holds(self, column: str, card: Card | None) -> bool:
        section_id, _, group = column.partition("/")
        group_holds = self.fmt.group_claim(group) if group else None
        if group_holds is not None and (card is None or not group_holds(card)):
            return False
        claims = self.claimed.get(section_id)
        if claims is not None:
            return card is not None and claims(card)
        if section_id == self.rest:
            return card is None or self.claim(card) is None
        return section_id in self.fmt.titles

    def _note(self, section_id: str, why: str, line: int | None, copies: int) -> None:
        run = self.runs.get(section_id)
        if run is None:
            run = self.runs[section_id] = PlacedRun(section_id, why)
        if line is not None:
            run.lines.append(line)
        run.copies += copies

    def detached(self, section_id: str, cards: list[Card | None]) -> bool:
        """Whether a block under an explicit header cannot be that section's at all: the
        section claims cards (``placement``) and no known card of the block is one of them."""
        claims = self.claimed.get(section_id)
        if claims is None:
            return False
        known = [card for card in cards if card is not None]
        return bool(known) and not any(claims(card) for card in known)
