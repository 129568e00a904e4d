"""The words of a format's count rules (``card-count``: curves and quotas), found vs needed.

The numbers are ``forcecheck.rules.requirements``' (the engine takes the groups of the rules a
deck broke from there, insight every rule); here they become what a player reads: one line per
group, ``cost <=1: 19/20 · 2: 16 (>=15) · 3+: 25 (>=10)`` for ABC's three curve rules, the
line the text report shows beside a broken curve or quota rule and the stats print and chart.
"""

from __future__ import annotations

from forcecheck.rules.requirements import Requirement


def short(item: Requirement) -> str:
    """Found vs needed: ``19/20`` for an exact number, else ``16 (>=15)``."""
    if item.one_of is None and item.min is not None and item.min == item.max:
        return f"{item.found}/{item.min}"
    return f"{item.found} ({item.needed})"


def line_of(group: list[Requirement] | tuple[Requirement, ...]) -> str:
    """``cost <=1: 19/20 · 2: 16 (>=15) · 3+: 25 (>=10)``: one group on one line."""
    parts = [f"{item.label}: {short(item)}" for item in group]
    if group and all(item.costed for item in group):
        parts[0] = "cost " + parts[0]
    return " · ".join(parts)
