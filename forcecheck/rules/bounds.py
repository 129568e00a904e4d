"""Bounds (min / max / exactly / one of) whose values may come from the ruler."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from forcecheck.rules.base import RulerFacts

if TYPE_CHECKING:
    from forcecheck.spec.model import Bounded


def resolve_quantity(quantity, ruler: RulerFacts) -> tuple[int | None, str | None]:
    """The number and, when it came from the ruler, a note saying so (``Faria's stranger 10``)."""
    if not isinstance(quantity, int):  # a RulerValue (or its cached form): {ruler: keyword}
        value = ruler.keyword(quantity.ruler)
        if value is None:
            return None, None
        return value, f"{ruler.label}'s {quantity.ruler} {value}"
    return quantity, None


@dataclass(frozen=True)
class Verdict:
    ok: bool
    limit: str
    note: str | None


def judge(bound: Bounded, found: int, ruler: RulerFacts) -> Verdict | None:
    """Whether ``found`` keeps the bound; ``None`` when a ruler-derived value is undefined."""
    notes: list[str] = []

    def value(q):
        number, note = resolve_quantity(q, ruler)
        if note:
            notes.append(note)
        return number

    if bound.one_of is not None:
        options = [value(q) for q in bound.one_of]
        if any(o is None for o in options):
            return None
        options = sorted(set(options))
        limit = "exactly " + " or ".join(str(o) for o in options)
        return Verdict(found in options, limit, "; ".join(notes) or None)
    if bound.exactly is not None:
        exact = value(bound.exactly)
        if exact is None:
            return None
        return Verdict(found == exact, f"exactly {exact}", "; ".join(notes) or None)
    low = value(bound.min) if bound.min is not None else None
    high = value(bound.max) if bound.max is not None else None
    if (bound.min is not None and low is None) or (bound.max is not None and high is None):
        return None
    if low is not None and high is not None:
        limit = f"{low} to {high}"
    elif low is not None:
        limit = f"at least {low}"
    else:
        limit = f"at most {high}"
    ok = (low is None or found >= low) and (high is None or found <= high)
    return Verdict(ok, limit, "; ".join(notes) or None)
