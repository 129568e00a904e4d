"""Sizes and counts: how many cards a section holds, and how many match a selector (curves)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from forcecheck.rules.base import Check, Finding, ResolvedDeck, join_titles, silent_when_empty
from forcecheck.rules.bounds import judge
from forcecheck.rules.selectors import compile_selector

if TYPE_CHECKING:  # the models are only types here: checking with a cached spec never loads them
    from forcecheck.format_spec.model import CardCountRule, SectionSizeRule


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

    every = rule.where is None
    literal = _literal_test(rule)
    chosen: dict = {}
    """card -> whether the rule counts it, worked out once per card."""
    token = object()
    """This rule's key in a ruler's memo (``RulerFacts.memo``)."""

    def verdict_of(deck: ResolvedDeck, found: int) -> tuple[Finding, ...]:
        """The finding (if any) for ``found`` cards: shared by check() and the engine's card pass.
        A tuple, not a generator: most decks keep most bounds, and then nothing is built."""
        if literal is not None:
            if literal(found):
                return ()  # within a bound of plain numbers: nothing more to work out
            verdict = judge(rule, found, deck.ruler)
        else:  # a bound the ruler sets: the same ruler and count always get the same verdict
            memo = deck.ruler.memo
            key = (token, found)
            verdict = memo.get(key, _UNSEEN)
            if verdict is _UNSEEN:
                if len(memo) >= _MEMO_LIMIT:
                    memo.clear()
                verdict = memo[key] = judge(rule, found, deck.ruler)
        if verdict is None or verdict.ok:
            return ()
        where = join_titles(deck, sections)
        note = f" ({verdict.note})" if verdict.note else ""
        if measure == "cards" and rule.where is None:
            message = f"{where} has {found} card{'s' if found != 1 else ''}; must be {verdict.limit}{note}"
        else:
            noun = "distinct cards" if measure == "distinct" else "cards"
            message = f"{rule.description.rstrip('.')}: {found} such {noun} in {where}; must be {verdict.limit}{note}"
        return (Finding(
            message=message,
            section=section,
            found=found,
            limit=verdict.limit,
            line=deck.line_of(sections),
        ),)

    def counts(card) -> bool:
        hit = chosen.get(card)
        if hit is None:
            hit = chosen[card] = selected(card)
        return hit

    def check(deck: ResolvedDeck) -> tuple[Finding, ...]:
        if every and measure == "cards":
            found = deck.total(sections)
            if deck.unknown:
                found += sum(deck.unknown.get(s, 0) for s in sections)
        else:
            tally = deck.tally(sections)
            picked = tally if every else [card for card in tally if counts(card)]
            if measure == "distinct":
                found = len({card.name for card in picked})
            else:
                found = sum(tally[card] for card in picked)
        return verdict_of(deck, found)

    if measure == "cards" and not every:
        # counted per card: the engine may count several such rules over the same sections in one pass
        check.per_card_count = (sections, counts, verdict_of)
    if _zero_always_keeps(rule):
        silent_when_empty(check, sections)  # no cards at all keep the bound, whatever the ruler says
    return check


_UNSEEN = object()
_MEMO_LIMIT = 1_000


def _zero_always_keeps(rule) -> bool:
    """Whether 0 cards keep the bound for every ruler. A ruler's numbers are never negative, and
    a number the ruler does not define makes the rule find nothing (bounds.judge gives None)."""
    if rule.one_of is not None:
        return 0 in rule.one_of
    if rule.exactly is not None:
        return rule.exactly == 0
    return rule.min is None or (isinstance(rule.min, int) and rule.min <= 0)



def _literal_test(rule):
    """A fast ``found -> ok`` for bounds made of plain numbers (None when one comes from the ruler)."""
    values = [rule.min, rule.max, rule.exactly, *(rule.one_of or [])]
    if any(v is not None and not isinstance(v, int) for v in values):
        return None
    if rule.one_of is not None:
        options = frozenset(rule.one_of)
        return lambda found: found in options
    if rule.exactly is not None:
        exact = rule.exactly
        return lambda found: found == exact
    low = rule.min if rule.min is not None else 0
    high = rule.max
    if high is None:
        return lambda found: found >= low
    return lambda found: low <= found <= high
