"""Membership: which cards may stand in which sections."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from forcecheck.rules.base import Check, Finding, ResolvedDeck, lines_of, silent_when_empty
from forcecheck.rules.selectors import card_facts, compile_selector

if TYPE_CHECKING:  # the models are only types here: checking with a cached spec never loads them
    from forcecheck.format_spec.model import AllowedCardsRule, ForbiddenCardsRule


def compile_allowed_cards(rule: AllowedCardsRule, ctx) -> Check:
    """Every card in the sections must match ``allow``; each other card is one finding naming every line that lists it."""
    return _membership(rule, rule.allow, want=True, ctx=ctx)


def compile_forbidden_cards(rule: ForbiddenCardsRule, ctx) -> Check:
    """No card in the sections may match ``forbid``; each one that does is one finding naming every line that lists it."""
    return _membership(rule, rule.forbid, want=False, ctx=ctx)


def _membership(rule, selector, want: bool, ctx) -> Check:
    """``selector`` says which cards are allowed (``want``) or forbidden; a finding names what the
    card is in the facts the selector asks about ("Gawain (resonator) may not be in the Ruler")."""
    predicate = compile_selector(selector, ctx.cost_of)
    sections = tuple(rule.sections)
    judged = compile_selector(rule.where, ctx.cost_of)
    offends: dict = {}
    """card -> whether it breaks the rule, worked out once per card (for a card with printings of
    another kind: whether any of them may)."""

    def breaks(card) -> bool:
        return judged(card) and predicate(card) != want

    def card_test(card) -> bool:
        bad = offends.get(card)
        if bad is None:
            bad = offends[card] = breaks(card) or any(breaks(card.as_printing(p)) for p in card.printing_types)
        return bad

    def finding(deck: ResolvedDeck, entries) -> Finding | None:
        """One finding for a card in one section, pointing at every line that lists it. A card
        with printings of another kind ("treated as" cards) is judged line by line, by the
        printing each line means: None when none of its lines breaks the rule."""
        card = entries[0].card
        if card.printing_types:
            entries = [e for e in entries if breaks(card.as_printing(card.printings_meant(e.printing, e.written)[0]))]
            if not entries:
                return None
            names = {card.printing_names.get(card.printings_meant(e.printing, e.written)[0], card.name) for e in entries}
            shown = names.pop() if len(names) == 1 else card.name
        else:
            shown = card.name
        first = entries[0]
        title = deck.titles.get(first.section, first.section)
        line, lines, where = lines_of(entries)
        printing = card.as_printing(card.printings_meant(first.printing, first.written)[0]) if card.printing_types else card
        facts = card_facts(selector, printing, ctx.cost_of) if selector is not None else ""
        what = f" ({facts})" if facts else ""
        return Finding(
            message=f"{shown}{what} may not be in the {title}: {rule.description.rstrip('.')}{where}",
            section=first.section,
            card=shown,
            line=line,
            found=sum(e.count for e in entries),
            lines=lines,
        )

    def check(deck: ResolvedDeck) -> Iterator[Finding]:
        for section_id in sections:
            for card in deck.tally((section_id,)):
                if card_test(card):
                    found = finding(deck, deck.entries_of(card, (section_id,)))
                    if found is not None:
                        yield found

    # Rules that judge each card on its own expose the parts, so the engine can judge several
    # such rules over the same sections in one pass (see engine.CardPass).
    check.per_card = (sections, card_test, finding)
    return silent_when_empty(check, sections)
