"""Copies: the cards a deck holds at its format's copy limit, and the cards the applied banlist
names (forbidden, limited, semi-limited) with the copies the deck has of each.

Limits come from the format's ``copy-limit`` rules (their sections, ``max`` through the ruler,
exemptions, a card's own limit when the rule honours it) and the list from the compiled
``banlist`` rule: a Yu-Gi-Oh! player sees "3 copies of 5 cards" and "Limited: 1 of 1" for the
list that ``check`` applies, never a number written here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from forcecheck.rules.base import ResolvedDeck
from forcecheck.rules.bounds import resolve_quantity
from forcecheck.rules.selectors import compile_selector

COPY_LIMIT = "copy-limit"
BANLIST = "banlist"
STATUS = {0: "forbidden", 1: "limited", 2: "semi-limited"}


@dataclass(frozen=True)
class AtLimit:
    """The cards of one copy-limit rule's sections that hold exactly the limit (or more)."""

    rule: str
    sections: tuple[str, ...]
    limit: int
    cards: list[tuple[str, int]] = field(default_factory=list)
    """(card, copies) at the plain limit, by name."""
    over: list[tuple[str, int, int]] = field(default_factory=list)
    """(card, copies, its limit) for cards over their limit (``check`` reports them)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "sections": list(self.sections),
            "limit": self.limit,
            "at_limit": [{"card": c, "copies": n} for c, n in self.cards],
            "over": [{"card": c, "copies": n, "limit": m} for c, n, m in self.over],
        }


@dataclass(frozen=True)
class Listed:
    card: str
    copies: int
    cap: int

    @property
    def status(self) -> str:
        return STATUS.get(self.cap, f"capped at {self.cap}")

    @property
    def summary(self) -> str:
        """``Black Whirlwind 3 (limited 1, over)``: the copies, then what the list allows."""
        return f"{self.card} {self.copies} ({self.status} {self.cap}{', over' if self.copies > self.cap else ''})"

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "copies": self.copies, "cap": self.cap, "status": self.status, "over": self.copies > self.cap}


@dataclass(frozen=True)
class BanlistView:
    name: str
    rule: str
    cards: list[Listed] = field(default_factory=list)

    def of_status(self, status: str) -> list[Listed]:
        return [c for c in self.cards if c.status == status]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "rule": self.rule, "cards": [c.to_dict() for c in self.cards]}


def at_limits(deck: ResolvedDeck, fmt) -> list[AtLimit]:
    """One AtLimit per copy-limit rule whose limit is defined for this deck's ruler."""
    applies = {rule.id: rule.applies(deck) for rule in fmt.rules}
    out = []
    for rule in fmt.spec.rules:
        if rule.kind != COPY_LIMIT or not applies.get(rule.id, False):
            continue
        limit = resolve_quantity(rule.max, deck.ruler)[0]
        if limit is None:
            continue
        subject = compile_selector(rule.where, fmt.cost_of) if getattr(rule, "where", None) is not None else None
        exempt = compile_selector(rule.exempt, fmt.cost_of) if getattr(rule, "exempt", None) is not None else None
        own = bool(getattr(rule, "card_limits", False))
        sections = tuple(rule.sections)
        at, over = [], []
        for card, copies in deck.tally(sections).items():
            if (subject is not None and not subject(card)) or (exempt is not None and exempt(card)):
                continue
            if own and card.unlimited_copies:
                continue
            cap = card.copy_limit if own and card.copy_limit is not None else limit
            if copies > cap:
                over.append((card.name, copies, cap))
            elif copies == limit:
                at.append((card.name, copies))
        out.append(AtLimit(rule.id, sections, limit, sorted(at), sorted(over)))
    return out


def banlist_view(deck: ResolvedDeck, fmt) -> BanlistView | None:
    """The cards of the deck that the applied list names, with their caps (None: no list)."""
    for rule in fmt.rules:
        if rule.kind.slug != BANLIST or not rule.applies(deck):
            continue
        cap_of = getattr(rule.check, "cap_of", None)
        applied = getattr(rule.check, "banlist", None)
        if cap_of is None or applied is None:
            continue
        sections = tuple(next((r.sections for r in fmt.spec.rules if r.id == rule.id), ()))
        tally = deck.tally(sections)
        cards = []
        for card, copies in tally.items():
            cap = cap_of(card)
            if cap is not None and (cap in STATUS or copies > cap):  # forbidden, limited, semi-limited; or over
                cards.append(Listed(card.name, copies, cap))
        cards.sort(key=lambda c: (c.cap, c.card))
        return BanlistView(applied.name, rule.id, cards)
    return None
