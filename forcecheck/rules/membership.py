"""Membership: which cards may stand in which sections."""

from __future__ import annotations

from typing import Iterator

from forcecheck.rules.base import Check, Finding, ResolvedDeck
from forcecheck.rules.selectors import compile_selector
from forcecheck.spec.model import AllowedCardsRule, ForbiddenCardsRule


def compile_allowed_cards(rule: AllowedCardsRule, ctx) -> Check:
    """Every card in the sections must match ``allow``; each other card is a finding on its line."""
    return _membership(rule, compile_selector(rule.allow, ctx.cost_of), want=True, ctx=ctx)


def compile_forbidden_cards(rule: ForbiddenCardsRule, ctx) -> Check:
    """No card in the sections may match ``forbid``; each one that does is a finding on its line."""
    return _membership(rule, compile_selector(rule.forbid, ctx.cost_of), want=False, ctx=ctx)


def _membership(rule, predicate, want: bool, ctx) -> Check:
    sections = tuple(rule.sections)
    judged = compile_selector(rule.where, ctx.cost_of)
    offends: dict = {}
    """card -> whether it breaks the rule, worked out once per card."""

    def check(deck: ResolvedDeck) -> Iterator[Finding]:
        for entry in deck.entries(sections):
            bad = offends.get(entry.card)
            if bad is None:
                bad = offends[entry.card] = judged(entry.card) and predicate(entry.card) != want
            if bad:
                title = deck.titles.get(entry.section, entry.section)
                yield Finding(
                    message=f"{entry.card.name} may not be in the {title}: {rule.description.rstrip('.')}",
                    section=entry.section,
                    card=entry.card.name,
                    line=entry.line,
                    found=entry.count,
                )

    return check
