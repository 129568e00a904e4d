"""Ruler conditions: the deckbuilding text of the cards in the ruler area, checked as data.

Each card carries its text as ``Card.conditions`` (``forcecheck.cards.conditions``); this rule
kind knows no card. It reads the conditions of every card in the ruler area (a starting ruler
and its partners alike: the seed's 使用するルーラーカードが構築条件を持つ場合、その条件をすべて
満たしていること, "all of them") and holds the deck to each: ``only``, ``forbid``,
``deck-size``, ``distinct-names``. A card's ``with-ruler`` text ("This card has [Tales] instead
of [Villains] ... as long as your ruler is ...") changes how that card is judged while the
named ruler is in the ruler area. Conditions marked ``while: anywhere`` hold wherever their
card is in the deck (Asmodeus may not be in the sideboard).

Text forcecheck cannot read is never a silent pass: ``unchecked-condition`` warns
about each such sentence of a card in the ruler area.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from forcecheck.cards.conditions import bound_label, label, problem
from forcecheck.cards.model import Card
from forcecheck.cards.names import normalize_name
from forcecheck.records import Record, replace
from forcecheck.rules.base import Check, Finding, ResolvedDeck, join_titles, lines_of, silent_when_empty
from forcecheck.rules.selectors import compile_selector, selector_from_data

if TYPE_CHECKING:  # the models are only types here: checking with a cached spec never loads them
    from forcecheck.format_spec.model import RulerConditionsRule, UncheckedRulerConditionRule

DECK_CONDITIONS = ("only", "forbid", "deck-size", "distinct-names")
"""The kinds this rule judges; copies and the ruler-area kinds belong to copy-limit and ruler-area."""


class Judged(Record):
    """One condition of one card, made ready to judge decks (built once per card and format)."""

    data: dict[str, Any]
    problem: str | None
    test: Callable[[Card], bool] | None
    """For ``only`` / ``forbid``: whether a card breaks the condition."""
    verdicts: dict

    def __init__(
        self,
        data: dict[str, Any],
        problem: str | None,
        test: Callable[[Card], bool] | None = None,
        verdicts: dict | None = None,
    ) -> None:
        self.data = data
        self.problem = problem
        self.test = test
        self.verdicts = {} if verdicts is None else verdicts

    def breaks(self, card: Card) -> bool:
        found = self.verdicts.get(card)
        if found is None:
            found = self.verdicts[card] = self.test(card)
        return found


def names_of(card: Card) -> set[str]:
    """Every name the card goes by (its faces too), normalised: what ``named "X"`` text matches."""
    return {normalize_name(card.name), *(normalize_name(a) for a in card.aliases)}


def ruler_names(deck: ResolvedDeck) -> frozenset[str]:
    return frozenset().union(*(names_of(card) for card in deck.ruler.cards))


def with_ruler(card: Card, rulers: frozenset[str]) -> list[dict]:
    """The card's ``with-ruler`` conditions whose ruler is in the ruler area."""
    return [
        c for c in card.conditions
        if isinstance(c, dict) and c.get("kind") == "with-ruler" and normalize_name(str(c.get("ruler", ""))) in rulers
    ]


def compile_judged(condition: Any, cost_of) -> Judged:
    """Check a condition's shape and compile its test; a broken one is kept with its problem."""
    trouble = problem(condition)
    if trouble is not None:
        return Judged(dict(condition) if isinstance(condition, dict) else {"kind": "?", "text": repr(condition)}, trouble)
    kind = condition["kind"]
    judged = Judged(dict(condition), None)
    try:
        if kind == "only":
            allowed_attributes = frozenset(condition.get("attributes", ()))
            races = frozenset(condition.get("races", ()))
            within = bool(condition.get("within"))

            def breaks_only(card: Card) -> bool:
                fits = not allowed_attributes.isdisjoint(card.attributes) or not races.isdisjoint(card.subtypes)
                return not fits or (within and not card.attributes <= allowed_attributes)

            judged.test = breaks_only
        elif kind == "forbid":
            judged.test = compile_selector(selector_from_data(condition["where"]), cost_of)
    except (ValueError, TypeError, AttributeError) as exc:
        return Judged(dict(condition), f"unreadable selector ({exc})")
    return judged


def compile_ruler_conditions(rule: RulerConditionsRule, ctx) -> Check:
    """The deck meets every condition the cards in the ruler area carry (their deckbuilding
    text as data: only these cards, no such cards, the deck's size, its number of names)."""
    deck_sections = tuple(rule.sections)
    stones = tuple(rule.stone_deck)
    scopes = {"deck": deck_sections, "deck-and-stones": deck_sections + stones, "side": tuple(rule.sideboard)}
    main = tuple(rule.main_deck)
    everywhere = tuple(dict.fromkeys(deck_sections + stones + tuple(rule.sideboard) + main))
    compiled: dict[Card, list[Judged]] = {}
    adjusted: dict[tuple[Card, frozenset], Card] = {}

    def judged_of(card: Card) -> list[Judged]:
        found = compiled.get(card)
        if found is None:
            found = compiled[card] = [compile_judged(c, ctx.cost_of) for c in card.conditions]
        return found

    def has_anywhere(card: Card) -> bool:
        return any(isinstance(c, dict) and c.get("while") == "anywhere" for c in card.conditions)

    def effective(card: Card, rulers: frozenset[str]) -> Card:
        """The card as judged while these rulers are used (its with-ruler keyword changes applied)."""
        if not card.conditions:
            return card
        key = (card, rulers)
        found = adjusted.get(key)
        if found is None:
            found = card
            for change in with_ruler(card, rulers):
                keywords = {k: v for k, v in found.keywords.items() if k not in set(change.get("drop_keywords", ()))}
                keywords.update(change.get("keywords", {}))
                found = replace(found, keywords=keywords)
            adjusted[key] = found
        return found

    def check(deck: ResolvedDeck) -> list[Finding]:
        anywhere = deck.candidates_for(rule.id, everywhere, has_anywhere)
        carriers = [card for card in deck.ruler.cards if card.conditions]
        if not carriers and not anywhere:
            return []
        rulers = ruler_names(deck)
        findings: list[Finding] = []
        for card in carriers:
            for judged in judged_of(card):
                if judged.problem is None and judged.data["kind"] in DECK_CONDITIONS and judged.data.get("while") != "anywhere":
                    findings += judge(deck, card, judged, rulers)
        for card in anywhere:
            for judged in judged_of(card):
                if judged.problem is None and judged.data["kind"] in DECK_CONDITIONS and judged.data.get("while") == "anywhere":
                    findings += judge(deck, card, judged, rulers)
        return findings

    def judge(deck: ResolvedDeck, owner: Card, judged: Judged, rulers: frozenset[str]) -> Iterable[Finding]:
        data = judged.data
        kind = data["kind"]
        what = label(data)
        if kind in ("only", "forbid"):
            for section_id in scopes.get(data.get("in", "deck"), deck_sections):
                for card in deck.tally((section_id,)):
                    if not judged.breaks(effective(card, rulers)):
                        continue
                    entries = deck.entries_of(card, (section_id,))  # one finding per card, naming its lines
                    line, lines, on_lines = lines_of(entries)
                    yield Finding(
                        message=f"{card.name} breaks {owner.name}'s condition: {what}{on_lines}",
                        section=section_id,
                        card=card.name,
                        line=line,
                        found=sum(e.count for e in entries),
                        lines=lines,
                    )
            return
        if kind == "deck-size":
            found = deck.total(main) + sum(deck.unknown.get(s, 0) for s in main)
        else:  # distinct-names
            found = len({card.name for card in deck.tally(main)})
        if _keeps(data, found):
            return
        noun = "card" if kind == "deck-size" else "different card name"
        yield Finding(
            message=f"{join_titles(deck, main)} has {found} {noun}{'s' if found != 1 else ''}; {owner.name} requires {what}",
            section=", ".join(main),
            card=owner.name,
            line=deck.line_of(main),
            found=found,
            limit=bound_label(data),
        )

    check.per_card_candidates = (everywhere, has_anywhere)  # the card pass finds cards whose text holds anywhere
    return silent_when_empty(check, everywhere + (ctx.spec.ruler.section,) if ctx.spec.ruler else everywhere)


def _keeps(data: dict, found: int) -> bool:
    if data.get("exactly") is not None:
        return found == data["exactly"]
    low, high = data.get("min"), data.get("max")
    return (low is None or found >= low) and (high is None or found <= high)


def compile_unchecked_ruler_condition(rule: UncheckedRulerConditionRule, ctx) -> Check:
    """A warning for each piece of deckbuilding text of a card in the ruler area that forcecheck
    does not model: never a silent pass ("ruler condition not checked: <text>")."""
    sections = tuple(rule.sections)
    unread: dict[Card, list[str]] = {}

    def texts_of(card: Card) -> list[str]:
        """The card's text forcecheck does not check: sentences the importer could not read, and
        conditions whose data is malformed (a hand-edited catalog file)."""
        found = unread.get(card)
        if found is None:
            found = list(card.unchecked)
            for condition in card.conditions:
                trouble = compile_judged(condition, ctx.cost_of).problem
                if trouble is not None:
                    text = condition.get("text") if isinstance(condition, dict) else None
                    found.append(f"{text or condition!r} (forcecheck cannot read it: {trouble})")
            unread[card] = found
        return found

    def check(deck: ResolvedDeck) -> list[Finding]:
        findings: list[Finding] = []
        for section_id in sections:
            for card in deck.tally((section_id,)):
                if not card.unchecked and not card.conditions:
                    continue
                texts = texts_of(card)
                if not texts:
                    continue
                entries = deck.entries_of(card, (section_id,))
                for text in texts:
                    findings.append(Finding(
                        message=f"ruler condition not checked: {text} ({card.name})",
                        section=section_id,
                        card=card.name,
                        line=entries[0].line if entries else deck.line_of([section_id]),
                    ))
        return findings

    return silent_when_empty(check, sections)
