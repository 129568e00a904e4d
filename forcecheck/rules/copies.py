"""Copies: how many of one name a deck may hold across the sections that share a limit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from forcecheck.cards.conditions import problem
from forcecheck.format_spec.slugs import slugify
from forcecheck.rules.base import Check, Finding, ResolvedDeck, join_titles, lines_of, silent_when_empty
from forcecheck.rules.bounds import resolve_quantity
from forcecheck.rules.conditions import ruler_names, with_ruler
from forcecheck.rules.selectors import compile_selector, selector_from_data

if TYPE_CHECKING:  # the models are only types here: checking with a cached spec never loads them
    from forcecheck.format_spec.model import CopyLimitRule, NoSharedNamesRule


def compile_copy_limit(rule: CopyLimitRule, ctx) -> Check:
    """At most ``max`` copies of a name summed over the sections.

    The card's own text may expand its limit ("any number of copies", "up to twelve copies")
    when ``card_limits`` is on; a ruler keyword named by ``ruler_restriction`` (singleton
    rulers) caps every card, and per CR 404.7a the restriction wins over an expansion.
    Alternate printings are one card, so copies are counted by card identity.
    """
    subject = compile_selector(rule.where, ctx.cost_of) if rule.where is not None else None
    exempt = compile_selector(rule.exempt, ctx.cost_of) if rule.exempt is not None else None
    sections = tuple(rule.sections)
    restriction = slugify(rule.ruler_restriction) if rule.ruler_restriction else None

    granted: dict = {}
    """ruler-area card -> its compiled ``copies`` conditions (test, max), worked out once."""

    def has_own_rules(card) -> bool:
        """The card's text speaks of its copies: it may break the rule with few copies (or may
        keep it with many), so it is judged whatever its count."""
        return card.copy_limit is not None or card.unlimited_copies or (rule.ruler_limits and bool(card.conditions))

    def grants_of(deck: ResolvedDeck) -> list:
        """(test, max, owner) for each ``copies`` condition of a card in the ruler area."""
        found = []
        for owner in deck.ruler.cards:
            if not owner.conditions:
                continue
            if owner not in granted:
                granted[owner] = [
                    (compile_selector(selector_from_data(c["where"]), ctx.cost_of), c["max"])
                    for c in owner.conditions
                    if isinstance(c, dict) and c.get("kind") == "copies" and problem(c) is None and _readable(c["where"])
                ]
            found += [(test, most, owner) for test, most in granted[owner]]
        return found

    def from_ruler(deck: ResolvedDeck) -> tuple:
        """(default limit, its note, the ruler's cap, what the ruler area grants, the rulers'
        names): what the ruler alone decides, the same for every deck with these rulers."""
        default, note = resolve_quantity(rule.max, deck.ruler)
        cap = deck.ruler.keyword(restriction) if restriction else None
        if rule.ruler_limits and default is not None:
            return default, note, cap, grants_of(deck), ruler_names(deck)
        return default, note, cap, [], frozenset()

    token = object()
    """This rule's key in a ruler's memo (``RulerFacts.memo``)."""

    def check(deck: ResolvedDeck) -> list[Finding]:
        findings: list[Finding] = []
        memo = deck.ruler.memo
        known = memo.get(token)
        if known is None:
            known = memo[token] = from_ruler(deck)
        default, note, cap, grants, rulers = known
        if default is None:
            return findings
        if cap is not None or grants:
            suspects = [card for s in sections for card in deck.tally((s,))]  # a ruler's cap may be below any plain limit
        else:
            suspects = _over(deck, sections, default)
            suspects += deck.candidates_for(rule.id, sections, has_own_rules)
        judged = set()
        for card in suspects:
            if card in judged:
                continue
            judged.add(card)
            if (subject is not None and not subject(card)) or (exempt is not None and exempt(card)):
                continue
            found = deck.copies(card, sections)
            if not found:
                continue
            finding = breach(deck, card, found, default, note, cap, grants, rulers)
            if finding is not None:
                findings.append(finding)
        return findings

    def breach(deck: ResolvedDeck, card, found: int, default: int, note: str | None, cap: int | None,
               grants: list, rulers: frozenset) -> Finding | None:
        """The finding for ``found`` copies of a card, weighing its own text, the ruler area's
        text and the ruler's cap."""
        limit, why = default, note
        if rule.card_limits and card.unlimited_copies:
            limit, why = None, None
        elif rule.card_limits and card.copy_limit is not None:
            limit, why = card.copy_limit, "the card's own text"
        for test, most, owner in grants:
            if test(card):
                limit, why = most, f"{owner.name}'s text"
        named = [c for c in with_ruler(card, rulers) if c.get("copies") is not None] if rulers else []
        if named:  # the card's text names the ruler: it wins over that ruler's restriction (CR 404.7a)
            limit, why = named[0]["copies"], f"the card's own text with {named[0]['ruler']}"
        elif cap is not None and (limit is None or cap < limit):
            limit, why = cap, f"ruler {deck.ruler.label}'s {restriction} restriction"
        if limit is None or found <= limit:
            return None
        entries = deck.entries_of(card, sections)
        used = list(dict.fromkeys(e.section for e in entries))
        spread = ", ".join(f"{deck.titles.get(s, s)} {sum(e.count for e in entries if e.section == s)}" for s in used)
        where = f" ({spread})" if len(used) > 1 else f" in {join_titles(deck, used)}"
        reason = f" ({why})" if why else ""
        line, lines, on_lines = lines_of(entries)
        if len(lines or ()) <= len(used):
            on_lines = ""  # one line per section: the spread above says where already
        return Finding(
            message=f"{found} copies of {card.name}{where}; at most {limit} allowed{reason}{on_lines}",
            section=", ".join(used),
            card=card.name,
            line=line,
            found=found,
            limit=f"at most {limit}",
            lines=lines,
        )

    check.per_card_candidates = (sections, has_own_rules)  # the engine's card pass collects them
    return silent_when_empty(check, sections)


def _over(deck: ResolvedDeck, sections: tuple[str, ...], default: int) -> list:
    """The cards that may hold more than ``default`` copies over these sections: those with
    more in one section, and those listed in several (their sum may be over). Every other card
    is within the plain limit, which most cards of most decks are; C-level set steps find the
    few others without a lookup per card."""
    filled = deck.filled
    tallies = [deck.tallies[s] for s in sections if s in filled]
    suspects = [
        card
        for tally in tallies
        if max(tally.values(), default=0) > default  # most sections have no card over the limit: one C-level step
        for card, copies in tally.items()
        if copies > default
    ]
    if len(tallies) > 1:
        seen = set(tallies[0])
        for tally in tallies[1:]:
            suspects += seen.intersection(tally)  # listed in an earlier section too
            seen.update(tally)
    return suspects


def _readable(where) -> bool:
    try:
        selector_from_data(where)
    except (ValueError, TypeError, AttributeError):
        return False  # reported by unchecked-condition
    return True


def compile_no_shared_names(rule: NoSharedNamesRule, ctx) -> Check:
    """No card in the sections shares a name with a card in the other sections the rule names
    (a <Crew> EX Deck with the deck and sideboard, CR 319.5a); each such card is a finding on its line."""
    sections = tuple(rule.sections)
    others = tuple(rule.others)

    def check(deck: ResolvedDeck) -> list[Finding]:
        findings: list[Finding] = []
        elsewhere = deck.tally(others)
        for section_id in sections:
            for card in deck.tally((section_id,)):
                found = elsewhere.get(card)
                if not found:
                    continue
                where = [s for s in others if deck.tally((s,)).get(card)]
                line, lines, on_lines = lines_of(deck.entries_of(card, (section_id,)))  # one finding per card
                findings.append(Finding(
                    message=f"{card.name} is in the {deck.titles.get(section_id, section_id)} and also in the {join_titles(deck, where)}: {rule.description.rstrip('.')}{on_lines}",
                    section=section_id,
                    card=card.name,
                    line=line,
                    found=found,
                    limit="0",
                    lines=lines,
                ))
        return findings

    return silent_when_empty(check, sections)
