"""Banlists: banned and Forbidden/Limited lists as data, a copy cap per listed card (0 = banned)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from forcecheck.banlists import Banlist
from forcecheck.cards.names import normalize_name, normalize_printing
from forcecheck.rules.base import Check, Finding, ResolvedDeck, lines_of, silent_when_empty

if TYPE_CHECKING:  # the models are only types here: checking with a cached spec never loads them
    from forcecheck.spec.model import BanlistRule


def rule_banlist(rule: BanlistRule, chosen: Banlist | None, as_of: str | None = None) -> Banlist | None:
    """The list a banlist rule applies: the one chosen for the run, else the spec's version in
    force on ``as_of``, else the list written in the spec."""
    if chosen is not None:
        return chosen
    if rule.versions:
        from forcecheck.banlists import in_force

        versions = [
            Banlist(name=v.name, game="", entries=dict(v.cards), whitelist=v.whitelist, source=v.source,
                    date=str(v.effective), combinations=[list(c) for c in v.combinations])
            for v in rule.versions
        ]
        return in_force(versions, as_of or _today())
    if rule.cards is not None:
        return Banlist(name=rule.list_name or rule.id, game="", entries=dict(rule.cards), whitelist=rule.whitelist, source="format spec")
    return None


def _today() -> str:
    from datetime import date

    return date.today().isoformat()


def _keys(key: str) -> set[str]:
    return {normalize_name(key), normalize_printing(key), key.lstrip("0") if key.isdigit() else key}


def compile_banlist(rule: BanlistRule, ctx) -> Check:
    """Listed cards, by name, printing code or passcode, are capped at their listed count;
    on a whitelist every card not listed is forbidden. Alternate printings share one cap."""
    banlist = rule_banlist(rule, getattr(ctx, "banlist", None), getattr(ctx, "as_of", None))
    sections = tuple(rule.sections)
    if banlist is None:
        return lambda deck: ()
    caps: dict[str, int] = {}
    for key, count in banlist.entries.items():
        for k in _keys(str(key)):
            caps.setdefault(k, count)
    combos = [[_keys(str(k)) for k in combo] for combo in banlist.combinations]

    def keys_of(card) -> set[str]:
        """Every key the list may name the card by: printings, its name, its other faces' names."""
        return (
            {normalize_printing(p).lstrip("0") for p in card.printings}
            | {normalize_printing(p) for p in card.printings}
            | {normalize_name(name) for name in (card.name, *card.aliases)}
        )

    member_of: dict = {}
    """card -> the (combination, place) pairs the card fills, worked out once per card."""

    def memberships(card) -> tuple:
        found = member_of.get(card)
        if found is None:
            keys = keys_of(card) if combos else set()
            found = member_of[card] = tuple(
                (index, place) for index, combo in enumerate(combos) for place, wanted in enumerate(combo) if keys & wanted
            )
        return found

    listed_counts: dict = {}
    """card -> the count the list gives it, None when the list does not name it (once per card)."""

    def listed(card) -> int | None:
        if card in listed_counts:
            return listed_counts[card]
        count = None
        # a printing code first, then the name, then another face's name (a J-ruler side): a card
        # banned by one printing or face is banned by name, every printing and reprint
        for key in [normalize_printing(p) for p in card.printings] + [normalize_name(n) for n in (card.name, *card.aliases)]:
            key = key.lstrip("0") if key.isdigit() else key
            if key in caps:
                count = caps[key]
                break
        listed_counts[card] = count
        return count

    def cap_of(card) -> int | None:
        """The card's cap: its listed count; on a whitelist 0 for a card not listed."""
        count = listed(card)
        return (0 if banlist.whitelist else None) if count is None else count

    def check(deck: ResolvedDeck) -> list[Finding]:
        findings: list[Finding] = []
        candidates = deck.candidates_for(rule.id, sections, may_matter)
        for card in candidates:
            cap = cap_of(card)
            if cap is None:
                continue
            found = deck.copies(card, sections)
            if found > cap:
                findings.append(breach(deck, card, found, cap))
        if combos:
            findings += combinations(deck, candidates)
        return findings

    def breach(deck: ResolvedDeck, card, found: int, cap: int) -> Finding:
        name = card.name
        entries = deck.entries_of(card, sections)
        if cap == 0:
            status = f"not on the whitelist {banlist.name}" if banlist.whitelist and listed(card) is None else f"forbidden on {banlist.name}"
        else:
            status = f"{'limited' if cap == 1 else 'semi-limited' if cap == 2 else 'capped'} to {cap} on {banlist.name}"
        line, lines, on_lines = lines_of(entries)
        return Finding(
            message=f"{name} is {status}: the deck has {found}{on_lines}",
            section=", ".join(dict.fromkeys(e.section for e in entries)),
            card=name,
            line=line,
            found=found,
            limit="0 (forbidden)" if cap == 0 else f"at most {cap}",
            lines=lines,
        )

    def combinations(deck: ResolvedDeck, candidates) -> Iterator[Finding]:
        """Cards the list bans together (a combination ban), when all of them are in the deck: a
        finding for each of them, on its own line, naming the others and where they are."""
        filled: dict[int, dict[int, object]] = {}
        for card in candidates:
            for index, place in memberships(card):
                filled.setdefault(index, {}).setdefault(place, card)
        for index in sorted(filled):
            if len(filled[index]) < len(combos[index]):
                continue
            present = [deck.entries_of(filled[index][place], sections) for place in range(len(combos[index]))]
            for entries in present:
                others = [
                    f"{other[0].card.name} (line {other[0].line})" if other[0].line is not None else other[0].card.name
                    for other in present
                    if other is not entries
                ]
                yield Finding(
                    message=f"{entries[0].card.name} may not be used together with {' and '.join(others)} on {banlist.name}",
                    section=", ".join(dict.fromkeys(e.section for e in entries)),
                    card=entries[0].card.name,
                    line=entries[0].line,
                    found=len(present),
                    limit="not together",
                )

    def may_matter(card) -> bool:
        """The list caps the card, or names it in a combination."""
        return cap_of(card) is not None or bool(memberships(card))

    check.per_card_candidates = (sections, may_matter)  # the engine's card pass collects the cards the list names
    check.banlist, check.cap_of = banlist, cap_of  # what the list says of a card, for insight (forcecheck.insight.copies)
    return silent_when_empty(check, sections)

