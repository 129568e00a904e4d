"""A points cap (Yu-Gi-Oh! Genesys): each card is worth the points its list gives it, 0 when the
list does not name it, and the cards of the sections together may carry at most the cap.

The list is a points list (EDOPro's ``$genesys``), chosen as any banlist rule's list is (the
imported one in force on the event's date, ``--banlist``, ``--banlist-file``); the cap is the
rule's ``points_cap``, or the run's ``--points-cap`` / ``points_cap`` setting (an organiser
may set any number, 0 included). A card is worth its points once per copy.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from forcecheck.cards.names import normalize_name
from forcecheck.rules.banlist import keyed, listed_in
from forcecheck.rules.base import Check, Finding, ResolvedDeck, silent_when_empty

if TYPE_CHECKING:
    from forcecheck.banlists import Banlist
    from forcecheck.format_spec.model import BanlistRule

SHOWN_CARDS = 8
"""How many pointed cards an over-the-cap finding names (most points first); the rest are counted."""


def compile_points(rule: BanlistRule, banlist: Banlist, ctx) -> Check:
    """Over the cap is one finding: the total, the cap, and the cards that carry the points."""
    sections = tuple(rule.sections)
    cap = getattr(ctx, "points_cap", None)
    cap = rule.points_cap if cap is None else cap
    points = keyed(banlist.entries)
    if getattr(ctx, "catalog", None) is not None:  # a passcode the card data lacks: the card its comment names
        for code, label in banlist.labels.items():
            card = ctx.catalog.by_name(banlist.game or ctx.spec.game, label)
            if card is not None:
                points.setdefault(normalize_name(card.name), banlist.entries.get(code, 0))
    worth: dict = {}

    def points_of(card) -> int:
        """The card's points: by any of its passcodes (alternate artworks share them), else its names."""
        found = worth.get(card)
        if found is None:
            found = worth[card] = listed_in(points, card) or 0
        return found

    def check(deck: ResolvedDeck) -> Iterator[Finding]:
        carried = [(card, copies, points_of(card)) for card, copies in deck.tally(sections).items() if points_of(card)]
        total = sum(copies * value for _card, copies, value in carried)
        if total <= cap:
            return
        carried.sort(key=lambda item: (-item[1] * item[2], item[0].name))
        shown = [f"{card.name} {copies} x {value}" for card, copies, value in carried[:SHOWN_CARDS]]
        more = len(carried) - SHOWN_CARDS
        listed = ", ".join(shown) + (f" and {more} more" if more > 0 else "")
        first = next((e.line for e in deck.entries_of(carried[0][0], sections) if e.line is not None), None)
        yield Finding(
            message=f"the deck carries {total} points on {banlist.name}, over the cap of {cap}: {listed}",
            section=", ".join(s for s in sections if deck.tally((s,))),
            card=carried[0][0].name,
            line=first,
            found=total,
            limit=f"at most {cap}",
        )

    check.points_of, check.points_cap = points_of, cap  # for the reports that show a deck's points (engine._points)
    check.points_sections, check.points_list = sections, banlist.name
    return silent_when_empty(check, sections)


def compile_wrong_list(rule: BanlistRule, banlist: Banlist) -> Check:
    """A list of the other kind named for the rule: a points list for a Forbidden/Limited rule,
    or a Forbidden/Limited list for a points cap. Every deck is told, never judged by it."""
    from forcecheck.banlists import counts_points

    if counts_points(rule):
        message = (f"{banlist.name} is a Forbidden/Limited list, not a points list: this format counts points "
                   "(a $genesys list: --banlist NAME of one, or --banlist-file FILE)")
    else:
        message = (f"{banlist.name} is a points list (Genesys), not a Forbidden/Limited list: name the format's own list, "
                   "or --banlist none to check the rest")

    def check(deck: ResolvedDeck) -> list[Finding]:
        return [Finding(message=message, section=None)]

    return check
