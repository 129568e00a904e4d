"""Deck insight: the numbers a player looks at before asking "is it legal?".

Pure computation over a checked deck (its resolution and compiled format): what was read
(sections and counts, the ruler area, corrections), the format's count rules found vs needed,
attribute identity, copies at the limit and the banlist's cards, and the game's own breakdown
(one function per game family: ``FAMILIES``). No I/O and no plotting here: the text renderer,
the JSON, the SVG/PNG charts and the web desk all draw the same ``DeckInsight``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from forcecheck.insight.copies import AtLimit, BanlistView, at_limits, banlist_view
from forcecheck.insight.counts import line_of
from forcecheck.insight.fow import FowInsight, fow_insight, main_section
from forcecheck.insight.identity import Identity, identities
from forcecheck.insight.ygo import YgoInsight, ygo_insight
from forcecheck.rules.requirements import Requirement, groups, requirements

SCHEMA_VERSION = 1


@dataclass(frozen=True)
class SectionCount:
    id: str
    title: str
    cards: int
    """Copies of known cards."""
    distinct: int
    unknown: int = 0
    """Copies of names the catalog does not know (they count toward the section's size)."""

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "cards": self.cards, "distinct": self.distinct, "unknown": self.unknown}


@dataclass(frozen=True)
class RulerCard:
    name: str
    copies: int
    attributes: tuple[str, ...]
    ruler: bool
    """Whether the format's ruler selector picks this card (the ruler whose facts rules read);
    False for another card in the ruler area (a partner, or a card that does not belong there)."""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "copies": self.copies, "attributes": list(self.attributes), "ruler": self.ruler}


@dataclass
class DeckInsight:
    path: str
    format: str
    format_title: str
    game: str
    legal: bool
    errors: int
    warnings: int
    sections: list[SectionCount]
    ruler_section: str | None
    ruler: list[RulerCard]
    unplaced: int
    """Copies written under a header the format does not know, or before any header."""
    requirements: list[Requirement]
    identity: list[Identity]
    copies: list[AtLimit]
    banlist: BanlistView | None
    banlist_rule: bool
    """Whether the format has a banlist rule (``banlist`` None then means no list was applied)."""
    breakdown: FowInsight | YgoInsight | None
    name: str | None = None
    player: str | None = None
    corrections: list[dict[str, Any]] = field(default_factory=list)
    points: dict[str, Any] | None = None
    """In a points format (Genesys): the check's ``decks[].points`` (list, cap, total, cards)."""

    @property
    def requirement_groups(self) -> list[list[Requirement]]:
        return groups(self.requirements)

    @property
    def requirement_lines(self) -> list[str]:
        """``cost <=1: 19/20 · 2: 16 (>=15) · 3+: 25 (>=10)``, one per group of count rules."""
        return [line_of(group) for group in self.requirement_groups]

    def section(self, section_id: str) -> SectionCount | None:
        return next((s for s in self.sections if s.id == section_id), None)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path,
            "format": self.format,
            "game": self.game,
            "name": self.name,
            "player": self.player,
            "legal": self.legal,
            "violations": self.errors,
            "warnings": self.warnings,
            "sections": [s.to_dict() for s in self.sections],
            "unplaced": self.unplaced,
            "ruler": [r.to_dict() for r in self.ruler],
            "corrections": list(self.corrections),
            "requirements": [r.to_dict() for r in self.requirements],
            "requirement_lines": self.requirement_lines,
            "identity": [i.to_dict() for i in self.identity],
            "copies": [c.to_dict() for c in self.copies],
            "banlist": self.banlist.to_dict() if self.banlist else None,
            "banlist_rule": self.banlist_rule,
        }
        if self.points is not None:
            out["points"] = self.points
        if self.breakdown is not None:
            out[self.breakdown.family] = self.breakdown.to_dict()
        return out


def _fow(deck, fmt, found: list[Requirement]):
    costed = next((r.sections for r in found if r.costed), ())
    return fow_insight(deck, fmt, costed)


def _ygo(deck, fmt, found: list[Requirement]):
    return ygo_insight(deck, fmt, main_section(fmt))


FAMILIES: dict[str, Callable] = {"fow": _fow, "ygo": _ygo}
"""Game (the format's ``game``) -> its breakdown: ``(resolved deck, format, requirements) -> breakdown``."""


def deck_insight(report, fmt) -> DeckInsight:
    """The insight of one checked deck: ``report`` is the DeckReport ``check_decklist`` gave
    for it under ``fmt`` (its resolution is read, nothing is checked again)."""
    resolution = report.resolution
    deck = resolution.deck
    spec = fmt.spec
    sections = [
        SectionCount(s.id, s.title, sum(deck.tallies.get(s.id, {}).values()), len(deck.tallies.get(s.id, {})), deck.unknown.get(s.id, 0))
        for s in spec.sections
    ]
    ruler_section = spec.ruler.section if spec.ruler else None
    ruler = [
        RulerCard(card.name, copies, tuple(sorted(card.attributes)), fmt.ruler_selected(card))
        for card, copies in deck.tallies.get(ruler_section, {}).items()
    ] if ruler_section else []
    known = set(fmt.order)
    unplaced = sum(copies for (section, _card), copies in resolution.outside.items() if section not in known)
    found = requirements(deck, fmt)
    family = FAMILIES.get(spec.game)
    errors = sum(1 for v in report.violations if v.severity == "error")
    return DeckInsight(
        path=report.path,
        format=spec.name,
        format_title=spec.title,
        game=spec.game,
        legal=report.legal,
        errors=errors,
        warnings=len(report.violations) - errors,
        sections=sections,
        ruler_section=ruler_section,
        ruler=ruler,
        unplaced=unplaced,
        requirements=found,
        identity=identities(deck, fmt),
        copies=at_limits(deck, fmt),
        banlist=banlist_view(deck, fmt),
        banlist_rule=any(rule.kind == "banlist" for rule in spec.rules),
        breakdown=family(deck, fmt, found) if family else None,
        name=getattr(report, "name", None),
        player=getattr(report, "player", None),
        corrections=_corrections(report),
        points=getattr(report, "points", None),
    )


def _corrections(report) -> list[dict[str, Any]]:
    """Name corrections the reader made (``[{line, written, read_as}]``), when the report
    carries them (issue #12); each as a plain dict whatever form the report keeps."""
    out = []
    for item in getattr(report, "corrections", None) or ():
        if isinstance(item, dict):
            out.append({"line": item.get("line"), "written": item.get("written"), "read_as": item.get("read_as")})
        else:
            out.append({"line": getattr(item, "line", None), "written": getattr(item, "written", None), "read_as": getattr(item, "read_as", None)})
    return out
