"""How messages name things a user may type: each name quoted, several joined with "or"; and
the lines a message is about, as a span.

Card names hold commas ("Misty Isle, Island of the Mumu Tribe"), so a list of suggestions
joined by commas alone cannot be read back; every name is quoted instead.
"""

from __future__ import annotations

from collections.abc import Iterable


def quoted(name: str) -> str:
    """``'name'``, or ``"name"`` for a name that holds an apostrophe (``"Odin's Judgment"``)."""
    return f'"{name}"' if "'" in name and '"' not in name else f"'{name}'"


def either(names: Iterable[str]) -> str:
    """``'A'``, ``'A' or 'B'``, ``'A', 'B' or 'C'``."""
    shown = [quoted(n) for n in names]
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + " or " + shown[-1]


def did_you_mean(names: Iterable[str]) -> str:
    """``did you mean 'A', 'B' or 'C'?`` (empty when there is nothing to suggest)."""
    text = either(names)
    return f"did you mean {text}?" if text else ""


def close_names(written: str, names: Iterable[str], limit: int = 3, margin: float = 0.1) -> list[str]:
    """The names spelled most like ``written`` (any case), best first: those within ``margin`` of
    the best match's likeness, so a near-certain match stands alone (``ygo5ds`` -> ``ygo-5ds``,
    not ``ygo-edison`` too)."""
    import difflib

    folded = {name.casefold(): name for name in sorted(names, reverse=True)}
    key = written.casefold()
    scored = sorted(((difflib.SequenceMatcher(None, key, f).ratio(), f) for f in folded), key=lambda item: (-item[0], item[1]))
    scored = [(ratio, f) for ratio, f in scored if ratio >= 0.6]
    if not scored:
        return []
    best = scored[0][0]
    return [folded[f] for ratio, f in scored if ratio >= best - margin][:limit]


def line_span(lines: list[int]) -> str:
    """``line 4`` or ``lines 4-12``: the first to the last of the lines a message is about (a
    block of the list, its headers and blank lines within)."""
    if not lines:
        return ""
    low, high = min(lines), max(lines)
    return f"line {low}" if low == high else f"lines {low}-{high}"


def line_ranges(lines: list[int]) -> str:
    """``[3, 4, 5, 9, 12, 13]`` -> ``3-5, 9, 12-13``: each line named, a run of them as a range."""
    out: list[str] = []
    for number in sorted(set(lines)):
        if out and out[-1].split("-")[-1] == str(number - 1):
            out[-1] = f"{out[-1].split('-')[0]}-{number}"
        else:
            out.append(str(number))
    return ", ".join(out)


def lines_listed(lines: list[int]) -> str:
    """``line 4``, ``lines 4-6`` or ``lines 34, 44``: each line a message is about (lines
    scattered over a list: a range would name lines it is not about)."""
    if not lines:
        return ""
    ranges = line_ranges(lines)
    return f"line {ranges}" if ranges.isdigit() else f"lines {ranges}"
