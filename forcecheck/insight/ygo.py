"""Yu-Gi-Oh!: monsters, spells and traps per section, the main deck's monster levels and kinds,
spell and trap kinds, and the extra deck by summoning kind (Fusion, Synchro, ...).

Card kinds are the facts the importer reads off YGOPro's type bits (``monster``, ``spell``,
``trap``, ``fusion``, ``synchro``, ``quick-play``, ...) and levels its ``level`` fact; copy
limits and the Forbidden/Limited list are the format's (``forcecheck.insight.copies``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from forcecheck.rules.base import ResolvedDeck

CARD_KINDS = ("monster", "spell", "trap")
EXTRA_KINDS = ("fusion", "synchro", "xyz", "link", "pendulum")
"""How an extra deck monster is summoned; the first the card has names it (others: ``other``)."""
MONSTER_KINDS = ("normal", "effect", "ritual", "tuner", "flip", "spirit", "union", "gemini", "toon")
SPELL_KINDS = ("quick-play", "continuous", "equip", "field", "ritual")
TRAP_KINDS = ("continuous", "counter")
NORMAL = "normal"
OTHER = "other"


@dataclass
class YgoInsight:
    main: str
    by_kind: dict[str, dict[str, int]]
    """Section id -> monster / spell / trap / other -> copies (sections with cards only)."""
    levels: dict[str, int]
    """Level -> copies of main deck monsters, lowest first (``"0"`` for a monster with none)."""
    monster_kinds: dict[str, int]
    """normal / effect / ritual / tuner / ... -> copies of main deck monsters (a card of several counts under each)."""
    spell_kinds: dict[str, int]
    trap_kinds: dict[str, int]
    extra: dict[str, int] | None
    """Summoning kind -> copies in the extra deck (None when the format has no ``extra`` section)."""

    family = "ygo"

    def to_dict(self) -> dict[str, Any]:
        return {
            "main_section": self.main,
            "by_kind": {s: dict(k) for s, k in self.by_kind.items()},
            "levels": dict(self.levels),
            "monster_kinds": dict(self.monster_kinds),
            "spell_kinds": dict(self.spell_kinds),
            "trap_kinds": dict(self.trap_kinds),
            "extra": dict(self.extra) if self.extra is not None else None,
        }


def card_kind(card) -> str:
    return next((kind for kind in CARD_KINDS if kind in card.types), OTHER)


def ygo_insight(deck: ResolvedDeck, fmt, main: str) -> YgoInsight:
    by_kind: dict[str, dict[str, int]] = {}
    for section in fmt.spec.sections:
        tally = deck.tally((section.id,))
        if not tally:
            continue
        counts = dict.fromkeys(CARD_KINDS + (OTHER,), 0)
        for card, copies in tally.items():
            counts[card_kind(card)] += copies
        by_kind[section.id] = counts
    levels: dict[int, int] = {}
    monster_kinds = dict.fromkeys(MONSTER_KINDS, 0)
    spell_kinds = dict.fromkeys((NORMAL,) + SPELL_KINDS, 0)
    trap_kinds = dict.fromkeys((NORMAL,) + TRAP_KINDS, 0)
    for card, copies in deck.tally((main,)).items():
        kind = card_kind(card)
        if kind == "monster":
            level = int(card.keywords.get("level", 0))
            levels[level] = levels.get(level, 0) + copies
            for sub in MONSTER_KINDS:
                if sub in card.types:
                    monster_kinds[sub] += copies
        elif kind in ("spell", "trap"):
            table, kinds = (spell_kinds, SPELL_KINDS) if kind == "spell" else (trap_kinds, TRAP_KINDS)
            named = [sub for sub in kinds if sub in card.types]
            for sub in named or [NORMAL]:
                table[sub] += copies
    extra = None
    if any(s.id == "extra" for s in fmt.spec.sections):
        extra = dict.fromkeys(EXTRA_KINDS[:2], 0)
        for card, copies in deck.tally(("extra",)).items():
            kind = next((k for k in EXTRA_KINDS if k in card.types), OTHER)
            extra[kind] = extra.get(kind, 0) + copies
    return YgoInsight(
        main=main,
        by_kind=by_kind,
        levels={str(level): n for level, n in sorted(levels.items())},
        monster_kinds={k: n for k, n in monster_kinds.items() if n},
        spell_kinds={k: n for k, n in spell_kinds.items() if n},
        trap_kinds={k: n for k, n in trap_kinds.items() if n},
        extra=extra,
    )
