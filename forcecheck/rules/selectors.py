"""Selectors compiled to predicates over ``Card`` facts, once per spec (the hot path is a call)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from forcecheck.cards.model import Card
from forcecheck.cards.names import normalize_name
from forcecheck.format_spec.slugs import slugify

if TYPE_CHECKING:  # the models are only types here: checking with a cached spec never loads them
    from forcecheck.format_spec.model import CostRange, Selector

Predicate = Callable[[Card], bool]
CostFn = Callable[[Card], int]


def cost_function(policy: str) -> CostFn:
    """Total cost of a card under the format's double-faced policy (front / max / sum).

    An Alternative (split) card always costs its two halves combined (CR 1307.5b).
    """
    if policy == "max":
        pick = max
    elif policy == "sum":
        pick = sum
    else:
        pick = None

    def cost_of(card: Card) -> int:
        if not card.faces:
            return card.total_cost
        if card.split:
            return sum(card.face_costs())
        return pick(card.face_costs()) if pick else card.total_cost

    return cost_of


def _as_list(value) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def compile_selector(selector: Selector | None, cost_of: CostFn) -> Predicate:
    """A predicate for the selector; ``None`` selects every card.

    The answer for a card is remembered (cards are immutable facts and the same few hundred
    cards recur across a batch of decks), keyed by the card object (cards hash by identity).
    """
    if selector is None:
        return _every_card
    test = _compile(selector, cost_of)
    cache: dict[Card, bool] = {}

    def remembered(card: Card) -> bool:
        result = cache.get(card)
        if result is None:
            result = cache[card] = test(card)
        return result

    return remembered


def _every_card(card: Card) -> bool:
    return True


def _compile(selector: Selector, cost_of: CostFn) -> Predicate:
    tests: list[Predicate] = []
    if selector.type is not None:
        types = frozenset(slugify(t) for t in _as_list(selector.type))
        tests.append(lambda card: not types.isdisjoint(card.types))
    if selector.subtype is not None:
        subtypes = frozenset(slugify(t) for t in _as_list(selector.subtype))
        tests.append(lambda card: not subtypes.isdisjoint(card.subtypes))
    if selector.attribute is not None:
        wanted = frozenset(slugify(a) for a in _as_list(selector.attribute))
        none = "none" in wanted
        attrs = wanted - {"none"}
        tests.append(lambda card: (none and not card.attributes) or not attrs.isdisjoint(card.attributes))
    if selector.keyword is not None:
        keywords = frozenset(slugify(k) for k in _as_list(selector.keyword))
        tests.append(lambda card: any(k in card.keywords for k in keywords))
    if selector.name is not None:
        names = frozenset(normalize_name(n) for n in _as_list(selector.name))
        tests.append(
            lambda card: normalize_name(card.name) in names or any(normalize_name(a) in names for a in card.aliases)
        )
    if selector.cost is not None:
        tests.append(_cost_test(selector.cost, cost_of))
    alternative = getattr(selector, "alternative", None)
    if alternative is not None:
        tests.append(lambda card: card.split == alternative)
    if selector.all is not None:
        parts = [_compile(s, cost_of) for s in selector.all]
        tests.append(lambda card: all(p(card) for p in parts))
    if selector.any is not None:
        parts = [_compile(s, cost_of) for s in selector.any]
        tests.append(lambda card: any(p(card) for p in parts))
    if selector.not_ is not None:
        inner = _compile(selector.not_, cost_of)
        tests.append(lambda card: not inner(card))
    if len(tests) == 1:
        return tests[0]
    return lambda card: all(t(card) for t in tests)


def _cost_test(cost: int | CostRange, cost_of: CostFn) -> Predicate:
    if isinstance(cost, int):
        return lambda card: cost_of(card) == cost
    low = cost.min if cost.min is not None else 0
    high = cost.max
    if high is None:
        return lambda card: cost_of(card) >= low
    return lambda card: low <= cost_of(card) <= high


def _fields_tested(selector, found: list[str]) -> list[str]:
    """The card facts a selector asks about, in the order it asks (nested ones included)."""
    for field in ("type", "subtype", "attribute", "cost", "keyword"):
        if getattr(selector, field, None) is not None and field not in found:
            found.append(field)
    for nested in (getattr(selector, "all", None) or []) + (getattr(selector, "any", None) or []):
        _fields_tested(nested, found)
    if getattr(selector, "not_", None) is not None:
        _fields_tested(selector.not_, found)
    return found


def _shown(values) -> str:
    return ", ".join(sorted(v.replace("-", " ") for v in values))


def card_facts(selector, card: Card, cost_of: CostFn) -> str:
    """What the card is, in the facts the selector asks about: the reason a card may not stand
    where it stands ("resonator", "ruler; race/sub-type valkyrie"), so the player need not look it up.
    Empty when the selector asks only about names."""
    race = "race/sub-type" if card.game == "fow" else "monster type" if "monster" in card.types else "subtype"
    said = {
        "type": lambda: _shown(card.types) or "no card type",
        "subtype": lambda: f"{race} {_shown(card.subtypes)}" if card.subtypes else f"no {race}",
        "attribute": lambda: f"attribute {_shown(card.attributes)}" if card.attributes else "no attribute",
        "cost": lambda: f"total cost {cost_of(card)}",
        "keyword": lambda: f"keywords {_shown(card.keywords)}" if card.keywords else "no keyword",
    }
    return "; ".join(said[field]() for field in _fields_tested(selector, []))


_SELECTOR_FIELDS = ("type", "subtype", "attribute", "keyword", "name", "cost", "all", "any", "not_", "alternative")


def selector_from_data(data) -> object:
    """A selector written as plain data (a card condition's ``where``: ``{"keyword": "tales"}``)
    in the shape ``compile_selector`` reads, without the pydantic models. Unknown keys raise
    ValueError: a condition forcecheck cannot read is reported, never half-read."""
    from types import SimpleNamespace

    if not isinstance(data, dict) or not data:
        raise ValueError(f"not a selector: {data!r}")
    values = dict.fromkeys(_SELECTOR_FIELDS)
    for key, value in data.items():
        field = "not_" if key == "not" else key
        if field not in values:
            raise ValueError(f"unknown selector key {key!r}")
        if field in ("all", "any"):
            value = [selector_from_data(item) for item in value]
        elif field == "not_":
            value = selector_from_data(value)
        elif field == "cost" and isinstance(value, dict):
            value = SimpleNamespace(min=value.get("min"), max=value.get("max"))
        values[field] = value
    return SimpleNamespace(**values)
