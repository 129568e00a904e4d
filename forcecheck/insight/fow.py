"""Force of Will: the main deck's total-cost curve, attributes and card types, and the magic
stones by the will they produce.

Costs are the format's (``card_policy.double_faced_cost``; an Alternative card costs both
halves, CR 1307.5b), the same function the rules use, so the curve and the curve rules never
disagree. Rulers in the main deck (ABC's non-Arcana rulers) have no cost to pay and are
counted apart from the curve, as the format's curve rules leave them out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from forcecheck.cards.costs import ATTRIBUTE_SYMBOLS
from forcecheck.rules.base import ResolvedDeck

ATTRIBUTES = tuple(ATTRIBUTE_SYMBOLS.values())
"""light, fire, water, wind, darkness: the order Force of Will prints them in."""
TOP_COST = 7
"""The curve's last bucket is this cost and more (``7+``)."""
NONE = "none"


@dataclass
class Curve:
    section: str
    policy: str
    """The format's double-faced cost policy (front / max / sum)."""
    buckets: dict[str, int]
    """``"0"`` .. ``"6"``, ``"7+"`` -> copies."""
    rulers: int = 0
    """Ruler cards in the section, counted apart (no cost to pay)."""
    total_cost: int = 0
    """Sum of the costs of the cards in the curve (for the average)."""

    @property
    def cards(self) -> int:
        return sum(self.buckets.values())

    @property
    def average(self) -> float | None:
        return round(self.total_cost / self.cards, 2) if self.cards else None

    def to_dict(self) -> dict[str, Any]:
        return {"section": self.section, "policy": self.policy, "costs": dict(self.buckets), "cards": self.cards,
                "rulers": self.rulers, "average": self.average}


@dataclass
class Stones:
    section: str
    cards: int = 0
    basic: int = 0
    special: int = 0
    will: dict[str, int] = field(default_factory=dict)
    """Attribute -> copies of stones producing that will (a stone of several counts under each)."""
    multi: int = 0
    no_will: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"section": self.section, "cards": self.cards, "basic": self.basic, "special": self.special,
                "will": dict(self.will), "multi": self.multi, "no_will": self.no_will}


@dataclass
class FowInsight:
    main: str
    curve: Curve
    attributes: dict[str, int]
    """Attribute (and ``none``) -> copies in the main deck; a card of several counts under each."""
    multi_attribute: int
    types: dict[str, int]
    """Card type -> copies in the main deck; a card of several types counts under each."""
    stones: list[Stones]

    family = "fow"

    def to_dict(self) -> dict[str, Any]:
        return {
            "main_section": self.main,
            "curve": self.curve.to_dict(),
            "attributes": dict(self.attributes),
            "multi_attribute": self.multi_attribute,
            "types": dict(self.types),
            "stones": [s.to_dict() for s in self.stones],
        }


def main_section(fmt, requirement_sections: tuple[str, ...] = ()) -> str:
    """The deck's main section: the one its curve rules count, else ``main``, else the first
    section that is not the ruler's."""
    ids = [s.id for s in fmt.spec.sections]
    if requirement_sections:
        return requirement_sections[0]
    if "main" in ids:
        return "main"
    ruler = fmt.spec.ruler.section if fmt.spec.ruler else None
    return next((i for i in ids if i != ruler), ids[0])


def stone_sections(fmt) -> list[str]:
    """Sections the format keeps for magic stones: those an ``allowed-cards`` rule opens to
    the ``magic-stone`` type only."""
    found: list[str] = []
    for rule in fmt.spec.rules:
        allow = getattr(rule, "allow", None) if rule.kind == "allowed-cards" else None
        kinds = getattr(allow, "type", None) if allow is not None else None
        if kinds is not None and "magic-stone" in ([kinds] if isinstance(kinds, str) else list(kinds)):
            found += [s for s in rule.sections if s not in found]
    return found


def fow_insight(deck: ResolvedDeck, fmt, requirement_sections: tuple[str, ...] = ()) -> FowInsight:
    main = main_section(fmt, requirement_sections)
    tally = deck.tally((main,))
    buckets = {str(c): 0 for c in range(TOP_COST)} | {f"{TOP_COST}+": 0}
    rulers = total = 0
    attributes = dict.fromkeys(ATTRIBUTES + (NONE,), 0)
    multi = 0
    types: dict[str, int] = {}
    for card, copies in tally.items():
        for kind in card.types:
            types[kind] = types.get(kind, 0) + copies
        for attribute in card.attributes or (NONE,):
            attributes[attribute] = attributes.get(attribute, 0) + copies
        if len(card.attributes) > 1:
            multi += copies
        if "ruler" in card.types:
            rulers += copies
            continue
        cost = fmt.cost_of(card)
        total += cost * copies
        buckets[str(cost) if cost < TOP_COST else f"{TOP_COST}+"] += copies
    curve = Curve(main, fmt.spec.card_policy.double_faced_cost, buckets, rulers, total)
    ordered_types = dict(sorted(types.items(), key=lambda kv: (-kv[1], kv[0])))
    return FowInsight(main, curve, attributes, multi, ordered_types, [_stones(deck, s) for s in stone_sections(fmt)])


def _stones(deck: ResolvedDeck, section_id: str) -> Stones:
    stones = Stones(section_id, will=dict.fromkeys(ATTRIBUTES, 0))
    for card, copies in deck.tally((section_id,)).items():
        stones.cards += copies
        if "basic-magic-stone" in card.types:
            stones.basic += copies
        elif "special-magic-stone" in card.types:
            stones.special += copies
        for attribute in card.will:
            stones.will[attribute] = stones.will.get(attribute, 0) + copies
        if len(card.will) > 1:
            stones.multi += copies
        if not card.will:
            stones.no_will += copies
    return stones
