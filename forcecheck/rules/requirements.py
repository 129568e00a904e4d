"""A format's count rules (``card-count``: curves and quotas) on one deck: what each counts, how
many the deck has, and the bound: numbers only (``forcecheck.insight.counts`` words them).

Nothing here is written for one format: each requirement is one ``card-count`` rule of the
spec, counted with the rule's own selector under the format's cost policy, its bound read
from the spec (a ruler-derived bound through the deck's ruler). The engine asks for the groups
of the count rules a deck broke (``broken_groups``: the report shows their line), insight for
every rule (the stats and their charts).

Rules are grouped the way a player reads them: the rules over the same sections that all
count a total-cost band (ABC's ``<=1``, ``2``, ``3+``) form one group (one curve); any other
count rule is a group of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from forcecheck.rules.base import ResolvedDeck
from forcecheck.rules.bounds import resolve_quantity
from forcecheck.rules.selectors import compile_selector

CARD_COUNT = "card-count"


@dataclass(frozen=True)
class Requirement:
    """One count rule on one deck: what it counts, how many the deck has, and the bound."""

    rule: str
    """The rule's id in the format (``curve-cost-2``)."""
    description: str
    sections: tuple[str, ...]
    label: str
    """What is counted, short: the cost band (``<=1``, ``2``, ``3+``) or the selector in words."""
    found: int
    min: int | None
    max: int | None
    one_of: tuple[int, ...] | None = None
    cost_min: int | None = None
    cost_max: int | None = None
    """The total-cost band the rule counts (None, None when it counts no single band)."""
    measure: str = "cards"

    @property
    def costed(self) -> bool:
        return self.cost_min is not None or self.cost_max is not None

    @property
    def ok(self) -> bool:
        if self.one_of is not None:
            return self.found in self.one_of
        return (self.min is None or self.found >= self.min) and (self.max is None or self.found <= self.max)

    @property
    def needed(self) -> str:
        """The bound in symbols: ``20`` (exactly), ``>=15``, ``<=4``, ``12-20``, ``0 or 10``."""
        if self.one_of is not None:
            return " or ".join(str(v) for v in sorted(set(self.one_of)))
        if self.min is not None and self.min == self.max:
            return str(self.min)
        if self.min is not None and self.max is not None:
            return f"{self.min}-{self.max}"
        if self.min is not None:
            return f">={self.min}"
        return f"<={self.max}"

    @property
    def needed_words(self) -> str:
        """The bound in words, as a player reads it: ``exactly 20``, ``at least 15``, ``at most 4``,
        ``12 to 20``, ``0 or 10``."""
        if self.one_of is not None:
            return " or ".join(str(v) for v in sorted(set(self.one_of)))
        if self.min is not None and self.min == self.max:
            return f"exactly {self.min}"
        if self.min is not None and self.max is not None:
            return f"{self.min} to {self.max}"
        if self.min is not None:
            return f"at least {self.min}"
        return f"at most {self.max}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "label": self.label,
            "sections": list(self.sections),
            "found": self.found,
            "min": self.min,
            "max": self.max,
            "one_of": list(self.one_of) if self.one_of is not None else None,
            "needed": self.needed,
            "ok": self.ok,
            "cost_min": self.cost_min,
            "cost_max": self.cost_max,
            "measure": self.measure,
            "description": self.description,
        }


@dataclass(frozen=True)
class _Planned:
    """What a count rule's requirement needs that does not change from deck to deck."""

    spec: Any
    compiled: Any
    sections: tuple[str, ...]
    measure: str
    label: str
    band: tuple[int | None, int | None] | None
    selected: Any


def _plan(fmt) -> list[_Planned]:
    """The format's count rules, worked out once per compiled format (kept on it)."""
    plan = fmt.derived.get("rules.requirements")
    if plan is None:
        compiled = {rule.id: rule for rule in fmt.rules}
        plan = []
        for rule in fmt.spec.rules:
            if rule.kind != CARD_COUNT or rule.id not in compiled:
                continue
            band = cost_band(rule.where)
            # the rule's own predicate (it remembers its answer per card): the engine's count
            counting = getattr(compiled[rule.id].check, "per_card_count", None)
            plan.append(_Planned(
                spec=rule,
                compiled=compiled[rule.id],
                sections=tuple(rule.sections),
                measure=getattr(rule, "measure", "cards") or "cards",
                label=band_label(*band) if band else describe(rule.where),
                band=band,
                selected=counting[1] if counting is not None else compile_selector(rule.where, fmt.cost_of),
            ))
        fmt.derived["rules.requirements"] = plan
    return plan


def requirements(deck: ResolvedDeck, fmt) -> list[Requirement]:
    """Every ``card-count`` rule of the format that applies to this deck, in the spec's order.
    A rule whose bound comes from a keyword the ruler lacks does not apply, as in the engine.
    The numbers are those the engine's card pass counted, when it ran on this deck."""
    counted = deck.counted or {}
    found: list[Requirement] = []
    for item in _plan(fmt):
        rule = item.spec
        if item.compiled.when is not None and not item.compiled.applies(deck):
            continue
        bound = _bound(rule, deck)
        if bound is None:
            continue
        low, high, one_of = bound
        number = counted.get(rule.id)
        if number is None:
            number = _count(deck, item.selected, item.sections, item.measure)
        found.append(
            Requirement(
                rule=rule.id,
                description=rule.description,
                sections=item.sections,
                label=item.label,
                found=number,
                min=low,
                max=high,
                one_of=one_of,
                cost_min=item.band[0] if item.band else None,
                cost_max=item.band[1] if item.band else None,
                measure=item.measure,
            )
        )
    return found


def groups(found: list[Requirement]) -> list[list[Requirement]]:
    """Requirements as a player reads them: the cost bands over the same sections together
    (a curve), every other count rule alone; in the order of each group's first rule."""
    out: list[list[Requirement]] = []
    curves: dict[tuple[str, ...], list[Requirement]] = {}
    for item in found:
        if item.costed:
            if item.sections not in curves:
                curves[item.sections] = []
                out.append(curves[item.sections])
            curves[item.sections].append(item)
        else:
            out.append([item])
    return out


def broken_groups(deck: ResolvedDeck, fmt, rule_ids: set[str]) -> dict[str, tuple[Requirement, ...]]:
    """Rule id -> the deck's group of that rule, for the groups holding one of the given
    (broken) count rules: every rule of such a group maps to the same tuple, the numbers the
    report words as the curve line beside the broken rule."""
    found: dict[str, tuple[Requirement, ...]] = {}
    for group in groups(requirements(deck, fmt)):
        if any(item.rule in rule_ids for item in group):
            shared = tuple(group)
            for item in group:
                found[item.rule] = shared
    return found


def _bound(rule, deck: ResolvedDeck) -> tuple[int | None, int | None, tuple[int, ...] | None] | None:
    """(min, max, one of) with ruler-derived values resolved; None when one is undefined."""

    def value(quantity):
        return resolve_quantity(quantity, deck.ruler)[0]

    if rule.one_of is not None:
        options = tuple(value(q) for q in rule.one_of)
        return None if None in options else (None, None, options)
    if rule.exactly is not None:
        exact = value(rule.exactly)
        return None if exact is None else (exact, exact, None)
    low = value(rule.min) if rule.min is not None else None
    high = value(rule.max) if rule.max is not None else None
    if (rule.min is not None and low is None) or (rule.max is not None and high is None):
        return None
    return low, high, None


def _count(deck: ResolvedDeck, selected, sections: tuple[str, ...], measure: str) -> int:
    tally = deck.tally(sections)
    picked = [card for card in tally if selected(card)]
    if measure == "distinct":
        return len({card.name for card in picked})
    return sum(tally[card] for card in picked)


def cost_band(selector) -> tuple[int | None, int | None] | None:
    """The total-cost band a selector requires, as (low, high), when it requires exactly one:
    its own ``cost`` or that of one part of an ``all``. None for any other selector."""
    if selector is None:
        return None
    bands = []
    cost = getattr(selector, "cost", None)
    if cost is not None:
        bands.append((cost, cost) if isinstance(cost, int) else (getattr(cost, "min", None), getattr(cost, "max", None)))
    for part in getattr(selector, "all", None) or ():
        inner = cost_band(part)
        if inner is not None:
            bands.append(inner)
    return bands[0] if len(bands) == 1 else None


def band_label(low: int | None, high: int | None) -> str:
    """``<=1``, ``2``, ``3+``, ``2-4`` for a cost band: short, as a chart's bars are labelled."""
    low = low or 0
    if high is None:
        return f"{low}+"
    if low == high:
        return str(low)
    if low == 0:
        return f"<={high}"
    return f"{low}-{high}"


def describe(selector) -> str:
    """A selector in a few words: ``ruler, not arcana``, ``master rune``."""
    if selector is None:
        return "cards"
    words: list[str] = []
    for field in ("type", "subtype", "attribute", "keyword", "name"):
        value = getattr(selector, field, None)
        if value is not None:
            words.append(" or ".join(v.replace("-", " ") for v in ([value] if isinstance(value, str) else list(value))))
    cost = getattr(selector, "cost", None)
    if cost is not None:
        low, high = (cost, cost) if isinstance(cost, int) else (getattr(cost, "min", None), getattr(cost, "max", None))
        words.append("cost " + band_label(low, high))
    for part in getattr(selector, "all", None) or ():
        words.append(describe(part))
    anyof = getattr(selector, "any", None)
    if anyof:
        words.append(" or ".join(describe(part) for part in anyof))
    negated = getattr(selector, "not_", None)
    if negated is None:
        negated = getattr(selector, "not", None)
    if negated is not None:
        words.append("not " + describe(negated))
    return ", ".join(words) or "cards"
