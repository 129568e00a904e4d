"""Card pools by region: a Yu-Gi-Oh! format admits only cards released where it is played.

The card data says where each printing was released (a YGOPro database's ``ot``: OCG, TCG or
both). YGOPro's deck check refuses a card the region never had (``DECKERROR_OCGONLY`` in a TCG
duel, ``DECKERROR_TCGONLY`` in an OCG one), judging the passcode a deck lists; forcecheck
does the same for a printing a list names (a .ydk passcode, a ydke code) and judges a card
written by name by any of its printings that carry that name.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from forcecheck.rules.base import Check, Finding, ResolvedDeck, lines_of, plural, silent_when_empty

if TYPE_CHECKING:  # the models are only types here: checking with a cached spec never loads them
    from forcecheck.format_spec.model import CardPoolRule

REGION_NAMES = {"ocg": "OCG", "tcg": "TCG"}

UNKNOWN = "unknown"
BY_PRINTING = "by-printing"


def region_name(region: str) -> str:
    return REGION_NAMES.get(region, region)


RELEASE_SOURCE = "YGOPro's release field, ot; a card released since that data was made needs a newer import"
"""Where a card's regions come from, said with every card-pool finding: the verdict is the card
data's, not a fact forcecheck knows, and an old database is the common cause of a wrong one."""


def released_where(regions) -> str:
    """``OCG-only``, ``TCG-only``, or what else the card data says, in words."""
    if not regions:
        return "released in neither the OCG nor the TCG (an unofficial card)"
    return "/".join(region_name(r) for r in sorted(regions)) + "-only"


def compile_card_pool(rule: CardPoolRule, ctx) -> Check:
    """Every card in the sections was released in the format's region (the card data's OCG/TCG
    release, a YGOPro database's ``ot``); a card listed by a printing (a .ydk passcode) was
    released in that printing. A catalog imported before forcecheck read releases is asked to
    be imported again, never passed."""
    sections = tuple(rule.sections)
    region = rule.region
    shown = region_name(region)
    verdicts: dict = {}
    """card -> True (in the pool), False (out of it), BY_PRINTING or UNKNOWN, once per card."""

    def verdict(card):
        found = verdicts.get(card)
        if found is None:
            if card.regions is None:
                found = UNKNOWN
            elif card.printing_regions:
                found = BY_PRINTING
            else:
                found = region in card.regions
            verdicts[card] = found
        return found

    def check(deck: ResolvedDeck) -> Iterator[Finding]:
        unknown: list = []
        for section_id in sections:
            for card in deck.tally((section_id,)):
                found = verdict(card)
                if found is True:
                    continue
                if found is UNKNOWN:
                    unknown.append((section_id, card))
                elif found is BY_PRINTING:
                    yield from _by_printing(deck, card, section_id)
                else:
                    yield _outside(deck, card, section_id)
        if unknown:
            yield _no_data(deck, unknown)

    def _outside(deck: ResolvedDeck, card, section_id: str) -> Finding:
        entries = deck.entries_of(card, (section_id,))
        line, lines, where = lines_of(entries)
        return Finding(
            message=f"{card.name} is outside the {shown} card pool: the imported card data marks it "
                    f"{released_where(card.regions)} ({RELEASE_SOURCE}){where}",
            section=section_id, card=card.name, line=line, found=sum(e.count for e in entries), lines=lines,
        )

    def _by_printing(deck: ResolvedDeck, card, section_id: str) -> Iterator[Finding]:
        """A card whose printings were released in different regions: each line is judged by
        the printing it means, and the lines of one printing outside the pool are one finding."""
        outside: dict[str, list] = {}
        for entries, cards in deck.parts.get(section_id, ()):
            for entry, listed in zip(entries, cards):
                if listed is not card:
                    continue
                meant = card.printings_meant(entry.printing, entry.name)
                if any(region in (card.regions_of(p) or ()) for p in meant):
                    continue
                outside.setdefault(meant[0], []).append(entry)
        for printing, entries in outside.items():
            line, lines, where = lines_of(entries)
            elsewhere = [p for p in card.printings if region in (card.regions_of(p) or ())]
            instead = f"; its {shown} printing is {' or '.join(elsewhere)}" if elsewhere else ""
            yield Finding(
                message=f"{card.name} is listed as {printing}, a printing outside the {shown} card pool: the imported card "
                        f"data marks it {released_where(card.regions_of(printing))} ({RELEASE_SOURCE}){instead}{where}",
                section=section_id, card=card.name, line=line, found=sum(e.count for e in entries), lines=lines,
            )

    def _no_data(deck: ResolvedDeck, unknown: list) -> Finding:
        section_id, card = unknown[0]
        entries = deck.entries_of(card, (section_id,))
        line, _lines, _where = lines_of(entries)
        return Finding(
            message=f"the catalog does not say where {plural(len(unknown), 'card')} of the deck were released (first: "
                    f"{card.name}), so the {shown} card pool cannot be checked: it was imported by a forcecheck that did "
                    "not read releases; import the card data again (forcecheck catalog import ygopro cards.cdb)",
            section=", ".join(dict.fromkeys(s for s, _c in unknown)), card=card.name, line=line, found=len(unknown),
        )

    return silent_when_empty(check, sections)
