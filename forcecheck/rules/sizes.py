"""Sizes and counts: how many cards a section holds, and how many match a selector (curves)."""

from __future__ import annotations

from typing import Iterator

from forcecheck.rules.base import Check, Finding, ResolvedDeck, join_titles
from forcecheck.rules.bounds import judge
from forcecheck.rules.selectors import compile_selector
from forcecheck.spec.model import CardCountRule, SectionSizeRule


def compile_section_size(rule: SectionSizeRule, ctx) -> Check:
    """Cards in the sections (only those matching ``where``, when given) must keep the bound."""
    return _counting(rule, ctx, measure="cards")


def compile_card_count(rule: CardCountRule, ctx) -> Check:
    """Cards (or distinct names) matching ``where`` across the sections must keep the bound."""
    return _counting(rule, ctx, measure=rule.measure)


def _counting(rule: SectionSizeRule | CardCountRule, ctx, measure: str) -> Check:
    selected = compile_selector(rule.where, ctx.cost_of)
    sections = tuple(rule.sections)
    section = sections[0] if len(sections) == 1 else ", ".join(sections)

    def check(deck: ResolvedDeck) -> Iterator[Finding]:
        entries = [e for e in deck.entries(sections) if selected(e.card)]
        if measure == "distinct":
            found = len({e.card.name for e in entries})
        else:
            found = sum(e.count for e in entries)
            if rule.where is None:
                found += sum(deck.unknown.get(s, 0) for s in sections)
        verdict = judge(rule, found, deck.ruler)
        if verdict is None or verdict.ok:
            return
        where = join_titles(deck, sections)
        note = f" ({verdict.note})" if verdict.note else ""
        if measure == "cards" and rule.where is None:
            message = f"{where} has {found} card{'s' if found != 1 else ''}; must be {verdict.limit}{note}"
        else:
            noun = "distinct cards" if measure == "distinct" else "cards"
            message = f"{rule.description.rstrip('.')}: {found} such {noun} in {where}; must be {verdict.limit}{note}"
        yield Finding(
            message=message,
            section=section,
            found=found,
            limit=verdict.limit,
            line=deck.line_of(sections),
        )

    return check

