"""Banlists: Forbidden / Limited lists as data, a copy cap per listed card (0 = banned)."""

from __future__ import annotations

from typing import Iterator

from forcecheck.cards.names import normalize_name, normalize_printing
from forcecheck.rules.base import Check, Finding, ResolvedDeck
from forcecheck.spec.model import BanlistRule


def compile_banlist(rule: BanlistRule, ctx) -> Check:
    """Listed cards, by name or printing code/passcode, are capped at their listed count."""
    by_name = {normalize_name(k): v for k, v in rule.cards.items()}
    by_code = {normalize_printing(k): v for k, v in rule.cards.items()}
    sections = tuple(rule.sections)

    def cap_of(card) -> int | None:
        cap = by_name.get(normalize_name(card.name))
        if cap is None:
            for code in card.printings:
                cap = by_code.get(normalize_printing(code))
                if cap is not None:
                    break
        return cap

    def check(deck: ResolvedDeck) -> Iterator[Finding]:
        totals: dict[str, list] = {}
        for entry in deck.entries(sections):
            totals.setdefault(entry.card.name, []).append(entry)
        for name, entries in totals.items():
            cap = cap_of(entries[0].card)
            found = sum(e.count for e in entries)
            if cap is None or found <= cap:
                continue
            status = "forbidden" if cap == 0 else f"limited to {cap}"
            yield Finding(
                message=f"{name} is {status} on {rule.list_name}: the deck has {found}",
                section=", ".join(dict.fromkeys(e.section for e in entries)),
                card=name,
                line=entries[0].line,
                found=found,
                limit="0 (forbidden)" if cap == 0 else f"at most {cap}",
            )

    return check
