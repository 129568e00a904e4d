"""Will costs and total cost (FoW Comprehensive Rules 204.5).

A cost such as ``{R}{R}{1}`` is a sequence of symbols: each will symbol (attribute or
characteristic such as moon ``{M}`` or time ``{T}``) needs one will, a number needs that
many, ``{X}`` counts 0 outside the chase (204.5b), and no cost at all is 0 (204.5a).
"""

from __future__ import annotations

import re

from forcecheck.lazyre import lazy

_SYMBOL = lazy(r"\{([^{}]*)\}")
_WELL_FORMED = lazy(r"(?:\{(?:[A-Za-z]|\d+)\})*")

ATTRIBUTE_SYMBOLS = {"W": "light", "R": "fire", "U": "water", "G": "wind", "B": "darkness"}
"""fowsim colour letters to attribute slugs; ``V`` (void) is no attribute."""


class CostError(ValueError):
    """A cost string that is not a sequence of ``{symbol}`` groups."""


def parse_cost(cost: str | None) -> tuple[str, ...]:
    """Split a cost into its symbols. Spaces between groups are tolerated; anything else is not."""
    if cost is None:
        return ()
    text = re.sub(r"\s+", "", str(cost))
    if text in ("", "0"):
        return ()
    if not _WELL_FORMED.fullmatch(text):
        raise CostError(f"malformed cost {cost!r}")
    return tuple(_SYMBOL.findall(text))


def total_cost(cost: str | None) -> int:
    """Total cost per CR 204.5 of a printed cost string."""
    total = 0
    for symbol in parse_cost(cost):
        if symbol.isdigit():
            total += int(symbol)
        elif symbol.upper() == "X":
            continue
        else:
            total += 1
    return total


def canonical_cost(cost: str | None) -> str:
    """The cost with spaces removed, e.g. ``{B} {B} {2}`` -> ``{B}{B}{2}``."""
    return "".join("{" + s + "}" for s in parse_cost(cost))
