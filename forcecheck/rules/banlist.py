"""Banlists: banned and Forbidden/Limited lists as data, a copy cap per listed card (0 = banned)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from forcecheck.banlists import Banlist, counts_points
from forcecheck.cards.names import normalize_name, normalize_printing
from forcecheck.rules.base import Check, Finding, ResolvedDeck, lines_of, silent_when_empty

if TYPE_CHECKING:  # the models are only types here: checking with a cached spec never loads them
    from forcecheck.format_spec.model import BanlistRule


def rule_banlist(rule: BanlistRule, chosen: Banlist | None, as_of: str | None = None) -> Banlist | None:
    """The list a banlist rule applies: the one chosen for the run, else the spec's version in
    force on ``as_of``, else the list written in the spec."""
    if chosen is not None:
        return chosen
    if rule.versions:
        from forcecheck.banlists import in_force

        versions = [
            Banlist(name=v.name, game="", entries=dict(v.cards), whitelist=v.whitelist, source=v.source,
                    date=str(v.effective), combinations=[list(c) for c in v.combinations],
                    missing=getattr(v, "missing", "") if getattr(v, "record", "complete") == "partial" else "")
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


def keyed(entries: dict) -> dict[str, int]:
    """A list's entries under every key a card may be looked up by (``_keys``): the first entry
    of a key wins."""
    table: dict[str, int] = {}
    for key, count in entries.items():
        for k in _keys(str(key)):
            table.setdefault(k, count)
    return table


def listed_in(table: dict[str, int], card) -> int | None:
    """What ``table`` (``keyed``) says of the card, None when it names it nowhere: a printing code
    first, then the name, then another face's name (a J-ruler side). A card named by one
    printing or face is named by every printing and reprint."""
    for key in [normalize_printing(p) for p in card.printings] + [normalize_name(n) for n in (card.name, *card.aliases)]:
        key = key.lstrip("0") if key.isdigit() else key
        if key in table:
            return table[key]
    return None


def _code(printing: str) -> str:
    return normalize_printing(printing).lstrip("0")


def compile_banlist(rule: BanlistRule, ctx) -> Check:
    """Listed cards, by name, printing code or passcode, are capped at their listed count;
    on a whitelist (a card pool) every card not listed is forbidden. Alternate printings share
    one cap; a card "treated as" another is in a whitelist's pool only when it is listed itself."""
    banlist = rule_banlist(rule, getattr(ctx, "banlist", None), getattr(ctx, "as_of", None))
    sections = tuple(rule.sections)
    if banlist is None:
        return lambda deck: ()
    points = counts_points(rule)
    if bool(getattr(banlist, "points", False)) != points:
        from forcecheck.rules.points import compile_wrong_list

        return compile_wrong_list(rule, banlist)
    if points:
        from forcecheck.rules.points import compile_points

        return compile_points(rule, banlist, ctx)
    caps = keyed(banlist.entries)
    pool_only = bool(getattr(rule, "pool_only", False))
    catalog = getattr(ctx, "catalog", None)
    notes = _against_catalog(banlist, caps, catalog, banlist.game or ctx.spec.game) if catalog is not None else []
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
        if card not in listed_counts:
            listed_counts[card] = listed_in(caps, card)
        return listed_counts[card]

    def cap_of(card) -> int | None:
        """The card's cap: its listed count; on a whitelist 0 for a card not listed."""
        count = listed(card)
        if count is None:
            return 0 if banlist.whitelist else None
        return None if count and pool_only else count

    admitted_printings: dict = {}
    """card -> the printings a whitelist admits, for cards with printings "treated as" them."""

    def admitted(card) -> frozenset[str]:
        """The printings of ``card`` in the whitelist's pool: the ones carrying the card's own
        name when any of them (or the name) is listed, as alternate artworks of one card; a
        printing with a name of its own only when it (or its name) is listed."""
        found = admitted_printings.get(card)
        if found is None:
            own = [p for p in card.printings if p not in card.printing_names]
            out = set(own) if any(_code(p) in caps for p in own) or normalize_name(card.name) in caps else set()
            out.update(p for p, name in card.printing_names.items() if _code(p) in caps or normalize_name(name) in caps)
            found = admitted_printings[card] = frozenset(out)
        return found

    def check(deck: ResolvedDeck) -> list[Finding]:
        findings: list[Finding] = []
        candidates = deck.candidates_for(rule.id, sections, may_matter)
        for card in candidates:
            cap = cap_of(card)
            if cap is None:
                continue
            outside, skip = [], set()
            if banlist.whitelist and card.printing_names:
                outside, skip = outside_the_pool(deck, card)
                findings += outside
            found = deck.copies(card, sections) - sum(f.found for f in outside)
            if found > cap:
                findings.append(breach(deck, card, found, cap, skip))
        if combos:
            findings += combinations(deck, candidates)
        return findings

    def outside_the_pool(deck: ResolvedDeck, card) -> tuple[list[Finding], set]:
        """The lines of a card with printings "treated as" it whose printing the whitelist does
        not admit: one finding per printing, naming it (``Pacifis, the Phantasm City`` is not
        ``Umi`` in a card pool, though it counts as Umi for copies), and those lines as
        ``(line, written)`` pairs, which the card's cap then leaves out."""
        pool = admitted(card)
        lines: dict[str, list] = {}
        for section_id in sections:
            for entries, cards in deck.parts.get(section_id, ()):
                for entry, listed_card in zip(entries, cards):
                    if listed_card is not card:
                        continue
                    meant = card.printings_meant(entry.printing, entry.name)
                    if not pool.intersection(meant):
                        name = card.printing_names.get(meant[0], card.name)
                        lines.setdefault(name, []).append((section_id, entry))
        out = []
        for name, found in lines.items():
            line, numbers, where = lines_of([entry for _s, entry in found])
            treated = f" (treated as {card.name})" if name != card.name else ""
            out.append(Finding(
                message=f"{name}{treated} is not on the whitelist {banlist.name} (outside its card pool): the deck has "
                        f"{sum(e.count for _s, e in found)}{where}",
                section=", ".join(dict.fromkeys(s for s, _e in found)), card=name, line=line,
                found=sum(e.count for _s, e in found), limit="0 (forbidden)", lines=numbers,
            ))
        return out, {(entry.line, entry.name) for found in lines.values() for _s, entry in found}

    def breach(deck: ResolvedDeck, card, found: int, cap: int, skip: set = frozenset()) -> Finding:
        name = card.name
        entries = deck.entries_of(card, sections)
        if skip:
            entries = [e for e in entries if (e.line, e.written) not in skip]
        if cap == 0:
            status = (f"not on the whitelist {banlist.name} (outside its card pool)" if banlist.whitelist and listed(card) is None
                      else f"forbidden on {banlist.name}")
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
    check.notes = notes  # what the list names that the catalog does not know (forcecheck.session notes it once)
    return silent_when_empty(check, sections)


def _against_catalog(banlist: Banlist, caps: dict[str, int], catalog, game: str) -> list[str]:
    """The list's passcodes that the catalog does not know: an entry whose comment names a card
    the catalog knows is applied to that card (EDOPro's GOAT list names ~190 cards by the
    passcodes of their pre-errata versions, ``504700178 1 --Sangan``, which a YGOPro database
    does not hold); the others, cards newer than the card data, are skipped. One note each."""
    codes = [key for key in banlist.entries if key.isdigit()]
    if not codes:
        return []
    known = catalog.known_printings(game, codes)
    missing = [code for code in codes if code.lstrip("0") not in known]
    if not missing:
        return []
    by_name: list[str] = []
    skipped: list[str] = []
    for code in missing:
        label = banlist.labels.get(code)
        card = catalog.by_name(game, label) if label else None
        if card is None:
            skipped.append(code)
            continue
        caps.setdefault(normalize_name(card.name), banlist.entries[code])
        by_name.append(card.name)
    notes = []
    if by_name:
        shown = ", ".join(by_name[:3]) + (" ..." if len(by_name) > 3 else "")
        notes.append(f"banlist {banlist.name}: {_entries(len(by_name))} passcodes that {catalog.label} does not know (other "
                     f"versions of a card, such as pre-errata ones); each applies to the card its comment names ({shown})")
    if skipped:
        from forcecheck.cards.catalog import SAMPLE_CATALOG_LABEL

        shown = ", ".join(skipped[:3]) + (" ..." if len(skipped) > 3 else "")
        why = ("it holds only the cards of the sample decks and tests" if catalog.label == SAMPLE_CATALOG_LABEL
               else "cards newer than its card data, or versions of a card it lacks")
        notes.append(f"banlist {banlist.name}: {_entries(len(skipped))} passcodes that {catalog.label} does not know ({shown}: "
                     f"{why}); they are skipped")
    return notes


def _entries(count: int) -> str:
    return "1 entry names" if count == 1 else f"{count} entries name"


def missing_list_advice(rule) -> str:
    """What to do when a format's list is not there: the file it is published as and the command
    that imports it (``list_file``), else the import and --banlist-file commands; never the
    format's ``imported`` regular expression, which says nothing to a player."""
    if getattr(rule, "list_file", None):
        name = rule.list_file.rstrip("/").rsplit("/", 1)[-1].replace("%20", " ")
        shown = f'"{name}"' if " " in name else name
        return (f"the format's list is not imported: download {rule.list_file} and run 'forcecheck banlist import {shown}', "
                "or name the file with --banlist-file FILE")
    return ("no imported list is one of the format's: import one (forcecheck banlist import FILE; 'forcecheck catalog fetch ygo' "
            "brings today's OCG and TCG lists) or name a file with --banlist-file FILE")


def compile_missing_list(rule: BanlistRule, ctx, reason: str | None = None) -> Check:
    """A banlist rule that must have a list (``required``: the format's card pool) and has none:
    every deck is told so, never passed as legal. ``reason`` is why none applies, when the choice
    of lists said more than "not imported" (a Genesys list imported before points were read)."""
    what = "the deck's points cannot be counted" if counts_points(rule) else "the card pool cannot be checked"
    why = reason.removeprefix("none: ") if reason and "import its file again" in reason else missing_list_advice(rule)
    message = f"no list to apply, so {what}: {why}; --banlist none checks the structure alone"

    def check(deck: ResolvedDeck) -> list[Finding]:
        return [Finding(message=message, section=None)]

    return check

