"""Ruler-derived rules: sections the ruler must permit, and attribute identity with the ruler."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from forcecheck.cards.conditions import keyword_label
from forcecheck.format_spec.slugs import slugify
from forcecheck.rules.base import Check, Finding, ResolvedDeck, lines_of, silent_when_empty
from forcecheck.rules.selectors import compile_selector

if TYPE_CHECKING:  # the models are only types here: checking with a cached spec never loads them
    from forcecheck.format_spec.model import RequiresRulerKeywordRule, RulerAttributesRule


def compile_requires_ruler_keyword(rule: RequiresRulerKeywordRule, ctx) -> Check:
    """Cards in the sections only when the ruler has the keyword (extra deck needs Grimoire)."""
    keyword = slugify(rule.keyword)

    def check(deck: ResolvedDeck) -> Iterator[Finding]:
        # Without a ruler nothing is known of its keywords: ruler-count already reports that.
        if not deck.ruler.present or deck.ruler.keyword(keyword) is not None:
            return
        for section in rule.sections:
            found = deck.total((section,))
            if found:
                title = deck.titles.get(section, section)
                who = f"ruler {deck.ruler.label} has no {keyword_label(keyword)}"
                yield Finding(
                    message=f"{title} has {found} card{'s' if found != 1 else ''} but {who}: {rule.description.rstrip('.')}",
                    section=section,
                    line=deck.line_of([section]),
                    found=found,
                    limit="0",
                )

    return silent_when_empty(check, rule.sections)


def compile_ruler_attributes(rule: RulerAttributesRule, ctx) -> Check:
    """Each card's attributes (or a stone's will) must share with / stay within the ruler's."""
    subject = compile_selector(rule.where, ctx.cost_of)
    sections = tuple(rule.sections)
    fine: dict = {}
    """allowed attributes -> cards known to pass against them (the common answer, remembered)."""

    def check(deck: ResolvedDeck) -> list[Finding]:
        if not deck.ruler.present:
            return []
        if rule.against == "deck-restriction":
            allowed = deck.ruler.deck_attributes
            if not allowed:
                return []
        else:
            allowed = deck.ruler.attributes
        passing = fine.setdefault(allowed, set())
        findings: list[Finding] = []
        for section_id in sections:
            unjudged = set(deck.tally((section_id,))).difference(passing)  # most cards passed before
            if unjudged:
                findings += judge(deck, section_id, unjudged, allowed, passing)
        return findings

    def judge(deck: ResolvedDeck, section_id: str, cards: set, allowed, passing: set) -> Iterator[Finding]:
        """Findings for cards not yet known to pass against ``allowed``; the passing ones are remembered."""
        whose = f"{deck.ruler.label}'s deck restriction" if rule.against == "deck-restriction" else deck.ruler.label
        for card in cards:
            if not subject(card):
                passing.add(card)
                continue
            values = card.will if rule.of == "will" else card.attributes
            what = "will" if rule.of == "will" else "attribute"
            if not values:
                if rule.allow_no_attribute:
                    passing.add(card)
                    continue
                problem = f"has no {what}"
            elif rule.mode == "share" and values.isdisjoint(allowed):
                problem = f"({', '.join(sorted(values))}) shares no {what} with {whose} ({', '.join(sorted(allowed)) or 'none'})"
            elif rule.mode == "within" and not values <= allowed:
                outside = ", ".join(sorted(values - allowed))
                problem = f"has {what} {outside} outside {whose} ({', '.join(sorted(allowed)) or 'none'})"
            else:
                passing.add(card)
                continue
            entries = deck.entries_of(card, (section_id,))  # one finding per card, naming all its lines
            line, lines, where = lines_of(entries)
            yield Finding(
                message=f"{card.name} {problem}: {rule.description.rstrip('.')}{where}",
                section=section_id,
                card=card.name,
                line=line,
                found=sum(e.count for e in entries),
                lines=lines,
            )

    return silent_when_empty(check, sections)
