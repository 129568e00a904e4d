"""A deck's insight as bar charts: plain data (title, bars, targets, colour keys) that the text
renderer draws with characters and the picture renderer with matplotlib, so the two always
show the same bars. Which charts a deck gets follows from its game's breakdown and its
format's count rules; nothing here draws.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from forcecheck.insight import DeckInsight
from forcecheck.insight.counts import short
from forcecheck.insight.fow import FowInsight
from forcecheck.insight.ygo import YgoInsight
from forcecheck.rules.requirements import Requirement


@dataclass(frozen=True)
class Target:
    """What a bar is measured against: a count rule's bound."""

    needed: str
    """``20``, ``>=15``, ``<=4``, ``12-20``."""
    min: int | None
    max: int | None
    ok: bool
    verdict: str
    """``ok``, ``1 short``, ``2 over``, ``not 0 or 10``."""


@dataclass(frozen=True)
class Bar:
    label: str
    value: int
    tone: str | None = None
    """Colour key: an attribute (``light``), a card kind (``spell``), ``band-N`` for the N-th
    cost band of a curve rule, ``ok`` / ``broken`` for a rule's bar, None for the default."""
    target: Target | None = None


@dataclass(frozen=True)
class Chart:
    key: str
    """Stable id: ``curve``, ``curve-rules``, ``attributes``, ``types``, ``stones``, ``kinds``,
    ``levels``, ``extra``."""
    title: str
    note: str = ""
    bars: list[Bar] = field(default_factory=list)
    legend: list[tuple[str, str]] = field(default_factory=list)
    """(tone, text) pairs explaining the colours (the curve's cost bands)."""

    @property
    def top(self) -> int:
        """The largest value or target the chart must fit."""
        values = [b.value for b in self.bars]
        values += [v for b in self.bars if b.target for v in (b.target.min, b.target.max) if v is not None]
        return max(values, default=0)


def target_of(item: Requirement) -> Target:
    if item.ok:
        verdict = "ok"
    elif item.one_of is not None:
        verdict = f"not {item.needed}"
    elif item.min is not None and item.found < item.min:
        verdict = f"{item.min - item.found} short"
    else:
        verdict = f"{item.found - item.max} over"
    low = item.min if item.one_of is None else min(item.one_of)
    high = item.max if item.one_of is None else max(item.one_of)
    return Target(item.needed, low, high, item.ok, verdict)


def charts_of(insight: DeckInsight) -> list[Chart]:
    """The deck's charts, most telling first."""
    if isinstance(insight.breakdown, FowInsight):
        return _fow_charts(insight, insight.breakdown)
    if isinstance(insight.breakdown, YgoInsight):
        return _ygo_charts(insight, insight.breakdown)
    return [Chart("sections", "Cards per section", bars=[Bar(s.title, s.cards) for s in insight.sections if s.cards])]


def _title(insight: DeckInsight, section_id: str) -> str:
    found = insight.section(section_id)
    return found.title if found else section_id


POLICY_WORDS = {"front": "front face", "max": "higher face", "sum": "both faces"}


def _fow_charts(insight: DeckInsight, fow: FowInsight) -> list[Chart]:
    charts: list[Chart] = []
    curve = fow.curve
    bands = [r for r in insight.requirements if r.costed and r.sections[:1] == (curve.section,)]

    def band_of(label: str) -> str | None:
        cost = int(label.rstrip("+"))
        for index, item in enumerate(bands):
            low, high = item.cost_min or 0, item.cost_max
            if cost >= low and (high is None or cost <= high):
                return f"band-{index}"
        return None

    note = [_title(insight, curve.section), f"{curve.cards} cards"]
    if curve.rulers:
        note.append(f"{curve.rulers} ruler{'s' if curve.rulers != 1 else ''} apart")
    if curve.average is not None:
        note.append(f"average {curve.average:.2f}")
    note.append(f"double-faced cards at the {POLICY_WORDS.get(curve.policy, curve.policy)}")
    charts.append(Chart(
        "curve",
        "Cost curve",
        " · ".join(note),
        [Bar(label, n, band_of(label) if bands else "cost") for label, n in curve.buckets.items()],
        [(f"band-{i}", f"cost {item.label}: {short(item)}") for i, item in enumerate(bands)],
    ))
    if bands:
        charts.append(Chart(
            "curve-rules",
            "Curve rules",
            f"{insight.format}: found vs needed",
            [Bar(f"cost {item.label}", item.found, f"band-{i}", target_of(item)) for i, item in enumerate(bands)],
        ))
    present = [(a, n) for a, n in fow.attributes.items() if n]
    multi = f"{fow.multi_attribute} multi-attribute, counted under each" if fow.multi_attribute else "no multi-attribute cards"
    charts.append(Chart(
        "attributes",
        "Attributes",
        f"{_title(insight, fow.main)} · {multi}",
        [Bar(a, n, a) for a, n in present],
    ))
    charts.append(Chart(
        "types",
        "Card types",
        f"{_title(insight, fow.main)} · a card counts under each of its types",
        [Bar(t, n, "type") for t, n in fow.types.items()],
    ))
    for stones in fow.stones:
        if not stones.cards:
            continue
        parts = [_title(insight, stones.section), f"{stones.cards} stones", f"{stones.basic} basic", f"{stones.special} special"]
        if stones.no_will:
            parts.append(f"{stones.no_will} without will")
        charts.append(Chart(
            "stones",
            "Will of the stones",
            " · ".join(parts),
            [Bar(a, n, a) for a, n in stones.will.items() if n],
        ))
    return charts


def _ygo_charts(insight: DeckInsight, ygo: YgoInsight) -> list[Chart]:
    charts: list[Chart] = []
    main = ygo.by_kind.get(ygo.main)
    if main:
        charts.append(Chart(
            "kinds",
            "Monsters, spells, traps",
            f"{_title(insight, ygo.main)} · {sum(main.values())} cards",
            [Bar(k, n, k) for k, n in main.items() if n or k != "other"],
        ))
    if ygo.levels:
        charts.append(Chart(
            "levels",
            "Monster levels",
            f"{_title(insight, ygo.main)} · {sum(ygo.levels.values())} monsters",
            [Bar(level, n, "monster") for level, n in ygo.levels.items()],
        ))
    if ygo.extra is not None:
        charts.append(Chart(
            "extra",
            "Extra deck by kind",
            f"{_title(insight, 'extra')} · {sum(ygo.extra.values())} cards",
            [Bar(k, n, k) for k, n in ygo.extra.items() if n or k in ("fusion", "synchro")],
        ))
    return charts
