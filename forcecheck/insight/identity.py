"""Attribute identity against the ruler: for each ``ruler-attributes`` rule of the format, how
many cards keep within (or share) the ruler's attributes, and which do not.

The rule's own parameters decide everything (its sections, ``of`` attributes or will, ``mode``
within / share, ``against`` the ruler's attributes or its deck restriction, ``where``), so
ABC's Arcana identity and Bifrost's rune and restriction rules come out of one function.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from forcecheck.rules.base import ResolvedDeck
from forcecheck.rules.selectors import compile_selector

RULER_ATTRIBUTES = "ruler-attributes"


@dataclass(frozen=True)
class OffCard:
    card: str
    section: str
    copies: int
    values: tuple[str, ...]
    """The card's attributes (or will) that the rule looked at; empty for none."""


@dataclass(frozen=True)
class Identity:
    rule: str
    description: str
    sections: tuple[str, ...]
    of: str
    """``attributes`` or ``will`` (magic stones)."""
    mode: str
    """``within``: every value among the allowed; ``share``: at least one allowed value."""
    allowed: tuple[str, ...]
    judged: int
    """Copies the rule looks at (its ``where`` picks them)."""
    keeping: int
    """Of those, the copies that keep the rule (a card without any value counts here when the
    rule allows that)."""
    without: int
    """Copies of cards with no attribute (or no will) at all."""
    off: list[OffCard] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.off

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "sections": list(self.sections),
            "of": self.of,
            "mode": self.mode,
            "allowed": list(self.allowed),
            "judged": self.judged,
            "keeping": self.keeping,
            "without": self.without,
            "ok": self.ok,
            "off": [{"card": o.card, "section": o.section, "copies": o.copies, "values": list(o.values)} for o in self.off],
            "description": self.description,
        }


def identities(deck: ResolvedDeck, fmt) -> list[Identity]:
    """One Identity per ``ruler-attributes`` rule that applies to this deck (none without a
    ruler, or when the rule reads a deck restriction the ruler does not make)."""
    if not deck.ruler.present:
        return []
    applies = {rule.id: rule.applies(deck) for rule in fmt.rules}
    out: list[Identity] = []
    for rule in fmt.spec.rules:
        if rule.kind != RULER_ATTRIBUTES or not applies.get(rule.id, False):
            continue
        against = getattr(rule, "against", "attributes")
        allowed = deck.ruler.deck_attributes if against == "deck-restriction" else deck.ruler.attributes
        if against == "deck-restriction" and not allowed:
            continue
        out.append(_judge(rule, deck, fmt, frozenset(allowed)))
    return out


def _judge(rule, deck: ResolvedDeck, fmt, allowed: frozenset[str]) -> Identity:
    subject = compile_selector(getattr(rule, "where", None), fmt.cost_of)
    of = "will" if getattr(rule, "of", "attributes") == "will" else "attributes"
    mode = getattr(rule, "mode", "within")
    allow_none = bool(getattr(rule, "allow_no_attribute", False))
    judged = keeping = without = 0
    off: list[OffCard] = []
    for section_id in rule.sections:
        for card, copies in deck.tally((section_id,)).items():
            if not subject(card):
                continue
            judged += copies
            values = card.will if of == "will" else card.attributes
            if not values:
                without += copies
                good = allow_none
            elif mode == "share":
                good = not values.isdisjoint(allowed)
            else:
                good = values <= allowed
            if good:
                keeping += copies
            else:
                off.append(OffCard(card.name, section_id, copies, tuple(sorted(values))))
    off.sort(key=lambda o: (o.section, o.card))
    return Identity(
        rule=rule.id,
        description=rule.description,
        sections=tuple(rule.sections),
        of=of,
        mode=mode,
        allowed=tuple(sorted(allowed)),
        judged=judged,
        keeping=keeping,
        without=without,
        off=off,
    )
