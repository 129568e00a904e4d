"""Membership: which cards may stand in which sections."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from forcecheck.rules.base import Check, Finding, ResolvedDeck, silent_when_empty
from forcecheck.rules.selectors import compile_selector

if TYPE_CHECKING:  # the models are only types here: checking with a cached spec never loads them
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

    def card_test(card) -> bool:
        bad = offends.get(card)
        if bad is None:
            bad = offends[card] = judged(card) and predicate(card) != want
        return bad

    def finding(deck: ResolvedDeck, entry) -> Finding:
        title = deck.titles.get(entry.section, entry.section)
        return Finding(
            message=f"{entry.card.name} may not be in the {title}: {rule.description.rstrip('.')}",
            section=entry.section,
            card=entry.card.name,
            line=entry.line,
            found=entry.count,
        )

    def check(deck: ResolvedDeck) -> Iterator[Finding]:
        for section_id in sections:
            for card in deck.tally((section_id,)):
                if card_test(card):
                    for entry in deck.entries_of(card, (section_id,)):
                        yield finding(deck, entry)

    # Rules that judge each card on its own expose the parts, so the engine can judge several
    # such rules over the same sections in one pass (see engine.CardPass).
    check.per_card = (sections, card_test, finding)
    return silent_when_empty(check, sections)
