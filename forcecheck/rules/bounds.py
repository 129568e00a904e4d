"""Bounds (min / max / exactly / one of) whose values may come from the ruler."""

from __future__ import annotations

from typing import TYPE_CHECKING

from forcecheck.records import Record
from forcecheck.rules.base import RulerFacts

if TYPE_CHECKING:
    from forcecheck.format_spec.model import Bounded


def resolve_quantity(quantity, ruler: RulerFacts) -> tuple[int | None, str | None]:
    """The number and, when it came from the ruler, a note saying so (``Faria's stranger 10``)."""
    if not isinstance(quantity, int):  # a RulerValue (or its cached form): {ruler: keyword}
        value = ruler.keyword(quantity.ruler)
        if value is None:
            return None, None
        return value, f"{ruler.label}'s {quantity.ruler} {value}"
    return quantity, None


class Verdict(Record, frozen=True):
    ok: bool
    limit: str
    note: str | None

    def __init__(self, ok: bool, limit: str, note: str | None) -> None:
        _set = object.__setattr__
        _set(self, "ok", ok)
        _set(self, "limit", limit)
        _set(self, "note", note)


KEPT = Verdict(True, "", None)
"""The verdict for a bound that holds: nothing is shown, so no limit text is built."""


def judge(bound: Bounded, found: int, ruler: RulerFacts) -> Verdict | None:
    """Whether ``found`` keeps the bound; ``None`` when a ruler-derived value is undefined.
    The limit and its note are only worked out for a bound that is broken."""

    def value(q):
        return q if isinstance(q, int) else ruler.keyword(q.ruler)

    if bound.one_of is not None:
        options = [value(q) for q in bound.one_of]
        if any(o is None for o in options):
            return None
        if found in options:
            return KEPT
        limit = "exactly " + " or ".join(str(o) for o in sorted(set(options)))
        return Verdict(False, limit, _notes(bound.one_of, ruler))
    if bound.exactly is not None:
        exact = value(bound.exactly)
        if exact is None:
            return None
        if found == exact:
            return KEPT
        return Verdict(False, f"exactly {exact}", _notes([bound.exactly], ruler))
    low = value(bound.min) if bound.min is not None else None
    high = value(bound.max) if bound.max is not None else None
    if (bound.min is not None and low is None) or (bound.max is not None and high is None):
        return None
    if (low is None or found >= low) and (high is None or found <= high):
        return KEPT
    if low is not None and high is not None:
        limit = f"{low} to {high}"
    elif low is not None:
        limit = f"at least {low}"
    else:
        limit = f"at most {high}"
    return Verdict(False, limit, _notes([q for q in (bound.min, bound.max) if q is not None], ruler))


def _notes(quantities, ruler: RulerFacts) -> str | None:
    """``Faria's stranger 10`` for each quantity that came from the ruler, joined."""
    notes = [note for note in (resolve_quantity(q, ruler)[1] for q in quantities) if note]
    return "; ".join(notes) or None
