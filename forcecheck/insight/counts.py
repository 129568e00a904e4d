"""The words of a format's count rules (``card-count``: curves and quotas), found vs needed.

The numbers are ``forcecheck.rules.requirements``' (the engine takes the groups of the rules a
deck broke from there, insight every rule); here they become what a player reads: one line per
group, ``cost <=1: 19 (exactly 20) · 2: 16 (at least 15) · 3+: 25 (at least 10)`` for ABC's three curve rules, the
line the text report shows beside a broken curve or quota rule and the stats print and chart.
"""

from __future__ import annotations

from forcecheck.rules.requirements import Requirement


def short(item: Requirement) -> str:
    """Found vs needed, in words: ``19 (exactly 20)``, ``16 (at least 15)``."""
    return f"{item.found} ({item.needed_words})"


def line_of(group: list[Requirement] | tuple[Requirement, ...]) -> str:
    """``cost <=1: 19 (exactly 20) · 2: 16 (at least 15) · 3+: 25 (at least 10)``: one group on one line."""
    parts = [f"{item.label}: {short(item)}" for item in group]
    if group and all(item.costed for item in group):
        parts[0] = "cost " + parts[0]
    return " · ".join(parts)
