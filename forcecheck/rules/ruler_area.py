"""The ruler area: one starting ruler, and only the partners its text allows.

CR 402.2: a player prepares one ruler, the starting ruler; with [Tag] or [Partner] up to three
ruler cards, both abilities may apply together (402.2a), only one [Tag] (402.2b).
[Partner] N (Race): up to N Race rulers with «Bond» that don't share a name (1155.2).
[Tag] (Race): another ruler with [Tag] (Race) that doesn't share a name (1145.4); [Tag] "Name":
the ruler named Name (1145.2). [Aid] "Name": this sub-ruler with a starting ruler named Name,
one [Aid] per game (1164.2).

A decklist does not say which ruler starts: the ruler area is legal when some ruler in it, as
the starting ruler, accounts for every other card (402.2: the player names it). A [Tag] ruler
alone is legal ("if possible": whether a second one could be had is not the deck's to show).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forcecheck.cards.conditions import label, race_label
from forcecheck.cards.model import Card
from forcecheck.cards.names import normalize_name
from forcecheck.records import Record
from forcecheck.rules.base import Check, Finding, ResolvedDeck, silent_when_empty
from forcecheck.rules.conditions import names_of
from forcecheck.rules.selectors import compile_selector

if TYPE_CHECKING:  # the models are only types here: checking with a cached spec never loads them
    from forcecheck.format_spec.model import RulerAreaRule

SEARCH_LIMIT = 8
"""Cards beyond the starting ruler that are matched to its slots by trying every way; a ruler
area with more has far more than any text allows, and is matched greedily."""


def _of_kind(card: Card, kind: str) -> list[dict]:
    return [c for c in card.conditions if isinstance(c, dict) and c.get("kind") == kind]


def _is_ruler(card: Card) -> bool:
    return "ruler" in card.types


class Slot(Record, frozen=True):
    """One way the starting ruler lets another card into the ruler area."""

    kind: str  # partner | tag | aid
    capacity: int
    condition: dict | None

    def __init__(self, kind: str, capacity: int, condition: dict | None = None) -> None:
        _set = object.__setattr__
        _set(self, "kind", kind)
        _set(self, "capacity", capacity)
        _set(self, "condition", condition)


def slots_of(start: Card) -> list[Slot]:
    slots = [Slot("partner", int(c.get("count", 0)), c) for c in _of_kind(start, "partner")]
    tags = _of_kind(start, "tag")
    if tags:
        slots.append(Slot("tag", 1, None))  # 402.2b / 1145.5: only one [Tag] applies
    slots.append(Slot("aid", 1, None))  # 1164.2: one [Aid] per game
    return slots


def fits(slot: Slot, start: Card, other: Card) -> bool:
    """Whether ``other`` may join ``start`` through ``slot``."""
    if slot.kind == "partner":
        race = slot.condition.get("race")
        return _is_ruler(other) and "bond" in other.keywords and race in other.subtypes
    if slot.kind == "tag":
        if not _is_ruler(other):
            return False
        for tag in _of_kind(start, "tag"):
            if tag.get("race") and any(t.get("race") == tag["race"] for t in _of_kind(other, "tag")):
                return True
            if tag.get("names") and names_of(other) & {normalize_name(n) for n in tag["names"]}:
                return True
        return False
    return any(normalize_name(str(aid.get("ruler", ""))) in names_of(start) for aid in _of_kind(other, "aid"))


def assign(start: Card, others: list[Card]) -> list[Card]:
    """The cards left over when ``others`` are given to ``start``'s slots as well as possible."""
    slots = slots_of(start)
    options = [[i for i, slot in enumerate(slots) if slot.capacity > 0 and fits(slot, start, o)] for o in others]
    if len(others) <= SEARCH_LIMIT:
        best: list[int] = list(range(len(others)))

        def search(index: int, used: list[int], left: list[int]) -> None:
            nonlocal best
            if len(left) >= len(best):
                return
            if index == len(others):
                best = list(left)
                return
            for slot in options[index]:
                if used[slot] < slots[slot].capacity:
                    used[slot] += 1
                    search(index + 1, used, left)
                    used[slot] -= 1
            search(index + 1, used, left + [index])

        search(0, [0] * len(slots), [])
        return [others[i] for i in best]
    used = [0] * len(slots)
    left = []
    for index in sorted(range(len(others)), key=lambda i: len(options[i])):
        slot = next((s for s in options[index] if used[s] < slots[s].capacity), None)
        if slot is None:
            left.append(others[index])
        else:
            used[slot] += 1
    return left


def compile_ruler_area(rule: RulerAreaRule, ctx) -> Check:
    """The ruler area holds one starting ruler and only the other rulers and sub-rulers its
    [Partner], [Tag] and [Aid] text allows (CR 402.2, 1145, 1155, 1164)."""
    sections = tuple(rule.sections)
    may_start = compile_selector(rule.starting, ctx.cost_of) if rule.starting is not None else None

    def check(deck: ResolvedDeck) -> list[Finding]:
        tally = deck.tally(sections)
        if not tally:
            return []  # no ruler: ruler-count reports it
        if len(tally) == 1:  # the common ruler area: one copy of one ruler that may start
            (card, copies), = tally.items()
            if copies == 1 and _is_ruler(card) and (may_start is None or may_start(card)):
                return []
        units = list(tally)  # one card each: how many copies of a ruler there may be is the copy limits' (CR 404.3)
        starters = [c for c in tally if _is_ruler(c) and (may_start is None or may_start(c))]
        if not starters:
            if not any(_is_ruler(c) for c in tally) or may_start is None:
                return []  # no ruler card at all: ruler-type / ruler-count report it
            return [finding(deck, c, f"{c.name} cannot be the starting ruler: {rule.description.rstrip('.')}") for c in tally if _is_ruler(c)]
        if len(units) == 1:
            return []
        best: tuple[Card, list[Card]] | None = None
        for start in starters:
            others = list(units)
            others.remove(start)
            left = assign(start, others)
            if not left:
                return []
            if best is None or len(left) < len(best[1]):
                best = (start, left)
        start, left = best
        return [explain(deck, start, units, other) for other in dict.fromkeys(left)]

    def explain(deck: ResolvedDeck, start: Card, units: list[Card], other: Card) -> Finding:
        """Why ``other`` has no place beside ``start``, in the words of ``start``'s text."""
        slots = [s for s in slots_of(start) if s.capacity > 0]
        for slot in slots:
            if fits(slot, start, other):
                fitting = [u for u in units if u is not start and fits(slot, start, u)]
                what = label(slot.condition) if slot.condition else ("[Tag]" if slot.kind == "tag" else "[Aid]")
                return finding(
                    deck, other,
                    f"{start.name}'s {what} allows {slot.capacity} card{'s' if slot.capacity != 1 else ''} besides it; the ruler area has {len(fitting)} ({', '.join(u.name for u in fitting)})",
                    found=len(fitting), limit=f"at most {slot.capacity}",
                )
        texts = [label(c) for c in _of_kind(start, "partner") + _of_kind(start, "tag")]
        if not _is_ruler(other):
            why = f"{other.name} is not a ruler; a sub-ruler starts in the ruler area only by an [Aid] naming the ruler ({start.name})"
        elif texts:
            why = f"{other.name} is not a partner {start.name}'s {' and '.join(texts)} allows"
            partner = _of_kind(start, "partner")
            if partner and "bond" not in other.keywords:
                why += " (it has no «Bond»)"
            elif partner and partner[0].get("race") not in other.subtypes:
                why += f" (it is not a {race_label(partner[0]['race'])} ruler)"
        else:
            why = f"{start.name} has no [Partner] or [Tag]: it starts the game alone, so {other.name} may not be in the ruler area"
        return finding(deck, other, why)

    def finding(deck: ResolvedDeck, card: Card, message: str, found: int | None = None, limit: str | None = None) -> Finding:
        entries = deck.entries_of(card, sections)
        return Finding(
            message=message,
            section=", ".join(dict.fromkeys(e.section for e in entries)) or sections[0],
            card=card.name,
            line=entries[0].line if entries else deck.line_of(sections),
            found=found,
            limit=limit,
        )

    return silent_when_empty(check, sections)
